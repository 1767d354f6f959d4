package executor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
)

func shopPhone() *fakePhone {
	return &fakePhone{pkg: "com.fairy.shop", cur: "menu", screens: map[string][]fakeNode{
		"menu": {{kind: "text", text: "Bubble Tea"}, {kind: "button", text: "Large ¥18", to: "pay"}},
		"pay":  {{kind: "text", text: "Total ¥18"}, {kind: "button", text: "Pay", id: "com.fairy.shop:id/pay", to: "paid"}},
		"paid": {{kind: "text", text: "Paid. Arrives 18:30"}},
	}}
}

// shopModel plays a planner that forgets to ask before paying and a decider that taps Pay.
func shopModel() *fakeModel {
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			switch {
			case strings.Contains(u, "Paid."):
				return plan("A", "Finished", 0, "")
			case index(u, "Pay") > 0:
				return plan("A", "Pay", 0, "", "Pick large", "Pay")
			}
			return plan("", "Pick large", 0, "", "Pick large", "Pay")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if i := index(u, "Pay"); i > 0 {
				return tap(i)
			}
			return tap(index(u, "Large ¥18"))
		},
		llm.RoleInteractor: func(n int, u string) string {
			if !strings.Contains(u, "Person:") {
				return `{"status":"B","question":"Pay ¥18 for the bubble tea?","options":[],"summary":"","consent":""}`
			}
			return `{"status":"A","question":"","options":[],"summary":"The person allows paying ¥18.","consent":"granted"}`
		},
	}}
}

func TestGuardStopsUnconsentedPayment(t *testing.T) {
	tests := []struct {
		reply       string
		wantOutcome event.Outcome
		wantPaid    int
	}{
		{"no", event.OutcomeRefused, 0},
		{"不要", event.OutcomeRefused, 0},
		{"yes, pay", event.OutcomeDone, 1},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			h := newHarness(t, shopPhone(), shopModel(), []interaction.Rule{{Pattern: "pay", Reply: tt.reply}}, nil)
			res := h.run(t, "Order a large bubble tea")
			if res.Outcome != tt.wantOutcome {
				t.Fatalf("outcome = %s (%s), want %s", res.Outcome, res.Reason, tt.wantOutcome)
			}
			if got := h.phone.tapped("Pay"); got != tt.wantPaid {
				t.Errorf("Pay tapped %d times, want %d", got, tt.wantPaid)
			}
			g := find[event.ActionGuarded](h)
			if len(g) != 1 || g[0].Category != "payment" || g[0].Target != "Pay" {
				t.Errorf("guard events = %+v, want one payment hold on Pay", g)
			}
			if asked := h.person.Asked(); len(asked) != 1 || asked[0].Question.Kind != interaction.YesNo {
				t.Errorf("questions = %+v", asked)
			}
			if tt.wantOutcome == event.OutcomeRefused && !strings.Contains(res.Reason, "refused") {
				t.Errorf("reason = %q", res.Reason)
			}
			if tt.wantPaid == 1 {
				var spent bool
				for _, e := range find[event.ActionExecuted](h) {
					spent = spent || (e.Consent == "payment" && e.Element != nil && e.Element.Label == "Pay")
				}
				if !spent {
					t.Error("the Pay tap did not spend the payment consent")
				}
			}
		})
	}
}

