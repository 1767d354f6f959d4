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
