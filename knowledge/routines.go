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
	// Demoted counts the replays that led to a consent the person refused (the routine
	// did what the person did not want): a routine demoted as often as it ran well is
	// not offered.
	Demoted   int       `json:"demoted,omitempty"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
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
}

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
}

// RoutineID is the identity of a routine of app with these steps.
func RoutineID(app string, steps []RoutineStep) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", app)
	for _, s := range steps {
		fmt.Fprintf(h, "%s|%s|%d\n", s.Signature, s.Action, s.Text)
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
		r.FirstSeen = earlier(old.FirstSeen, r.FirstSeen)
		mergeNames(&r, old)
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

// RoutineStopped counts a replay of routine id of app that met a surprise.
func (tx *Tx) RoutineStopped(app, id string) error {
	return tx.updateRoutine(app, id, func(r *Routine) { r.Stops++ })
}

// RoutineDemoted counts one replay of routine id of app that led to a consent the person
// refused.
func (tx *Tx) RoutineDemoted(app, id string) error {
	return tx.updateRoutine(app, id, func(r *Routine) { r.Demoted++ })
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
