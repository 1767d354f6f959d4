package grounding

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestParseExponentIsOneNumber: a number in exponent form (JSON allows 1e2; a model may
// write it) is one number, not two. Read as digit runs, [1e2,5e2] was four numbers, a box
// whose centre (3,2) sits in the screen's corner: a silent misclick instead of the point
// the model meant, or a clear error.
func TestParseExponentIsOneNumber(t *testing.T) {
	for _, c := range []struct {
		f    Family
		text string
		want Point
	}{
		{QwenVL, `<tool_call>{"name":"mobile_use","arguments":{"action":"click","coordinate":[1e2,3e2]}}</tool_call>`, Point{100, 300}},
		{AutoGLM, `do(action="Tap", element=[1e2,5e2])`, Point{100, 500}},
		{UITARS, `Action: click(start_box='(1.5E2,2e+2)')`, Point{150, 200}},
	} {
		as, err := Parse(c.f, c.text)
		if err != nil || len(as) != 1 || as[0].Point != c.want {
			t.Errorf("%s %s: got %v, %v; want a tap at %v", c.f, c.text, as, err, c.want)
		}
	}
	// A huge number is read as what it is, and the frame refuses it with a clear error.
	as, err := Parse(UITARS, `Action: click(start_box='(1e308,5)')`)
	if err != nil || len(as) != 1 {
		t.Fatalf("1e308: %v, %v", as, err)
	}
	if _, err := (Frame{Kind: Norm1000}).ToScreen(as[0].Point, 1080, 2400); !errors.Is(err, ErrOffFrame) {
		t.Errorf("1e308 on screen: %v, want ErrOffFrame", err)
	}
	// A number too large for a float is not a point.
	if as, err := Parse(UITARS, `Action: click(start_box='(1e999,5)')`); !errors.Is(err, ErrSyntax) {
		t.Errorf("1e999: %v, %v; want ErrSyntax", as, err)
	}
}

// TestElementAtPrefersTheButton: a point on an unlabelled icon or a text drawn inside a
// button is a tap on the button (the smallest actionable element holding it), so that the
// guard judges "Pay", not an icon it has no word for; with nothing actionable under the
// point, the smallest element is the target, but never a list (its centre is another row).
func TestElementAtPrefersTheButton(t *testing.T) {
	pay := perception.Element{Index: 1, Role: "button", Label: "Pay", Clickable: true, Enabled: true,
		Bounds: perception.Bounds{X1: 100, Y1: 1000, X2: 980, Y2: 1150}}
	icon := perception.Element{Index: 2, Role: "image", Enabled: true, Bounds: perception.Bounds{X1: 120, Y1: 1040, X2: 190, Y2: 1110}}
	list := perception.Element{Index: 3, Role: "list", Scrollable: true, Enabled: true, Bounds: perception.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 900}}
	text := perception.Element{Index: 4, Role: "text", Label: "Hello", Enabled: true, Bounds: perception.Bounds{X1: 40, Y1: 300, X2: 600, Y2: 360}}
	s := &perception.Screen{Width: 1080, Height: 2400, Elements: []perception.Element{pay, icon, list, text}}
	for _, c := range []struct {
		p    Point
		want int
	}{{Point{155, 1075}, 1}, {Point{540, 1075}, 1}, {Point{300, 330}, 4}, {Point{300, 375}, 4}, {Point{900, 700}, 0}} {
		// A point in the list's empty part is on no element: a tap at the point, not at
		// the list's centre; one a few pixels off a row is that row.
		if i, ok := ElementAt(s, c.p, 24); ok != (c.want != 0) || i != c.want {
			t.Errorf("point %v: element %d (%v), want %d", c.p, i, ok, c.want)
		}
	}
}

// TestParseErrorsQuoteTheAnswer: an error quotes what the model wrote as a Go string, so a
// terminal escape in a hostile answer is shown, never sent to the person's terminal when
// `fairy model probe` prints why an answer held no tap.
func TestParseErrorsQuoteTheAnswer(t *testing.T) {
	for _, c := range []struct {
		f    Family
		text string
	}{
		{AutoGLM, "do(action=\"Tap\", element=\"\x1b]0;owned\x07\x1b[2J\")"},
		{UITARS, "Action: click(start_box='\x1b[2J')"},
		{QwenVL, "<tool_call>{\"name\":\"mobile_use\",\"arguments\":{\"action\":\"click\",\"coordinate\":\"\\u001b[2J\"}}</tool_call>"},
	} {
		_, err := Parse(c.f, c.text)
		if err == nil {
			t.Fatalf("%s %q: no error", c.f, c.text)
		}
		if strings.ContainsAny(err.Error(), "\x1b\x07") {
			t.Errorf("%s: the error holds the answer's control characters: %q", c.f, err)
		}
	}
}

// TestParseUITARSTextHoldingAction: a text to type that holds "Action:" (a note, a line
// copied from the screen) is typed; what follows the word inside the text is no action.
// Read from the last "Action:" anywhere, the answer below was a tap at (10,10) or Home.
func TestParseUITARSTextHoldingAction(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Thought: type the note\nAction: type(content=\"Action: click(start_box='(10,10)')\")", "Action: click(start_box='(10,10)')"},
		{"Thought: type the note\nAction: type(content='Remember: Action: press_home()')", "Remember: Action: press_home()"},
	} {
		as, err := Parse(UITARS, c.text)
		if err != nil || len(as) != 1 || as[0].Kind != Type || as[0].Text != c.want {
			t.Errorf("%q: got %v, %v; want type %q", c.text, as, err, c.want)
		}
	}
	// One line, as some servers join the answer: the first Action: still starts the actions.
	if as, err := Parse(UITARS, "Thought: go back Action: press_back()"); err != nil || len(as) != 1 || as[0].Kind != Back {
		t.Errorf("one line: %v, %v", as, err)
	}
}

// TestParseBareCallNestedObject: an object inside a bare mobile_use call's arguments is
// part of that call, not a second call: read as one, it was a tap at (5,5) the model never
// asked for.
func TestParseBareCallNestedObject(t *testing.T) {
	as, err := Parse(QwenVL, `{"name":"mobile_use","arguments":{"action":"type","text":"hi","note":{"name":"mobile_use","arguments":{"action":"click","coordinate":[5,5]}}}}`)
	if err != nil || len(as) != 1 || as[0].Kind != Type {
		t.Errorf("got %v, %v; want only the typing", as, err)
	}
	// Two calls one after the other are both read.
	as, err = Parse(QwenVL, `{"name":"mobile_use","arguments":{"action":"click","coordinate":[1,2]}} {"name":"mobile_use","arguments":{"action":"terminate","status":"success"}}`)
	if err != nil || len(as) != 2 {
		t.Errorf("two bare calls: %v, %v", as, err)
	}
}