func TestOutOfRangeIndexIsReasked(t *testing.T) {
	m := shopModel()
	m.fn[llm.RoleDecider] = func(n int, u string) string {
		if n == 0 {
			return tap(42)
		}
		if !strings.Contains(u, "index 42 is not on the current screen") && n == 1 {
			return `{"thought":"","actions":[],"expect":""}`
		}
		if i := index(u, "Pay"); i > 0 {
			return `{"thought":"","actions":[{"type":"Finish"}],"expect":""}`
		}
		return tap(index(u, "Large ¥18"))
	}
	m.fn[llm.RoleReplanner] = func(_ int, u string) string {
		if index(u, "Pay") > 0 {
			return plan("A", "Finished", 0, "")
		}
		return plan("", "Pick large", 0, "")
	}
	h := newHarness(t, shopPhone(), m, nil, nil)
	res := h.run(t, "Pick a large bubble tea")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	rej := find[event.ActionRejected](h)
	if len(rej) != 1 || rej[0].Action.Index != 42 {
		t.Fatalf("rejections = %+v", rej)
	}
	if len(h.phone.taps) != 1 || h.phone.taps[0] != "Large ¥18" {
		t.Errorf("taps = %v", h.phone.taps)
	}
	if m.count(llm.RoleDecider) != 2 {
		t.Errorf("decider calls = %d, want 2 (one re-ask)", m.count(llm.RoleDecider))
	}
}

func TestThreeFailuresForceFullReplan(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.notes", cur: "list", screens: map[string][]fakeNode{
		"list": {{kind: "button", text: "Dead button"}, {kind: "button", text: "New note", to: "new"}},
		"new":  {{kind: "text", text: "Note created"}},
	}}
	var fullPrompts int
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			if strings.Contains(u, "Note created") {
				return plan("A", "Finished", 0, "")
			}
			if strings.Contains(u, "make a full new plan") {
				fullPrompts++
				return plan("", "Use the New note button", 0, "")
			}
			if n == 0 {
				return plan("", "Use the dead button", 0, "")
			}
			return plan("D", "Use the dead button", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if strings.Contains(u, "Current sub-goal: Use the New note button") {
				return tap(index(u, "New note"))
			}
			return `{"thought":"","actions":[{"type":"Wait","seconds":0.1}],"expect":""}`
		},
	}}
	h := newHarness(t, phone, m, nil, nil)
	res := h.run(t, "Make a note")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	var full int
	for _, p := range find[event.Planned](h) {
		if p.Full {
			full++
		}
	}
	if full != 1 || fullPrompts != 1 {
		t.Errorf("full re-plans = %d (prompts %d), want 1", full, fullPrompts)
	}
	if d := find[event.Reflected](h); len(d) < 4 || d[1].Result != "D" || d[3].Result != "D" {
		t.Errorf("reflections = %+v", d)
	}
}

func TestDeciderNeedInteractionAsksThePerson(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.contacts", cur: "list", screens: map[string][]fakeNode{
		"list":  {{kind: "button", text: "Alice Wong", to: "alice"}, {kind: "button", text: "Alice Chen", to: "alice"}},
		"alice": {{kind: "text", text: "Alice Chen +1 555 0101"}},
	}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			if strings.Contains(u, "+1 555") {
				return plan("A", "Finished", 0, "")
			}
			return plan("", "Open Alice", 0, "") // never asks by itself
		},
		llm.RoleDecider: func(_ int, u string) string {
			if strings.Contains(u, "Alice Chen.") {
				return tap(index(u, "Alice Chen"))
			}
			return `{"thought":"two Alices","actions":[{"type":"NeedInteraction","reason":"there are two contacts named Alice"}],"expect":""}`
		},
		llm.RoleInteractor: func(n int, u string) string {
			if !strings.Contains(u, "Person:") {
				return `{"status":"B","question":"Which Alice?","options":["Alice Wong","Alice Chen"],"summary":"","consent":""}`
			}
			return `{"status":"A","question":"","options":[],"summary":"The person means Alice Chen.","consent":""}`
		},
	}}
	h := newHarness(t, phone, m, []interaction.Rule{{Pattern: "which alice", Reply: "2"}}, nil)
	res := h.run(t, "Open Alice's contact")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if a := h.person.Asked(); len(a) != 1 || a[0].Answer != "2" || a[0].Question.Type != 4 {
		t.Errorf("asked = %+v", a)
	}
	if h.phone.tapped("Alice Chen") != 1 || h.phone.tapped("Alice Wong") != 0 {
		t.Errorf("taps = %v", h.phone.taps)
	}
	ins := h.mem.Instructions()
	if ins[len(ins)-1].Text != "The person means Alice Chen." {
		t.Errorf("instruction stack = %+v", ins)
	}
}

