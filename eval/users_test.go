package eval

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/prompts"
)

func TestRuleUser(t *testing.T) {
	u, err := newRuleUser(suite.RuleUserSpec{
		Rules: []suite.UserRule{
			{Pattern: "which alice", Reply: "Alice Chen", Times: 1},
			{Pattern: "delete", Reply: "refuse"},
			{Pattern: "支付|pay", Reply: "approve"},
		},
		Default: "I don't mind",
		Consent: "refuse",
	})
	if err != nil {
		t.Fatal(err)
	}
	q := func(typ int, text string, opts ...string) interaction.Question {
		return interaction.Question{Type: typ, Kind: interaction.KindFor(typ), Text: text, Options: opts}
	}
	tests := []struct {
		q    interaction.Question
		want string
		by   string
	}{
		{q(3, "Which Alice do you mean?", "Alice Chen", "Alice Wong"), "Alice Chen", "rule 1"},
		{q(3, "Which Alice do you mean?"), "I don't mind", "default"}, // rule 1 is used up
		{q(2, "Delete the note 'Groceries'?"), refuseReply, "rule 2"},
		{q(1, "确认支付 ¥15?"), approveReply, "rule 3"},
		{q(1, "Grant the camera permission?"), refuseReply, "consent"},
		{q(4, "What should the message say?"), "I don't mind", "default"},
	}
	for i, tt := range tests {
		got, err := u.Ask(t.Context(), tt.q)
		if err != nil || got != tt.want {
			t.Errorf("%d: Ask(%q) = %q, %v; want %q", i, tt.q.Text, got, err, tt.want)
		}
	}
	qs := u.Questions()
	if len(qs) != len(tests) {
		t.Fatalf("recorded %d questions", len(qs))
	}
	for i, tt := range tests {
		if qs[i].By != tt.by || qs[i].Text != tt.q.Text {
			t.Errorf("record %d = %+v, want by %s", i, qs[i], tt.by)
		}
	}
	silent, _ := newRuleUser(suite.RuleUserSpec{})
	if _, err := silent.Ask(t.Context(), q(4, "What?")); !errors.Is(err, errNoAnswer) {
		t.Errorf("no rule, no default: %v", err)
	}
	if qs := silent.Questions(); len(qs) != 1 || qs[0].By != "none" {
		t.Errorf("unanswered question not recorded: %+v", qs)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := u.Ask(ctx, q(4, "x")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// loadPrompts loads the embedded prompts.
func loadPrompts(t *testing.T) *prompts.Set {
	t.Helper()
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// newScriptedModel serves rules with the scripted model over HTTP and returns the real
// go-openai adapter pointed at it.
func newScriptedModel(t *testing.T, rules string) suite.Model {
	t.Helper()
	rs, err := scripted.ParseRules([]byte(rules))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewServer(rs, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", DefaultModel: scripted.ModelName})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestModelUserAgainstScriptedModel(t *testing.T) {
	m := newScriptedModel(t, `
rules:
  - name: size from the intent
    role: user
    match: ['(?s)QUESTION\n.*(?i:size)', '(?s)INTENT\n[^\n]*large']
    answer: '{"answer": "Large, please."}'
  - name: pay within intent
    role: user
    match: ['(?i)pay ¥(\d+)', 'at most ¥20']
    answer: '{"answer": "Yes, ¥{{match 1}} is fine."}'
  - name: not settled
    role: user
    answer: '{"answer": "I do not mind, you decide."}'
`)
	ps := loadPrompts(t)
	u, err := newModelUser(modelUserConfig{Model: m, Prompts: ps, Instruction: "Order a bubble tea",
		Spec: suite.ModelUserSpec{Persona: "a student who likes bubble tea", Intent: "a large bubble tea, paying at most ¥20"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    interaction.Question
		want string
	}{
		{interaction.Question{Type: 3, Kind: interaction.Options, Text: "Which size?", Options: []string{"Medium", "Large"}}, "Large, please."},
		{interaction.Question{Type: 1, Kind: interaction.YesNo, Text: "Pay ¥15 for the order?"}, "Yes, ¥15 is fine."},
		{interaction.Question{Type: 3, Kind: interaction.Options, Text: "Which topping?", Options: []string{"Pearls", "Jelly"}}, "I do not mind, you decide."},
	}
	for _, tt := range tests {
		got, err := u.Ask(t.Context(), tt.q)
		if err != nil || got != tt.want {
			t.Errorf("Ask(%q) = %q, %v; want %q", tt.q.Text, got, err, tt.want)
		}
	}
	if qs := u.Questions(); len(qs) != 3 || qs[0].By != "model" || qs[1].Answer != "Yes, ¥15 is fine." {
		t.Errorf("questions %+v", qs)
	}
	if _, err := newModelUser(modelUserConfig{Prompts: ps, Spec: suite.ModelUserSpec{Intent: "x"}}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	if _, err := newModelUser(modelUserConfig{Model: m, Spec: suite.ModelUserSpec{Intent: "x"}}); !errors.Is(err, ErrConfig) {
		t.Errorf("no prompts: %v", err)
	}
	var _ llm.Role = llm.RoleUser
}

func TestModelUserBadAnswer(t *testing.T) {
	m := newScriptedModel(t, "rules:\n  - {role: user, answer: '{\"answer\": \"\"}'}\n")
	u, _ := newModelUser(modelUserConfig{Model: m, Prompts: loadPrompts(t), Spec: suite.ModelUserSpec{Intent: "x"}})
	if _, err := u.Ask(t.Context(), interaction.Question{Text: "?"}); !errors.Is(err, errNoAnswer) {
		t.Errorf("empty answer: %v", err)
	}
}
