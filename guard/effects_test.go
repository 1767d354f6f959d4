package guard

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// TestGuardLearned: an element an action was once seen to delete, send or pay with is
// held in another language — by its resource id on the same activity, or, with no id, by
// its place on the page or its label — and the question says what it did last time; a
// harmless button, an element of another activity, a dialog's framework id elsewhere on
// the page, and a gesture that is no tap are not held.
func TestGuardLearned(t *testing.T) {
	g, err := New(DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	const app = "com.fairy.tidy"
	known := []event.LearnedEffect{
		{Category: "delete", Evidence: "deleted a row", Activity: ".MainActivity", ResourceID: app + ":id/go", Class: "android.widget.Button", Label: "Go", X: 810, Y: 2190},
		{Category: "send", Evidence: "sent the typed text: it showed as a new line", Activity: app + ".ChatActivity", Class: "android.widget.ImageView", X: 1000, Y: 2200},
		{Category: "payment", Evidence: "paid: an order number appeared after an amount", Activity: app + ".PayActivity", Class: "android.widget.ImageView", Label: "⚡"},
		{Category: "delete", Evidence: "deleted a row", Activity: app + ".MainActivity", ResourceID: "android:id/button1", Class: "android.widget.Button", X: 800, Y: 1400},
	}
	screen := func(activity string, el perception.Element) *perception.Screen {
		el.Index = 1
		return &perception.Screen{Package: app, Activity: app + activity, Width: 1080, Height: 2400, Elements: []perception.Element{el}}
	}
	button := func(label, id string, b perception.Bounds) perception.Element {
		return perception.Element{Label: label, Text: label, ResourceID: id, Class: "android.widget.Button", Role: "button", Bounds: b, Center: b.Center()}
	}
	icon := func(desc string, b perception.Bounds) perception.Element {
		return perception.Element{Label: desc, Desc: desc, Class: "android.widget.ImageView", Role: "image", Bounds: b, Center: b.Center()}
	}
	bar := perception.Bounds{X1: 540, Y1: 2120, X2: 1080, Y2: 2260}
	tap := event.Action{Type: event.Tap, Index: 1}
	tests := []struct {
		name     string
		a        event.Action
		s        *perception.Screen
		category string // "" not held
	}{
		{"German Los, the same id", tap, screen(".MainActivity", button("Los", app+":id/go", bar)), "delete"},
		{"Japanese, the same id, moved", tap, screen(".MainActivity", button("実行", app+":id/go", perception.Bounds{X1: 0, Y1: 0, X2: 200, Y2: 100})), "delete"},
		{"long press on it", event.Action{Type: event.LongPress, Index: 1}, screen(".MainActivity", button("Los", app+":id/go", bar)), "delete"},
		{"a swipe is no tap", event.Action{Type: event.Swipe, Index: 1, Direction: "up"}, screen(".MainActivity", button("Los", app+":id/go", bar)), ""},
		{"the harmless button beside it", tap, screen(".MainActivity", button("Aktualisieren", app+":id/refresh", perception.Bounds{X1: 0, Y1: 2120, X2: 540, Y2: 2260})), ""},
		{"the same id on another activity", tap, screen(".OtherActivity", button("Los", app+":id/go", bar)), ""},
		{"an id-less icon at its place", tap, screen(".ChatActivity", icon("", perception.Bounds{X1: 940, Y1: 2140, X2: 1060, Y2: 2260})), "send"},
		{"an id-less icon elsewhere", tap, screen(".ChatActivity", icon("", perception.Bounds{X1: 0, Y1: 0, X2: 100, Y2: 100})), ""},
		{"an id-less icon by its label", tap, screen(".PayActivity", icon("⚡", perception.Bounds{X1: 0, Y1: 0, X2: 100, Y2: 100})), "payment"},
		{"a dialog's button1 at its place", tap, screen(".MainActivity", button("OK", "android:id/button1", perception.Bounds{X1: 700, Y1: 1350, X2: 900, Y2: 1450})), "delete"},
		{"another dialog's button1 elsewhere", tap, screen(".MainActivity", button("OK", "android:id/button1", perception.Bounds{X1: 700, Y1: 1600, X2: 900, Y2: 1700})), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := &tc.s.Elements[0]
			if v, hit := g.Check(tc.a, el, tc.s); hit {
				t.Fatalf("the words alone hold it (%+v): no test of what was learned", v)
			}
			v, hit := g.Learned(tc.a, el, tc.s, known)
			if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
				t.Fatalf("category %q, want %q (verdict %+v)", got, tc.category, v)
			}
			if hit && (!strings.Contains(v.Subject, "last time this") || v.Type == 0 || v.Action == "") {
				t.Errorf("verdict %+v: the question must say what it did last time, with a type and an identity", v)
			}
			if _, hit := g.Learned(tc.a, el, tc.s, nil); hit {
				t.Error("held with nothing learned")
			}
		})
	}
}
