package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

// deepPhone is an app whose switch is three taps from the first page.
func deepPhone() *fakePhone {
	return &fakePhone{pkg: "com.android.settings", cur: "home", screens: map[string][]fakeNode{
		"home": {{kind: "text", text: "Settings"}, {kind: "button", text: "Apps", to: "apps"}},
		"apps": {{kind: "text", text: "Apps"}, {kind: "button", text: "All apps", to: "all"}},
		"all":  {{kind: "text", text: "All apps"}, {kind: "button", text: "Maps", to: "info"}},
		"info": {{kind: "text", text: "Maps"}, {kind: "button", text: "Turn off", to: "off"}},
		"off":  {{kind: "text", text: "Notifications off"}},
	}}
}

const navHint = `The App Map knows a path from this page to page "info" in 3 steps. It is reliable: Navigate("info") replays it without deciding each step.`

// deepModel goes page by page, unless the prompt holds a replayable navigation hint: then
// the re-planner aims at the target page and the decider answers Navigate.
func deepModel() *fakeModel {
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			switch {
			case strings.Contains(u, "Notifications off"):
				return plan("A", "Finished", 0, "")
			case index(u, "Turn off") > 0:
				return plan("A", "Turn off", 0, "")
			case strings.Contains(u, `Navigate("info") replays it`):
				return plan("", "Go to the Maps page", 0, "", "Go to the Maps page", "Turn off")
			}
			return plan("A", "Open the next page", 0, "", "Open the next page", "Turn off")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if strings.Contains(u, "Current sub-goal: Go to") && strings.Contains(u, `Navigate("info") replays it`) {
				return `{"thought":"known way","actions":[{"type":"Navigate","target":"info"}]}`
			}
			for _, l := range []string{"Turn off", "Apps", "All apps", "Maps", "Maps app"} {
				if i := index(u, l); i > 0 {
					return tap(i)
				}
			}
			return `{"thought":"lost","actions":[]}`
		},
	}}
}

// pageHints hints the way to "info" from the first page only.
type pageHints struct{ phone *fakePhone }

func (h pageHints) Hint(_ context.Context, _, _, subgoal string) (string, error) {
	h.phone.mu.Lock()
	defer h.phone.mu.Unlock()
	if h.phone.cur != "home" {
		return "", nil
	}
	return navHint, nil
}

// tapStep is a fake shortcut step: the page must show a button labelled tap.
type tapStep struct{ tap string }

func (s tapStep) Resolve(screen *perception.Screen) (memory.Action, error) {
	for _, e := range screen.Elements {
		if e.Label == s.tap || e.Text == s.tap {
			return memory.Action{Type: memory.Tap, Index: e.Index}, nil
		}
	}
	return memory.Action{}, fmt.Errorf("no %q on the screen", s.tap)
}

func (s tapStep) String() string { return "tap " + s.tap }

// fixedShortcuts knows one path, to "info".
type fixedShortcuts struct {
	steps []ShortcutStep
	asked []string
}

func (f *fixedShortcuts) Shortcut(_ context.Context, _, from, target string) ([]ShortcutStep, bool) {
	f.asked = append(f.asked, target)
	if target != "info" || f.steps == nil {
		return nil, false
	}
	return f.steps, true
}

func TestNavigateReplaysKnownPath(t *testing.T) {
	path := []ShortcutStep{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Maps"}}
	tests := []struct {
		name         string
		phone        func() *fakePhone
		shortcuts    *fixedShortcuts
		hints        bool
		wantDecider  int
		wantReplayed int
		wantStopped  bool
		wantRejected int
	}{
		{name: "no knowledge", phone: deepPhone, wantDecider: 4},
		{name: "replay", phone: deepPhone, shortcuts: &fixedShortcuts{steps: path}, hints: true, wantDecider: 2, wantReplayed: 3},
		{name: "mismatch falls back", phone: func() *fakePhone {
			p := deepPhone()
			p.screens["all"][1].text = "Maps app" // the list changed since the map was learned
			return p
		}, shortcuts: &fixedShortcuts{steps: path}, hints: true, wantDecider: 3, wantReplayed: 2, wantStopped: true},
		{name: "unknown path is rejected", phone: deepPhone, shortcuts: &fixedShortcuts{}, hints: true, wantDecider: 5, wantRejected: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := tt.phone()
			h := newHarness(t, phone, deepModel(), nil, func(c *Config) {
				if tt.shortcuts != nil {
					c.Shortcuts = tt.shortcuts
				}
				if tt.hints {
					c.Hints = pageHints{phone}
				}
			})
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != memory.OutcomeDone || phone.cur != "off" {
				t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
			}
			if got := h.model.count(llm.RoleDecider); got != tt.wantDecider {
				t.Errorf("decider calls = %d, want %d", got, tt.wantDecider)
			}
			navs := find[memory.Navigated](h)
			replayed := 0
			for _, n := range navs {
				replayed += n.Replayed
				if (n.Stopped != "") != tt.wantStopped {
					t.Errorf("navigated = %+v, want stopped %v", n, tt.wantStopped)
				}
			}
			if replayed != tt.wantReplayed {
				t.Errorf("replayed %d steps (%+v), want %d", replayed, navs, tt.wantReplayed)
			}
			rejected := 0
			for _, r := range find[memory.ActionRejected](h) {
				if r.Action.Type == memory.Navigate {
					rejected++
				}
			}
			if rejected != tt.wantRejected {
				t.Errorf("Navigate rejected %d times, want %d", rejected, tt.wantRejected)
			}
			// Every replayed action is published like any other, so the App Map keeps learning.
			if got, want := len(find[memory.ActionExecuted](h)), 4; got != want {
				t.Errorf("%d actions executed, want %d", got, want)
			}
			if tt.wantReplayed > 0 {
				// Pages on the shortcut's way are not sent to the key-context collector.
				if got := h.model.count(llm.RoleExtractor); got >= 5 {
					t.Errorf("extractor calls = %d: replayed pages were collected", got)
				}
			}
		})
	}
}

func TestNavigateStopsAtGuardedStep(t *testing.T) {
	phone := deepPhone()
	phone.screens["all"][1] = fakeNode{kind: "button", text: "Pay", to: "info"}
	model := deepModel()
	dec := model.fn[llm.RoleDecider]
	model.fn[llm.RoleDecider] = func(n int, u string) string {
		if i := index(u, "Pay"); i > 0 && !strings.Contains(u, "Go to") {
			return tap(i)
		}
		return dec(n, u)
	}
	model.fn[llm.RoleInteractor] = func(int, string) string {
		return `{"status":"A","question":"","options":[],"summary":"The person allows it.","consent":"granted"}`
	}
	h := newHarness(t, phone, model, []interaction.Rule{{Pattern: ".", Reply: "yes"}}, func(c *Config) {
		c.Shortcuts = &fixedShortcuts{steps: []ShortcutStep{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Pay"}}}
		c.Hints = pageHints{phone}
	})
	res := h.run(t, "Turn off Maps notifications")
	if res.Outcome != memory.OutcomeDone {
		t.Fatalf("outcome %s (%s)", res.Outcome, res.Reason)
	}
	navs := find[memory.Navigated](h)
	if len(navs) != 1 || navs[0].Replayed != 2 || !strings.Contains(navs[0].Stopped, "consent") {
		t.Fatalf("navigated = %+v, want a stop before the guarded step", navs)
	}
	if g := find[memory.ActionGuarded](h); len(g) != 1 || g[0].Category != "payment" {
		t.Errorf("guard events = %+v: the guarded step must go through the normal guard", g)
	}
}
