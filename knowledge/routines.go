package knowledge

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A Routine is a finished app task's trajectory kept as one high-level action: named by
// what it achieves, parameterised where it picked a list row or typed text, and replayed
// with every page checked (and every consent asked again) by the executor. This is its
// stored record; the learner offers it and makes its steps (package replay's types).
//
// Layout: routines/<app>  routine ID -> Routine (JSON).
var bucketRoutines = []byte("routines")

// Caps on routines.
const (
	MaxRoutineSteps  = 40 // steps of one routine
	MaxRoutineParams = 6  // parameters of one routine
	maxRoutines      = 64 // routines kept per app: the least used go first
	maxRoutineNames  = 8  // names of one routine (Name and Also)
	// trustInstances is how many instances with different bindings must confirm a
	// routine before it replays without the model's step-by-step decisions.
	trustInstances = 2
	maxInstances   = 8 // instance keys kept per routine
)

// Names are the routine's names, Name first.
func (r Routine) Names() []string { return append([]string{r.Name}, r.Also...) }

// mergeNames gives r the names of old too: r's name first, then the others, newest first,
// each once, at most MaxRoutineNames in all.
func mergeNames(r *Routine, old Routine) {
	seen := map[string]bool{r.Name: true}
	also := []string{}
	for _, n := range append(append([]string{}, r.Also...), old.Names()...) {
		if n = strings.TrimSpace(n); n != "" && !seen[n] && len(also) < maxRoutineNames-1 {
			seen[n] = true
			also = append(also, n)
		}
	}
	r.Also = also
}

