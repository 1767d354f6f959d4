package executor

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
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
	if res.Outcome != memory.OutcomeDone {
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
