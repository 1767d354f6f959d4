package executor

import (
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestReadSpecifics: a consent's specifics come from the screen the action waits on:
// the conversation's contact and the compose text for a send, the item lines, the total
// and the payee for an order, the item lines seen earlier for a payment page that shows
// only the amount, the page's words for a delete.
func TestReadSpecifics(t *testing.T) {
	conv := &perception.Screen{Context: []string{"Bob Smith", "Are we still on for lunch tomorrow?", "Bob Smith · 09:12"},
		Elements: []perception.Element{{Index: 1, Role: "button", Label: "Navigate up"},
			{Index: 2, Role: "input", Label: "Heads up: moved to 3pm", Text: "Heads up: moved to 3pm", Editable: true},
			{Index: 3, Role: "button", Label: "Send SMS"}}}
	order := &perception.Screen{Context: []string{"确认订单", "送达地址：66 Mint St", "椰果奶茶 ×1", "选择送达时间（当前：19:00）", "合计 ¥13"}}
	pay := &perception.Screen{Context: []string{"支付", "订单号 1001", "应付金额 ¥13", "支付方式：余额支付"}}
	del := &perception.Screen{Context: []string{"Delete this event?", "Dentist · Tue 10:00"}}
	tests := []struct {
		category string
		s        *perception.Screen
		items    []string
		want     string
		named    bool
	}{
		{"send", conv, nil, `to: Bob Smith; text: "Heads up: moved to 3pm"`, true},
		{"order", order, nil, "items: 椰果奶茶 ×1; amount: ¥13; payee: com.fairy.shop", true},
		{"payment", pay, []string{"椰果奶茶 ×1"}, "items: 椰果奶茶 ×1; amount: ¥13; payee: com.fairy.shop", true},
		{"delete", del, nil, "what: Delete this event? · Dentist · Tue 10:00", true},
		{"send", &perception.Screen{Context: []string{"Bob Smith"}}, nil, "to: Bob Smith", false},
	}
	for _, tc := range tests {
		sp := readSpecifics(tc.category, tc.s, nil, tc.items, "com.fairy.shop")
		if got := sp.String(); got != tc.want || sp.Named(tc.category) != tc.named {
			t.Errorf("%s: %q (named %t), want %q (named %t)", tc.category, got, sp.Named(tc.category), tc.want, tc.named)
		}
	}
}

func TestCorrects(t *testing.T) {
	for a, want := range map[string]bool{
		"No — that would go to Bob Smith, and I meant Carol Diaz.": true,
		"No, that order should hold 红豆奶茶":                          true,
		"不是这个，我要红豆奶茶":                                              true,
		"No, do not do that.":                                      false,
		"no":                                                       false,
	} {
		if corrects(a) != want {
			t.Errorf("corrects(%q) = %t", a, !want)
		}
	}
}
