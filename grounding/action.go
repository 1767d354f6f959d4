package grounding

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fairy-go/fairy/perception"
)

// Kind is what an action does, in the vocabulary the families share.
type Kind string

// The kinds of action.
const (
	Tap       Kind = "tap"
	LongPress Kind = "long_press"
	Type      Kind = "type"  // Text into the focused field (a trailing "\n" submits it)
	Swipe     Kind = "swipe" // the finger from Point to End, or from Point in Direction
	Back      Kind = "back"
	Home      Kind = "home"
	Enter     Kind = "enter"
	Launch    Kind = "launch" // Text: the app's name or package
	Wait      Kind = "wait"   // Seconds
	Finish    Kind = "finish" // Text: the answer, if any
	// Interact is the model handing over to the person (UI-TARS call_user, AutoGLM
	// Take_over, a mobile_use terminate with status fail); Text is why.
	Interact Kind = "interact"
)

// Action is one action of a model's answer. Points are in the model's frame.
type Action struct {
	Kind  Kind
	Point Point // tap, long press, swipe start; HasPoint says whether the answer gave one
	// HasPoint is false for a swipe of the whole screen and for actions with no point.
	HasPoint bool
	End      Point  // swipe end, when HasEnd
	HasEnd   bool   // the answer gave the swipe's end point
	Dir      string // swipe: the finger's direction (up, down, left, right), when no End
	Text     string
	Seconds  float64
}

// String is a compact form for tests and traces: "tap (112,224)", "type \"hi\"".
func (a Action) String() string {
	s := string(a.Kind)
	if a.HasPoint {
		s += " " + a.Point.String()
	}
	if a.HasEnd {
		s += " → " + a.End.String()
	}
	if a.Dir != "" {
		s += " " + a.Dir
	}
	if a.Text != "" {
		s += " " + strconv.QuoteToGraphic(a.Text)
	}
	if a.Seconds != 0 {
		s += " " + strconv.FormatFloat(a.Seconds, 'f', -1, 64) + "s"
	}
	return s
}

// Direction is the finger's direction of a swipe: its Dir, or the main axis from Point to
// End ("" when the two are the same point).
func (a Action) Direction() string {
	if a.Dir != "" || !a.HasEnd {
		return a.Dir
	}
	dx, dy := a.End.X-a.Point.X, a.End.Y-a.Point.Y
	switch {
	case dx == 0 && dy == 0:
		return ""
	case math.Abs(dy) >= math.Abs(dx) && dy < 0:
		return "up"
	case math.Abs(dy) >= math.Abs(dx):
		return "down"
	case dx < 0:
		return "left"
	}
	return "right"
}

// ElementAt finds the element of s under a screen point: the smallest actionable element
// whose bounds contain it, else the nearest one within tolerance pixels of it (distance to
// its bounds). index is the element's Index.
func ElementAt(s *perception.Screen, p Point, tolerance int) (index int, ok bool) {
	if s == nil {
		return 0, false
	}
	pt := perception.Point{X: int(math.Floor(p.X)), Y: int(math.Floor(p.Y))}
	// An icon or a text inside a button is no target of its own: the finger presses the
	// button, and the guard must judge the button ("Pay"), not its unlabelled icon. Only
	// when nothing actionable holds the point is the smallest element the target. A list
	// never is: a tap on it lands at its centre, on some other row than the point's gap
	// between rows; that point is a tap at the point.
	for _, actionable := range []bool{true, false} {
		best, bestArea := 0, 0
		for _, e := range s.Elements {
			if e.Bounds.Empty() || !e.Bounds.Contains(pt) || (actionable && !tappable(e)) || list(e) {
				continue
			}
			if a := e.Bounds.Area(); best == 0 || a < bestArea {
				best, bestArea = e.Index, a
			}
		}
		if best != 0 {
			return best, true
		}
	}
	best := 0
	bestD := math.Inf(1)
	for _, e := range s.Elements {
		if e.Bounds.Empty() || list(e) {
			continue
		}
		if d := distance(e.Bounds, p); d <= float64(tolerance) && d < bestD {
			best, bestD = e.Index, d
		}
	}
	return best, best != 0
}

// tappable reports whether a tap on e acts on e itself (a scrollable list is no target of a
// tap: a row is).
func tappable(e perception.Element) bool {
	return e.Clickable || e.LongClickable || e.Checkable || e.Editable
}

// list reports whether e is a scrolling container a tap does not act on.
func list(e perception.Element) bool { return e.Scrollable && !tappable(e) }

// distance is how far p is from b (0 inside).
func distance(b perception.Bounds, p Point) float64 {
	dx := math.Max(math.Max(float64(b.X1)-p.X, 0), p.X-float64(b.X2-1))
	dy := math.Max(math.Max(float64(b.Y1)-p.Y, 0), p.Y-float64(b.Y2-1))
	return math.Hypot(dx, dy)
}

// errorf makes a parse error of the family, worded for the model.
func errorf(f Family, format string, args ...any) error {
	return fmt.Errorf("%w of %s: %s", ErrSyntax, f, fmt.Sprintf(format, args...))
}