// Routine is one learned routine.
type Routine struct {
	ID  string `json:"id"` // a hash of the app and the steps: the same trajectory is one routine
	App string `json:"app"`
	// Name says what the routine achieves: the app task's text, with each parameter's
	// value replaced by {1}, {2}, …
	Name string `json:"name"`
	// Also are other tasks' names for the same steps (another app's notifications, the
	// same cache cleared in other words), newest first, at most MaxRoutineNames.
	Also   []string       `json:"also,omitempty"`
	Params []RoutineParam `json:"params,omitempty"`
	Steps  []RoutineStep  `json:"steps"`
	// End is the signature of the page the task was done on, after the last step.
	End string `json:"end,omitempty"`
	// EndState is what that page showed (nil: not learned): a replay that reaches it counts
	// as the task done only where it shows the same.
	EndState *RoutineEnd `json:"end_state,omitempty"`
	// Runs counts the times the routine's trajectory was followed to a successful end
	// (learned or replayed); Stops the replays that met a surprise and handed back.
	Runs  int `json:"runs"`
	Stops int `json:"stops"`
	// Demoted counts the times it was demoted: a replay that met a surprise, a finish
	// check that failed after it, a consent the person refused, a task that failed or
	// was found wrong after it. Each demotion forgets the instances that confirmed it.
	Demoted int `json:"demoted,omitempty"`
	// Instances are the keys of the clean runs that confirmed the routine since it was
	// last demoted, one per binding (its parameters' values and the states its switches
	// started in), at most maxInstances. It replays without the model only when
	// Trusted: confirmed on trustInstances instances with different bindings.
	Instances []string `json:"instances,omitempty"`
	// Bindings are the keys of the argument values those runs had (their parameters'
	// values alone), at most maxInstances: a routine whose every row is an argument may
	// replay the very binding a clean run confirmed before it is Trusted.
	Bindings []string `json:"bindings,omitempty"`
	// Reruns are the keys of the very tasks those runs did (a short hash of the task's
	// words and of the arguments those words gave: its rows and on/off words, not the
	// texts typed nor the rows the person chose, which each run gives anew), at most
	// maxInstances: a routine not yet Trusted may replay a rerun of one of them, the
	// same task in the same words, whatever rows of that run it taps.
	Reruns []string `json:"reruns,omitempty"`
	// Answers marks a routine learned from a task that ended with an answer (a
	// question about the screen): reaching its end page is no finished task, the answer
	// is still to be read.
	Answers   bool      `json:"answers,omitempty"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// LearnedFrom is the run it was first learned from (the run's ID: in an evaluation,
	// the task's name): a merge keeps the first.
	LearnedFrom string `json:"learned_from,omitempty"`
}

// RoutineEnd is what the page a routine's task was done on showed when it was learned.
type RoutineEnd struct {
	// Toggles are its switches' and checkboxes' checked states, by label (replay.Toggles).
	Toggles map[string]bool `json:"toggles,omitempty"`
	// Shown says, by parameter number (1-based), whether its value was on the page (a
	// row kept, a title saved) or gone (a row deleted).
	Shown map[int]bool `json:"shown,omitempty"`
}

// RoutineParam is one parameter of a routine.
type RoutineParam struct {
	// What describes it for the model: "row of page …", "text typed into …".
	What string `json:"what"`
	// Example is the value it had when learned; empty for typed text (never stored).
	Example string `json:"example,omitempty"`
	// Chosen marks a row the person chose when asked; Typed a text typed into a field.
	Chosen bool `json:"chosen,omitempty"`
	Typed  bool `json:"typed,omitempty"`
	// State marks the on/off word of the task ("on", "off", "enable", …): its argument is
	// the state a switch of the routine must show after its step (RoutineStep.Want).
	State bool `json:"state,omitempty"`
}

// Trusted reports a routine confirmed by clean runs on trustInstances instances with
// different bindings since it was last demoted.
func (r Routine) Trusted() bool { return len(r.Instances) >= trustInstances }

// RoutineStep is one step: the page it must start on and the action to run there. The
// action's target label may hold {n}: parameter n's value. Text > 0 marks an Input whose
// text is parameter Text.
type RoutineStep struct {
	Activity  string `json:"activity,omitempty"`
	Signature string `json:"signature"`
	Action    Action `json:"action"`
	Text      int    `json:"text,omitempty"`
	// Checked is the checked state the tapped switch, checkbox or radio had before the
	// tap when it was learned (nil: none shown).
	Checked *bool `json:"checked,omitempty"`
	// Want > 0 names the State parameter whose argument is the state the tapped switch
	// must show after the step: a switch that already shows it is not tapped.
	Want int `json:"want,omitempty"`
	// Seek is, for a tap on a row an argument names, the swipe that scrolls its list when
	// the row is not on the screen: another instance finds its row elsewhere in the list,
	// so the swipes the learning run needed are not steps (nil: the step does not seek).
	Seek *Action `json:"seek,omitempty"`
}

// RoutineID is the identity of a routine of app with these steps.
func RoutineID(app string, steps []RoutineStep) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", app)
	for _, s := range steps {
		fmt.Fprintf(h, "%s|%s|%d\n", s.Signature, s.Action, s.Text)
		if s.Want > 0 {
			fmt.Fprintf(h, "want %d\n", s.Want) // bound to the task's on/off word: another routine
		}
		if s.Seek != nil {
			fmt.Fprintf(h, "seek\n") // how far the learning run scrolled is no part of it
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// validate checks a routine before it is stored.
func (r *Routine) validate() error {
	switch {
	case strings.TrimSpace(r.App) == "":
		return fmt.Errorf("routine without app: %w", ErrInvalid)
	case strings.TrimSpace(r.Name) == "":
		return fmt.Errorf("routine without name: %w", ErrInvalid)
	case len(r.Steps) == 0 || len(r.Steps) > MaxRoutineSteps:
		return fmt.Errorf("routine %q has %d steps (1 to %d): %w", r.Name, len(r.Steps), MaxRoutineSteps, ErrInvalid)
	case len(r.Params) > MaxRoutineParams:
		return fmt.Errorf("routine %q has %d parameters (at most %d): %w", r.Name, len(r.Params), MaxRoutineParams, ErrInvalid)
	}
	for i, s := range r.Steps {
		if s.Signature == "" || s.Action.Kind == "" {
			return fmt.Errorf("routine %q step %d needs a page and an action: %w", r.Name, i+1, ErrInvalid)
		}
		if s.Text < 0 || s.Text > len(r.Params) {
			return fmt.Errorf("routine %q step %d types parameter %d of %d: %w", r.Name, i+1, s.Text, len(r.Params), ErrInvalid)
		}
		if s.Want < 0 || s.Want > len(r.Params) || (s.Want > 0 && !r.Params[s.Want-1].State) {
			return fmt.Errorf("routine %q step %d wants the state of parameter %d, which is no on/off parameter: %w", r.Name, i+1, s.Want, ErrInvalid)
		}
	}
	if r.ID == "" {
		r.ID = RoutineID(r.App, r.Steps)
	}
	return nil
}

// PutRoutine stores a routine learned from a successful run: one with the same steps
// counts one run more (its newer name first, the older ones kept as Also); a new one is
// added, and past
// maxRoutines the app's least-run routine is dropped.
func (tx *Tx) PutRoutine(r Routine) (Routine, error) {
	if tx.s.opts.ReadOnly {
		return Routine{}, errReadOnly
	}
	if err := r.validate(); err != nil {
		return Routine{}, fmt.Errorf("put routine: %w", err)
	}
	top, err := root(tx.tx, bucketRoutines)
	if err != nil {
		return Routine{}, err
	}
	b, err := top.CreateBucketIfNotExists([]byte(r.App))
	if err != nil {
		return Routine{}, err
	}
	now := tx.s.now()
	var old Routine
	if v := b.Get([]byte(r.ID)); v != nil && decode("routine", []byte(r.ID), v, &old) == nil {
		r.Runs += old.Runs
		r.Stops += old.Stops
		r.Demoted += old.Demoted
		r.Instances = mergeInstances(old.Instances, r.Instances)
		r.Bindings = mergeInstances(old.Bindings, r.Bindings)
		r.Reruns = mergeInstances(old.Reruns, r.Reruns)
		r.Answers = r.Answers || old.Answers
		r.FirstSeen = earlier(old.FirstSeen, r.FirstSeen)
		mergeNames(&r, old)
		for i := range min(len(r.Steps), len(old.Steps)) {
			if s, o := r.Steps[i].Seek, old.Steps[i].Seek; s != nil && o != nil && s.Target.IsZero() && !o.Target.IsZero() {
				r.Steps[i].Seek = o // the list's own swipe, learned by a run that scrolled, over a swipe up the screen
			}
		}
		if old.LearnedFrom != "" {
			r.LearnedFrom = old.LearnedFrom
		}
	} else if b.Stats().KeyN >= maxRoutines {
		if err := dropLeastRun(b); err != nil {
			return Routine{}, err
		}
	}
	if r.FirstSeen.IsZero() {
		r.FirstSeen = now
	}
	r.LastSeen = now
	return r, putJSON(b, r.ID, r)
}

// mergeInstances adds the instance keys of add to old, each once, the newest kept
// when there are more than maxInstances.
func mergeInstances(old, add []string) []string {
	out := append([]string(nil), old...)
	for _, k := range add {
		if k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) > maxInstances {
		out = out[len(out)-maxInstances:]
	}
	return out
}

// dropLeastRun deletes the routine with the fewest runs (the oldest of those).
func dropLeastRun(b *bolt.Bucket) error {
	var victim *Routine
	err := eachJSON(b, "routine", func(_ []byte, r Routine) error {
		if victim == nil || r.Runs < victim.Runs || (r.Runs == victim.Runs && r.LastSeen.Before(victim.LastSeen)) {
			victim = &r
		}
		return nil
	})
	if err != nil || victim == nil {
		return err
	}
	return b.Delete([]byte(victim.ID))
}

// RoutineStopped counts a replay of routine id of app that met a surprise, and demotes
// it at once: it is not trusted again until clean runs confirm it again.
func (tx *Tx) RoutineStopped(app, id string) error {
	return tx.updateRoutine(app, id, func(r *Routine) { r.Stops++; r.demote() })
}

// RoutineDemoted demotes routine id of app at once: its replay (or the run that stored
// it) led to a failed finish check, a consent the person refused, a failed task or a
// wrong result. It is not trusted again until clean runs confirm it again.
func (tx *Tx) RoutineDemoted(app, id string) error {
	return tx.updateRoutine(app, id, func(r *Routine) { r.demote() })
}

// demote counts a demotion and forgets the instances that confirmed the routine.
func (r *Routine) demote() {
	r.Demoted++
	r.Instances, r.Bindings, r.Reruns = nil, nil, nil
}

// updateRoutine applies fn to routine id of app and stores it, seen now.
func (tx *Tx) updateRoutine(app, id string, fn func(*Routine)) error {
	top, err := root(tx.tx, bucketRoutines)
	if err != nil || top == nil {
		return err
	}
	b := top.Bucket([]byte(app))
	if b == nil {
		return fmt.Errorf("routine %s of %s: %w", id, app, ErrNotFound)
	}
	var r Routine
	v := b.Get([]byte(id))
	if v == nil {
		return fmt.Errorf("routine %s of %s: %w", id, app, ErrNotFound)
	}
	if err := decode("routine", []byte(id), v, &r); err != nil {
		return err
	}
	fn(&r)
	r.LastSeen = tx.s.now()
	return putJSON(b, id, r)
}

// Routines returns app's routines, most run first.
func (s *Store) Routines(app string) ([]Routine, error) {
	var out []Routine
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		out, err = listRoutines(tx, app)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("routines of %s: %w", app, err)
	}
	return out, nil
}

// listRoutines lists app's routines ("" for every app), most run first.
func listRoutines(tx *bolt.Tx, app string) ([]Routine, error) {
	top := tx.Bucket(bucketRoutines)
	if top == nil {
		return nil, nil
	}
	var apps []string
	if app != "" {
		apps = []string{app}
	} else {
		_ = top.ForEachBucket(func(k []byte) error { apps = append(apps, string(k)); return nil })
	}
	var out []Routine
	for _, a := range apps {
		if err := eachJSON(top.Bucket([]byte(a)), "routine", func(_ []byte, r Routine) error { out = append(out, r); return nil }); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b Routine) int {
		if c := cmp.Compare(b.Runs, a.Runs); c != 0 {
			return c
		}
		if c := cmp.Compare(a.App, b.App); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}
