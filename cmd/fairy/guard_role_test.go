package main

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// roleCheckouts are the checkouts of testdata/roleapps: each shows a total, a masked card
// and an address, and its primary button says what no vocabulary knows; its way out is
// an "edit cart".
var roleCheckouts = []struct {
	pkg, primary, wayOut, total string
}{
	{"com.fairy.role.checkout", "→", "Sepeti düzenle", "120,00"},      // Turkish, an arrow
	{"com.fairy.role.checkout.th", "ลุยเลย", "แก้ไขรถเข็น", "120.00"}, // Thai, "let's go"
}

// rolePhone is a virtual phone with the stock apps and the one-screen apps of
// testdata/roleapps.
func rolePhone(t *testing.T) *sim.Phone {
	t.Helper()
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	extra, err := sim.LoadApps(os.DirFS("testdata/roleapps"))
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 3, Apps: append(apps, extra...)})
	if err != nil {
		t.Fatal(err)
	}
	return phone
}

// rolePayments is what the checkout pkg has paid.
func rolePayments(t *testing.T, phone *sim.Phone, pkg string) []sim.Record {
	t.Helper()
	recs, err := phone.Records(pkg + ":payments")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// namesThePayment says whether a question names the payment with the page's total and card.
func namesThePayment(q, total string) bool {
	return strings.Contains(q, "payment") && strings.Contains(q, total) && strings.Contains(q, "4242")
}

// TestActPageRoleHeld drives `fairy act` on the virtual phone over the real adb server on
// a Turkish checkout whose primary button says only "→" and a Thai one whose button says
// "ลุยเลย" (words no vocabulary has): the page's role — a total, a masked card, an address
// — holds the tap at the button's coordinates; a `no` (or no answer) pays nothing, and the
// question names the payment with the page's total and card. The way out (edit cart) is
// not asked. A yes pays.
func TestActPageRoleHeld(t *testing.T) {
	adb := adbtest.Start(t)
	phone := rolePhone(t)
	serial := servePhone(t, adb, phone)
	fairy := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return execRoot(t, map[string]string{"HOME": t.TempDir()}, stdin, append([]string{"--adb-port", strconv.Itoa(adb.Port), "-s", serial}, args...)...)
	}
	for _, c := range roleCheckouts {
		t.Run(c.primary, func(t *testing.T) {
			if code, _, errOut := fairy("", "act", "launch", c.pkg); code != 0 {
				t.Fatalf("launch: exit %d\n%s", code, errOut)
			}
			code, out, errOut := fairy("", "screen", "--format", "json")
			if code != 0 {
				t.Fatalf("screen: exit %d\n%s", code, errOut)
			}
			var s struct {
				Elements []struct {
					Label  string `json:"label"`
					Center [2]int `json:"center"`
				}
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			at := map[string][]string{}
			for _, e := range s.Elements {
				at[e.Label] = []string{strconv.Itoa(e.Center[0]), strconv.Itoa(e.Center[1])}
			}
			pay, edit := at[c.primary], at[c.wayOut]
			if pay == nil || edit == nil {
				t.Fatalf("no %s or %s on the checkout:\n%s", c.primary, c.wayOut, out)
			}
			tapPay := append([]string{"act", "tap"}, pay...)
			for _, answer := range []string{"no\n", ""} {
				code, _, errOut := fairy(answer, tapPay...)
				if code == 0 || !strings.Contains(errOut, "nothing was done") || !namesThePayment(errOut, c.total) {
					t.Errorf("tap %s answered %q: exit %d, want refused with a payment question naming %s and •••• 4242:\n%s", c.primary, answer, code, c.total, errOut)
				}
				if recs := rolePayments(t, phone, c.pkg); len(recs) != 0 {
					t.Fatalf("tap %s answered %q paid: %v", c.primary, answer, recs)
				}
			}
			if code, _, errOut := fairy("", append([]string{"act", "tap"}, edit...)...); code != 0 {
				t.Errorf("the way out (%s) was held: exit %d\n%s", c.wayOut, code, errOut)
			}
			if code, _, errOut := fairy("yes\n", tapPay...); code != 0 {
				t.Fatalf("%s the person allowed: exit %d\n%s", c.primary, code, errOut)
			}
			if recs := rolePayments(t, phone, c.pkg); len(recs) != 1 {
				t.Errorf("after a yes: payments %v, want one", recs)
			}
		})
	}
}

// TestMCPPageRoleHeld drives `fairy mcp` `act` on the virtual phone over the real adb
// server on the Turkish and Thai checkouts: a tap and a long press on the primary button
// by the element's number and a tap by x,y are each asked of the person (through
// elicitation), with the payment, the page's total and its card; declined, each is
// refused and nothing is paid. A client that cannot ask gets the button refused; the way
// out (edit cart) is tapped unasked.
func TestMCPPageRoleHeld(t *testing.T) {
	phone := rolePhone(t)
	r := startMCPOn(t, phone, "", func(string, any) (string, string) { return "decline", "" })
	mute := startMCPOn(t, rolePhone(t), "", nil) // a client without elicitation
	for _, c := range roleCheckouts {
		t.Run(c.primary, func(t *testing.T) {
			r.call(t, "act", map[string]any{"action": "launch", "package": c.pkg}, false)
			screen := r.call(t, "screen", nil, false)
			pay := element(t, screen, strconv.Quote(c.primary))
			scr, err := perception.Parse(phone.Dump())
			if err != nil {
				t.Fatal(err)
			}
			var center [2]int
			for _, e := range scr.Elements {
				if e.Label == c.primary {
					center = [2]int{e.Center.X, e.Center.Y}
				}
			}
			if center == [2]int{} {
				t.Fatalf("no %s in the phone's dump:\n%s", c.primary, screen)
			}
			for _, w := range []struct {
				name string
				args map[string]any
			}{
				{"tap by element", map[string]any{"action": "tap", "element": pay}},
				{"long press by element", map[string]any{"action": "long_press", "element": pay}},
				{"tap by x,y", map[string]any{"action": "tap", "x": center[0], "y": center[1]}},
			} {
				asked := len(r.asked)
				out := r.call(t, "act", w.args, true)
				if len(r.asked) != asked+1 || !strings.Contains(out, "refused") || !strings.Contains(out, "nothing was done") {
					t.Errorf("%s: asked %d times, said %q; want one question, refused", w.name, len(r.asked)-asked, out)
				} else if q := r.asked[asked]; !namesThePayment(q, c.total) {
					t.Errorf("%s: the question %q does not name the payment, %s and •••• 4242", w.name, q, c.total)
				}
				if recs := rolePayments(t, phone, c.pkg); len(recs) != 0 {
					t.Fatalf("%s declined paid: %v", w.name, recs)
				}
			}
			asked := len(r.asked)
			r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, strconv.Quote(c.wayOut))}, false)
			if len(r.asked) != asked {
				t.Errorf("the way out (%s) was asked: %q", c.wayOut, r.asked[asked:])
			}

			mute.call(t, "act", map[string]any{"action": "launch", "package": c.pkg}, false)
			screen = mute.call(t, "screen", nil, false)
			if out := mute.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, strconv.Quote(c.primary))}, true); !strings.Contains(out, "refused") {
				t.Errorf("without elicitation %s says %q", c.primary, out)
			}
			if recs := rolePayments(t, mute.phone, c.pkg); len(recs) != 0 {
				t.Errorf("without consent a payment was made: %v", recs)
			}
		})
	}
}

