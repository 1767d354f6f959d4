package main

import (
	"os"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// guardPhone is a virtual phone with the stock apps and the one-screen apps of
// testdata/guardapps, where issue 24's cases live.
func guardPhone(t *testing.T) *sim.Phone {
	t.Helper()
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	extra, err := sim.LoadApps(os.DirFS("testdata/guardapps"))
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 3, Apps: append(apps, extra...)})
	if err != nil {
		t.Fatal(err)
	}
	return phone
}

// TestMCPActGuardCases drives issue 24's cases through `fairy mcp` `act` on the virtual
// phone, over the real adb server: every sensitive element — in languages beyond the
// hand-written vocabulary, in phrasings real apps use, a slider swiped, an arrow on a
// compose page, a tap by coordinates — is asked about (and refused when declined) with
// the category that names what it does; every harmless one is done without a question.
func TestMCPActGuardCases(t *testing.T) {
	r := startMCPOn(t, guardPhone(t), "", func(string, any) (string, string) { return "decline", "" })
	type tc struct {
		app, element, category string // category "": harmless
		args                   map[string]any
	}
	cases := []tc{
		{app: "it", element: `"Paga ora"`, category: "payment"},
		{app: "pl", element: `"Zatwierdź"`, category: "payment"},
		{app: "ar", element: `"تأكيد"`, category: "payment"},
		{app: "vi", element: `"Xác nhận"`, category: "payment"},
		{app: "id", element: `"Lanjut"`, category: "payment"},
		{app: "sheet", element: `"Confirm transaction"`, category: "payment"},
		{app: "sheet", element: `"Slide to confirm"`, category: "payment", args: map[string]any{"action": "swipe", "direction": "right"}},
		{app: "compose", element: "id=go", category: "send"},
		{app: "words", element: `"Checkout (3)"`, category: "order"},
		{app: "words", element: `"Proceed to checkout"`, category: "order"},
		{app: "words", element: `"Top up"`, category: "payment"},
		{app: "words", element: `"Withdraw $500"`, category: "transfer"},
		{app: "words", element: `"Rent $3.99"`, category: "payment"},
		{app: "words", element: `"Bid $120"`, category: "payment"},
		{app: "words", element: `"Pre-order"`, category: "payment"},
		{app: "words", element: `"Send $20 to Alex"`, category: "transfer"},
		{app: "words", element: `"Pɑy"`, category: "payment"},
		{app: "words", element: "id=cart_icon", category: "order"},
		{app: "mail", element: `"Empty trash"`, category: "delete"},
		{app: "mail", element: `"Move to trash"`, category: "delete"},
		{app: "mail", element: `"Discard draft"`, category: "delete"},
		{app: "mail", element: `"Deactivate account"`, category: "delete"},
		{app: "mail", element: `"Cancel subscription"`, category: "subscription"},
		{app: "mail", element: `"Forward"`, category: "send"},
		{app: "mail", element: `"Call"`, category: "call"},
		{app: "mail", element: `"ลบ"`, category: "delete"},
		{app: "mail", element: `"हटाएं"`, category: "delete"},
		{app: "mail", element: `"Gửi"`, category: "send"},
	}
	for _, label := range []string{"View purchase history", "Tip of the day", "Remove filter", "Clear all filters", "Reset zoom",
		"Post office hours", "Transfer history", "Share this tip", "Display name"} {
		cases = append(cases, tc{app: "harmless", element: `"` + label + `"`})
	}
	for _, c := range cases {
		t.Run(c.app+" "+c.element, func(t *testing.T) {
			r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.guard." + c.app}, false)
			screen := r.call(t, "screen", nil, false)
			args := map[string]any{"action": "tap"}
			for k, v := range c.args {
				args[k] = v
			}
			args["element"] = element(t, screen, c.element)
			asked := len(r.asked)
			out := r.call(t, "act", args, c.category != "")
			switch {
			case c.category == "" && len(r.asked) != asked:
				t.Errorf("a harmless %s was asked about: %q", c.element, r.asked[asked:])
			case c.category != "" && (len(r.asked) != asked+1 || !strings.Contains(r.asked[asked], "("+c.category+")")):
				t.Errorf("%s: asked %q, want one question naming %s", c.element, r.asked[asked:], c.category)
			case c.category != "" && !strings.Contains(out, "refused"):
				t.Errorf("the declined %s says %q", c.element, out)
			}
		})
	}
	// The same Italian payment by coordinates (input tap X Y) is the same payment.
	r.call(t, "act", map[string]any{"action": "launch", "package": "com.fairy.guard.it"}, false)
	scr := r.call(t, "screen", nil, false)
	_ = element(t, scr, `"Paga ora"`)
	x, y := centreOf(t, r, "primary")
	asked := len(r.asked)
	if out := r.call(t, "act", map[string]any{"action": "tap", "x": x, "y": y}, true); !strings.Contains(out, "refused") || len(r.asked) != asked+1 {
		t.Errorf("tap at (%d, %d) on Paga ora: %q, asked %q", x, y, out, r.asked[asked:])
	}
}

// centreOf is where the element with the resource id ending in id is drawn, read off the
// phone's own dump.
func centreOf(t *testing.T, r *mcpRig, id string) (int, int) {
	t.Helper()
	scr, err := perception.Parse(r.phone.Dump())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range scr.Elements {
		if strings.HasSuffix(e.ResourceID, "/"+id) {
			return e.Center.X, e.Center.Y
		}
	}
	t.Fatalf("no element %s on the phone", id)
	return 0, 0
}
