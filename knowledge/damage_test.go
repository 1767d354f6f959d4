package knowledge

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// le writes bbolt's integers, in the machine's byte order, into a page to damage it.
var le = binary.NativeEndian

// pageOf returns the root page of the bucket at path (e.g. "tricks", "com.example.app1") in
// the realistic file, and its type ("leaf" or "branch"), asking bbolt on a sound copy.
func pageOf(t *testing.T, data []byte, path ...string) (id uint64, typ string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "sound.db")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(file, 0o600, nil) // writable: Tx.Page needs the freelist
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(path[0]))
		for _, p := range path[1:] {
			b = b.Bucket([]byte(p))
		}
		id = uint64(b.Root())
		info, err := tx.Page(int(id))
		if err != nil {
			return err
		}
		typ = info.Type
		return nil
	})
	if err != nil || id == 0 {
		t.Fatalf("page of %v: %d, %v", path, id, err)
	}
	return id, typ
}

// damage is one way to damage the realistic file.
type damage struct {
	name string
	do   func(t *testing.T, data []byte) []byte
	// unreadable: even the meta pages are gone.
	unreadable bool
}

func zeroPage(id uint64) func(*testing.T, []byte) []byte {
	return func(_ *testing.T, b []byte) []byte {
		ps := uint64(os.Getpagesize())
		clear(b[id*ps : (id+1)*ps])
		return b
	}
}

func zeroBucketRoot(path ...string) func(*testing.T, []byte) []byte {
	return func(t *testing.T, b []byte) []byte {
		id, _ := pageOf(t, b, path...)
		return zeroPage(id)(t, b)
	}
}

func truncate(n int) func(*testing.T, []byte) []byte {
	return func(_ *testing.T, b []byte) []byte {
		if n < 0 {
			n += len(b)
		}
		return b[:n]
	}
}

// damages are the specific damages of TestOpenDamagedFile: truncations, zeroed pages of
// each kind, overwritten meta pages, garbage, and hand-made inconsistencies.
func damages(t *testing.T) []damage {
	ps := os.Getpagesize()
	data := realisticFile(t)
	d, err := boltfile.Parse(data, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	header := func(id uint64) []byte { return data[id*uint64(ps):] }
	if _, typ := pageOf(t, data, "maps", "com.example.app2", "trans"); typ != "branch" {
		t.Fatalf("the realistic file's transitions bucket is a %s page, want a branch page: make the file bigger", typ)
	}
	return []damage{
		{name: "truncated to 100 bytes", do: truncate(100), unreadable: true},
		{name: "truncated to one page", do: truncate(ps), unreadable: true},
		{name: "truncated to the meta pages", do: truncate(2 * ps)},
		{name: "truncated mid-page", do: truncate(7*ps + 123)},
		{name: "truncated to half", do: truncate(len(data) / 2)},
		{name: "truncated by one page in use", do: truncate(int(d.Meta.HWM-1) * ps)},
		{name: "truncated by one byte in use", do: truncate(int(d.Meta.HWM)*ps - 1)},
		{name: "zeroed leaf page of tricks", do: zeroBucketRoot("tricks", "com.example.app3")},
		{name: "zeroed branch page of transitions", do: zeroBucketRoot("maps", "com.example.app2", "trans")},
		{name: "zeroed maps bucket page", do: zeroBucketRoot("maps")},
		{name: "zeroed root page", do: zeroPage(d.Meta.Root)},
		{name: "zeroed freelist page", do: zeroPage(d.Meta.Freelist)},
		{name: "overwritten meta pages", do: func(_ *testing.T, b []byte) []byte { clear(b[:2*ps]); return b }, unreadable: true},
		{name: "overwritten meta page 0", do: zeroPage(0)},
		{name: "overwritten meta page 1", do: zeroPage(1)},
		{name: "meta pages overwritten with text", do: func(_ *testing.T, b []byte) []byte {
			copy(b, strings.Repeat("overwritten by a careless copy ", 2*ps/31+1)[:2*ps])
			return b
		}, unreadable: true},
		{name: "random garbage over pages 10 to 30", do: func(_ *testing.T, b []byte) []byte {
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 10 * ps; i < 30*ps; i++ {
				b[i] = byte(rng.Uint32())
			}
			return b
		}},
		{name: "page calls itself another page", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "runs")
			le.PutUint64(b[id*uint64(ps):], id+1)
			return b
		}},
		{name: "page with a huge overflow count", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "tricks", "common")
			le.PutUint32(b[id*uint64(ps)+12:], 1<<31)
			return b
		}},
		{name: "leaf element past the page end", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "apps")
			le.PutUint32(b[id*uint64(ps)+boltfile.PageHeaderSize+4:], uint32(ps)) // element 0's pos
			return b
		}},
		{name: "branch page points at itself", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "maps", "com.example.app2", "trans")
			le.PutUint64(b[id*uint64(ps)+boltfile.PageHeaderSize+8:], id) // element 0's child
			return b
		}},
		{name: "branch page points past the file", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "maps", "com.example.app2", "trans")
			le.PutUint64(b[id*uint64(ps)+boltfile.PageHeaderSize+8:], 1<<40)
			return b
		}},
		{name: "keys out of order", do: func(_ *testing.T, b []byte) []byte {
			id, _ := pageOf(t, b, "runs")
			h := boltfile.ReadHeader(header(id))
			_, k, _, _, err := boltfile.Element(h, b[id*uint64(ps):(id+1)*uint64(ps)], 1)
			if err != nil {
				t.Fatal(err)
			}
			k[0] = 0 // the second key now sorts first
			return b
		}},
		{name: "freelist lists a page in use", do: func(_ *testing.T, b []byte) []byte {
			fl := b[d.Meta.Freelist*uint64(ps):]
			if boltfile.ReadHeader(fl).Count == 0 {
				t.Fatal("the realistic file has an empty freelist")
			}
			le.PutUint64(fl[boltfile.PageHeaderSize:], d.Meta.Root)
			return b
		}},
		{name: "random garbage file", do: func(_ *testing.T, b []byte) []byte {
			rng := rand.New(rand.NewPCG(3, 4))
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		}, unreadable: true},
	}
}

