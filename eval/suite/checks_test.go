package suite

import (
	"context"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/sim"
)

func newPhone(t *testing.T) *sim.Phone {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestChecksOnSimState(t *testing.T) {
	ph := newPhone(t)
	var out strings.Builder
	if _, err := ph.Shell(t.Context(), "settings put global wifi_on 0", &out); err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	two := 2
	probe := Probe{Phone: ph, Outcome: "done", Answer: "The address is 1 Infinite Loop"}
	tests := []struct {
		c        Check
		pass     bool
		evidence string
	}{
		{Check{Setting: &SettingCheck{Name: "global/wifi_on", Equals: "0"}}, true, "global/wifi_on = 0"},
		{Check{Setting: &SettingCheck{Name: "bluetooth_on", Equals: "1"}}, false, "bluetooth_on = 0"},
		{Check{Message: &MessageCheck{To: "alice", Contains: []string{"sounds good"}}}, true, `to Alice Chen: "Sounds good!"`},
		{Check{Message: &MessageCheck{To: "Bob"}}, false, "0 matching of 1 outgoing"}, // Bob's message is incoming
		{Check{Message: &MessageCheck{To: "Bob", None: true}}, true, "0 matching"},
		{Check{Order: &OrderCheck{Items: 2}}, false, "0 matching of 0 orders"},
		{Check{Order: &OrderCheck{Paid: &yes, None: true}}, true, "0 matching of 0 orders"},
		{Check{Order: &OrderCheck{Paid: &no}}, false, "0 matching"},
		{Check{Note: &NoteCheck{Title: "no such note", Deleted: true}}, true, "0 matching"},
		{Check{Records: &RecordsCheck{Collection: "com.fairy.shop:menu", Where: map[string]string{"category": "^奶茶$"}}}, true, "5 matching of 15 records"},
		{Check{Records: &RecordsCheck{Collection: "menu", Where: map[string]string{"en": "tea"}, Count: &two}}, false, "matching of 15"},
		{Check{Records: &RecordsCheck{Collection: "nope"}}, false, "error: "},
		{Check{Foreground: "com.fairy.shop"}, false, "foreground com.android.launcher3/"},
		{Check{Outcome: "done"}, true, "outcome done"},
		{Check{Answer: "infinite loop"}, true, "answer"},
		{Check{Screen: &ScreenCheck{Contains: "Messages"}}, true, "final screen:"},
		{Check{Screen: &ScreenCheck{Pattern: `\[1\] \S+ "Nope"`}}, false, "final screen:"},
		{Check{Shell: &ShellCheck{Command: "settings get global wifi_on", Match: `^0\s*$`}}, true, "$ settings get global wifi_on\n0"},
		{Check{Judge: &JudgeCheck{Criteria: "x"}}, false, "error: no judge model"},
	}
	probe.Shell = func(ctx context.Context, cmd string) (string, error) {
		var b strings.Builder
		_, err := ph.Shell(ctx, cmd, &b)
		return b.String(), err
	}
	for i, tt := range tests {
		r := Evaluate(t.Context(), tt.c, probe)
		if r.Pass != tt.pass || !strings.Contains(r.Evidence, tt.evidence) || r.Kind != tt.c.Kind() || r.Name == "" {
			t.Errorf("%d %s: pass=%t evidence=%q, want pass=%t evidence containing %q", i, r.Name, r.Pass, r.Evidence, tt.pass, tt.evidence)
		}
	}
	// Without the phone, state checks say so instead of passing.
	r := Evaluate(t.Context(), Check{Setting: &SettingCheck{Name: "wifi_on", Equals: "0"}}, Probe{})
	if r.Pass || !strings.Contains(r.Evidence, "virtual phone") {
		t.Errorf("no phone: %+v", r)
	}
}

func TestEventCheckTimes(t *testing.T) {
	ph := newPhone(t)
	evs := ph.Events()
	if len(evs) == 0 {
		t.Skip("the calendar has no initial events")
	}
	e := evs[0]
	ok, ev, _ := checkEvents(EventCheck{Title: e.Title, Time: strings.TrimPrefix(e.Time, "0")}, evs)
	if !ok || !strings.Contains(ev, e.Title) {
		t.Errorf("event %+v not found: %s", e, ev)
	}
	ok, _, _ = checkEvents(EventCheck{Title: e.Title, Time: "03:17"}, evs)
	if ok {
		t.Error("wrong time matched")
	}
}

func TestJudgeCheck(t *testing.T) {
	m := newScriptedModel(t, `
rules:
  - role: judge
    match: ['(?s)CRITERIA\n.*Wi-Fi is off', 'Outcome: done']
    answer: '{"pass": true, "reason": "the outcome is done and Wi-Fi shows off"}'
  - role: judge
    answer: '{"pass": false, "reason": "not shown"}'
`)
	ph := newPhone(t)
	p := Probe{Phone: ph, Judge: m, Prompts: loadPrompts(t), Outcome: "done", Instruction: "turn off wifi"}
	r := Evaluate(t.Context(), Check{Judge: &JudgeCheck{Criteria: "Wi-Fi is off"}}, p)
	if !r.Pass || !strings.Contains(r.Evidence, "shows off") {
		t.Errorf("judge: %+v", r)
	}
	r = Evaluate(t.Context(), Check{Judge: &JudgeCheck{Criteria: "a pizza was ordered"}}, p)
	if r.Pass || r.Evidence != "judge: not shown" {
		t.Errorf("judge: %+v", r)
	}
}

// TestRecordsCheckSaysWhat: a failed records check names what it looked for (the where
// patterns and the count) and shows records that were there, so the suite's author sees
// why none matched ("expected records in menu, saw 0 matching of 15 records" did not).
func TestRecordsCheckSaysWhat(t *testing.T) {
	ph := newPhone(t)
	one := 1
	c := Check{Records: &RecordsCheck{Collection: "com.fairy.shop:menu", Where: map[string]string{"category": "^咖啡$", "en": "mocha"}, Count: &one}}
	r := Evaluate(t.Context(), c, Probe{Phone: ph, Outcome: "done"})
	if r.Pass {
		t.Fatalf("passed: %+v", r)
	}
	for _, want := range []string{`category ~ "^咖啡$"`, `en ~ "mocha"`, "1 record"} {
		if !strings.Contains(r.Name, want) {
			t.Errorf("name %q does not say %q", r.Name, want)
		}
	}
	if !strings.Contains(r.Evidence, "none matched; the last:") || !strings.Contains(r.Evidence, `"category":`) {
		t.Errorf("evidence %q shows none of the records there", r.Evidence)
	}
}
