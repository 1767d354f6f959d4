package replay

import (
	"testing"

	"github.com/fairy-go/fairy/event"
)

// TestLedgerRoutines: a routine that met a surprise, could not run or ran whole is not
// offered again in the task; one held for consent or paused for a choice goes on at the
// step it stopped before; at most three are offered.
func TestLedgerRoutines(t *testing.T) {
	var l Ledger
	all := []Offer{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}, {ID: "e"}}
	if got := l.Offers(all); len(got) != 3 || got[0].ID != "a" || got[2].ID != "c" {
		t.Fatalf("Offers = %+v, want the first three", got)
	}
	if at := l.ResumeAt("a"); at != -1 {
		t.Errorf("ResumeAt of a routine never run = %d, want -1", at)
	}
	l.Ran("a", Run{From: 1}, 2, "step 3 of 4: a page it does not know", false) // surprise
	l.Ran("b", Run{From: 0}, 4, "", false)                                     // ran whole
	l.Drop("c")                                                                // cannot run here
	l.Ran("d", Run{From: 2}, 1, "step 2 of 3: needs consent", true)            // held
	l.Ran("e", Run{From: 0, Pause: "step 3 of 5 needs the person's choice"}, 2, "", false)
	got := l.Offers(all)
	if len(got) != 2 || got[0].ID != "d" || got[1].ID != "e" {
		t.Fatalf("Offers after the replays = %+v, want d and e", got)
	}
	if at := l.ResumeAt("d"); at != 3 {
		t.Errorf("held routine goes on at %d, want 3", at)
	}
	if at := l.ResumeAt("e"); at != 2 {
		t.Errorf("paused routine goes on at %d, want 2", at)
	}
	l.Ran("e", Run{From: 2}, 3, "", false)
	if at := l.ResumeAt("e"); at != -1 || len(l.Offers(all)) != 1 {
		t.Errorf("a resumed routine that ran whole: ResumeAt %d, offers %+v; want neither", at, l.Offers(all))
	}
}

// TestLedgerNavigate: a Navigate whose replays stopped short twice is retired, with its
// hints; a page where no path could be replayed gets no more hints.
func TestLedgerNavigate(t *testing.T) {
	var l Ledger
	hint := "… the Action Decider's " + event.Action{Type: event.Navigate, Target: "p3"}.String() + " replays it"
	l.NavStopped("p3")
	if n, retired := l.NavFailures("p3"); n != 1 || retired || l.Retired(hint) {
		t.Fatalf("after one stop: %d, retired %v, hint retired %v; want 1, no, no", n, retired, l.Retired(hint))
	}
	l.NavStopped("p3")
	if n, retired := l.NavFailures("p3"); n != 2 || !retired || !l.Retired(hint) {
		t.Errorf("after two stops: %d, retired %v, hint retired %v; want 2, yes, yes", n, retired, l.Retired(hint))
	}
	if _, retired := l.NavFailures("p4"); retired {
		t.Error("another target is retired too")
	}
	if l.Pathless("sig") {
		t.Error("an empty ledger holds a pathless page")
	}
	l.NoPath("sig")
	if !l.Pathless("sig") || l.Pathless("other") {
		t.Error("NoPath does not mark exactly its page")
	}
}
