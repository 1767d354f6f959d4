package executor

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
)

// TestCollectSkipsSeenAndUnreadableScreens: the key-context extractor reads a screen only
// when it shows a text the app task has not sent it yet — not a list seen again after
// Back, not a page whose texts only moved (the same message, starred) — and never a page
// with nothing to read (an unlabelled button, no static text).
func TestCollectSkipsSeenAndUnreadableScreens(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.mail", cur: "list", screens: map[string][]fakeNode{
		"list":    {{kind: "text", text: "Inbox"}, {kind: "button", text: "Open A", to: "a"}, {kind: "button", text: "Open B", to: "blank"}},
		"a":       {{kind: "text", text: "Lunch at noon"}, {kind: "button", text: "Star", to: "starred"}, {kind: "button", text: "Back to list", to: "list"}},
		"starred": {{kind: "button", text: "Star"}, {kind: "text", text: "Lunch at noon"}, {kind: "button", text: "Back to list", to: "list"}},
		"blank":   {{kind: "button"}},
	}}
	subgoals := []string{"Open A", "Star", "Back to list", "Open B"}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, _ string) string {
			if n >= len(subgoals) {
				return plan("A", "Finished", 0, "")
			}
			return plan(map[bool]string{true: "", false: "A"}[n == 0], subgoals[n], 0, "", subgoals...)
		},
		llm.RoleDecider: func(n int, u string) string { return tap(index(u, subgoals[n])) },
	}}
	h := newHarness(t, phone, m, nil, nil)
	res := h.run(t, "Read message A, then open B")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if got := strings.Join(phone.taps, ","); got != "Open A,Star,Back to list,Open B" {
		t.Fatalf("taps %s", got)
	}
	// Five screens were perceived (list, a, a starred, list again, blank); two had something
	// new to read.
	if got := m.count(llm.RoleExtractor); got != 2 {
		t.Errorf("%d extractor calls, want 2 (list and a; not a starred, not list again, not the blank page)", got)
	}
}

// TestOrderedContextSameOnEveryRun: with Config.OrderedContext the facts read off a step's
// screen reach the run at the same point whatever the collector's speed — when the next
// step starts: the step's own prompts never have them, the next step's always do — so
// prompts and events are the same on every run of a busy machine. The extractor here
// answers at once, then slower than a whole step.
func TestOrderedContextSameOnEveryRun(t *testing.T) {
	var want []string
	for _, delay := range []time.Duration{0, 300 * time.Millisecond} {
		var mu sync.Mutex
		var prompts []string // the Re-Planner's and the decider's prompts, in order
		m := shopModel()
		replan, decide := m.fn[llm.RoleReplanner], m.fn[llm.RoleDecider]
		m.fn[llm.RoleReplanner] = func(n int, u string) string {
			mu.Lock()
			prompts = append(prompts, "replanner:"+u)
			mu.Unlock()
			return replan(n, u)
		}
		m.fn[llm.RoleDecider] = func(n int, u string) string {
			mu.Lock()
			prompts = append(prompts, "decider:"+u)
			mu.Unlock()
			return decide(n, u)
		}
		m.fn[llm.RoleExtractor] = func(_ int, u string) string {
			time.Sleep(delay) // a loaded machine: the read ends after the step's other calls
			if strings.Contains(u, "Bubble Tea") {
				return `{"facts":[{"key":"drink","value":"the one with extra ice"}]}`
			}
			return `{"facts":[]}`
		}
		h := newHarness(t, shopPhone(), m, []interaction.Rule{{Pattern: "(?i)pay", Reply: "yes"}},
			func(c *Config) { c.OrderedContext = true })
		if res := h.run(t, "Order a large bubble tea"); res.Outcome != event.OutcomeDone {
			t.Fatalf("delay %v: outcome %s: %s", delay, res.Outcome, res.Reason)
		}
		var seen []string // which prompt had the fact
		for _, p := range prompts {
			role, _, _ := strings.Cut(p, ":")
			seen = append(seen, fmt.Sprintf("%s %v", role, strings.Contains(p, "extra ice")))
		}
		if len(seen) < 3 || seen[0] != "replanner false" || seen[1] != "decider false" || seen[2] != "replanner true" {
			t.Errorf("delay %v: prompts %v, want the first step's fact held from its own prompts and given to the next step's", delay, seen)
		}
		var order []string // events of the first two steps, by kind
		for _, e := range h.events {
			switch e := e.(type) {
			case event.StepStarted:
				order = append(order, fmt.Sprintf("step %d", e.Step))
			case event.ContextCollected:
				order = append(order, fmt.Sprintf("facts of step %d", e.Step))
			case event.ActionsDecided:
				order = append(order, "decided")
			}
		}
		got := append([]string{strings.Join(seen, ",")}, order...)
		if want == nil {
			want = got
		} else if !slices.Equal(got, want) {
			t.Errorf("delay %v: prompts and events differ from the run with an instant extractor:\n%v\nwant\n%v", delay, got, want)
		}
	}
}
