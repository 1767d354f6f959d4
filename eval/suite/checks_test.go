package eval

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

// TestPrepareSimClock: a task's phone starts at its suite's clock, whenever it runs.
func TestPrepareSimClock(t *testing.T) {
	ph := newPhone(t)
	if err := prepareSim(t.Context(), ph, &SimPhone{Clock: "2023-10-15T15:34:00Z"}, "t"); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := ph.Shell(t.Context(), "date", &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "15:34:") || !strings.Contains(got, "2023") {
		t.Errorf("date = %q, want 2023-10-15 15:34", got)
	}
	// A reset brings back the host's clock; the next task's preparation sets it again.
	if err := prepareSim(t.Context(), ph, &SimPhone{}, "t"); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if _, err := ph.Shell(t.Context(), "date", &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "2023") {
		t.Errorf("date after a task with no clock = %q, want the host's", out.String())
	}
	if err := prepareSim(t.Context(), ph, &SimPhone{Clock: "soon"}, "t"); err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("bad clock: err = %v", err)
	}
}

// TestFaultDrawsFollowTheTask: a task with faults and no seed of its own meets the same
// dead taps on whichever phone runs it (the phones' own seeds differ), and another task
// meets others.
func TestFaultDrawsFollowTheTask(t *testing.T) {
	run := func(seed uint64, id string) string {
		ph, err := sim.New(sim.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := prepareSim(t.Context(), ph, &SimPhone{Faults: "deadtap=0.5"}, id); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		for range 24 {
			var out strings.Builder
			if _, err := ph.Shell(t.Context(), "input tap 135 300", &out); err != nil {
				t.Fatal(err)
			}
			log.WriteString(ph.ScreenID() + "|")
			if _, err := ph.Shell(t.Context(), "input keyevent HOME", &out); err != nil {
				t.Fatal(err)
			}
		}
		return log.String()
	}
	a, b := run(1, "settings-battery-saver-deadtap"), run(2, "settings-battery-saver-deadtap")
	if a != b {
		t.Errorf("one task, two phones, different fault draws:\n%s\n%s", a, b)
	}
	if !strings.Contains(a, "workspace") || strings.Count(a, "workspace") == 24 {
		t.Fatalf("taps at deadtap=0.5 = %s, want some lost and some not", a)
	}
	if c := run(1, "another-task"); c == a {
		t.Error("two tasks drew the same 24 dead taps")
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
