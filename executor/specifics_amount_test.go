package executor

import (
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestSpecificsReadEveryCurrency (issue 38 §5): the amount a consent names is read by the
// guard's reader, in any currency, its symbol before or after the number, either decimal
// mark — not "$ 36,00" for R$ 36,00, not nothing for 36,00 €.
func TestSpecificsReadEveryCurrency(t *testing.T) {
	for _, tc := range []struct {
		total, want string
	}{
		{"Total 36,00 €", "36,00 €"},
		{"Total CHF 36.00", "CHF 36.00"},
		{"Total R$ 36,00", "R$ 36,00"},
		{"Razem 36,00 zł", "36,00 zł"},
		{"Total ₹499", "₹499"},
		{"Tổng 150.000₫", "150.000₫"},
		{"Toplam ₺120", "₺120"},
		{"Amount Rs. 300", "Rs. 300"},
		{"Total 300 USDT", "300 USDT"},
		{"Total 0.5 ETH", "0.5 ETH"},
	} {
		s := &perception.Screen{Context: []string{"Checkout", "Tea x1", tc.total}}
		sp := readSpecifics("payment", s, nil, nil, "com.fairy.shop")
		if sp.Amount != tc.want {
			t.Errorf("%q: amount %q, want %q", tc.total, sp.Amount, tc.want)
		}
	}
	// The button's own amount is what it pays.
	s := &perception.Screen{Context: []string{"Checkout", "Subtotal 30,00 €", "Total 36,00 €"}}
	if sp := readSpecifics("payment", s, &perception.Element{Label: "Pagar R$ 36,00"}, nil, "app"); sp.Amount != "R$ 36,00" {
		t.Errorf("the button's amount: %q, want R$ 36,00", sp.Amount)
	}
}