// TestOpenDamagedFile opens damaged copies of a realistic knowledge file, for writing and
// read-only: each is reported as damaged, with the file and what to do, and never panics.
// Without the verification at Open, bbolt panics or faults on most of them.
func TestOpenDamagedFile(t *testing.T) {
	for _, dm := range damages(t) {
		t.Run(dm.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "knowledge.db")
			if err := os.WriteFile(path, dm.do(t, realisticFile(t)), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				s, err := Open(path, Options{ReadOnly: ro})
				if err == nil {
					err = readEverything(s)
					s.Close()
				}
				if dm.name == "random garbage file" {
					if !errors.Is(err, ErrNotKnowledge) {
						t.Fatalf("read-only %v: %v, want ErrNotKnowledge", ro, err)
					}
					continue
				}
				var de *DamageError
				if !errors.As(err, &de) || !errors.Is(err, ErrDamaged) {
					t.Fatalf("read-only %v: %v, want a *DamageError", ro, err)
				}
				want := "fairy knowledge repair " + path + " --out NEW"
				if dm.unreadable {
					want = "damaged beyond reading"
				}
				if de.File != path || de.Unreadable != dm.unreadable || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
					t.Fatalf("read-only %v: %v (unreadable %v), want it to name the file and say %q", ro, err, de.Unreadable, want)
				}
				t.Logf("%v", err)
			}
			if b, err := os.ReadFile(path); err != nil || string(b) != string(dm.do(t, realisticFile(t))) {
				t.Errorf("opening the damaged file changed it (%v)", err)
			}
		})
	}
}

// TestOpenSoundCopies: what must not be reported as damage — the realistic file, a meta
// page with a bad checksum (a write torn by a crash: bbolt uses the other one), a free page
// overwritten, and the unused pages past the last page in use cut off.
func TestOpenSoundCopies(t *testing.T) {
	ps := os.Getpagesize()
	data := realisticFile(t)
	d, err := boltfile.Parse(data, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	freePage := uint64(0)
	fl := data[d.Meta.Freelist*uint64(ps):]
	if boltfile.ReadHeader(fl).Count > 0 {
		freePage = le.Uint64(fl[boltfile.PageHeaderSize:])
	}
	if freePage == 0 {
		t.Fatal("the realistic file has no free page")
	}
	for _, tt := range []struct {
		name string
		do   func(*testing.T, []byte) []byte
	}{
		{"sound", func(_ *testing.T, b []byte) []byte { return b }},
		{"meta page 0 torn by a crash", func(_ *testing.T, b []byte) []byte { b[boltfile.PageHeaderSize+50] ^= 0xff; return b }},
		{"meta page 1 torn by a crash", func(_ *testing.T, b []byte) []byte { b[ps+boltfile.PageHeaderSize+50] ^= 0xff; return b }},
		{"free page overwritten", zeroPage(freePage)},
		{"unused tail cut off", truncate(int(d.Meta.HWM) * ps)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.do(t, realisticFile(t))
			path := filepath.Join(t.TempDir(), "knowledge.db")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := readEverything(s); err != nil {
				t.Fatal(err)
			}
			tricks, err := s.Tricks("", "")
			if err != nil || len(tricks) < realisticApps*12 {
				t.Fatalf("%d tricks, %v", len(tricks), err)
			}
		})
	}
}

