package executor

import (
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
			v, hit := g.Check(tc.a, el)
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
