package eval

import (
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/interaction"
)

// TestJudgingUserReadsTheAmount (issue 38 §5): the judging person reads a consent's amount
// with the guard's reader: an "amount:" that shows no amount names none (the person cannot
// judge the payment by it), and one in any currency does.
func TestJudgingUserReadsTheAmount(t *testing.T) {
	for _, tc := range []struct {
		specifics string
		named     bool
	}{
		{"amount: 36,00 zł; payee: com.fairy.shop", true},
		{"amount: R$ 36,00; payee: com.fairy.shop", true},
		{"amount: Rs.300/-; payee: com.fairy.shop", true},
		{"amount: 0.5 ETH; payee: com.fairy.shop", true},
		{"amount: see your cart; payee: com.fairy.shop", false},
		{"amount: Order #1001; payee: com.fairy.shop", false},
	} {
		if got := namedFor("payment", tc.specifics); got != tc.named {
			t.Errorf("namedFor(payment, %q) = %t, want %t", tc.specifics, got, tc.named)
		}
		task := &suite.Task{ID: "t", Instruction: "Pay the bill", Wants: []string{"payment"},
			User: suite.UserSpec{Scripted: &suite.RuleUserSpec{Consent: "approve"}}}
		u, err := newUser(task, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.Ask(t.Context(), interaction.Question{Type: 1, Kind: interaction.YesNo, Text: `tap "Pay" (payment) — ` + tc.specifics}); err != nil {
			t.Fatal(err)
		}
		if qs := u.Questions(); len(qs) != 1 || qs[0].Unjudgeable != !tc.named {
			t.Errorf("%q: questions %+v, want one, unjudgeable %t", tc.specifics, qs, !tc.named)
		}
	}
}