// TestOpenEmptyAndForeignFiles: an empty file is a new knowledge file when opened for
// writing and not a knowledge file read-only; a text file is not a knowledge file.
func TestOpenEmptyAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(text, []byte("shopping list: milk, eggs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(empty, Options{ReadOnly: true}); !errors.Is(err, ErrNotKnowledge) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("read-only empty file: %v, want ErrNotKnowledge saying it is empty", err)
	}
	for _, ro := range []bool{false, true} {
		if _, err := Open(text, Options{ReadOnly: ro}); !errors.Is(err, ErrNotKnowledge) || errors.Is(err, ErrDamaged) {
			t.Fatalf("text file (read-only %v): %v, want ErrNotKnowledge", ro, err)
		}
	}
	s, err := Open(empty, Options{})
	if err != nil {
		t.Fatalf("empty file for writing: %v", err)
	}
	defer s.Close()
	if err := readEverything(s); err != nil {
		t.Fatal(err)
	}
}

// TestDamageWhileOpen damages the file under an open store: a page overwritten, then the
// file cut short. bbolt's panic and its memory fault reading past the end of the file
// become a *DamageError, and the store stops writing.
func TestDamageWhileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	data := realisticFile(t)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ps := int64(os.Getpagesize())
	id, _ := pageOf(t, data, "tricks", "com.example.app3")
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, ps), int64(id)*ps); err != nil {
		t.Fatal(err)
	}
	_, err = s.Tricks("com.example.app3", "")
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "fairy knowledge repair") {
		t.Fatalf("reading a page overwritten while open: %v, want ErrDamaged", err)
	}
	if _, err := s.AddTrick(Trick{App: "com.example.app1", Kind: KindAction, Text: "tap"}); !errors.Is(err, ErrDamaged) {
		t.Fatalf("writing after damage: %v, want ErrDamaged", err)
	}
	if err := f.Truncate(3 * ps); err != nil {
		t.Fatal(err)
	}
	for _, read := range []func() error{
		func() error { _, err := s.Runs(0); return err },
		func() error { _, err := s.Map("com.example.app5"); return err },
	} {
		if err := read(); !errors.Is(err, ErrDamaged) {
			t.Fatalf("reading a file cut short while open: %v, want ErrDamaged", err)
		}
	}
}

// TestCheckFindsDisagreeingRecords: records that decode but disagree — the trick index
// and the tricks, a transition and its pages — are damage that Check reports, one by one.
func TestCheckFindsDisagreeingRecords(t *testing.T) {
	s, path := openTemp(t, Options{})
	if err := s.Check(); err != nil {
		t.Fatalf("a new file: %v", err)
	}
	fill(t, s)
	if err := s.Check(); err != nil {
		t.Fatalf("a filled file: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketTrickIDs).Put([]byte("t99"), []byte(chat)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketTrickIDs).Delete([]byte("t1")); err != nil {
			return err
		}
		pages := appBucket(tx, chat).Bucket(bucketPages)
		return pages.Delete([]byte(PageKey(".Compose", "s2")))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the structure is sound, Open must work: %v", err)
	}
	defer s.Close()
	err = s.Check()
	var de *DamageError
	if !errors.As(err, &de) {
		t.Fatalf("Check: %v, want a *DamageError", err)
	}
	got := strings.Join(de.Problems, "\n")
	for _, want := range []string{`trick index entry "t99" points at a missing trick`, `trick "t1" of`, "is missing from the trick index", "refers to a missing page"} {
		if !strings.Contains(got, want) {
			t.Errorf("Check's problems lack %q:\n%s", want, got)
		}
	}
}
