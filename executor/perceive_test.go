package executor

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
)

// keyboardPhone is the fake phone that also answers whether the keyboard is up, counting
// how often it is asked.
type keyboardPhone struct {
	*fakePhone
	mu    sync.Mutex
	asked int
}

func (p *keyboardPhone) KeyboardShown(context.Context) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.asked++
	return false, nil
}

// TestKeyboardAskedOnlyWithTextField: the executor asks the device about the keyboard
// (dumpsys input_method on the classic path) only on a screen with a field to type in;
// a page without one has no keyboard that matters.
func TestKeyboardAskedOnlyWithTextField(t *testing.T) {
	phone := &keyboardPhone{fakePhone: &fakePhone{pkg: "com.fairy.notes", cur: "list", screens: map[string][]fakeNode{
		"list":  {{kind: "button", text: "New note", to: "edit"}},
		"edit":  {{kind: "edit", text: ""}, {kind: "button", text: "Save", to: "saved"}},
		"saved": {{kind: "text", text: "Saved"}},
	}}}
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if strings.Contains(u, `"Saved"`) {
				return plan("", "Finished", 0, "")
			}
			return plan("", "Save a new note", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if i := index(u, "New note"); i > 0 {
				return tap(i)
			}
			return tap(index(u, "Save"))
		},
		RoleChecker: func(int, string) string { return `{"passed":true,"reason":"saved"}` },
	}}
	h := newHarness(t, phone.fakePhone, m, nil, func(c *Config) { c.Device = phone })
	if res := h.run(t, "Save a new note"); res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s: %s", res.Outcome, res.Reason)
	}
	if n := len(find[event.ScreenPerceived](h)); n != 3 {
		t.Fatalf("%d screens perceived, want 3 (list, edit, saved)", n)
	}
	if phone.asked != 1 {
		t.Errorf("the keyboard was asked about %d times, want once (the one page with a text field)", phone.asked)
	}
}
