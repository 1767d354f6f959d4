package executor

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// fakeTricks is a tip store that searches like knowledge.Store: a tip matches a query
// that shares a word with it, and an empty query matches every tip (ranked by score).
type fakeTricks struct {
	mu      sync.Mutex
	tips    map[string][]string // kind → tips
	queries []string            // kind: query, for every lookup
}

func (f *fakeTricks) Tricks(_ context.Context, _, kind, query string, k int) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, kind+": "+query)
	var out []string
	words := strings.Fields(strings.ToLower(query))
	for _, tip := range f.tips[kind] {
		if len(words) == 0 || slices.ContainsFunc(words, func(w string) bool { return strings.Contains(strings.ToLower(tip), w) }) {
			out = append(out, tip)
		}
	}
	return out[:min(k, len(out))], nil
}

// TestTricksGoToTheRoleTheyServe: planning tips reach only the Re-Planner, action tips
// only the decider, recovery tips only after a C/D result or on the full re-plan that
// follows three of them, and no lookup is made with an empty query.
func TestTricksGoToTheRoleTheyServe(t *testing.T) {
	const (
		planning = "PLANNING-TIP: a note starts from the New note button"
		action   = "ACTION-TIP: tap New note, not the dead button"
		recovery = "RECOVERY-TIP: when wait changes nothing, use New note"
	)
	phone := &fakePhone{pkg: "com.fairy.notes", cur: "list", screens: map[string][]fakeNode{
		"list": {{kind: "button", text: "Dead button"}, {kind: "button", text: "New note", to: "new"}},
		"new":  {{kind: "text", text: "Note created"}},
	}}
	var mu sync.Mutex
	var replans, decides []string
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			mu.Lock()
			replans = append(replans, u)
			mu.Unlock()
			switch {
			case strings.Contains(u, "Note created"):
				return plan("A", "Finished", 0, "")
			case strings.Contains(u, "make a full new plan"):
				return plan("", "Use the New note button", 0, "")
			case n == 0:
				return plan("", "Use the dead button", 0, "")
			}
			return plan("D", "Use the dead button", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			mu.Lock()
			decides = append(decides, u)
			mu.Unlock()
			if strings.Contains(u, "Current sub-goal: Use the New note button") {
				return tap(index(u, "New note"))
			}
			return `{"thought":"","actions":[{"type":"Wait","seconds":0.1}],"expect":""}`
		},
	}}
	tips := &fakeTricks{tips: map[string][]string{TrickPlanning: {planning}, trickAction: {action}, trickRecovery: {recovery}}}
	h := newHarness(t, phone, m, nil, func(c *Config) { c.Tricks = tips })
	if res := h.run(t, "Make a note"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	for _, q := range tips.queries {
		if k, query, _ := strings.Cut(q, ": "); strings.TrimSpace(query) == "" {
			t.Errorf("a %s lookup with an empty query", k)
		}
	}
	for i, u := range replans {
		if strings.Contains(u, "ACTION-TIP") {
			t.Errorf("re-planner prompt %d carries an action tip", i)
		}
		if !strings.Contains(u, "PLANNING-TIP") {
			t.Errorf("re-planner prompt %d lacks the planning tip", i)
		}
	}
	if len(replans) == 0 || strings.Contains(replans[0], "RECOVERY-TIP") {
		t.Error("the first plan carries a recovery tip: nothing failed yet")
	}
	var full string
	for _, u := range replans {
		if strings.Contains(u, "make a full new plan") {
			full = u
		}
	}
	if !strings.Contains(full, "RECOVERY-TIP") {
		t.Errorf("the full re-plan after three D results lacks the recovery tip:\n%s", full)
	}
	if last := replans[len(replans)-1]; strings.Contains(last, "RECOVERY-TIP") {
		t.Error("the reflection after the fix carries a recovery tip")
	}
	for i, u := range decides {
		if strings.Contains(u, "PLANNING-TIP") || strings.Contains(u, "RECOVERY-TIP") {
			t.Errorf("decider prompt %d carries a planning or recovery tip", i)
		}
	}
	if !slices.ContainsFunc(decides, func(u string) bool { return strings.Contains(u, "ACTION-TIP") }) {
		t.Error("no decider prompt carries the action tip")
	}
}

// An empty query (no sub-goal, no action to recover from) looks nothing up.
func TestTricksNeedAQuery(t *testing.T) {
	tips := &fakeTricks{tips: map[string][]string{trickRecovery: {"RECOVERY-TIP"}}}
	r := &run{cfg: &Config{Tricks: tips}}
	if got := r.tricks(t.Context(), trickRecovery, " "); got != nil || len(tips.queries) != 0 {
		t.Errorf("tricks for an empty query = %q after %d lookups", got, len(tips.queries))
	}
}
