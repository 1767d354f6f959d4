package executor

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/perception"
)

// TestPointOnAnIconInsidePayIsHeld: a coordinate model's point on the unlabelled icon or
// the total drawn inside a Pay button presses the button; the element it becomes must be
// the one the guard holds for consent, named "Pay" with its amount, not the icon the guard
// has no word for.
func TestPointOnAnIconInsidePayIsHeld(t *testing.T) {
	g := defaultGuard(t)
	pay := button(1, "Pay", 1000)
	icon := perception.Element{Index: 2, Role: "image", Class: "android.widget.ImageView", Enabled: true,
		Bounds: perception.Bounds{X1: 120, Y1: 1040, X2: 190, Y2: 1110}, Center: perception.Point{X: 155, Y: 1075}}
	total := perception.Element{Index: 3, Role: "text", Label: "Total ¥18", Text: "Total ¥18", Class: "android.widget.TextView", Enabled: true,
		Bounds: perception.Bounds{X1: 600, Y1: 1040, X2: 900, Y2: 1110}, Center: perception.Point{X: 750, Y: 1075}}
	s := &perception.Screen{Signature: "x", Width: 1080, Height: 2400, Elements: []perception.Element{pay, icon, total}}
	for _, p := range []grounding.Point{{X: 155, Y: 1075}, {X: 750, Y: 1075}} {
		i, ok := grounding.ElementAt(s, p, groundingTolerance)
		if !ok {
			t.Fatalf("point %v: no element", p)
		}
		v, hit := g.Check(event.Action{Type: event.Tap, Index: i}, &s.Elements[i-1], s)
		if !hit || v.Category != "payment" || v.Target != "Pay" {
			t.Errorf("point %v became element %d: verdict %+v, held %v; want the payment held, naming Pay", p, i, v, hit)
		}
	}
}

// TestTypeAfterATapOnNoField: a coordinate answer that taps something that is no text
// field (a web page's field the tree does not show, a label) and then types meant the
// text for what it tapped; it is told to tap a field, never typed into another field of
// the screen (here the search bar, the only one).
func TestTypeAfterATapOnNoField(t *testing.T) {
	search := perception.Element{Index: 1, Role: "input", Label: "Search", Editable: true, Clickable: true, Enabled: true,
		Bounds: perception.Bounds{X1: 0, Y1: 100, X2: 1080, Y2: 220}, Center: perception.Point{X: 540, Y: 160}}
	web := perception.Element{Index: 2, Role: "webview", Enabled: true,
		Bounds: perception.Bounds{X1: 0, Y1: 300, X2: 1080, Y2: 1200}, Center: perception.Point{X: 540, Y: 750}}
	send := perception.Element{Index: 3, Role: "button", Label: "Note", Clickable: true, Enabled: true,
		Bounds: perception.Bounds{X1: 0, Y1: 1500, X2: 1080, Y2: 1650}, Center: perception.Point{X: 540, Y: 1575}}
	r := &run{screen: &perception.Screen{Width: 1080, Height: 2400, Elements: []perception.Element{search, web, send}}, pointTaps: map[string]bool{}}
	fr := grounding.Frame{Kind: grounding.Absolute, W: 1080, H: 2400}
	typ := grounding.Action{Kind: grounding.Type, Text: "my secret note"}
	for _, p := range []grounding.Point{{X: 540, Y: 700}, {X: 540, Y: 1575}, {X: 540, Y: 2300}} {
		tap, why := r.fromPoint(fr, grounding.Action{Kind: grounding.Tap, Point: p, HasPoint: true}, nil)
		if why != "" {
			t.Fatalf("tap %v: %s", p, why)
		}
		a, why := r.fromPoint(fr, typ, []event.Action{tap})
		if why == "" || a.Type == event.Input {
			t.Errorf("tap %v (%s), then type: %s into [%d]; want a problem for the model", p, tap, a.Type, a.Index)
		}
	}
	// Tapping the field itself, or typing alone into the one field, types there.
	tap, _ := r.fromPoint(fr, grounding.Action{Kind: grounding.Tap, Point: grounding.Point{X: 540, Y: 160}, HasPoint: true}, nil)
	for _, before := range [][]event.Action{{tap}, nil} {
		if a, why := r.fromPoint(fr, typ, before); why != "" || a.Type != event.Input || a.Index != 1 {
			t.Errorf("after %v: %s [%d] %q", before, a.Type, a.Index, why)
		}
	}
}