// TestPageRoleEnterHeld: on the Turkish checkout as a web form (testdata/roleapps/
// checkout_form_tr.yaml), Enter in the courier's note field submits the form and pays.
// Pressed through `fairy act key enter` and through `fairy mcp` act's key enter on the
// virtual phone over the real adb server, it is held as the payment its page's primary
// "→" makes, asked, and a no pays nothing.
func TestPageRoleEnterHeld(t *testing.T) {
	const pkg = "com.fairy.role.checkout.form"
	adb := adbtest.Start(t)
	phone := rolePhone(t)
	serial := servePhone(t, adb, phone)
	fairy := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return execRoot(t, map[string]string{"HOME": t.TempDir()}, stdin, append([]string{"--adb-port", strconv.Itoa(adb.Port), "-s", serial}, args...)...)
	}
	if code, _, errOut := fairy("", "act", "launch", pkg); code != 0 {
		t.Fatalf("launch: exit %d\n%s", code, errOut)
	}
	scr, err := perception.Parse(phone.Dump())
	if err != nil {
		t.Fatal(err)
	}
	var note *perception.Element
	for i := range scr.Elements {
		if scr.Elements[i].Editable {
			note = &scr.Elements[i]
		}
	}
	if note == nil {
		t.Fatalf("no note field on the checkout form")
	}
	if code, _, errOut := fairy("", "act", "tap", strconv.Itoa(note.Center.X), strconv.Itoa(note.Center.Y)); code != 0 {
		t.Fatalf("tap the note field: exit %d\n%s", code, errOut)
	}
	for _, answer := range []string{"no\n", ""} {
		code, _, errOut := fairy(answer, "act", "key", "enter")
		if code == 0 || !strings.Contains(errOut, "nothing was done") || !strings.Contains(errOut, "→") || !namesThePayment(errOut, "120,00") {
			t.Errorf("key enter answered %q: exit %d, want refused with a payment question naming →, ₺120,00 and •••• 4242:\n%s", answer, code, errOut)
		}
		if recs := rolePayments(t, phone, pkg); len(recs) != 0 {
			t.Fatalf("key enter answered %q paid: %v", answer, recs)
		}
	}

	mphone := rolePhone(t)
	r := startMCPOn(t, mphone, "", func(string, any) (string, string) { return "decline", "" })
	r.call(t, "act", map[string]any{"action": "launch", "package": pkg}, false)
	screen := r.call(t, "screen", nil, false)
	r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, "Kurye notu")}, false)
	out := r.call(t, "act", map[string]any{"action": "key", "key": "enter"}, true)
	if len(r.asked) != 1 || !strings.Contains(out, "refused") || !strings.Contains(r.asked[0], "→") || !namesThePayment(r.asked[0], "120,00") {
		t.Errorf("MCP key enter: asked %q, said %q; want one payment question naming →, ₺120,00 and •••• 4242, refused", r.asked, out)
	}
	if recs := rolePayments(t, mphone, pkg); len(recs) != 0 {
		t.Errorf("MCP key enter declined paid: %v", recs)
	}
}
