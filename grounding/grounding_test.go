package grounding

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestRecordedExamples parses every recorded answer of every family (testdata/examples.json,
// each with its source).
func TestRecordedExamples(t *testing.T) {
	b, err := os.ReadFile("testdata/examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var exs []struct {
		Family Family
		Source string
		Text   string
		Want   []string
	}
	if err := json.Unmarshal(b, &exs); err != nil {
		t.Fatal(err)
	}
	seen := map[Family]int{}
	for _, ex := range exs {
		if ex.Source == "" {
			t.Errorf("%q: no source", ex.Text)
		}
		seen[ex.Family]++
		as, err := Parse(ex.Family, ex.Text)
		if err != nil {
			t.Errorf("%s %q: %v", ex.Family, ex.Text, err)
			continue
		}
		var got []string
		for _, a := range as {
			got = append(got, a.String())
		}
		if strings.Join(got, "; ") != strings.Join(ex.Want, "; ") {
			t.Errorf("%s %q:\n got %q\nwant %q", ex.Family, ex.Text, got, ex.Want)
		}
	}
	for _, f := range Families() {
		if seen[f] < 3 {
			t.Errorf("%s has %d recorded examples, want at least 3", f, seen[f])
		}
	}
}

// TestFormatRoundTrip: what Format writes, Parse reads back, for every family, frame and kind.
func TestFormatRoundTrip(t *testing.T) {
	frames := []Frame{{Kind: Absolute, W: 1092, H: 2408}, {Kind: Norm1000}, {Kind: Norm999}, {Kind: Unit}}
	for _, f := range Families() {
		for _, fr := range frames {
			p := Point{X: 120, Y: 640}
			e := Point{X: 120, Y: 300}
			if fr.Kind == Unit {
				p, e = Point{X: 0.125, Y: 0.5}, Point{X: 0.125, Y: 0.25}
			}
			as := []Action{
				{Kind: Tap, Point: p, HasPoint: true},
				{Kind: LongPress, Point: p, HasPoint: true},
				{Kind: Type, Text: `it's "quoted"`},
				{Kind: Enter},
				{Kind: Swipe, Point: p, HasPoint: true, End: e, HasEnd: true},
				{Kind: Back}, {Kind: Home},
				{Kind: Launch, Text: "com.android.settings"},
				{Kind: Finish, Text: "7:00 it is"},
			}
			text := FormatAnswer(f, fr, "why I act", as)
			got, err := Parse(f, text)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", f, fr.Kind, err, text)
			}
			if len(got) != len(as) {
				t.Fatalf("%s %s: %d actions back, want %d\n%s\n%v", f, fr.Kind, len(got), len(as), text, got)
			}
			for i := range as {
				if got[i].String() != as[i].String() {
					t.Errorf("%s %s: action %d = %s, want %s", f, fr.Kind, i, got[i], as[i])
				}
			}
			if th := Thought(f, text); th != "why I act" {
				t.Errorf("%s: thought %q", f, th)
			}
		}
	}
}

func TestParseErrorsSayWhatToDo(t *testing.T) {
	for _, c := range []struct {
		f    Family
		text string
		want string
	}{
		{UITARS, "Thought: hm\nAction: click()", "start_box"},
		{UITARS, "Thought: I am not sure.", "no action"},
		{UITARS, "Action: jump(start_box='(1,2)')", "not in the action space"},
		{AutoGLM, `<answer>do(action="Tap", element=[1,2,3])</answer>`, "list of 2 integers"},
		{AutoGLM, `<answer>do(action="Fly")</answer>`, "not in the action space"},
		{QwenVL, `<tool_call>{"name": "mobile_use", "arguments": {"action": "click"}}</tool_call>`, "needs a coordinate"},
		{QwenVL, `<tool_call>{"name": "computer_use", "arguments": {"action": "click"}}</tool_call>`, "call mobile_use"},
		{GUIOwl, `<tool_call>{"name": "mobile_use", "arguments": {`, "not JSON"},
		{Som, `{"actions": []}`, "not coordinates"},
	} {
		_, err := Parse(c.f, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: err %v, want one saying %q", c.f, c.text, err, c.want)
		}
	}
}