func TestLoopIsBroken(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.maps", cur: "map", screens: map[string][]fakeNode{
		"map": {{kind: "button", text: "Search"}}, // a tap that does nothing
	}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string { return plan("B", "Search", 0, "") },
		llm.RoleDecider:   func(_ int, u string) string { return tap(index(u, "Search")) },
	}}
	h := newHarness(t, phone, m, nil, nil)
	res := h.run(t, "Search coffee")
	if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, "loop") {
		t.Fatalf("outcome %s: %q, want failed by a loop", res.Outcome, res.Reason)
	}
	var remedies []string
	for _, l := range find[event.LoopBroken](h) {
		remedies = append(remedies, l.Remedy)
	}
	if strings.Join(remedies, ",") != "back,replan,fail" {
		t.Errorf("remedies = %v", remedies)
	}
	if len(phone.keys) != 1 || phone.keys[0] != "back" {
		t.Errorf("keys = %v", phone.keys)
	}
	if n := phone.tapped("Search"); n != 6 {
		t.Errorf("Search tapped %d times, want 6 (two per loop)", n)
	}
}

func TestBudgets(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		want   string
	}{
		{"steps", Limits{MaxSteps: 2}, "step limit reached (2 steps)"},
		{"tokens", Limits{MaxTokens: 300}, "token limit reached"},
		{"cost", Limits{MaxCost: -1}, ""}, // a negative cost is off
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := &fakePhone{pkg: "com.fairy.maps", cur: "a", screens: map[string][]fakeNode{
				"a": {{kind: "button", text: "Next", to: "b"}}, "b": {{kind: "button", text: "Next", to: "a"}},
			}}
			m := &fakeModel{fn: map[llm.Role]func(int, string) string{
				llm.RoleReplanner: func(n int, u string) string {
					if n > 5 {
						return plan("A", "Finished", 0, "")
					}
					return plan("B", "Go on", 0, "")
				},
				llm.RoleDecider: func(_ int, u string) string { return tap(index(u, "Next")) },
			}}
			h := newHarness(t, phone, m, nil, func(c *Config) { c.Limits = tt.limits })
			res := h.run(t, "Wander")
			if tt.want == "" {
				if res.Outcome != event.OutcomeDone {
					t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
				}
				return
			}
			if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, tt.want) {
				t.Fatalf("outcome %s: %q, want failed with %q", res.Outcome, res.Reason, tt.want)
			}
			if fin := find[event.TaskFinished](h); len(fin) != 1 || fin[0].Reason != res.Reason {
				t.Errorf("TaskFinished = %+v", fin)
			}
		})
	}
}

func TestFinishCheckCatchesPrematureFinish(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.notes", cur: "edit", screens: map[string][]fakeNode{
		"edit":  {{kind: "edit", text: ""}, {kind: "button", text: "Save", to: "saved"}},
		"saved": {{kind: "text", text: "Saved"}},
	}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			if strings.Contains(u, "NOT done yet") {
				return plan("", "Save the note", 0, "")
			}
			return plan("", "Finished", 0, "") // premature, then after Save honest
		},
		llm.RoleDecider: func(_ int, u string) string { return tap(index(u, "Save")) },
		RoleChecker: func(n int, u string) string {
			if strings.Contains(u, `"Saved"`) {
				return `{"passed":true,"reason":"saved"}`
			}
			return `{"passed":false,"reason":"the note is not saved"}`
		},
	}}
	h := newHarness(t, phone, m, nil, nil)
	res := h.run(t, "Save a note")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	checks := find[event.FinishChecked](h)
	if len(checks) != 2 || checks[0].Passed || !checks[1].Passed {
		t.Errorf("checks = %+v", checks)
	}
	if phone.tapped("Save") != 1 {
		t.Errorf("taps = %v", phone.taps)
	}
}

