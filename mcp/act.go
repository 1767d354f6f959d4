package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// actInput is the act tool's arguments.
type actInput struct {
	Action    string `json:"action" jsonschema:"what to do: tap, long_press, type, swipe, key or launch"`
	Element   int    `json:"element,omitempty" jsonschema:"the element's number [N] in the latest screen (tap, long_press, swipe)"`
	X         *int   `json:"x,omitempty" jsonschema:"a pixel x, instead of an element (tap, long_press, swipe start)"`
	Y         *int   `json:"y,omitempty" jsonschema:"a pixel y, with x"`
	X2        *int   `json:"x2,omitempty" jsonschema:"the swipe's end x, with x, y and y2"`
	Y2        *int   `json:"y2,omitempty" jsonschema:"the swipe's end y"`
	Direction string `json:"direction,omitempty" jsonschema:"swipe: the finger's motion, up, down, left or right"`
	Text      string `json:"text,omitempty" jsonschema:"type: the text to type into the focused field"`
	Key       string `json:"key,omitempty" jsonschema:"key: back, home, enter, delete, tab, menu, app_switch, … or a key code"`
	Package   string `json:"package,omitempty" jsonschema:"launch: the app's package name (see apps)"`
}

// longPress is how long a long press holds.
const longPress = 800 * time.Millisecond

// act does in on p after the guard has judged it on the current screen, asking the
// person through ask when it holds the action back. It returns what was done, in words.
func (s *Server) act(ctx context.Context, p Phone, ask consenter, in actInput) (string, error) {
	if in.Action == "launch" {
		if in.Package == "" {
			return "", fmt.Errorf("%w: launch needs package (see the apps tool)", errBadInput)
		}
		if err := p.Launch(ctx, in.Package); err != nil {
			return "", err
		}
		return "launched " + in.Package, nil
	}
	scr, err := s.readScreen(ctx, p)
	if err != nil {
		return "", err
	}
	a, el, err := resolve(in, scr)
	if err != nil {
		return "", err
	}
	if v, held := s.cfg.Guard.Check(a, el, scr); held {
		what := fmt.Sprintf("%s (%s)", v.Subject, v.Category)
		if v.Blocked {
			// The person's own rule: no client's yes overrides it.
			return "", fmt.Errorf("%w: %s is refused by the person's rule %q; nothing was done", errRefused, what, v.Rule)
		}
		msg := fmt.Sprintf("fairy is about to %s on the phone. Allow it, this once?", what)
		if v.Type == 2 {
			msg = fmt.Sprintf("fairy is about to %s on the phone. It cannot be undone. Allow it, this once?", what)
		}
		if granted, why := ask.consent(ctx, msg); !granted {
			return "", fmt.Errorf("%w: %s needs the person's consent, and %s; nothing was done", errRefused, what, why)
		}
	}
	return s.perform(ctx, p, in, a, el, scr)
}

