package eval

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/prompts"
)

func TestParseErrors(t *testing.T) {
	const ok = "  - id: a\n    instruction: x\n    phone: {sim: {}}\n    checks: [{outcome: done}]\n"
	tests := []struct {
		name, doc, want string
	}{
		{"empty", "", "empty document"},
		{"no tasks", "name: x\n", "no tasks"},
		{"unknown key", "tasks:\n" + ok + "    colour: red\n", "colour"},
		{"duplicate id", "tasks:\n" + ok + ok, "id used twice"},
		{"bad id", "tasks:\n  - {id: 'a b', instruction: x, phone: {sim: {}}, checks: [{outcome: done}]}\n", "use letters"},
		{"no instruction", "tasks:\n  - {id: a, phone: {sim: {}}, checks: [{outcome: done}]}\n", "no instruction"},
		{"no phone", "tasks:\n  - {id: a, instruction: x, checks: [{outcome: done}]}\n", "no phone"},
		{"two phones", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}, device: {}}, checks: [{outcome: done}]}\n", "both sim"},
		{"bad faults", "tasks:\n  - {id: a, instruction: x, phone: {sim: {faults: 'idle=2'}}, checks: [{outcome: done}]}\n", "faults"},
		{"bad clock", "tasks:\n  - {id: a, instruction: x, phone: {sim: {clock: 'tomorrow'}}, checks: [{outcome: done}]}\n", "clock"},
		{"no checks", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}}\n", "no checks"},
		{"two kinds", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, checks: [{outcome: done, answer: y}]}\n", "has 2 kinds"},
		{"sim check on device", "tasks:\n  - {id: a, instruction: x, phone: {device: {}}, checks: [{setting: {name: wifi_on, equals: '0'}}]}\n", "real device use screen"},
		{"bad outcome", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, checks: [{outcome: great}]}\n", "not done"},
		{"bad pattern", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, checks: [{screen: {pattern: '('}}]}\n", "pattern"},
		{"two users", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, user: {scripted: {}, model: {intent: y}}, checks: [{outcome: done}]}\n", "choose one"},
		{"bad consent", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, user: {scripted: {consent: maybe}}, checks: [{outcome: done}]}\n", "approve or refuse"},
		{"bad user rule", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, user: {scripted: {rules: [{pattern: '[', reply: y}]}}, checks: [{outcome: done}]}\n", "pattern"},
		{"model user without intent", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, user: {model: {persona: p}}, checks: [{outcome: done}]}\n", "intent"},
		{"contradiction", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, questions: {must_not_ask: true, must_ask: [x]}, checks: [{outcome: done}]}\n", "contradicts"},
		{"bad model rule", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, model: [{match: '(', answer: x}], checks: [{outcome: done}]}\n", "model rules"},
		{"negative limits", "tasks:\n  - {id: a, instruction: x, phone: {sim: {}}, limits: {steps: -1}, checks: [{outcome: done}]}\n", "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseSuite([]byte(tt.doc), "t.yaml")
			if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrSuite mentioning %q", err, tt.want)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := parseSuite([]byte(`
name: d
defaults:
  phone: {sim: {faults: "deadtap=0.2", clock: "2023-10-15T15:34:00Z"}}
  limits: {steps: 12, time: 90s, cost: 0.5}
  user: {scripted: {default: "whatever"}}
tasks:
  - {id: a, instruction: x, checks: [{outcome: done}]}
  - {id: b, instruction: y, phone: {sim: {}}, limits: {steps: 3}, user: {scripted: {consent: refuse}}, checks: [{outcome: done}]}
`), "d.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, b := s.Tasks[0], s.Tasks[1]
	if a.Phone.Sim == nil || a.Phone.Sim.Faults != "deadtap=0.2" || a.Limits.Steps != 12 || a.Limits.Time.Seconds() != 90 || a.User.Scripted.Default != "whatever" {
		t.Errorf("a = %+v", a)
	}
	// A task's own phone keeps the suite's clock: every task starts at the same time.
	if a.Phone.Sim.Clock != "2023-10-15T15:34:00Z" || b.Phone.Sim.Clock != a.Phone.Sim.Clock {
		t.Errorf("clocks = %q, %q, want the default's", a.Phone.Sim.Clock, b.Phone.Sim.Clock)
	}
	if b.Phone.Sim.Faults != "" || b.Limits.Steps != 3 || b.Limits.Cost != 0.5 || b.User.Scripted.Consent != "refuse" {
		t.Errorf("b = %+v", b)
	}
}

func TestBuiltinSim(t *testing.T) {
	s, err := Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks) < 24 {
		t.Errorf("builtin:sim has %d tasks, want at least 24", len(s.Tasks))
	}
	// The suite covers what issue 8 asks for.
	for _, tag := range []string{"single-app", "cross-app", "ambiguous", "choice", "consent", "payment", "deletion", "refused", "scrolling", "fault", "chinese", "revisit", "model-user"} {
		n := 0
		for _, x := range s.Tasks {
			if x.HasTag(tag) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no task tagged %q", tag)
		}
	}
	for _, x := range s.Tasks {
		if _, err := s.Rules(x); err != nil {
			t.Errorf("%s: %v", x.ID, err)
		}
	}
}

func TestLoadBuiltin(t *testing.T) {
	if got := builtinNames(); len(got) == 0 || got[0] != "builtin:sim" {
		t.Errorf("builtinNames = %v", got)
	}
	if _, err := Load("builtin:nope"); !errors.Is(err, ErrSuite) {
		t.Errorf("unknown builtin: %v", err)
	}
	if _, err := Load("/nonexistent/suite.yaml"); err == nil {
		t.Error("missing file loaded")
	}
}

func TestRuleUser(t *testing.T) {
	u, err := newRuleUser(RuleUserSpec{
		Rules: []UserRule{
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
	silent, _ := newRuleUser(RuleUserSpec{})
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
func newScriptedModel(t *testing.T, rules string) Model {
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
		Spec: ModelUserSpec{Persona: "a student who likes bubble tea", Intent: "a large bubble tea, paying at most ¥20"}})
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
	if _, err := newModelUser(modelUserConfig{Prompts: ps, Spec: ModelUserSpec{Intent: "x"}}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil model: %v", err)
	}
	if _, err := newModelUser(modelUserConfig{Model: m, Spec: ModelUserSpec{Intent: "x"}}); !errors.Is(err, ErrConfig) {
		t.Errorf("no prompts: %v", err)
	}
	var _ llm.Role = llm.RoleUser
}

func TestModelUserBadAnswer(t *testing.T) {
	m := newScriptedModel(t, "rules:\n  - {role: user, answer: '{\"answer\": \"\"}'}\n")
	u, _ := newModelUser(modelUserConfig{Model: m, Prompts: loadPrompts(t), Spec: ModelUserSpec{Intent: "x"}})
	if _, err := u.Ask(t.Context(), interaction.Question{Text: "?"}); !errors.Is(err, errNoAnswer) {
		t.Errorf("empty answer: %v", err)
	}
}
