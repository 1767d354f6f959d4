package replay

import (
	"strings"

	"github.com/fairy-go/fairy/event"
)

// maxOffers bounds the routines one Re-Planner prompt lists.
const maxOffers = 3

// maxNavFailures is how many replays of a Navigate to one page may stop short in a task
// before it is no longer offered: a path that failed twice is not what the phone does (a
// step with an effect the map did not know), and a third try would only repeat it.
const maxNavFailures = 2

// Ledger is what one app task remembers of the learned steps it replayed: the routines
// not to offer again (one that met a surprise would meet it again; one that ran whole
// would do its work twice), where a paused routine goes on, the Navigate targets whose
// replays stopped short and the pages where no shortcut could be replayed. The zero value
// is an empty ledger; the executor keeps one per app task.
type Ledger struct {
	done      map[string]bool // routines not offered again in this task
	paused    map[string]int  // routines paused for the person: the step each goes on at
	navFailed map[string]int  // Navigate targets by the replays of them that stopped short
	noNav     map[string]bool // page signatures where a Navigate could not be replayed
}

// Offers is the part of offers (best first) to list in a Re-Planner prompt: none done in
// this task, at most three.
func (l *Ledger) Offers(offers []Offer) []Offer {
	var out []Offer
	for _, o := range offers {
		if l.done[o.ID] || len(out) == maxOffers {
			continue
		}
		out = append(out, o)
	}
	return out
}

// ResumeAt is the index of the step where routine id paused for the person, or -1.
func (l *Ledger) ResumeAt(id string) int {
	if at, ok := l.paused[id]; ok {
		return at
	}
	return -1
}

// Drop takes routine id off the offers for the rest of the task (it cannot run here).
func (l *Ledger) Drop(id string) {
	if l.done == nil {
		l.done = map[string]bool{}
	}
	l.done[id] = true
}

// Ran records a replay of run, routine id's steps, that replayed that many steps and
// stopped for the reason stopped ("" when it ran whole); held says it stopped to ask the
// person's consent. A routine held, or paused before a choice not known yet (run.Pause),
// goes on where it stopped; one that met a surprise or ran to its end is not offered
// again in this task (it would meet the surprise again, or undo a toggle).
func (l *Ledger) Ran(id string, run Run, replayed int, stopped string, held bool) {
	delete(l.paused, id)
	if held || (run.Pause != "" && stopped == "") {
		if l.paused == nil {
			l.paused = map[string]int{}
		}
		l.paused[id] = run.From + replayed // it goes on there after the answer
		return
	}
	l.Drop(id)
}

// NavStopped records a replay of a Navigate to target that stopped short.
func (l *Ledger) NavStopped(target string) {
	if l.navFailed == nil {
		l.navFailed = map[string]int{}
	}
	l.navFailed[target]++
}

// NavFailures is how many replays of a Navigate to target stopped short in this task, and
// whether that is too many to offer it again.
func (l *Ledger) NavFailures(target string) (n int, retired bool) {
	n = l.navFailed[target]
	return n, n >= maxNavFailures
}

// Retired reports whether a navigation hint offers a Navigate that stopped short too
// often in this task.
func (l *Ledger) Retired(hint string) bool {
	for target, n := range l.navFailed {
		if n >= maxNavFailures && strings.Contains(hint, event.Action{Type: event.Navigate, Target: target}.String()) {
			return true
		}
	}
	return false
}

// NoPath records a page (its signature) where the App Map promised a path it does not
// hold: no more navigation hints there in this task.
func (l *Ledger) NoPath(signature string) {
	if l.noNav == nil {
		l.noNav = map[string]bool{}
	}
	l.noNav[signature] = true
}

// Pathless reports a page recorded by NoPath.
func (l *Ledger) Pathless(signature string) bool { return l.noNav[signature] }
