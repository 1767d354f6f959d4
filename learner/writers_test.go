package learner

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
)

// TestTwoLearnersAtOnce: two learners, each with its own store on one knowledge file (as
// two fairy runs have), learn from the same task at the same time; the file stays sound and
// every visit and transition of both is counted.
func TestTwoLearnersAtOnce(t *testing.T) {
	const rounds = 4
	path := filepath.Join(t.TempDir(), "knowledge.db")
	var wg sync.WaitGroup
	errs := make(chan error, 2*rounds)
	for range 2 {
		st := openStore(t, path)
		l := newLearner(t, st, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				s := l.Start("", "")
				settingsRun(t, s, event.OutcomeDone)
				errs <- s.Err()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a learner's writes: %v", err)
		}
	}
	st := openStore(t, path)
	if err := st.Check(); err != nil {
		t.Fatalf("the file after two learners at once: %v", err)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Transitions) != 7 || len(m.Pages) != 3 {
		t.Fatalf("%d transitions, %d pages; want the 7 and 3 of one run", len(m.Transitions), len(m.Pages))
	}
	for _, tr := range m.Transitions {
		if tr.Successes != 2*rounds {
			t.Errorf("transition %s → %s (%s): %d successes, want %d", tr.From, tr.To, tr.Action.Kind, tr.Successes, 2*rounds)
		}
	}
	// One run visits the main page twice, the display page three times.
	want := map[string]int{".Main#s-main": 2 * 2 * rounds, ".Display#s-display": 3 * 2 * rounds, ".Search#s-search": 2 * rounds}
	for _, p := range m.Pages {
		if p.Visits != want[p.Key] {
			t.Errorf("page %s: %d visits, want %d", p.Key, p.Visits, want[p.Key])
		}
	}
}
