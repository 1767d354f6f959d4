package guard

import (
	"testing"
)

// TestReadAmounts: an amount in any currency, its symbol before or after the number,
// either decimal mark, is read with its number and the right currency; a symbol several
// currencies share is settled by the text's locale.
func TestReadAmounts(t *testing.T) {
	for _, tc := range []struct {
		text, locale        string
		amount, value, code string
	}{
		{"Total 36,00 €", "", "36,00 €", "36.00", "EUR"},
		{"CHF 36.00", "", "CHF 36.00", "36.00", "CHF"},
		{"Total: R$ 36,00", "", "R$ 36,00", "36.00", "BRL"}, // not "$ 36,00"
		{"Razem 36,00 zł", "", "36,00 zł", "36.00", "PLN"},
		{"₹499", "", "₹499", "499", "INR"},
		{"Tổng 150.000₫", "", "150.000₫", "150000", "VND"},
		{"₺120", "", "₺120", "120", "TRY"},
		{"Pay Rs. 300", "en-IN", "Rs. 300", "300", "INR"},
		{"Rs.300/-", "en-IN", "Rs.300", "300", "INR"},
		{"Rs. 300", "", "Rs. 300", "300", ""}, // INR, PKR, LKR, NPR… write it: unsettled
		{"Send 300 USDT", "", "300 USDT", "300", "USDT"},
		{"0.5 ETH", "", "0.5 ETH", "0.5", "ETH"},
		{"$1,234.50", "", "$1,234.50", "1234.50", "USD"},
		{"1.234,50 €", "", "1.234,50 €", "1234.50", "EUR"},
		{"¥36", "zh-CN", "¥36", "36", "CNY"},
		{"¥36", "", "¥36", "36", "JPY"},
		{"Total 18.00", "", "18.00", "18.00", ""},
		{"١٬٢٣٤٫٥٠ ر.س.", "", "١٬٢٣٤٫٥٠ ر.س.", "1234.50", "SAR"},
	} {
		got := ReadAmounts(tc.text, tc.locale)
		if len(got) != 1 {
			t.Errorf("ReadAmounts(%q, %q) = %+v, want one amount", tc.text, tc.locale, got)
			continue
		}
		if a := got[0]; a.Text != tc.amount || a.Value != tc.value || a.Currency != tc.code {
			t.Errorf("ReadAmounts(%q, %q) = %+v, want {%s %s %s}", tc.text, tc.locale, a, tc.amount, tc.value, tc.code)
		}
		if f := FirstAmount(tc.text); f != tc.amount {
			t.Errorf("FirstAmount(%q) = %q, want %q", tc.text, f, tc.amount)
		}
	}
	for _, text := range []string{"Order #1234", "3 items", "Room 101", "STOP 5", "v1.2.3", "bob@okbank"} {
		if got := ReadAmounts(text, ""); len(got) != 0 {
			t.Errorf("ReadAmounts(%q) = %+v, want none", text, got)
		}
	}
}

// TestOnlyAmount: a price alone is an amount and nothing else; a row's name with its price
// is not.
func TestOnlyAmount(t *testing.T) {
	for text, want := range map[string]bool{"¥24": true, " 36,00 zł ": true, "R$ 36,00": true, "Oolong Tee x2 ¥24": false, "Almond cake": false, "": false} {
		if got := OnlyAmount(text); got != want {
			t.Errorf("OnlyAmount(%q) = %t, want %t", text, got, want)
		}
	}
}