func TestKeyContextOffCriticalPath(t *testing.T) {
	m := shopModel()
	m.fn[llm.RoleExtractor] = func(n int, u string) string {
		if strings.Contains(u, "Arrives 18:30") {
			return `{"facts":[{"key":"delivery time","value":"18:30"}]}`
		}
		return `{"facts":[]}`
	}
	h := newHarness(t, shopPhone(), m, []interaction.Rule{{Pattern: "pay", Reply: "yes"}}, nil)
	res := h.run(t, "Order a large bubble tea")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if len(res.Facts) != 1 || res.Facts[0].Value != "18:30" || res.Facts[0].App != "com.fairy.shop" {
		t.Errorf("facts = %+v", res.Facts)
	}
	var critical, off int
	for _, c := range find[event.ModelCalled](h) {
		if c.Critical {
			critical++
		} else {
			off++
		}
	}
	if off == 0 || off != m.count(llm.RoleExtractor) {
		t.Errorf("extractor calls off the path = %d, want %d", off, m.count(llm.RoleExtractor))
	}
	// Every other role's call is on the step's critical path.
	onPath := 0
	for _, r := range []llm.Role{llm.RolePlanner, llm.RoleReplanner, llm.RoleDecider, llm.RoleInteractor, RoleChecker} {
		onPath += m.count(r)
	}
	if critical == 0 || critical != onPath {
		t.Errorf("calls on the critical path = %d, want %d (planner, re-planner, decider, interactor, checker)", critical, onPath)
	}
}

// TestUnusableDecisionsFailTheTask: a decider that never gives a usable batch (an index not
// on the screen, an action type that does not exist) is re-asked within the step, then the
// task fails after maxBadDecides such steps in a row with the problem as the reason, not
// after the step limit. A usable batch in between starts the count again.
func TestUnusableDecisionsFailTheTask(t *testing.T) {
	tests := []struct {
		name      string
		bad       string
		goodAfter int // decider call (0-based) that gives a usable tap; -1 none
		want      string
		calls     int
	}{
		{"index out of range", tap(42), -1, "index 42 is not on the current screen", 3 * maxBadDecides},
		{"unknown type", `{"thought":"","actions":[{"type":"Teleport","index":1}],"expect":""}`, -1, "unknown action type \"Teleport\"", 3 * maxBadDecides},
		// Two bad steps, one good, then bad ones again: 6 + 1 + 9 calls.
		{"count restarts", tap(42), 6, "no usable action in 3 steps in a row", 6 + 1 + 3*maxBadDecides},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := shopModel()
			m.fn[llm.RoleDecider] = func(n int, u string) string {
				if n == tc.goodAfter {
					return tap(index(u, "Large ¥18"))
				}
				return tc.bad
			}
			m.fn[llm.RoleReplanner] = func(int, string) string { return plan("B", "Pick large", 0, "") }
			h := newHarness(t, shopPhone(), m, nil, func(c *Config) { c.Limits.MaxSteps = 30 })
			res := h.run(t, "Pick a large bubble tea")
			if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, tc.want) {
				t.Fatalf("outcome %s (%q), want failed saying %q", res.Outcome, res.Reason, tc.want)
			}
			if got := m.count(llm.RoleDecider); got != tc.calls {
				t.Errorf("decider calls = %d, want %d", got, tc.calls)
			}
			if len(h.phone.taps) > 0 && tc.goodAfter < 0 {
				t.Errorf("taps = %v, want none", h.phone.taps)
			}
		})
	}
}