// resolve turns the arguments into the action the guard judges and the element it is on
// (nil for none), checking them against the screen. Coordinates and keys are judged as
// the `input` command that would do the same (input tap X Y, input keyevent K): the guard
// finds what is drawn at the point, and which keys submit the focused field.
func resolve(in actInput, scr *perception.Screen) (event.Action, *perception.Element, error) {
	element := func() (*perception.Element, error) {
		switch {
		case in.Element > len(scr.Elements):
			return nil, fmt.Errorf("%w: element %d is not on the screen (it has %d numbered elements): read the screen again", errBadInput, in.Element, len(scr.Elements))
		case in.Element < 0:
			return nil, fmt.Errorf("%w: element %d: numbers start at 1", errBadInput, in.Element)
		}
		return &scr.Elements[in.Element-1], nil
	}
	shell := func(format string, args ...any) event.Action {
		return event.Action{Type: event.Shell, Command: fmt.Sprintf(format, args...)}
	}
	switch in.Action {
	case "tap", "long_press":
		switch {
		case in.Element != 0 && in.X != nil:
			return event.Action{}, nil, fmt.Errorf("%w: give an element or x and y, not both", errBadInput)
		case in.Element != 0:
			el, err := element()
			if err != nil {
				return event.Action{}, nil, err
			}
			t := event.Tap
			if in.Action == "long_press" {
				t = event.LongPress
			}
			return event.Action{Type: t, Index: el.Index}, el, nil
		case in.X != nil && in.Y != nil:
			if !onScreen(scr, *in.X, *in.Y) {
				return event.Action{}, nil, fmt.Errorf("%w: (%d, %d) is off the %dx%d screen", errBadInput, *in.X, *in.Y, scr.Width, scr.Height)
			}
			return shell("input tap %d %d", *in.X, *in.Y), nil, nil
		}
		return event.Action{}, nil, fmt.Errorf("%w: %s needs an element number or x and y", errBadInput, in.Action)
	case "swipe":
		if in.X != nil || in.X2 != nil {
			if in.X == nil || in.Y == nil || in.X2 == nil || in.Y2 == nil {
				return event.Action{}, nil, fmt.Errorf("%w: a swipe by coordinates needs x, y, x2 and y2", errBadInput)
			}
			if !onScreen(scr, *in.X, *in.Y) || !onScreen(scr, *in.X2, *in.Y2) {
				return event.Action{}, nil, fmt.Errorf("%w: the swipe leaves the %dx%d screen", errBadInput, scr.Width, scr.Height)
			}
			return shell("input swipe %d %d %d %d", *in.X, *in.Y, *in.X2, *in.Y2), nil, nil
		}
		if !validDirection(in.Direction) {
			return event.Action{}, nil, fmt.Errorf("%w: swipe needs direction up, down, left or right (or x, y, x2, y2), not %q", errBadInput, in.Direction)
		}
		if in.Element == 0 {
			return event.Action{Type: event.Swipe, Direction: in.Direction}, nil, nil
		}
		el, err := element()
		if err != nil {
			return event.Action{}, nil, err
		}
		return event.Action{Type: event.Swipe, Index: el.Index, Direction: in.Direction}, el, nil
	case "type":
		if in.Text == "" {
			return event.Action{}, nil, fmt.Errorf("%w: type needs text", errBadInput)
		}
		return event.Action{Type: event.Input, Text: in.Text}, scr.Focused(), nil
	case "key":
		k := strings.TrimSpace(in.Key)
		if k == "" || strings.ContainsFunc(k, func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) {
			return event.Action{}, nil, fmt.Errorf("%w: key %q: give a key name (back, home, enter, …) or a key code", errBadInput, in.Key)
		}
		return shell("input keyevent %s", strings.ToUpper(k)), nil, nil
	case "":
		return event.Action{}, nil, fmt.Errorf("%w: action is required: tap, long_press, type, swipe, key or launch", errBadInput)
	}
	return event.Action{}, nil, fmt.Errorf("%w: unknown action %q: use tap, long_press, type, swipe, key or launch", errBadInput, in.Action)
}

// perform carries out the judged action.
func (s *Server) perform(ctx context.Context, p Phone, in actInput, a event.Action, el *perception.Element, scr *perception.Screen) (string, error) {
	at := func() (int, int, string) {
		if in.X != nil {
			return *in.X, *in.Y, fmt.Sprintf("(%d, %d)", *in.X, *in.Y)
		}
		return el.Center.X, el.Center.Y, describe(el)
	}
	switch in.Action {
	case "tap":
		x, y, what := at()
		return "tapped " + what, p.Tap(ctx, x, y)
	case "long_press":
		x, y, what := at()
		return "long-pressed " + what, p.LongPress(ctx, x, y, longPress)
	case "swipe":
		if in.X != nil {
			return fmt.Sprintf("swiped from (%d, %d) to (%d, %d)", *in.X, *in.Y, *in.X2, *in.Y2), p.Swipe(ctx, *in.X, *in.Y, *in.X2, *in.Y2, 0)
		}
		area, what := perception.Bounds{X2: scr.Width, Y2: scr.Height}, "the screen"
		if el != nil {
			area, what = el.Bounds, describe(el)
		}
		x1, y1, x2, y2 := perception.SwipePath(area, in.Direction)
		return fmt.Sprintf("swiped %s on %s", in.Direction, what), p.Swipe(ctx, x1, y1, x2, y2, 0)
	case "type":
		// The typed text is not repeated: it may be a password.
		return fmt.Sprintf("typed %d characters", len([]rune(in.Text))), textError(p.TypeText(ctx, in.Text))
	case "key":
		return "pressed " + strings.ToLower(strings.TrimSpace(in.Key)), p.Key(ctx, strings.ToLower(strings.TrimSpace(in.Key)))
	}
	return "", fmt.Errorf("%w: unknown action %q", errBadInput, in.Action)
}

// describe names an element as the text form does: [N] role "label".
func describe(el *perception.Element) string {
	if el.Label == "" {
		return fmt.Sprintf("[%d] %s", el.Index, el.Role)
	}
	return fmt.Sprintf("[%d] %s %s", el.Index, el.Role, strconv.QuoteToGraphic(el.Label))
}

func onScreen(s *perception.Screen, x, y int) bool {
	return x >= 0 && y >= 0 && (s.Width == 0 || x < s.Width) && (s.Height == 0 || y < s.Height)
}

func validDirection(d string) bool {
	return d == "up" || d == "down" || d == "left" || d == "right"
}
