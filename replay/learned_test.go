package replay

import (
	"errors"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

const app = "com.example.shezhi"

func item(i int, label, id, class string) perception.Element {
	return perception.Element{Index: i, Role: "item", Label: label, Text: label, ResourceID: app + ":id/" + id, Class: class}
}

// TestResolve: a learned step checks the page and finds its element — by resource-id
// (full or short), label and class, wherever it moved — once; anything else is a
// mismatch that names what is wrong.
func TestResolve(t *testing.T) {
	const row = "android.widget.LinearLayout"
	display := Learned{Activity: ".Main", Signature: "z-main", Kind: "tap",
		Target: Target{ResourceID: app + ":id/display", Text: "显示", Class: row}}
	main := &perception.Screen{Activity: ".Main", Signature: "z-main",
		Elements: []perception.Element{item(1, "声音", "sound", row), item(2, "显示", "display", row)}}
	if a, err := display.Resolve(main); err != nil || a != (event.Action{Type: event.Tap, Index: 2}) {
		t.Errorf("Resolve on main = %v, %v; want Tap(2) (the element moved, found by id and label)", a, err)
	}
	short := display
	short.Target.ResourceID = "display"
	if a, err := short.Resolve(main); err != nil || a.Index != 2 {
		t.Errorf("Resolve by a short resource-id = %v, %v; want Tap(2)", a, err)
	}
	for _, tc := range []struct {
		name   string
		screen *perception.Screen
		want   string
	}{
		{"other page", &perception.Screen{Signature: "z-bright", Elements: main.Elements},
			"learner: screen does not match the shortcut: page z-main expected, screen signature is z-bright"},
		{"other activity", &perception.Screen{Activity: ".Other", Signature: "z-main", Elements: main.Elements},
			"learner: screen does not match the shortcut: activity .Main expected, screen shows .Other"},
		{"element gone", &perception.Screen{Signature: "z-main", Elements: []perception.Element{item(1, "声音", "sound", row)}},
			`learner: screen does not match the shortcut: no element id=display on the screen`},
		{"element twice", &perception.Screen{Signature: "z-main", Elements: []perception.Element{item(1, "显示", "display", row), item(2, "显示", "display", row)}},
			`learner: screen does not match the shortcut: 2 elements match id=display`},
		{"no screen", nil, "learner: screen does not match the shortcut: no screen"},
	} {
		_, err := display.Resolve(tc.screen)
		if !errors.Is(err, ErrMismatch) || err.Error() != tc.want {
			t.Errorf("%s: Resolve = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestResolveRow: a row of a list is held to its label; another element is found by its
// resource-id alone when its text changed (a cart button with its count).
func TestResolveRow(t *testing.T) {
	now := &perception.Screen{Signature: "m-menu", Elements: []perception.Element{
		item(1, "Tea", "menu_item", "android.widget.LinearLayout"),
		item(2, "Coffee", "menu_item", "android.widget.LinearLayout"),
		{Index: 3, Role: "button", Label: "Cart (5)", Text: "Cart (5)", ResourceID: app + ":id/cart_button", Class: "android.widget.Button"},
	}}
	cart := Learned{Signature: "m-menu", Kind: "tap", Target: Target{ResourceID: app + ":id/cart_button", Text: "Cart (2)", Class: "android.widget.Button"}}
	if a, err := cart.Resolve(now); err != nil || a.Index != 3 {
		t.Errorf("Resolve on a cart of 5 = %v, %v; want Tap(3)", a, err)
	}
	juice := Learned{Signature: "m-menu", Kind: "tap", Row: true,
		Target: Target{ResourceID: app + ":id/menu_item", Text: "Juice", Class: "android.widget.LinearLayout"}}
	if _, err := juice.Resolve(now); !errors.Is(err, ErrMismatch) {
		t.Errorf("row Juice resolved on a menu without it: %v", err)
	}
	cart.Row = true
	if _, err := cart.Resolve(now); !errors.Is(err, ErrMismatch) {
		t.Errorf("a row whose label changed resolved: %v", err)
	}
}

// TestResolveKinds: each kind the App Map learns resolves to its action, or, when typing
// or naming a thing needs the model, to a mismatch.
func TestResolveKinds(t *testing.T) {
	field := perception.Element{Index: 1, Role: "field", Label: "Search", ResourceID: app + ":id/search", Class: "android.widget.EditText"}
	screen := &perception.Screen{Signature: "s", Elements: []perception.Element{field}}
	search := Target{ResourceID: app + ":id/search"}
	for _, tc := range []struct {
		step Learned
		want event.Action
		err  string
	}{
		{step: Learned{Kind: "long-press", Target: search}, want: event.Action{Type: event.LongPress, Index: 1}},
		{step: Learned{Kind: "swipe", Direction: "down"}, want: event.Action{Type: event.Swipe, Direction: "down"}},
		{step: Learned{Kind: "swipe", Direction: "left", Target: search}, want: event.Action{Type: event.Swipe, Direction: "left", Index: 1}},
		{step: Learned{Kind: "back"}, want: event.Action{Type: event.Back}},
		{step: Learned{Kind: "home"}, want: event.Action{Type: event.Home}},
		{step: Learned{Kind: "enter"}, want: event.Action{Type: event.Enter}},
		{step: Learned{Kind: "wait"}, want: event.Action{Type: event.Wait, Seconds: 1}},
		{step: Learned{Kind: "open-app", Package: "com.example.maps"}, want: event.Action{Type: event.OpenApp, Package: "com.example.maps"}},
		{step: Learned{Kind: "input", Target: search, Text: "Maps"}, want: event.Action{Type: event.Input, Index: 1, Text: "Maps"}},
		{step: Learned{Kind: "input", Target: search}, err: "learner: screen does not match the shortcut: no text to type"},
		{step: Learned{Kind: "tap"}, err: "learner: screen does not match the shortcut: no element to look for"},
		{step: Learned{Kind: "clear", Target: search}, err: "learner: screen does not match the shortcut: clear cannot be replayed without the model"},
	} {
		tc.step.Signature = "s"
		a, err := tc.step.Resolve(screen)
		switch {
		case tc.err != "" && (!errors.Is(err, ErrMismatch) || err.Error() != tc.err):
			t.Errorf("%s: Resolve = %v, want %q", tc.step.Kind, err, tc.err)
		case tc.err == "" && (err != nil || a != tc.want):
			t.Errorf("%s: Resolve = %+v, %v; want %+v", tc.step.Kind, a, err, tc.want)
		}
	}
	// A swipe with no direction is no action.
	if _, err := (Learned{Signature: "s", Kind: "swipe"}).Resolve(screen); err == nil {
		t.Error("a swipe with no direction resolved")
	}
}

// TestResolveChecked: a switch is read before it is tapped: one that already shows the
// state the step is for (the opposite of the one it was learned in, or Want when the
// task's own word says it) is skipped (ErrSatisfied), never a tap that undoes it; a
// switch that shows no state is a surprise.
func TestResolveChecked(t *testing.T) {
	on, off := true, false
	sw := perception.Element{Index: 1, Label: "All Maps notifications", Text: "All Maps notifications", ResourceID: app + ":id/switch_bar",
		Class: "android.widget.Switch", Checkable: true, Clickable: true}
	step := Learned{Signature: "r-notif", Kind: "tap", Checked: &on, Target: Target{ResourceID: app + ":id/switch_bar", Text: "All Maps notifications"}}
	offScreen := &perception.Screen{Signature: "r-notif", Elements: []perception.Element{sw}}
	want := `already in the wanted state: "All Maps notifications" is already off`
	if _, err := step.Resolve(offScreen); !errors.Is(err, ErrSatisfied) || err.Error() != want {
		t.Errorf("Resolve on a switch already off = %v, want %q", err, want)
	}
	sw.Checked = true
	onScreen := &perception.Screen{Signature: "r-notif", Elements: []perception.Element{sw}}
	if a, err := step.Resolve(onScreen); err != nil || a != (event.Action{Type: event.Tap, Index: 1}) {
		t.Errorf("Resolve on the switch as learned = %+v, %v; want Tap 1", a, err)
	}
	// The task says on: learned turning it off, the step now turns an off switch on and
	// leaves an on switch alone.
	step.Want = &on
	if _, err := step.Resolve(onScreen); !errors.Is(err, ErrSatisfied) {
		t.Errorf("Resolve, want on, on a switch on = %v, want ErrSatisfied", err)
	}
	if a, err := step.Resolve(offScreen); err != nil || a != (event.Action{Type: event.Tap, Index: 1}) {
		t.Errorf("Resolve, want on, on a switch off = %+v, %v; want Tap 1", a, err)
	}
	step.Want = &off
	plain := perception.Element{Index: 1, Label: "All Maps notifications", Text: "All Maps notifications", ResourceID: app + ":id/switch_bar", Class: "android.widget.TextView"}
	if _, err := step.Resolve(&perception.Screen{Signature: "r-notif", Elements: []perception.Element{plain}}); !errors.Is(err, ErrMismatch) {
		t.Errorf("Resolve on an element that shows no state = %v, want a mismatch", err)
	}
}

// TestResolveCheckedRow: a settings row whose switch is its child is judged by that
// switch: tapped to turn Battery Saver on, a row whose switch is already on is skipped
// (a learned double tap after a dead one never turns it back off).
func TestResolveCheckedRow(t *testing.T) {
	off := false
	row := perception.Element{Index: 2, Label: "Battery Saver", Text: "Battery Saver", ResourceID: app + ":id/switch_row",
		Class: "android.widget.LinearLayout", Clickable: true, Bounds: perception.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 400}}
	sw := perception.Element{Index: 3, ResourceID: app + ":id/switch_widget", Class: "android.widget.Switch", Checkable: true,
		Center: perception.Point{X: 980, Y: 300}, Checked: true}
	step := Learned{Signature: "r-battery", Kind: "tap", Checked: &off, Target: Target{ResourceID: app + ":id/switch_row", Text: "Battery Saver"}}
	if _, err := step.Resolve(&perception.Screen{Signature: "r-battery", Elements: []perception.Element{row, sw}}); !errors.Is(err, ErrSatisfied) {
		t.Errorf("Resolve on a row whose switch is already on = %v, want it skipped", err)
	}
	sw.Checked = false
	if a, err := step.Resolve(&perception.Screen{Signature: "r-battery", Elements: []perception.Element{row, sw}}); err != nil || a != (event.Action{Type: event.Tap, Index: 2}) {
		t.Errorf("Resolve on the row as learned = %+v, %v; want Tap 2", a, err)
	}
}

// TestTarget: a target reads as the App Map's element does.
func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{ResourceID: "com.x:id/send", Text: "Send", Class: "android.widget.Button"}, `id=send "Send"`},
		{Target{Desc: "More options"}, `desc="More options"`},
		{Target{Class: "android.widget.ImageButton"}, "ImageButton"},
		{Target{}, ""},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	if !SameID("com.x:id/send", "send") || SameID("com.x:id/send", "com.x:id/sent") || ShortID("send") != "send" {
		t.Error("SameID/ShortID do not compare resource-ids full or short")
	}
}

// TestFuzzyMatch: the benchmark's fuzzy match, difflib's ratio ≥ 0.9 with case ignored
// (the ratios in the comments are Python difflib's).
func TestFuzzyMatch(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Schönberg, Liechtenstein", "Schonberg, Liechtenstein", true}, // 0.958
		{"Grocery Shopping", "Grocery Shoping", true},                  // 0.968
		{"Doctor Visits", "doctor visits", true},                       // 1
		{"Dress", "Dresser", false},                                    // 0.833
		{"abcde", "xyz", false},                                        // 0
	} {
		if got := FuzzyMatch(tc.a, tc.b); got != tc.want {
			t.Errorf("FuzzyMatch(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestResolveRowByArgument: a row step taps the row its argument names: exactly, or the
// one row whose label fuzzy-matches it; a row that is only like it, or two rows that
// match, are a mismatch (the replay hands back), never a tap on another row.
func TestResolveRowByArgument(t *testing.T) {
	row := func(i int, label string) perception.Element {
		return perception.Element{Index: i, Label: label, Text: label, ResourceID: app + ":id/expense_row", Class: "android.widget.LinearLayout"}
	}
	step := Learned{Signature: "e-list", Kind: "tap", Row: true, Target: Target{ResourceID: app + ":id/expense_row", Text: "Grocery Shopping", Class: "android.widget.LinearLayout"}}
	for _, tc := range []struct {
		rows []perception.Element
		want int // the index tapped, 0 for a mismatch
	}{
		{[]perception.Element{row(1, "Dress"), row(2, "Grocery Shopping")}, 2},
		{[]perception.Element{row(1, "Dress"), row(2, "grocery shopping ")}, 2},
		{[]perception.Element{row(1, "Dress"), row(2, "Grocery")}, 0},
		{[]perception.Element{row(1, "Grocery shopping"), row(2, "grocery Shopping")}, 0},
	} {
		a, err := step.Resolve(&perception.Screen{Signature: "e-list", Elements: tc.rows})
		switch {
		case tc.want == 0 && !errors.Is(err, ErrMismatch):
			t.Errorf("rows %v: Resolve = %+v, %v; want a mismatch", tc.rows, a, err)
		case tc.want > 0 && (err != nil || a.Index != tc.want):
			t.Errorf("rows %v: Resolve = %+v, %v; want a tap on %d", tc.rows, a, err, tc.want)
		}
	}
}