// TestAPaymentPINIsThePersons: a payment app's own PIN is the person's to type (issue 40),
// whatever the decider would type (here the PIN with a line break, which would submit the
// form as the Pay button would): the page is handed over before any model sees it, and a
// person who will not take the phone ends the task with nothing typed or pressed, and the
// PIN in no event.
func TestAPaymentPINIsThePersons(t *testing.T) {
	const pin = "4821"
	phone := &fakePhone{pkg: "com.fairy.shop", cur: "pay", screens: map[string][]fakeNode{
		"pay": {{kind: "text", text: "Total ¥18"}, {kind: "password", id: "com.fairy.shop:id/pin"}, {kind: "button", text: "Pay", to: "paid"}},
	}}
	model := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(int, string) string { return plan("", "Pay", 0, "") },
		llm.RoleDecider: func(_ int, u string) string {
			i := strings.Index(u, "id=pin")
			n := 0
			if j := strings.LastIndex(u[:max(i, 0)], "["); i > 0 && j >= 0 {
				fmt.Sscan(u[j+1:], &n)
			}
			return fmt.Sprintf(`{"thought":"","actions":[{"type":"Input","index":%d,"text":%q}],"expect":""}`, n, pin+"\n")
		},
		llm.RoleInteractor: func(_ int, u string) string {
			if !strings.Contains(u, "Person:") {
				return `{"status":"B","question":"May I submit the PIN and pay ¥18?","options":[],"summary":"","consent":""}`
			}
			return `{"status":"A","question":"","options":[],"summary":"The person does not allow paying.","consent":"denied"}`
		},
	}}
	h := newHarness(t, phone, model, []interaction.Rule{{Pattern: ".", Reply: "no"}}, nil)
	res := h.run(t, "Pay for the tea")
	if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, "no one took the phone") {
		t.Errorf("outcome = %s (%s), want failed: no one took the phone", res.Outcome, res.Reason)
	}
	if len(phone.typed) > 0 || len(phone.taps) > 0 || len(phone.keys) > 0 {
		t.Errorf("typed %q, tapped %q, keys %q: the PIN is the person's", phone.typed, phone.taps, phone.keys)
	}
	if n := model.count(llm.RoleDecider); n != 0 {
		t.Errorf("the decider was called %d times on the PIN page", n)
	}
	if ho := find[event.HandOver](h); len(ho) != 2 || ho[0].Reason != "a password" || ho[1].Error == "" {
		t.Errorf("hand-over events = %+v, want one opened and one closed with no one taking the phone", ho)
	}
	for _, e := range h.events {
		if s := fmt.Sprintf("%+v", e); strings.Contains(s, pin) {
			t.Errorf("the PIN is in a %T event: %s", e, s)
		}
	}
}

// TestActionBudget: the action limit counts actions, not steps: with two actions a step
// and a budget of three, the second step runs one action, the rest of its batch is not
// run, and the task stops over budget at the next step. The count spans the Executor's
// app tasks: a second task on the same Executor starts with the budget spent.
func TestActionBudget(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.notes", cur: "edit", screens: map[string][]fakeNode{
		"edit": {{kind: "edit", text: ""}, {kind: "edit", text: ""}},
	}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(int, string) string { return plan("B", "Write", 0, "") },
		llm.RoleDecider: func(int, string) string {
			return `{"thought":"","actions":[{"type":"Input","index":1,"text":"a"},{"type":"Input","index":2,"text":"b"}],"expect":""}`
		},
	}}
	h := newHarness(t, phone, m, nil, func(c *Config) { c.Limits = Limits{MaxSteps: 30, MaxActions: 3} })
	res := h.run(t, "Write forever")
	if res.Outcome != event.OutcomeFailed || !strings.Contains(res.Reason, "action limit reached (3 actions)") {
		t.Fatalf("outcome %s: %q, want failed over the action budget", res.Outcome, res.Reason)
	}
	if n := len(find[event.ActionExecuted](h)); n != 3 {
		t.Errorf("%d actions executed, want 3", n)
	}
	if res.Steps != 3 {
		t.Errorf("%d steps, want 3 (two actions, one action, then the stop)", res.Steps)
	}
	again := h.run(t, "Write more")
	if again.Outcome != event.OutcomeFailed || !strings.Contains(again.Reason, "action limit reached") || len(find[event.ActionExecuted](h)) != 3 {
		t.Errorf("second task on the spent budget: %s %q, %d actions", again.Outcome, again.Reason, len(find[event.ActionExecuted](h)))
	}
}
