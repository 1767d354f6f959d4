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

// roleCheckout is the Turkish checkout of testdata/roleapps: a total, a masked card and a
// primary button that says only "→".
const roleCheckout = "com.fairy.role.checkout"

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

// rolePayments is what the checkout has paid.
func rolePayments(t *testing.T, phone *sim.Phone) []sim.Record {
	t.Helper()
	recs, err := phone.Records(roleCheckout + ":payments")
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestActPageRoleHeld drives `fairy act` on the virtual phone over the real adb server on
// a Turkish checkout whose primary button says only "→" (a word no vocabulary has): the
// page's role — a total, a masked card, an address — holds the tap at its coordinates; a
// `no` (or no answer) pays nothing, and the question names
// the payment with the page's total and card. The way out ("Sepeti düzenle", edit cart)
// is not asked. A yes pays.
func TestActPageRoleHeld(t *testing.T) {
	adb := adbtest.Start(t)
	phone := rolePhone(t)
	serial := servePhone(t, adb, phone)
	fairy := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return execRoot(t, map[string]string{"HOME": t.TempDir()}, stdin, append([]string{"--adb-port", strconv.Itoa(adb.Port), "-s", serial}, args...)...)
	}
	if code, _, errOut := fairy("", "act", "launch", roleCheckout); code != 0 {
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
	pay, edit := at["→"], at["Sepeti düzenle"]
	if pay == nil || edit == nil {
		t.Fatalf("no → or Sepeti düzenle on the checkout:\n%s", out)
	}
	{
		act := append([]string{"act", "tap"}, pay...)
		for _, answer := range []string{"no\n", ""} {
			code, _, errOut := fairy(answer, act...)
			if code == 0 || !strings.Contains(errOut, "nothing was done") || !strings.Contains(errOut, "payment") ||
				!strings.Contains(errOut, "120,00") || !strings.Contains(errOut, "4242") {
				t.Errorf("%q answered %q: exit %d, want refused with a payment question naming ₺120,00 and •••• 4242:\n%s", act, answer, code, errOut)
			}
			if recs := rolePayments(t, phone); len(recs) != 0 {
				t.Fatalf("%q answered %q paid: %v", act, answer, recs)
			}
		}
	}
	if code, _, errOut := fairy("", append([]string{"act", "tap"}, edit...)...); code != 0 {
		t.Errorf("the way out (Sepeti düzenle) was held: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := fairy("yes\n", append([]string{"act", "tap"}, pay...)...); code != 0 {
		t.Fatalf("→ the person allowed: exit %d\n%s", code, errOut)
	}
	if recs := rolePayments(t, phone); len(recs) != 1 {
		t.Errorf("after a yes: payments %v, want one", recs)
	}
}

// TestMCPPageRoleHeld drives `fairy mcp` `act` on the virtual phone over the real adb
// server on the Turkish checkout whose primary button says only "→": a tap and a long press
// by the element's number and a tap by x,y are each asked of the person (through
// elicitation), with the payment, the page's total and its card; declined, each is
// refused and nothing is paid. A client that cannot ask gets the → refused; the way out
// (Sepeti düzenle) is tapped unasked.
func TestMCPPageRoleHeld(t *testing.T) {
	phone := rolePhone(t)
	r := startMCPOn(t, phone, "", func(string, any) (string, string) { return "decline", "" })
	r.call(t, "act", map[string]any{"action": "launch", "package": roleCheckout}, false)
	screen := r.call(t, "screen", nil, false)
	pay := element(t, screen, `"→"`)
	scr, err := perception.Parse(phone.Dump())
	if err != nil {
		t.Fatal(err)
	}
	var center [2]int
	for _, e := range scr.Elements {
		if e.Label == "→" {
			center = [2]int{e.Center.X, e.Center.Y}
		}
	}
	if center == [2]int{} {
		t.Fatalf("no → in the phone's dump:\n%s", screen)
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"tap by element", map[string]any{"action": "tap", "element": pay}},
		{"long press by element", map[string]any{"action": "long_press", "element": pay}},
		{"tap by x,y", map[string]any{"action": "tap", "x": center[0], "y": center[1]}},
	} {
		asked := len(r.asked)
		out := r.call(t, "act", c.args, true)
		if len(r.asked) != asked+1 || !strings.Contains(out, "refused") || !strings.Contains(out, "nothing was done") {
			t.Errorf("%s: asked %d times, said %q; want one question, refused", c.name, len(r.asked)-asked, out)
		} else if q := r.asked[asked]; !strings.Contains(q, "payment") || !strings.Contains(q, "120,00") || !strings.Contains(q, "4242") {
			t.Errorf("%s: the question %q does not name the payment, ₺120,00 and •••• 4242", c.name, q)
		}
		if recs := rolePayments(t, phone); len(recs) != 0 {
			t.Fatalf("%s declined paid: %v", c.name, recs)
		}
	}
	asked := len(r.asked)
	r.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"Sepeti düzenle"`)}, false)
	if len(r.asked) != asked {
		t.Errorf("the way out (Sepeti düzenle) was asked: %q", r.asked[asked:])
	}

	mute := startMCPOn(t, rolePhone(t), "", nil) // a client without elicitation
	mute.call(t, "act", map[string]any{"action": "launch", "package": roleCheckout}, false)
	screen = mute.call(t, "screen", nil, false)
	if out := mute.call(t, "act", map[string]any{"action": "tap", "element": element(t, screen, `"→"`)}, true); !strings.Contains(out, "refused") {
		t.Errorf("without elicitation the → says %q", out)
	}
	if recs := rolePayments(t, mute.phone); len(recs) != 0 {
		t.Errorf("without consent a payment was made: %v", recs)
	}
}
