package knowledge

import (
	"bytes"
	"errors"
	bolt "go.etcd.io/bbolt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tally counts a store's records by kind.
func tally(t *testing.T, s *Store) map[string]int {
	t.Helper()
	apps, err := s.ListApps()
	if err != nil {
		t.Fatal(err)
	}
	summaries, err := s.Apps()
	if err != nil {
		t.Fatal(err)
	}
	tricks, err := s.Tricks("", "")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := s.Runs(0)
	if err != nil {
		t.Fatal(err)
	}
	routines, err := s.Routines("")
	if err != nil {
		t.Fatal(err)
	}
	var readings []readingRecord
	if err := s.view(func(tx *bolt.Tx) error { var err error; readings, err = listReadings(tx); return err }); err != nil {
		t.Fatal(err)
	}
	var thumbs []thumbRecord
	if err := s.view(func(tx *bolt.Tx) error { var err error; thumbs, err = listThumbs(tx); return err }); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{kindApps: len(apps), kindPages: 0, kindTransitions: 0, kindTricks: len(tricks), kindRuns: len(runs),
		kindRoutines: len(routines), kindReadings: len(readings), kindThumbs: len(thumbs)}
	for _, a := range summaries {
		n[kindPages] += a.Pages
		n[kindTransitions] += a.Transitions
	}
	return n
}

// reported turns a report into saved and lost counts by kind, and damaged pages.
func reported(rep RepairReport) (saved, lost map[string]int, lostPages int) {
	saved, lost = map[string]int{}, map[string]int{}
	for _, k := range rep.Kinds {
		saved[k.Kind], lost[k.Kind] = k.Saved, k.Lost
		lostPages += k.LostPages
	}
	return saved, lost, lostPages
}

// openRepaired opens a repaired file and checks it is sound.
func openRepaired(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("the repaired file does not open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Check(); err != nil {
		t.Fatalf("the repaired file is not sound: %v", err)
	}
	return s
}

// TestRepairSoundFile: repairing a sound file copies everything, verbatim: the export of
// the copy is the export of the original, page and trick IDs included, and new IDs do not
// collide with old ones.
func TestRepairSoundFile(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "k.db"), filepath.Join(dir, "repaired.db")
	if err := os.WriteFile(src, realisticFile(t), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Repair(src, dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	orig, err := Open(src, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	want := tally(t, orig)
	saved, lost, lostPages := reported(rep)
	if !cmp.Equal(saved, want) || lostPages != 0 || len(rep.Problems) != 0 {
		t.Fatalf("saved %v (lost %v, %d pages, %v), want %v", saved, lost, lostPages, rep.Problems, want)
	}
	for k, n := range lost {
		if n != 0 {
			t.Errorf("lost %d %s from a sound file", n, k)
		}
	}
	copyOf := openRepaired(t, dst)
	a, _ := exportDoc(t, orig)
	b, _ := exportDoc(t, copyOf)
	if d := cmp.Diff(a, b); d != "" {
		t.Fatalf("the repaired copy differs (-original +copy):\n%s", d)
	}
	tr, err := copyOf.AddTrick(Trick{App: "com.example.app1", Kind: KindAction, Text: "a new trick after repair"})
	if err != nil || tr.ID != "t78" {
		t.Fatalf("new trick %q, %v; want t78, after the original's t77", tr.ID, err)
	}
	p, err := copyOf.RecordPage("com.example.app1", Page{Activity: ".New", Signature: "n"})
	if err != nil || p.ID != "p26" {
		t.Fatalf("new page %q, %v; want p26", p.ID, err)
	}
}

// TestRepairDamagedFiles repairs each damaged copy of TestOpenDamagedFile: the original is
// left as it was, the copy is sound, and the report adds up — for the damages whose loss
// is known, exactly.
func TestRepairDamagedFiles(t *testing.T) {
	sound := filepath.Join(t.TempDir(), "sound.db")
	if err := os.WriteFile(sound, realisticFile(t), 0o600); err != nil {
		t.Fatal(err)
	}
	orig, err := Open(sound, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	total := tally(t, orig)
	app3Tricks, _ := orig.Tricks("com.example.app3", "")
	orig.Close()
	// exact: what a damage loses, where that is known: records missing from the copy,
	// those of them the report counts as lost (the others were on lost pages), lost pages.
	type loss struct {
		missing, lost map[string]int
		lostPages     int
	}
	exact := map[string]loss{
		"zeroed leaf page of tricks":        {missing: map[string]int{kindTricks: len(app3Tricks)}, lost: map[string]int{kindTricks: len(app3Tricks)}, lostPages: 1},
		"zeroed branch page of transitions": {missing: map[string]int{kindTransitions: 48}, lostPages: 1}, // uncounted: its header is gone
		"zeroed freelist page":              {},
		"freelist lists a page in use":      {},
	}
	for _, dm := range damages(t) {
		if dm.name == "random garbage file" {
			continue
		}
		t.Run(dm.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "k.db"), filepath.Join(dir, "repaired.db")
			damaged := dm.do(t, realisticFile(t))
			if err := os.WriteFile(src, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			rep, err := Repair(src, dst, Options{})
			if b, rerr := os.ReadFile(src); rerr != nil || !bytes.Equal(b, damaged) {
				t.Fatalf("Repair changed the damaged file (%v)", rerr)
			}
			if dm.unreadable {
				var de *DamageError
				if !errors.As(err, &de) || !de.Unreadable || !strings.Contains(err.Error(), "nothing can be saved") {
					t.Fatalf("Repair = %v, want an unreadable *DamageError", err)
				}
				if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("a failed repair left %s (%v)", dst, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := tally(t, openRepaired(t, dst))
			saved, lost, lostPages := reported(rep)
			t.Logf("saved %v, lost %v and %d pages; %s", saved, lost, lostPages, strings.Join(rep.Problems, "; "))
			if !cmp.Equal(got, saved) {
				t.Fatalf("the copy holds %v, the report says %v were saved", got, saved)
			}
			for k, n := range total {
				// With a meta page lost, the other may hold the state before the last change.
				if saved[k] > n && !strings.HasPrefix(dm.name, "overwritten meta page") {
					t.Errorf("saved %d %s of %d", saved[k], k, n)
				}
			}
			// Every record is counted: saved and lost add up to what the file held, or
			// the report says that some could not be counted, and never claims more.
			for _, c := range rep.Kinds {
				if strings.HasPrefix(dm.name, "overwritten meta page") {
					break
				}
				switch n := total[c.Kind]; {
				case !c.Uncounted && c.Saved+c.Lost != n:
					t.Errorf("%s: %d saved and %d lost of %d, and the report says all were counted", c.Kind, c.Saved, c.Lost, n)
				case c.Uncounted && c.Saved+c.Lost > n:
					t.Errorf("%s: %d saved and at least %d lost of %d", c.Kind, c.Saved, c.Lost, n)
				}
			}
			if want, ok := exact[dm.name]; ok {
				for k, n := range total {
					if saved[k] != n-want.missing[k] || lost[k] != want.lost[k] {
						t.Errorf("%s: saved %d, lost %d; want %d and %d", k, saved[k], lost[k], n-want.missing[k], want.lost[k])
					}
				}
				if lostPages != want.lostPages {
					t.Errorf("%d lost pages, want %d", lostPages, want.lostPages)
				}
			}
			if len(rep.Problems) == 0 {
				t.Error("no problem reported")
			}
		})
	}
}

// TestRepairRefusesExistingOut: Repair never overwrites a file, the damaged one included.
func TestRepairRefusesExistingOut(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "k.db"), filepath.Join(dir, "there.db")
	if err := os.WriteFile(src, realisticFile(t), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{dst, src} {
		if _, err := Repair(src, out, Options{}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "already exists") {
			t.Fatalf("Repair onto %s = %v, want ErrInvalid", out, err)
		}
	}
	if b, _ := os.ReadFile(dst); string(b) != "keep me" {
		t.Fatalf("%s was overwritten", dst)
	}
}
