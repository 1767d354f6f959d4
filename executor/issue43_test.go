package executor

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// promptLog records the user text of each role's prompts.
type promptLog struct {
	mu  sync.Mutex
	got map[llm.Role][]string
}

func (l *promptLog) add(r llm.Role, u string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.got == nil {
		l.got = map[llm.Role][]string{}
	}
	l.got[r] = append(l.got[r], u)
}

func (l *promptLog) of(r llm.Role) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got[r]...)
}

// clockCounter is the virtual phone's device, counting how often its clock is read.
type clockCounter struct {
	*adb.Device
	mu    sync.Mutex
	reads int
}

func (c *clockCounter) Clock(ctx context.Context) (time.Time, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Device.Clock(ctx)
}

// TestPromptsSayThePhoneClock: on the virtual phone through the real adb server, the
// re-planner, the decider and the finish check are told the phone's date, weekday, time
// and zone, read from the phone's clock once for the task (a clock set with `fairy-sim
// clock`, as a suite's setup sets it), and running on from there.
func TestPromptsSayThePhoneClock(t *testing.T) {
	ctx := t.Context()
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: phone})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- face.Serve(context.Background()) }()
	t.Cleanup(func() { face.Close(); <-served })
	srv := adbtest.Start(t)
	serial := srv.Connect(t, face.Addr().String())
	dev, err := adb.Open(ctx, adb.Config{Port: srv.Port, Serial: serial, SettleInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })
	if _, _, err := dev.RawShell(ctx, "fairy-sim clock 2023-10-15T15:34:00+02:00"); err != nil {
		t.Fatal(err)
	}
	const app = "com.google.android.apps.messaging"
	if err := dev.Launch(ctx, app); err != nil {
		t.Fatal(err)
	}

	var log promptLog
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			log.add(llm.RoleReplanner, u)
			if n == 0 {
				return plan("", "Say what day it is", 0, "")
			}
			return plan("A", "Finished", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			log.add(llm.RoleDecider, u)
			return `{"thought":"","actions":[{"type":"Finish","text":"Sunday"}],"expect":""}`
		},
		RoleChecker: func(_ int, u string) string {
			log.add(RoleChecker, u)
			return `{"passed":true,"reason":"done"}`
		},
		llm.RoleExtractor: func(int, string) string { return `{"facts":[]}` },
	}}
	cc := &clockCounter{Device: dev}
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(nil)
	mem := memory.NewStacks()
	mem.Attach(bus)
	person, _ := interaction.NewCanned(nil, "")
	it, err := interaction.New(interaction.Config{Model: m, Dialoger: person, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := New(Config{Device: cc, Model: m, Interactor: it, Memory: mem, Prompts: ps, Bus: bus, TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ex.Run(ctx, Assignment{Instruction: "What day is it?", Task: event.AppTask{App: app, Task: "What day is it?"}})
	if err != nil || res.Outcome != event.OutcomeDone {
		t.Fatalf("run: %v %+v", err, res)
	}
	const want = prompts.MarkClock + "Sunday, October 15, 2023, 15:34 (+0200)\n"
	for _, role := range []llm.Role{llm.RoleReplanner, llm.RoleDecider, RoleChecker} {
		ps := log.of(role)
		if len(ps) == 0 {
			t.Fatalf("no %s prompt", role)
		}
		for _, p := range ps {
			if !strings.Contains(p, want) {
				t.Errorf("%s prompt does not say the phone's clock %q:\n%s", role, want, p)
			}
		}
	}
	if cc.reads != 1 {
		t.Errorf("the phone's clock was read %d times in one task, want once", cc.reads)
	}
}

// TestAskedOnlyStep: after a step that only asked the person (the guard held the decider's
// tap on Pay), the re-planner is told the step asked, not "Last actions: (none)" with the
// decider's stale expectation, and its verdict is no verdict.
func TestAskedOnlyStep(t *testing.T) {
	var log promptLog
	m := shopModel()
	replan := m.fn[llm.RoleReplanner]
	m.fn[llm.RoleReplanner] = func(n int, u string) string {
		log.add(llm.RoleReplanner, u)
		if strings.Contains(u, prompts.MarkAsked) {
			return plan("C", "Pay", 0, "", "Pick large", "Pay") // a verdict on no action is dropped
		}
		return replan(n, u)
	}
	m.fn[llm.RoleDecider] = func(_ int, u string) string {
		if i := index(u, "Pay"); i > 0 {
			return `{"thought":"","actions":[{"type":"Tap","index":` + strconv.Itoa(i) + `}],"expect":"the app task is done"}`
		}
		return tap(index(u, "Large ¥18"))
	}
	h := newHarness(t, shopPhone(), m, []interaction.Rule{{Pattern: "pay", Reply: "yes"}}, nil)
	res := h.run(t, "Order a large bubble tea")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	var after string
	for _, p := range log.of(llm.RoleReplanner) {
		if strings.Contains(p, prompts.MarkAsked) {
			after = p
		}
	}
	if after == "" {
		t.Fatalf("no re-planner prompt says the step only asked the person:\n%s", strings.Join(log.of(llm.RoleReplanner), "\n----\n"))
	}
	if strings.Contains(after, "Last actions:") || strings.Contains(after, "the app task is done") {
		t.Errorf("the asked-only step shows actions or a stale expectation:\n%s", after)
	}
	for _, r := range find[event.Reflected](h) {
		if r.Result == "C" {
			t.Errorf("a verdict on a step with no action was kept: %+v", r)
		}
	}
}

// TestFinishAnswerFormat: the person asked for the answer in a form; the decider is told
// it, a Finish of another form is not done (whatever the model judges), and the answer
// in the asked form is.
func TestFinishAnswerFormat(t *testing.T) {
	const task = "When is my next meeting with Bob? Express your answer in the format <month name> <day> <year> <hour in 24-hour format>:<minutes>."
	phone := &fakePhone{pkg: "com.simplemobiletools.calendar.pro", cur: "list", screens: map[string][]fakeNode{
		"list": {{kind: "button", text: "Drinks with Bob"}, {kind: "text", text: "2023-10-27 09:45"}},
	}}
	var log promptLog
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string { return plan("", "Read the meeting with Bob", 0, "") },
		llm.RoleDecider: func(n int, u string) string {
			log.add(llm.RoleDecider, u)
			if n == 0 {
				return `{"thought":"","actions":[{"type":"Finish","text":"2023-10-27 09:45"}],"expect":""}`
			}
			return `{"thought":"","actions":[{"type":"Finish","text":"October 27 2023 09:45"}],"expect":""}`
		},
		RoleChecker: func(int, string) string { return `{"passed":true,"reason":"the screen shows it"}` },
	}}
	h := newHarness(t, phone, m, nil, nil)
	res := h.run(t, task)
	if res.Outcome != event.OutcomeDone || res.Answer != "October 27 2023 09:45" {
		t.Fatalf("outcome %s, answer %q: %s", res.Outcome, res.Answer, res.Reason)
	}
	checks := find[event.FinishChecked](h)
	if len(checks) != 2 || checks[0].Passed || !strings.Contains(checks[0].Reason, "<month name>") || !checks[1].Passed {
		t.Errorf("finish checks = %+v, want the first held for its form, the second passed", checks)
	}
	if d := log.of(llm.RoleDecider); len(d) == 0 || !strings.Contains(d[0], prompts.MarkAnswerFormat+`"in the format <month name> <day> <year>`) {
		t.Errorf("the decider is not told the asked format:\n%v", d)
	}
}

// TestReplannerFactsJoinKeyContext: what the re-planner read (the list before deleting)
// joins the key context the finish check reads.
func TestReplannerFactsJoinKeyContext(t *testing.T) {
	m := shopModel()
	replan := m.fn[llm.RoleReplanner]
	m.fn[llm.RoleReplanner] = func(n int, u string) string {
		out := replan(n, u)
		if n == 0 {
			out = strings.Replace(out, `"routine":`, `"facts":[{"key":"sizes seen","value":"Large ¥18"},{"key":" ","value":"x"}],"routine":`, 1)
		}
		return out
	}
	var checked string
	m.fn[RoleChecker] = func(_ int, u string) string { checked = u; return `{"passed":true,"reason":"done"}` }
	h := newHarness(t, shopPhone(), m, []interaction.Rule{{Pattern: "pay", Reply: "yes"}}, nil)
	if res := h.run(t, "Order a large bubble tea"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	var found bool
	for _, f := range h.mem.KeyContext() {
		found = found || (f.Key == "sizes seen" && f.Value == "Large ¥18")
		if strings.TrimSpace(f.Key) == "" {
			t.Errorf("an empty fact joined the key context: %+v", f)
		}
	}
	if !found || !strings.Contains(checked, "- sizes seen: Large ¥18") {
		t.Errorf("the re-planner's fact is not in the key context (%+v) or the finish check:\n%s", h.mem.KeyContext(), checked)
	}
}
