package replay

import (
	"errors"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// ErrMismatch reports a learned step whose expected page is not the current one, or whose
// element is not (or not unambiguously) on the screen: the replay must stop there. Its
// text reaches the Re-Planner's notes (where a replay stopped), so it reads as it did
// when the learner defined it.
var ErrMismatch = errors.New("learner: screen does not match the shortcut")

// ErrSatisfied reports a learned step with nothing to do: the switch it taps already
// shows the state the step is for. The replay skips it (no tap) and goes on.
var ErrSatisfied = errors.New("already in the wanted state")

// Step is one learned step: a step of a shortcut or of a routine.
type Step interface {
	// Resolve checks that screen is the page the step expects and returns the action to
	// run on it; an error (wrapping ErrMismatch) means the phone is not where the step was
	// learned: the replay stops there.
	Resolve(screen *perception.Screen) (event.Action, error)
	String() string
}

// Run is the part of a routine to replay.
type Run struct {
	Steps []Step
	From  int    // the index of Steps[0] among the routine's steps
	Pause string // why Steps ends before the routine does ("" when it does not)
	// End is what the routine's end page must show for the task to count as done there,
	// bound to the arguments (nil: not learned).
	End *End
}

// Offer is a learned routine offered on the current page: what the Re-Planner is told of
// it (Name, Params, Steps, Fit) and what the executor keeps to run it (ID, End).
type Offer struct {
	ID  string
	End string // the signature of the page the routine's task was done on ("" unknown)

	// LearnedFrom is the run it was first learned from ("" unknown).
	LearnedFrom string

	Name   string   // what it achieves, parameters as {1}, {2}, …
	Params []string // what each parameter is, with the value it was learned with
	Steps  int      // steps it replays from the current screen
	// Fit is the arguments that make it this task, when the task's own words give them
	// all (the routine's name matched against the task); nil otherwise.
	Fit []string
}
