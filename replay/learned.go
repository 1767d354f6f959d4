package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// The kinds of learned actions a replay can run, in the App Map's words (its stored
// action kinds, which do not change; the learner's tests hold the two together).
const (
	kindTap       = "tap"
	kindLongPress = "long-press"
	kindSwipe     = "swipe"
	kindInput     = "input"
	kindBack      = "back"
	kindHome      = "home"
	kindEnter     = "enter"
	kindWait      = "wait"
	kindOpenApp   = "open-app"
)

// Target identifies the element a learned step acts on, as it was learned: by
// resource-id, text, content description and class, never by its index on one screen.
type Target struct {
	ResourceID string
	Text       string
	Desc       string
	Class      string
}

func (t Target) isZero() bool { return t == Target{} }

// String is a short human form, the App Map's: id=send_btn "Send" (Button).
func (t Target) String() string {
	var parts []string
	if t.ResourceID != "" {
		parts = append(parts, "id="+ShortID(t.ResourceID))
	}
	switch {
	case t.Text != "":
		parts = append(parts, strconv.QuoteToGraphic(t.Text))
	case t.Desc != "":
		parts = append(parts, "desc="+strconv.QuoteToGraphic(t.Desc))
	}
	if len(parts) == 0 && t.Class != "" {
		c := t.Class
		if i := strings.LastIndex(c, "."); i >= 0 {
			c = c[i+1:]
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " ")
}

// Learned is a learned step as it is replayed: the page it expects (its signature, and its
// activity when known) and the action learned there. A shortcut's step is one transition
// of the App Map; a routine's step adds, for an Input, the text to type and, for a tap on
// a switch, checkbox or radio, the state it had when the routine was learned.
type Learned struct {
	Activity  string // expected activity ("" when unknown)
	Signature string // expected page signature
	Kind      string // the action's kind in the App Map's words: tap, long-press, swipe, input, back…
	Target    Target // the element it acts on (none for back, home…)
	Direction string // a swipe's direction
	Package   string // the app an open-app opens
	// Row marks a tap on one row of a list (see package learner): its label must match.
	// Another step's element may show other text than when it was learned (a cart button
	// with its count) when its resource-id names it alone.
	Row     bool
	Text    string // what an Input types
	Checked *bool  // the checked state of the tapped switch, checkbox or radio (nil: none)
	// Want is the state the tapped switch must show after the step, when the task's own
	// on/off word says it (nil: the state the step left it in when learned, !Checked).
	Want *bool
	// Seek is the swipe that scrolls the step's list when its row is not on the screen (a
	// swipe step on the same page); nil when the step does not seek.
	Seek *Learned
}

// Seeking is the swipe that scrolls the list to find the step's row, when it seeks.
func (s Learned) Seeking() (Learned, bool) {
	if s.Seek == nil {
		return Learned{}, false
	}
	return *s.Seek, true
}

// Resolve checks that screen is the page the step expects and that its element is there,
// once, and returns the action to run on it; any mismatch returns ErrMismatch: stop the
// replay and go back to normal steps. An Input types Text into its field. A tap on a
// switch, checkbox or radio reads it first: one that already shows the state the step
// is for (Want, else the opposite of the state it was learned in) returns ErrSatisfied —
// skip the step, never a tap that undoes it.
func (s Learned) Resolve(screen *perception.Screen) (event.Action, error) {
	if s.Kind != kindInput {
		a, err := s.resolve(screen, s.Kind)
		if err != nil || (s.Checked == nil && s.Want == nil) || a.Type != event.Tap || a.Index <= 0 {
			return a, err
		}
		e, ok := switchOf(screen, a.Index)
		if !ok {
			return event.Action{}, fmt.Errorf("%w: %q shows no on/off state to read before the tap", ErrMismatch, s.Target)
		}
		want := s.Want
		if want == nil {
			w := !*s.Checked
			want = &w
		}
		if e.Checked == *want {
			return event.Action{}, fmt.Errorf("%w: %q is already %s", ErrSatisfied, e.Label, onOff(e.Checked))
		}
		return a, nil
	}
	a, err := s.resolve(screen, kindTap) // the field to type into
	if err != nil {
		return event.Action{}, err
	}
	if s.Text == "" {
		return event.Action{}, fmt.Errorf("%w: no text to type", ErrMismatch)
	}
	return event.Action{Type: event.Input, Index: a.Index, Text: s.Text}, nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// switchOf is the switch, checkbox or radio that a tap on element index flips: the element
// itself when it is checkable, else the checkable element inside its bounds (a settings
// row whose switch is its child).
func switchOf(screen *perception.Screen, index int) (perception.Element, bool) {
	var row *perception.Element
	for i := range screen.Elements {
		if e := &screen.Elements[i]; e.Index == index {
			if e.Checkable {
				return *e, true
			}
			row = e
		}
	}
	if row == nil {
		return perception.Element{}, false
	}
	for _, e := range screen.Elements {
		if e.Checkable && e.Index != index && row.Bounds.Contains(e.Center) {
			return e, true
		}
	}
	return perception.Element{}, false
}

// resolve turns the step, as an action of kind, into the action to run on screen.
func (s Learned) resolve(screen *perception.Screen, kind string) (event.Action, error) {
	if screen == nil {
		return event.Action{}, fmt.Errorf("%w: no screen", ErrMismatch)
	}
	if screen.Signature != s.Signature {
		return event.Action{}, fmt.Errorf("%w: page %s expected, screen signature is %s", ErrMismatch, s.Signature, screen.Signature)
	}
	if s.Activity != "" && screen.Activity != "" && screen.Activity != s.Activity {
		return event.Action{}, fmt.Errorf("%w: activity %s expected, screen shows %s", ErrMismatch, s.Activity, screen.Activity)
	}
	index := func() (int, error) {
		e, err := locate(screen, s.Target)
		if err != nil && s.Row && s.Target.Text != "" {
			// The row the argument names, by the benchmark's fuzzy match on its label
			// when no row bears it exactly: one row, or none.
			e, err = locateFuzzy(screen, s.Target, err)
		}
		if err != nil && !s.Row && s.Target.ResourceID != "" {
			e, err = locate(screen, Target{ResourceID: s.Target.ResourceID, Class: s.Target.Class})
		}
		if err != nil {
			return 0, err
		}
		return e.Index, nil
	}
	switch kind {
	case kindTap, kindLongPress:
		i, err := index()
		if err != nil {
			return event.Action{}, err
		}
		if kind == kindTap {
			return event.Action{Type: event.Tap, Index: i}, nil
		}
		return event.Action{Type: event.LongPress, Index: i}, nil
	case kindSwipe:
		a := event.Action{Type: event.Swipe, Direction: s.Direction}
		if !s.Target.isZero() {
			i, err := index()
			if err != nil {
				return event.Action{}, err
			}
			a.Index = i
		}
		return a, a.Validate()
	case kindBack:
		return event.Action{Type: event.Back}, nil
	case kindHome:
		return event.Action{Type: event.Home}, nil
	case kindEnter:
		return event.Action{Type: event.Enter}, nil
	case kindWait:
		return event.Action{Type: event.Wait, Seconds: 1}, nil
	case kindOpenApp:
		a := event.Action{Type: event.OpenApp, Package: s.Package}
		return a, a.Validate()
	}
	return event.Action{}, fmt.Errorf("%w: %s cannot be replayed without the model", ErrMismatch, kind)
}

// locate finds the one element of screen that t identifies: its resource-id (full or the
// part after ":id/"), its label (text, content description or perception label) and its
// class must all agree where t gives them. None or several give ErrMismatch.
func locate(screen *perception.Screen, t Target) (perception.Element, error) {
	if t.isZero() {
		return perception.Element{}, fmt.Errorf("%w: no element to look for", ErrMismatch)
	}
	var hits []perception.Element
	for _, e := range screen.Elements {
		if t.ResourceID != "" && !SameID(e.ResourceID, t.ResourceID) {
			continue
		}
		if t.Text != "" && e.Label != t.Text && e.Text != t.Text && e.Desc != t.Text {
			continue
		}
		if t.Desc != "" && e.Desc != t.Desc && e.Label != t.Desc {
			continue
		}
		if t.Class != "" && e.Class != t.Class {
			continue
		}
		hits = append(hits, e)
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return perception.Element{}, fmt.Errorf("%w: no element %s on the screen", ErrMismatch, t)
	}
	return perception.Element{}, fmt.Errorf("%w: %d elements match %s", ErrMismatch, len(hits), t)
}

// locateFuzzy finds the one element of screen whose label fuzzy-matches t's text, with
// t's resource-id and class where it gives them; none or several return exact, the error
// of the exact search, or a mismatch naming the rows that matched.
func locateFuzzy(screen *perception.Screen, t Target, exact error) (perception.Element, error) {
	var hits []perception.Element
	for _, e := range screen.Elements {
		if (t.ResourceID != "" && !SameID(e.ResourceID, t.ResourceID)) || (t.Class != "" && e.Class != t.Class) {
			continue
		}
		if FuzzyMatch(e.Label, t.Text) || (e.Text != "" && FuzzyMatch(e.Text, t.Text)) {
			hits = append(hits, e)
		}
	}
	switch len(hits) {
	case 0:
		return perception.Element{}, exact
	case 1:
		return hits[0], nil
	}
	return perception.Element{}, fmt.Errorf("%w: %d rows match %s", ErrMismatch, len(hits), t)
}

// SameID compares resource-ids, full ("com.x:id/send") or short ("send").
func SameID(a, b string) bool {
	if a == b {
		return true
	}
	return ShortID(a) == ShortID(b)
}

// ShortID is a resource-id without its package: the part after ":id/" ("send").
func ShortID(id string) string {
	if i := strings.LastIndex(id, ":id/"); i >= 0 {
		return id[i+4:]
	}
	return id
}
