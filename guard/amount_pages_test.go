package guard

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// TestGuardHoldsAmountPages (issue 38 §6): amounts written Rs. 300, Rs.300/-, 300 USDT
// and 0.5 ETH, a page that says "Amount: 300", and a page that shows a UPI handle make
// Confirm, Yes and Proceed a payment; the way out and a plain "Details" page stay free.
func TestGuardHoldsAmountPages(t *testing.T) {
	g := defaultGuard(t)
	page := func(label string, context ...string) (*perception.Screen, *perception.Element) {
		s := &perception.Screen{Signature: "p", Context: context, Width: 1080, Height: 2400,
			Elements: []perception.Element{button(1, label, 1800), button(2, "Cancel", 2000)}}
		return s, &s.Elements[0]
	}
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct {
		label    string
		context  []string
		category string
	}{
		{"Confirm", []string{"Details", "Rs. 300"}, "payment"},
		{"Yes", []string{"Pay merchant?", "Rs.300/-"}, "payment"},
		{"Proceed", []string{"Total", "300 USDT", "Network TRC20"}, "payment"},
		{"Confirm", []string{"Payment", "0.5 ETH", "Network: Ethereum"}, "payment"},
		{"Proceed", []string{"Amount: 300"}, "payment"},
		{"Yes", []string{"Details", "bob@okbank"}, "payment"},
		{"Confirm", []string{"To: bob@okbank", "Amount: 300"}, "payment"},
		// Harmless: no money on the page, or the way out.
		{"OK", []string{"Details", "Order #300"}, ""},
		{"Confirm", []string{"Contact", "bob@example.com"}, ""},
		{"Proceed", []string{"Step 3: 300 photos"}, ""},
		{"Cancel", []string{"Details", "Rs. 300"}, ""},
		{"Details", []string{"Rs. 300"}, ""},
		{"OK", []string{"Menu", "Chai Rs. 30"}, ""},
	} {
		s, el := page(tc.label, tc.context...)
		v, hit := g.Check(tap, el, s)
		if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
			t.Errorf("%q on %q: category %q, want %q", tc.label, tc.context, got, tc.category)
		}
	}
}