func TestToScreen(t *testing.T) {
	for _, c := range []struct {
		fr   Frame
		p    Point
		want Point
	}{
		{Frame{Kind: Absolute, W: 540, H: 1200}, Point{X: 270, Y: 600}, Point{X: 540, Y: 1200}},
		{Frame{Kind: Norm1000}, Point{X: 500, Y: 500}, Point{X: 540, Y: 1200}},
		{Frame{Kind: Norm1000}, Point{X: 1000, Y: 1000}, Point{X: 1079, Y: 2399}},
		{Frame{Kind: Norm999}, Point{X: 911, Y: 80}, Point{X: 983, Y: 192}}, // Open-AutoGLM: int(911/1000*1080)
		{Frame{Kind: Unit}, Point{X: 0.25, Y: 0.5}, Point{X: 270, Y: 1200}},
	} {
		got, err := c.fr.ToScreen(c.p, 1080, 2400)
		if err != nil || got != c.want {
			t.Errorf("%s ToScreen(%s) = %s, %v; want %s", c.fr, c.p, got, err, c.want)
		}
		// FromScreen lands back on the same pixel (up to the frame's grain).
		back, err := c.fr.ToScreen(c.fr.FromScreen(c.want, 1080, 2400), 1080, 2400)
		if err != nil || absf(back.X-c.want.X) > 2 || absf(back.Y-c.want.Y) > 3 {
			t.Errorf("%s: FromScreen(%s) maps back to %s, %v", c.fr, c.want, back, err)
		}
	}
	for _, c := range []struct {
		fr Frame
		p  Point
	}{
		{Frame{Kind: Norm1000}, Point{X: 1080, Y: 500}},
		{Frame{Kind: Norm999}, Point{X: 1000, Y: 10}},
		{Frame{Kind: Absolute, W: 540, H: 1200}, Point{X: 100, Y: 2300}},
		{Frame{Kind: Unit}, Point{X: 540, Y: 1200}},
		{Frame{Kind: Norm1000}, Point{X: -3, Y: 10}},
	} {
		_, err := c.fr.ToScreen(c.p, 1080, 2400)
		if !errors.Is(err, ErrOffFrame) || !strings.Contains(err.Error(), "give a point on the screen") {
			t.Errorf("%s ToScreen(%s): err %v, want an off-frame error telling the model the range", c.fr, c.p, err)
		}
	}
	if _, err := (Frame{Kind: Absolute}).ToScreen(Point{X: 1, Y: 1}, 1080, 2400); err == nil {
		t.Error("an absolute frame without the image's size mapped a point")
	}
}

func absf(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestElementAt(t *testing.T) {
	s := &perception.Screen{Width: 1080, Height: 2400, Elements: []perception.Element{
		{Index: 1, Bounds: perception.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 2200}, Scrollable: true}, // a list
		{Index: 2, Bounds: perception.Bounds{X1: 0, Y1: 300, X2: 1080, Y2: 450}, Clickable: true},   // a row in it
		{Index: 3, Bounds: perception.Bounds{X1: 900, Y1: 320, X2: 1040, Y2: 430}, Clickable: true}, // a switch on the row
		{Index: 4, Bounds: perception.Bounds{X1: 40, Y1: 2250, X2: 300, Y2: 2350}, Clickable: true}, // a button below the list
	}}
	for _, c := range []struct {
		p    Point
		tol  int
		want int
		ok   bool
	}{
		{Point{X: 960, Y: 370}, 0, 3, true},   // the smallest that contains it
		{Point{X: 500, Y: 370}, 0, 2, true},   // the row
		{Point{X: 500, Y: 1000}, 0, 0, false}, // only the list: a tap at the point, not at the list's centre
		{Point{X: 310, Y: 2300}, 30, 4, true},
		{Point{X: 500, Y: 2380}, 30, 0, false}, // nothing within 30 px
		{Point{X: 320, Y: 2300}, 10, 0, false},
	} {
		got, ok := ElementAt(s, c.p, c.tol)
		if got != c.want || ok != c.ok {
			t.Errorf("ElementAt(%s, %d) = %d, %v; want %d, %v", c.p, c.tol, got, ok, c.want, c.ok)
		}
	}
}

func TestFrameLine(t *testing.T) {
	for _, fr := range []Frame{{Kind: Absolute, W: 1092, H: 2408}, {Kind: Norm1000}, {Kind: Norm999}, {Kind: Unit}} {
		line := FrameLine(fr, 1080, 2400)
		got, w, h, ok := ReadFrameLine("intro\n" + line + "\nmore")
		if !ok || got != fr || w != 1080 || h != 2400 {
			t.Errorf("ReadFrameLine(%q) = %v %d %d %v", line, got, w, h, ok)
		}
	}
}

func TestParseFamily(t *testing.T) {
	for in, want := range map[string]Family{"": Som, "UITARS": UITARS, "qwen-vl": QwenVL, "Qwen3-VL": QwenVL, "gui-owl": GUIOwl, "auto": Auto, "autoglm": AutoGLM} {
		if got, err := ParseFamily(in); err != nil || got != want {
			t.Errorf("ParseFamily(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFamily("llava"); !errors.Is(err, ErrFamily) || !strings.Contains(err.Error(), "use som, uitars") {
		t.Errorf("ParseFamily(llava): %v", err)
	}
}
