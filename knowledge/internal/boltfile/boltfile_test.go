package boltfile_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// record is one record as a walk meets it: its bucket's path, key, and value (nil for a
// nested bucket).
type record struct {
	path, key, value string
	bucket           bool
}

// writeFile writes a bbolt file of nested buckets: small ones bbolt stores inline, big ones
// over branch pages with leaves, values that spill onto overflow pages, and a deleted
// bucket whose pages are free. It returns what bbolt itself reads back, in key order.
func writeFile(t testing.TB, path string) []record {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for i := range 4 {
			b, err := tx.CreateBucket(fmt.Appendf(nil, "bucket %d", i))
			if err != nil {
				return err
			}
			if err := b.Put([]byte("small"), []byte("inline")); err != nil {
				return err
			}
			if i%2 == 1 {
				continue // stays inline
			}
			big, err := b.CreateBucket([]byte("big/records"))
			if err != nil {
				return err
			}
			for j := range 600 {
				if err := big.Put(fmt.Appendf(nil, "key%05d", j), bytes.Repeat([]byte{byte(j)}, 40)); err != nil {
					return err
				}
			}
			if err := big.Put([]byte("wide"), bytes.Repeat([]byte("w"), 3*os.Getpagesize())); err != nil {
				return err
			}
		}
		_, err := tx.CreateBucket([]byte("gone"))
		return err
	})
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket([]byte("gone")) })
	}
	if err != nil {
		t.Fatal(err)
	}
	var want []record
	err = db.View(func(tx *bolt.Tx) error {
		var walk func(path string, b *bolt.Bucket) error
		walk = func(path string, b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				want = append(want, record{path, string(k), string(v), v == nil})
				if v == nil {
					return walk(path+"/"+boltfile.Printable(k), b.Bucket(k))
				}
				return nil
			})
		}
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			want = append(want, record{"root", string(name), "", true})
			return walk(boltfile.Printable(name), b)
		})
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// walkAll walks every bucket of d as Verify does, collecting the records.
func walkAll(d *boltfile.File, w *boltfile.Walker) []record {
	var got []record
	var walk func(path string, hdr []byte)
	walk = func(path string, hdr []byte) {
		w.WalkBucket(path, hdr, func(k, v []byte, bucket bool) {
			if !bucket {
				got = append(got, record{path, string(k), string(v), false})
				return
			}
			got = append(got, record{path, string(k), "", true})
			sub := boltfile.Printable(k)
			if path != "root" {
				sub = path + "/" + sub
			}
			walk(sub, v)
		})
	}
	walk("root", d.RootHeader())
	return got
}

// TestReadsWhatBboltWrote: the reader finds every record bbolt reads back, bucket by
// bucket in key order (inline buckets, branch pages, overflow pages), and Verify finds a
// sound file sound.
func TestReadsWhatBboltWrote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.db")
	want := writeFile(t, path)
	d, err := boltfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	w := boltfile.NewWalker(d, 0)
	got := walkAll(d, w)
	if p := w.Problems(); len(p) > 0 {
		t.Fatalf("walking a sound file: %q", p)
	}
	byPath := func(rs []record) map[string][]record {
		m := map[string][]record{}
		for _, r := range rs {
			m[r.path] = append(m[r.path], r)
		}
		return m
	}
	gotBy, wantBy := byPath(got), byPath(want)
	if len(gotBy) != len(wantBy) || len(got) != len(want) {
		t.Fatalf("walked %d records in %d buckets, bbolt reads %d in %d", len(got), len(gotBy), len(want), len(wantBy))
	}
	for p, ws := range wantBy {
		if !slices.Equal(gotBy[p], ws) {
			t.Errorf("bucket %s: walked %d records, bbolt reads %d, or in another order", p, len(gotBy[p]), len(ws))
		}
	}
	if p := boltfile.Verify(d, 0); len(p) > 0 {
		t.Errorf("Verify of a sound file: %q", p)
	}
	if d.Meta.TxID < 2 || d.Meta.Root < 2 || d.Meta.Root >= d.Meta.HWM {
		t.Errorf("meta record %+v: want the second transaction's, naming a root page below the high-water mark", d.Meta)
	}
}

