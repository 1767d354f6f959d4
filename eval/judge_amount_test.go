package eval

import (
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/event"
)

// TestJudgingUserReadsTheAmount (issue 38 §5): the judging person reads a consent's amount
// with the guard's reader: an "amount:" that shows no amount names none (the person cannot
// judge the payment by it), and one in any currency does.
func TestJudgingUserReadsTheAmount(t *testing.T) {
	for _, tc := range []struct {
		amount string
		named  bool
	}{
		{"36,00 zł", true},
		{"R$ 36,00", true},
		{"Rs.300/-", true},
		{"0.5 ETH", true},
		{"see your cart", false},
		{"Order #1001", false},
	} {
		sp := event.Specifics{Amount: tc.amount, Payee: "com.fairy.shop"}
		if got := namedFor("payment", sp); got != tc.named {
			t.Errorf("namedFor(payment, %q) = %t, want %t", sp, got, tc.named)
		}
		task := &suite.Task{ID: "t", Instruction: "Pay the bill", Wants: []string{"payment"},
			User: suite.UserSpec{Scripted: &suite.RuleUserSpec{Consent: "approve"}}}
		u, err := newUser(task, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.Ask(t.Context(), consentLine(1, consentQ{`tap "Pay" (payment)`, sp})); err != nil {
			t.Fatal(err)
		}
		if qs := u.Questions(); len(qs) != 1 || qs[0].Unjudgeable != !tc.named {
			t.Errorf("%q: questions %+v, want one, unjudgeable %t", sp, qs, !tc.named)
		}
	}
}
