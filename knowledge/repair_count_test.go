package knowledge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// pictureFile writes a knowledge file with an App Map of 39 pages, each with its picture,
// as `fairy map view` leaves one: the thumbnails' bucket is a branch page over leaves.
func pictureFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "k.db")
	s, err := Open(path, Options{Clock: fakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	const app = "com.example.pictures"
	jpeg := append([]byte{0xff, 0xd8, 0xff, 0xe0}, bytes.Repeat([]byte("picture "), 180)...)
	err = s.Update(func(tx *Tx) error {
		for i := range 39 {
			p, err := tx.RecordPage(app, Page{Activity: fmt.Sprintf(".Screen%d", i), Signature: fmt.Sprintf("%04x", i)})
			if err != nil {
				return err
			}
			if err := tx.PutThumb(app, p.Key, Thumb{JPEG: jpeg}); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// thumbLeaf returns a leaf page of the pictures' bucket that its branch page names after
// the first.
func thumbLeaf(t *testing.T, data []byte) uint64 {
	t.Helper()
	id, typ := pageOf(t, data, "thumbs", "com.example.pictures")
	if typ != "branch" {
		t.Fatalf("the thumbnails' bucket is a %s page, want a branch page: make the file bigger", typ)
	}
	ps := uint64(os.Getpagesize())
	page := data[id*ps : (id+1)*ps]
	_, _, _, child, err := boltfile.Element(boltfile.ReadHeader(page), page, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := boltfile.ReadHeader(data[child*ps:]).Count; n < 2 {
		t.Fatalf("leaf page %d holds %d pictures, want several", child, n)
	}
	return child
}

// TestRepairCountsEveryPicture: of 39 page pictures, what a repair saves and what it
// loses add up to 39 when the damage leaves their count readable; when it does not (a
// page zeroed, the file cut in half), the report says the loss is uncounted, and never
// reports it as none.
func TestRepairCountsEveryPicture(t *testing.T) {
	ps := os.Getpagesize()
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, b []byte) []byte
		exact  bool // the loss can be counted
	}{
		{"element of a leaf past its end", func(t *testing.T, b []byte) []byte {
			id := thumbLeaf(t, b)
			le.PutUint32(b[id*uint64(ps)+boltfile.PageHeaderSize+4:], uint32(ps)) // element 0's pos
			return b
		}, true},
		{"leaf overwritten by another page", func(t *testing.T, b []byte) []byte {
			id := thumbLeaf(t, b)
			le.PutUint32(b[id*uint64(ps)+12:], 1<<30) // an overflow past the file; the count still reads
			return b
		}, true},
		{"leaf zeroed", func(t *testing.T, b []byte) []byte { return zeroPage(thumbLeaf(t, b))(t, b) }, false},
		{"truncated to half", func(_ *testing.T, b []byte) []byte { return b[:len(b)/2] }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "k.db"), filepath.Join(dir, "repaired.db")
			if err := os.WriteFile(src, tc.damage(t, pictureFile(t)), 0o600); err != nil {
				t.Fatal(err)
			}
			rep, err := Repair(src, dst, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var c RepairCount
			for _, k := range rep.Kinds {
				if k.Kind == kindThumbs {
					c = k
				}
			}
			t.Logf("pictures: %+v; %v", c, rep.Problems)
			switch {
			case c.Saved+c.Lost > 39:
				t.Errorf("%d saved and %d lost of 39 pictures", c.Saved, c.Lost)
			case tc.exact && (c.Uncounted || c.Saved+c.Lost != 39):
				t.Errorf("%d saved and %d lost (uncounted %v) of 39 pictures: want every one counted", c.Saved, c.Lost, c.Uncounted)
			case !tc.exact && c.Saved < 39 && !c.Uncounted:
				t.Errorf("%d saved and %d lost of 39 pictures, and the report says that is all", c.Saved, c.Lost)
			case tc.name == "leaf zeroed" && c.Lost < 1:
				t.Errorf("a leaf its branch names was lost, and the report counts %d pictures lost", c.Lost)
			}
		})
	}
}
