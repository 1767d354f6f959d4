package executor

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

func TestDefaultGuardPolicy(t *testing.T) {
	g, err := NewGuard(DefaultGuardPolicy())
	if err != nil {
		t.Fatal(err)
	}
	tap := memory.Action{Type: memory.Tap, Index: 1}
	tests := []struct {
		name     string
		a        memory.Action
		el       perception.Element
		category string // "" = not guarded
	}{
		{"pay button", tap, perception.Element{Label: "支付", Text: "支付", Desc: "Pay", ResourceID: "com.fairy.shop:id/pay_button"}, "payment"},
		{"english pay", tap, perception.Element{Label: "Pay ¥18"}, "payment"},
		{"submit order", tap, perception.Element{Label: "提交订单", ResourceID: "com.fairy.shop:id/submit_order"}, "order"},
		{"go to checkout only shows the order", tap, perception.Element{Label: "去结算", ResourceID: "com.fairy.shop:id/checkout_button"}, ""},
		{"send sms", tap, perception.Element{Label: "Send SMS", ResourceID: "com.google.android.apps.messaging:id/send_message_button_icon"}, "send"},
		{"grant permission", tap, perception.Element{Label: "While using the app", ResourceID: "com.android.permissioncontroller:id/permission_allow_foreground_only_button"}, "permission"},
		{"deny permission", tap, perception.Element{Label: "Don’t allow", ResourceID: "com.android.permissioncontroller:id/permission_deny_and_dont_ask_again_button"}, ""},
		{"deny ascii", tap, perception.Element{Label: "Don't allow"}, ""},
		{"payday is not pay", tap, perception.Element{Label: "Payday loans"}, ""},
		{"delete", tap, perception.Element{Label: "Delete event"}, "delete"},
		{"typing is not judged", memory.Action{Type: memory.Input, Index: 1, Text: "pay"}, perception.Element{Label: "Pay"}, ""},
		{"rm shell", memory.Action{Type: memory.Shell, Command: "rm -rf /sdcard/x"}, perception.Element{}, "delete"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			el := &tc.el
			if tc.a.Type == memory.Shell {
				el = nil
			}
			v, hit := g.Check(tc.a, el, nil)
			if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
				t.Errorf("category %q, want %q (verdict %+v)", got, tc.category, v)
			}
			// The target is the plain label (or command), never the quoted one of the subject.
			if want := map[bool]string{true: tc.el.Label, false: tc.a.Command}[tc.a.Type != memory.Shell]; hit && v.Target != want {
				t.Errorf("target %q, want %q", v.Target, want)
			}
		})
	}
}

// TestGuardJudgesSubmitting: Enter in a text field, and text typed with a trailing line
// break, are judged as the sensitive element the screen offers nearest the field; Enter
// on a focused button is a tap on it. The verdict never quotes what was typed.
func TestGuardJudgesSubmitting(t *testing.T) {
	g, err := NewGuard(DefaultGuardPolicy())
	if err != nil {
		t.Fatal(err)
	}
	at := func(i int, y int, el perception.Element) perception.Element {
		el.Index, el.Center = i, perception.Point{X: 540, Y: y}
		return el
	}
	compose := at(3, 2200, perception.Element{Role: "input", Editable: true, Focused: true, Hint: "Text message", Label: "delete the photos"})
	chat := &perception.Screen{Elements: []perception.Element{
		at(1, 150, perception.Element{Role: "button", Label: "Delete conversation"}),
		at(2, 1000, perception.Element{Role: "item", Label: "See you at lunch"}),
		compose,
		at(4, 2200, perception.Element{Role: "button", Label: "发送"}),
	}}
	search := &perception.Screen{Keyboard: true, Elements: []perception.Element{
		at(1, 150, perception.Element{Role: "input", Editable: true, Hint: "Search"}),
		at(2, 600, perception.Element{Role: "button", Label: "Refresh"}),
	}}
	pin := at(1, 800, perception.Element{Role: "input", Editable: true, Password: true, ResourceID: "com.fairy.shop:id/pin"})
	pay := &perception.Screen{Elements: []perception.Element{pin, at(2, 1000, perception.Element{Role: "button", Label: "Pay ¥18"})}}
	payButton := at(2, 1000, perception.Element{Role: "button", Label: "Pay ¥18", Focused: true})
	enter := memory.Action{Type: memory.Enter}
	tests := []struct {
		name     string
		a        memory.Action
		el       *perception.Element
		s        *perception.Screen
		category string // "" = not guarded
		target   string
	}{
		{"enter in compose sends", enter, &compose, chat, "send", "发送"},
		{"enter with the keyboard up but no focus known", enter, nil, &perception.Screen{Keyboard: true, Elements: chat.Elements}, "delete", "Delete conversation"},
		{"enter with nothing focused", enter, nil, &perception.Screen{Elements: chat.Elements}, "", ""},
		{"enter in a search field with nothing sensitive", enter, &search.Elements[0], search, "", ""},
		{"enter on a focused pay button taps it", enter, &payButton, pay, "payment", "Pay ¥18"},
		{"enter with no screen", enter, &compose, nil, "", ""},
		{"pin with a line break pays", memory.Action{Type: memory.Input, Index: 1, Text: "4821\n"}, &pin, pay, "payment", "Pay ¥18"},
		{"pin without a line break", memory.Action{Type: memory.Input, Index: 1, Text: "4821"}, &pin, pay, "", ""},
		{"line break inside the text", memory.Action{Type: memory.Input, Index: 3, Text: "hi\nthere"}, &compose, chat, "", ""},
		{"message with a line break sends", memory.Action{Type: memory.Input, Index: 3, Text: "see you\n"}, &compose, chat, "send", "发送"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, hit := g.Check(tc.a, tc.el, tc.s)
			if got := map[bool]string{true: v.Category}[hit]; got != tc.category || (hit && v.Target != tc.target) {
				t.Errorf("verdict %q on %q, want %q on %q (%+v)", got, v.Target, tc.category, tc.target, v)
			}
			if hit && tc.a.Text != "" && strings.Contains(v.Subject, strings.TrimSpace(tc.a.Text)) {
				t.Errorf("the subject %q quotes the typed text", v.Subject)
			}
		})
	}
}
