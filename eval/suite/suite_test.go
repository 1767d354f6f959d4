package suite

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

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
			_, err := Parse([]byte(tt.doc), "t.yaml")
			if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrSuite mentioning %q", err, tt.want)
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := Parse([]byte(`
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

// TestRuleUserSpecValidate: a scripted user is checked by the format itself (no simulated
// user built): the consent keyword, each rule's pattern and reply, each error an ErrSuite
// naming the rule.
func TestRuleUserSpecValidate(t *testing.T) {
	for _, tt := range []struct {
		spec RuleUserSpec
		want string
	}{
		{RuleUserSpec{Consent: "maybe"}, `consent "maybe": use approve or refuse`},
		{RuleUserSpec{Rules: []UserRule{{Pattern: "a", Reply: "b"}, {Pattern: "[", Reply: "c"}}}, `user rule 2 pattern "["`},
		{RuleUserSpec{Rules: []UserRule{{Pattern: "a"}}}, "user rule 1 has no reply"},
	} {
		err := tt.spec.Validate()
		if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want an ErrSuite saying %q", tt.spec, err, tt.want)
		}
	}
	ok := RuleUserSpec{Consent: "Approve", Default: "fine", Rules: []UserRule{{Pattern: "(?i)which", Reply: "refuse", Times: 1}}}
	if err := ok.Validate(); err != nil {
		t.Errorf("a valid scripted user: %v", err)
	}
}