// TestVerifyNamesTheDamage: a leaf page of a nested bucket zeroed is reported with the
// bucket's path and counted lost (at least one record: its header is gone), and every record
// of the other buckets still reads.
func TestVerifyNamesTheDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.db")
	want := writeFile(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := boltfile.Parse(data, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	// The big bucket of bucket 2 has a branch page for its root: zero its second child.
	big := bucketHeader(t, d, "bucket 2", "big/records")
	ps := uint64(os.Getpagesize())
	root := binary.NativeEndian.Uint64(big)
	h := boltfile.ReadHeader(data[root*ps:])
	_, _, _, child, err := boltfile.Element(h, data[root*ps:(root+1)*ps], 1)
	if err != nil || h.Count < 2 {
		t.Fatalf("bucket 2/big/records: root page %d (%d elements) is not a branch page: %v", root, h.Count, err)
	}
	clear(data[child*ps : (child+1)*ps])
	d, err = boltfile.Parse(data, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}

	// Names with a space or a slash are quoted in a path.
	bigPath := `"bucket 2"/"big/records"`
	problems := boltfile.Verify(d, 0)
	wantProblem := fmt.Sprintf(bigPath+": page %d: calls itself page 0 (overwritten)", child)
	if !slices.Contains(problems, wantProblem) {
		t.Errorf("Verify: %q, want %q among them", problems, wantProblem)
	}
	w := boltfile.NewWalker(d, 0)
	var lost []int
	w.OnBad = func(n int, exact bool) {
		if exact {
			t.Errorf("a zeroed page's loss counted exactly (%d)", n)
		}
		lost = append(lost, n)
	}
	got := walkAll(d, w)
	if !slices.Equal(lost, []int{1}) {
		t.Errorf("lost %v, want one page holding a record at least", lost)
	}
	for _, r := range want {
		if r.path != bigPath && !slices.Contains(got, r) {
			t.Errorf("record %s of %s is lost with a page of another bucket", r.key, r.path)
		}
	}
}

// bucketHeader is the header of the bucket at path, as the walk meets it.
func bucketHeader(t *testing.T, d *boltfile.File, path ...string) []byte {
	t.Helper()
	hdr := d.RootHeader()
	for _, name := range path {
		var next []byte
		boltfile.NewWalker(d, 0).WalkBucket(name, hdr, func(k, v []byte, bucket bool) {
			if bucket && string(k) == name {
				next = v
			}
		})
		if next == nil {
			t.Fatalf("no bucket %q in %v", name, path)
		}
		hdr = next
	}
	return hdr
}

// TestReadRefusesWhatIsNoFile: what has no usable meta record is refused with a sentence,
// and a file cut short reads up to where it stops, saying so.
func TestReadRefusesWhatIsNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.db")
	writeFile(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ps := os.Getpagesize()
	for _, tc := range []struct {
		name   string
		data   []byte
		noFile bool
		want   string
	}{
		{"text", []byte(strings.Repeat("not a bbolt file\n", 1000)), true, "both meta pages are unreadable"},
		{"one page", data[:ps], true, "shorter than its two meta pages"},
		{"cut in half", data[:len(data)/2/ps*ps], false, "file is truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			d, err := boltfile.Read(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || (d == nil) != tc.noFile {
				t.Fatalf("Read: %v (file %v), want an error saying %q (no file: %v)", err, d != nil, tc.want, tc.noFile)
			}
			if d != nil && len(boltfile.Verify(d, 0)) == 0 {
				t.Error("Verify of a file cut in half finds nothing")
			}
		})
	}
	if !boltfile.LooksLikeBolt(data, int64(ps)) || boltfile.LooksLikeBolt([]byte(strings.Repeat("x", 3*ps)), int64(ps)) {
		t.Error("LooksLikeBolt does not tell a bbolt file from text")
	}
}

// FuzzVerify: no damage to a file makes Parse, Verify or a walk panic.
func FuzzVerify(f *testing.F) {
	path := filepath.Join(f.TempDir(), "k.db")
	writeFile(f, path)
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	ps := os.Getpagesize()
	f.Add(uint32(len(data)), uint32(0), byte(0))
	f.Add(uint32(len(data)), uint32(2*ps+10), byte(0x80)) // a page's element count
	f.Add(uint32(len(data)), uint32(3*ps+12), byte(0x40)) // a page's overflow count
	f.Add(uint32(len(data)), uint32(4*ps+16+8), byte(1))  // a branch element's child
	f.Add(uint32(len(data)/2), uint32(ps+20), byte(0xFF)) // a meta record, cut in half
	f.Fuzz(func(t *testing.T, size, at uint32, x byte) {
		b := slices.Clone(data)
		b[int(at)%len(b)] ^= x
		b = b[:min(int(size), len(b))]
		d, _ := boltfile.Parse(b, int64(len(b)))
		if d == nil {
			return
		}
		boltfile.Verify(d, 20)
		walkAll(d, boltfile.NewWalker(d, 0))
	})
}
