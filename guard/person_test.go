package guard

import (
	"strings"
	"testing"
)

// TestParseMoney reads the amounts a person writes and pages show, in either decimal
// separator, with the currency before or after the number.
func TestParseMoney(t *testing.T) {
	for _, c := range []struct{ in, currency, value string }{
		{"20", "", "20"},
		{"¥20", "¥", "20"},
		{"20 EUR", "EUR", "20"},
		{"CHF 36.00", "CHF", "36"},
		{"36,00 €", "€", "36"},
		{"R$ 36,00", "R$", "36"},
		{"150.000₫", "₫", "150000"},
		{"1,234.50", "", "2469/2"},
		{"1.234,50 €", "€", "2469/2"},
		{"0.5 ETH", "ETH", "1/2"},
		{"₹499", "₹", "499"},
		{"١٢٫٥٠ ر.س", "ر.س", "25/2"},
		{"Rs. 300", "RS", "300"},
	} {
		m, err := parseMoney(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if m.currency != strings.ToUpper(c.currency) || m.value.RatString() != c.value {
			t.Errorf("%q: read %q %s, want %q %s", c.in, m.currency, m.value.RatString(), c.currency, c.value)
		}
	}
	for _, bad := range []string{"", "twenty", "¥20 or ¥30", "-20"} {
		if _, err := parseMoney(bad); err == nil {
			t.Errorf("%q read as an amount", bad)
		}
	}
}

// TestCheckPersonRule refuses rules that cannot be applied as written, with a sentence.
func TestCheckPersonRule(t *testing.T) {
	cats := []string{"payment", "order", "delete", "send", "transfer"}
	for _, c := range []struct {
		r    PersonRule
		want string // "" fine; else a word of the error
	}{
		{PersonRule{App: "com.fairy.notes", Category: "delete", Verdict: PersonNever}, ""},
		{PersonRule{Category: CategoryLogin, Verdict: PersonAllow}, ""},
		{PersonRule{Category: "payment", Verdict: PersonAllow, UpTo: "¥20"}, ""},
		{PersonRule{Category: "send", Verdict: PersonAllow, To: "Alice Chen"}, ""},
		{PersonRule{Category: "payment", Verdict: "sometimes"}, "verdict"},
		{PersonRule{Category: "paymnet", Verdict: PersonAllow}, "unknown category"},
		{PersonRule{Category: "delete", Verdict: PersonAllow, UpTo: "20"}, "up-to"},
		{PersonRule{Category: "payment", Verdict: PersonNever, UpTo: "20"}, "goes with allow"},
		{PersonRule{Category: "payment", Verdict: PersonAllow, UpTo: "lots"}, "no number"},
		{PersonRule{Category: "delete", Verdict: PersonAllow, To: "Bob"}, "recipient"},
		{PersonRule{Category: "send", Verdict: PersonAllow, To: " \u200b "}, "empty"},
		{PersonRule{App: "Notes app", Category: "delete", Verdict: PersonNever}, "package"},
	} {
		err := CheckPersonRule(c.r, cats)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.r, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one about %q", c.r, err, c.want)
		}
	}
}

// TestDecidePerson: the strictest rule that applies wins; an allow applies only within its
// amount, to its exact recipient, in its app.
func TestDecidePerson(t *testing.T) {
	rules := []PersonRule{
		{App: "com.fairy.notes", Category: "delete", Verdict: PersonNever},
		{Category: "payment", Verdict: PersonAllow, UpTo: "¥20"},
		{App: "com.bank", Category: "payment", Verdict: PersonAsk},
		{App: "com.fairy.messages", Category: "send", Verdict: PersonAllow, To: "Alice Chen"},
		{Category: CategoryLogin, Verdict: PersonAllow},
	}
	for _, c := range []struct {
		name string
		f    personFacts
		want string
	}{
		{"delete in notes", personFacts{element: true, app: "com.fairy.notes", category: "delete"}, PersonNever},
		{"delete elsewhere", personFacts{element: true, app: "com.fairy.mail", category: "delete"}, ""},
		{"pay 18", personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"¥18"}}, PersonAllow},
		{"pay 20", personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"¥18", "¥20"}}, PersonAllow},
		{"pay 36", personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"¥36"}}, ""},
		{"pay 18 beside 36", personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"¥18", "¥36"}}, ""},
		{"pay in dollars", personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"$5"}}, ""},
		{"pay without an amount", personFacts{element: true, app: "com.fairy.shop", category: "payment"}, ""},
		{"the bank always asks", personFacts{element: true, app: "com.bank", category: "payment", amounts: []string{"¥1"}}, PersonAsk},
		{"send to Alice", personFacts{element: true, app: "com.fairy.messages", category: "send", recipient: "alice  chen"}, PersonAllow},
		{"send to a Cyrillic Аlice", personFacts{element: true, app: "com.fairy.messages", category: "send", recipient: "Аlice Chen"}, ""},
		{"send to Alice Cheng", personFacts{element: true, app: "com.fairy.messages", category: "send", recipient: "Alice Cheng"}, ""},
		{"send to Alice in another app", personFacts{element: true, app: "com.other", category: "send", recipient: "Alice Chen"}, ""},
		{"log in", personFacts{element: true, app: "com.other", category: "send", login: true}, PersonAllow},
		{"a shell command is never allowed", personFacts{app: "com.fairy.shop", category: "payment", amounts: []string{"¥1"}}, ""},
		{"a shell command is refused by a never", personFacts{app: "com.fairy.notes", category: "delete"}, PersonNever},
		{"a payment on a sign-in page is no login", personFacts{element: true, app: "com.other", category: "payment", login: true, amounts: []string{"$50"}}, ""},
	} {
		d := decidePerson(rules, c.f)
		if d.Verdict != c.want {
			t.Errorf("%s: %q (%s), want %q", c.name, d.Verdict, d.Why, c.want)
		}
		if d.Verdict != "" && (d.Rule == nil || d.Why == "") {
			t.Errorf("%s: decided %s without a rule or a reason: %+v", c.name, d.Verdict, d)
		}
	}
	// An allow that did not apply is named, with why: explain shows it.
	d := decidePerson(rules, personFacts{element: true, app: "com.fairy.shop", category: "payment", amounts: []string{"¥36"}})
	if d.Rule == nil || !strings.Contains(d.Why, "¥36, is more than ¥20") {
		t.Errorf("pay 36: %+v", d)
	}
	d = decidePerson(rules, personFacts{element: true, app: "com.fairy.messages", category: "send", recipient: "Аlice Chen"})
	if d.Rule == nil || !strings.Contains(d.Why, "is not") {
		t.Errorf("a look-alike recipient: %+v", d)
	}
}
