package mcp

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
)

// payPage is a payment sheet: a text field, an amount, a Pay button and a Cancel button.
const payPage = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
<node index="0" text="Total ¥18.00" resource-id="com.example.wallet:id/total" class="android.widget.TextView" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,200][1080,300]" />
<node index="1" text="" resource-id="com.example.wallet:id/note" class="android.widget.EditText" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,400][1080,520]" />
<node index="2" text="Pay ¥18" resource-id="com.example.wallet:id/pay" class="android.widget.Button" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[100,2000][980,2150]" />
<node index="3" text="Cancel" resource-id="com.example.wallet:id/cancel" class="android.widget.Button" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[100,2200][980,2350]" />
</node>
</hierarchy>`

func parsePayPage(t *testing.T) *perception.Screen {
	t.Helper()
	s, err := perception.Parse([]byte(payPage))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Elements) != 3 {
		t.Fatalf("the page has %d elements, want the field and two buttons:\n%s", len(s.Elements), s.Text())
	}
	return s
}

func intp(n int) *int { return &n }

// TestActJudgedLikeTheAgent: every way act can reach the Pay button — its number, a point
// on it, a long press, a swipe starting on it, Enter in the focused field of the sheet —
// is held by the guard; Cancel, Back and typing plain text are not.
func TestActJudgedLikeTheAgent(t *testing.T) {
	scr := parsePayPage(t)
	pay := -1
	for _, e := range scr.Elements {
		if strings.Contains(e.Label, "Pay") {
			pay = e.Index
		}
	}
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   actInput
		held bool
	}{
		{"tap Pay by number", actInput{Action: "tap", Element: pay}, true},
		{"tap Pay by point", actInput{Action: "tap", X: intp(540), Y: intp(2075)}, true},
		{"long press Pay", actInput{Action: "long_press", Element: pay}, true},
		{"swipe from Pay", actInput{Action: "swipe", X: intp(540), Y: intp(2075), X2: intp(540), Y2: intp(1000)}, true},
		{"enter in the sheet's field", actInput{Action: "key", Key: "enter"}, true},
		{"type with a line break", actInput{Action: "type", Text: "thanks\n"}, true},
		{"tap Cancel", actInput{Action: "tap", X: intp(540), Y: intp(2275)}, false},
		{"back", actInput{Action: "key", Key: "back"}, false},
		{"type a note", actInput{Action: "type", Text: "thanks"}, false},
		{"scroll the screen", actInput{Action: "swipe", Direction: "up"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, el, err := resolve(tc.in, scr)
			if err != nil {
				t.Fatal(err)
			}
			v, held := g.Check(a, el, scr)
			if held != tc.held {
				t.Errorf("%+v: held %v (%+v), want %v", a, held, v, tc.held)
			}
			if held && v.Category != "payment" {
				t.Errorf("category %q, want payment", v.Category)
			}
		})
	}
}

// TestActBadArguments: each mistake gets an error that says what to give instead.
func TestActBadArguments(t *testing.T) {
	scr := parsePayPage(t)
	for _, tc := range []struct {
		in   actInput
		want string
	}{
		{actInput{}, "action is required"},
		{actInput{Action: "fly"}, `unknown action "fly"`},
		{actInput{Action: "tap"}, "needs an element number or x and y"},
		{actInput{Action: "tap", Element: 4}, "element 4 is not on the screen (it has 3"},
		{actInput{Action: "tap", Element: -1}, "numbers start at 1"},
		{actInput{Action: "tap", Element: 1, X: intp(1), Y: intp(1)}, "not both"},
		{actInput{Action: "tap", X: intp(1080), Y: intp(10)}, "off the 1080x2400 screen"},
		{actInput{Action: "swipe", X: intp(1), Y: intp(1)}, "needs x, y, x2 and y2"},
		{actInput{Action: "swipe", Direction: "diagonal"}, "direction up, down, left or right"},
		{actInput{Action: "type"}, "type needs text"},
		{actInput{Action: "key"}, "give a key name"},
		{actInput{Action: "key", Key: "back;reboot"}, "give a key name"},
	} {
		_, _, err := resolve(tc.in, scr)
		if !errors.Is(err, errBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestNewNeedsItsParts: a server without its hooks is a configuration error, not a panic
// at the first call.
func TestNewNeedsItsParts(t *testing.T) {
	if _, err := New(Config{}); !errors.Is(err, errConfig) {
		t.Errorf("err = %v, want ErrConfig", err)
	}
}
