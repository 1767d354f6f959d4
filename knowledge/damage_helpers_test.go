package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Helpers of the damage tests: a realistic knowledge file, and reading everything in one.

// realisticApps is how many apps writeRealistic maps.
const realisticApps = 6

// writeRealistic writes, through the package's own API, a knowledge file like one a few
// weeks of use leave: app metadata, an App Map per app (pages with elements, transitions
// with failures), tricks of every kind per app and common ones, and run summaries. Its
// buckets are several pages deep, and it has seen deletions, so its freelist is not empty.
func writeRealistic(tb testing.TB, path string) {
	tb.Helper()
	s, err := Open(path, Options{Clock: fakeClock()})
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	for a := range realisticApps {
		app := fmt.Sprintf("com.example.app%d", a)
		err := s.Update(func(tx *Tx) error {
			if _, err := tx.PutApp(App{Package: app, Label: fmt.Sprintf("App %d", a), LauncherActivity: ".Main",
				Description: fmt.Sprintf("Example app %d: lists, settings and a search page.", a)}); err != nil {
				return err
			}
			key := func(i int) string { return fmt.Sprintf(".Screen%d#%08x", i%7, i*2654435761) }
			for i := range 25 {
				if _, err := tx.RecordPage(app, Page{Key: key(i), Activity: fmt.Sprintf(".Screen%d", i%7), Signature: fmt.Sprintf("%08x", i*2654435761),
					Description: fmt.Sprintf("Screen %d: a list of items with a search bar", i),
					Elements: []Element{{ResourceID: app + ":id/title", Text: fmt.Sprintf("Item %d", i), Class: "android.widget.TextView"},
						{ResourceID: app + ":id/search", Desc: "Search", Class: "android.widget.ImageButton"}}}); err != nil {
					return err
				}
			}
			for i := 1; i < 25; i++ {
				tap := Action{Kind: ActionTap, Target: Element{ResourceID: app + ":id/row", Text: fmt.Sprintf("Item %d", i)}}
				if _, err := tx.RecordTransition(app, Transition{From: key((i - 1) / 2), To: key(i), Action: tap}, i%5 != 0); err != nil {
					return err
				}
				if _, err := tx.RecordTransition(app, Transition{From: key(i), To: key((i - 1) / 2), Action: Action{Kind: ActionBack}}, true); err != nil {
					return err
				}
			}
			for i := range 12 {
				if _, err := tx.AddTrick(Trick{App: app, Kind: Kinds()[i%3], Text: fmt.Sprintf("In app %d, tip %d: open the menu, then tap Settings and scroll to item %d.", a, i, i),
					Provenance: Provenance{Instruction: fmt.Sprintf("change setting %d", i), RunID: fmt.Sprintf("r%d", a), Outcome: "success"}}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	for a := range realisticApps {
		app := fmt.Sprintf("com.example.app%d", a)
		err := s.Update(func(tx *Tx) error {
			for i := range 2 {
				r := Routine{App: app, Name: fmt.Sprintf("Open item {1} from list %d", i), Runs: 1,
					Params: []RoutineParam{{What: "the row tapped on page Screen1", Example: "Item 3"}},
					Steps: []RoutineStep{{Activity: ".Screen0", Signature: "00000000", Action: Action{Kind: ActionTap, Target: Element{Text: fmt.Sprintf("List %d", i)}}},
						{Activity: ".Screen1", Signature: "9e3779b1", Action: Action{Kind: ActionTap, Target: Element{ResourceID: app + ":id/row", Text: "{1}"}}}}}
				if _, err := tx.PutRoutine(r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		for i := range 3 {
			if err := s.PutReading(app, ReadingKey("task", fmt.Sprintf("sig%d", i), "text"), []Fact{{Key: "price", Value: fmt.Sprintf("¥%d", i)}}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	for i := range 5 {
		if _, err := s.AddTrick(Trick{App: Common, Kind: KindRecovery, Text: fmt.Sprintf("If dialog %d appears, tap Allow only while using the app.", i)}); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range 20 {
		if err := s.PutRun(Run{ID: fmt.Sprintf("r%02d", i), Instruction: fmt.Sprintf("task %d", i), Apps: []string{"com.example.app1"},
			Outcome: "success", Steps: i, ModelCalls: 2 * i, Duration: time.Duration(i) * time.Second}); err != nil {
			tb.Fatal(err)
		}
	}
	// Deleting frees pages.
	for _, id := range []string{"t3", "t20", "t41"} {
		if err := s.DeleteTrick(id); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Check(); err != nil {
		tb.Fatalf("the realistic file is not sound: %v", err)
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
}

// realisticFile returns the bytes of a realistic knowledge file, written once per test binary.
var realisticFile = func() func(tb testing.TB) []byte {
	var data []byte
	return func(tb testing.TB) []byte {
		tb.Helper()
		if data == nil {
			path := filepath.Join(tb.TempDir(), "realistic.db")
			writeRealistic(tb, path)
			b, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			data = b
		}
		return bytes.Clone(data)
	}
}()

// readEverything reads every kind of record through every reader of the store, checks it,
// and (unless read-only) writes one trick; it returns the first error.
func readEverything(s *Store) error {
	apps, err := s.Apps()
	if err != nil {
		return err
	}
	if _, err := s.ListApps(); err != nil {
		return err
	}
	for _, a := range apps {
		if _, err := s.GetApp(a.Package); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		m, err := s.Map(a.Package)
		if err != nil {
			return err
		}
		if len(m.Pages) > 1 {
			if _, err := s.Path(a.Package, m.Pages[0].Key, m.Pages[len(m.Pages)-1].Key); err != nil && !errors.Is(err, ErrNoPath) {
				return err
			}
		}
		if _, err := s.Search(a.Package, "", "open the menu settings", 5); err != nil {
			return err
		}
	}
	tricks, err := s.Tricks("", "")
	if err != nil {
		return err
	}
	for _, t := range tricks {
		if _, err := s.Trick(t.ID); err != nil {
			return err
		}
	}
	if _, err := s.Runs(0); err != nil {
		return err
	}
	if err := s.Export(io.Discard); err != nil {
		return err
	}
	if err := s.Check(); err != nil {
		return err
	}
	if s.opts.ReadOnly {
		return nil
	}
	_, err = s.AddTrick(Trick{App: "com.example.app1", Kind: KindAction, Text: "written after reading everything"})
	return err
}
