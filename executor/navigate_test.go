package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
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
				return `{"thought":"known way","actions":[{"type":"Navigate","target":"info"}],"expect":""}`
			}
			for _, l := range []string{"Turn off", "Apps", "All apps", "Maps", "Maps app"} {
				if i := index(u, l); i > 0 {
					return tap(i)
				}
			}
			return `{"thought":"lost","actions":[],"expect":""}`
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

func (s tapStep) Resolve(screen *perception.Screen) (event.Action, error) {
	for _, e := range screen.Elements {
		if e.Label == s.tap || e.Text == s.tap {
			return event.Action{Type: event.Tap, Index: e.Index}, nil
		}
	}
	return event.Action{}, fmt.Errorf("no %q on the screen", s.tap)
}

func (s tapStep) String() string { return "tap " + s.tap }

// fixedShortcuts knows one path, to "info".
type fixedShortcuts struct {
	steps []replay.Step
	asked []string
}

func (f *fixedShortcuts) Shortcut(_ context.Context, _, from, target string) ([]replay.Step, bool) {
	f.asked = append(f.asked, target)
	if target != "info" || f.steps == nil {
		return nil, false
	}
	return f.steps, true
}

func TestNavigateReplaysKnownPath(t *testing.T) {
	path := []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Maps"}}
	tests := []struct {
		name         string
		phone        func() *fakePhone
		shortcuts    *fixedShortcuts
		hints        bool
		wantDecider  int
		wantReplayed int
		wantStopped  bool
		wantRejected int
		wantNoShot   int // pages perceived without a screenshot: replayed, never shown to a model
	}{
		{name: "no knowledge", phone: deepPhone, wantDecider: 4},
		{name: "replay", phone: deepPhone, shortcuts: &fixedShortcuts{steps: path}, hints: true, wantDecider: 2, wantReplayed: 3, wantNoShot: 2},
		{name: "mismatch falls back", phone: func() *fakePhone {
			p := deepPhone()
			p.screens["all"][1].text = "Maps app" // the list changed since the map was learned
			return p
		}, shortcuts: &fixedShortcuts{steps: path}, hints: true, wantDecider: 3, wantReplayed: 2, wantStopped: true, wantNoShot: 1},
		{name: "unknown path is rejected", phone: deepPhone, shortcuts: &fixedShortcuts{}, hints: true, wantDecider: 5, wantRejected: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := tt.phone()
			h := newHarness(t, phone, deepModel(), nil, func(c *Config) {
				c.TextOnly = false // screenshots are counted
				if tt.shortcuts != nil {
					c.Shortcuts = tt.shortcuts
				}
				if tt.hints {
					c.Hints = pageHints{phone}
				}
			})
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone || phone.cur != "off" {
				t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
			}
			if got := h.model.count(llm.RoleDecider); got != tt.wantDecider {
				t.Errorf("decider calls = %d, want %d", got, tt.wantDecider)
			}
			navs := find[event.Navigated](h)
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
			// A picture only when it is used: a page replayed on the way is checked on its
			// dump; the one the replay stopped on is shown to the Re-Planner, so it gets one.
			if perceived := len(find[event.ScreenPerceived](h)); phone.shots != perceived-tt.wantNoShot {
				t.Errorf("%d screenshots for %d perceived pages, want %d", phone.shots, perceived, perceived-tt.wantNoShot)
			}
			rejected := 0
			for _, r := range find[event.ActionRejected](h) {
				if r.Action.Type == event.Navigate {
					rejected++
				}
			}
			if rejected != tt.wantRejected {
				t.Errorf("Navigate rejected %d times, want %d", rejected, tt.wantRejected)
			}
			// Every replayed action is published like any other, so the App Map keeps learning.
			if got, want := len(find[event.ActionExecuted](h)), 4; got != want {
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
		if i := index(u, "Pay"); i > 0 && !strings.Contains(u, "Current sub-goal: Go to") {
			return tap(i)
		}
		return dec(n, u)
	}
	model.fn[llm.RoleInteractor] = func(int, string) string {
		return `{"status":"A","question":"","options":[],"summary":"The person allows it.","consent":"granted"}`
	}
	h := newHarness(t, phone, model, []interaction.Rule{{Pattern: ".", Reply: "yes"}}, func(c *Config) {
		c.Shortcuts = &fixedShortcuts{steps: []replay.Step{tapStep{"Apps"}, tapStep{"All apps"}, tapStep{"Pay"}}}
		c.Hints = pageHints{phone}
	})
	res := h.run(t, "Turn off Maps notifications")
	if res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s (%s)", res.Outcome, res.Reason)
	}
	navs := find[event.Navigated](h)
	if len(navs) != 1 || navs[0].Replayed != 2 || !strings.Contains(navs[0].Stopped, "consent") {
		t.Fatalf("navigated = %+v, want a stop before the guarded step", navs)
	}
	if g := find[event.ActionGuarded](h); len(g) != 1 || g[0].Category != "payment" {
		t.Errorf("guard events = %+v: the guarded step must go through the normal guard", g)
	}
}

// payPhone is a shop whose known path to the receipt passes a Pay button.
func payPhone() *fakePhone {
	return &fakePhone{pkg: "com.fairy.shop", cur: "home", screens: map[string][]fakeNode{
		"home": {{kind: "text", text: "Shop"}, {kind: "button", text: "Cart", to: "cart"}},
		"cart": {{kind: "text", text: "Total ¥18"}, {kind: "button", text: "Pay ¥18", to: "info"}},
		"info": {{kind: "text", text: "Paid ¥18"}, {kind: "button", text: "Home", to: "home"}},
	}}
}

// payModel navigates to the receipt when the hint offers it, taps Pay ¥18 when the
// re-planner asks for it, and answers consent questions with the person's word.
func payModel() *fakeModel {
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			switch {
			case strings.Contains(u, `"Paid ¥18"`):
				return plan("A", "Finished", 0, "")
			case index(u, "Pay ¥18") > 0:
				return plan("B", "Pay", 0, "")
			}
			return plan("", "Go to the receipt", 0, "", "Go to the receipt")
		},
		llm.RoleDecider: func(_ int, u string) string {
			if i := index(u, "Pay ¥18"); i > 0 {
				return tap(i)
			}
			return `{"thought":"known way","actions":[{"type":"Navigate","target":"info"}],"expect":""}`
		},
		llm.RoleInteractor: func(_ int, u string) string {
			switch {
			case !strings.Contains(u, "Person:"):
				return `{"status":"B","question":"May I pay ¥18?","options":[],"summary":"","consent":""}`
			case strings.Contains(u, "Person: yes"):
				return `{"status":"A","question":"","options":[],"summary":"The person allows paying ¥18.","consent":"granted"}`
			}
			return `{"status":"A","question":"","options":[],"summary":"The person does not allow paying.","consent":"denied"}`
		},
	}}
}

// TestNavigateAsksAtAPayment: a replayed path never passes a sensitive step unasked. The
// replay stops at Pay and asks; "no" ends the task with nothing paid; "yes" pays once,
// spending the consent.
func TestNavigateAsksAtAPayment(t *testing.T) {
	for _, reply := range []string{"no", "yes"} {
		t.Run(reply, func(t *testing.T) {
			phone := payPhone()
			h := newHarness(t, phone, payModel(), []interaction.Rule{{Pattern: ".", Reply: reply}}, func(c *Config) {
				c.Shortcuts = &fixedShortcuts{steps: []replay.Step{tapStep{"Cart"}, tapStep{"Pay ¥18"}}}
				c.Hints = pageHints{phone}
			})
			res := h.run(t, "Pay for the cart")
			g := find[event.ActionGuarded](h)
			if len(g) != 1 || g[0].Category != "payment" || g[0].Target != "Pay ¥18" {
				t.Fatalf("guard events %+v, want one payment hold on Pay ¥18", g)
			}
			if navs := find[event.Navigated](h); len(navs) != 1 || navs[0].Replayed != 1 || !strings.Contains(navs[0].Stopped, "consent") {
				t.Errorf("navigation %+v, want a replay stopped before Pay for consent", navs)
			}
			paid := phone.tapped("Pay ¥18")
			if reply == "no" {
				if paid != 0 || res.Outcome != event.OutcomeRefused {
					t.Errorf("paid %d times, outcome %s: the person said no", paid, res.Outcome)
				}
				return
			}
			if paid != 1 || res.Outcome != event.OutcomeDone {
				t.Fatalf("paid %d times, outcome %s (%s), want one payment", paid, res.Outcome, res.Reason)
			}
			for _, e := range find[event.ActionExecuted](h) {
				if e.Element != nil && e.Element.Label == "Pay ¥18" && (e.Consent != "payment" || e.ConsentFor == "") {
					t.Errorf("the payment ran without spending its consent: %+v", e)
				}
			}
			for _, in := range h.mem.Instructions() {
				if in.Consent != nil && in.Consent.Granted && !in.Used {
					t.Errorf("consent %+v left unspent after the payment", in.Consent)
				}
			}
		})
	}
}

// TestNavigateSpendsAConsent: a consent the person gave for Pay covers one replay through
// it; the replay uses it up, so a second payment would have to ask again.
func TestNavigateSpendsAConsent(t *testing.T) {
	phone := payPhone()
	phone.cur = "cart"
	xml, _ := phone.Dump(context.Background())
	cart, err := perception.Parse(xml)
	if err != nil {
		t.Fatal(err)
	}
	phone.cur = "home"
	g, _ := guard.New(guard.DefaultPolicy())
	v, hit := g.Check(event.Action{Type: event.Tap, Index: 1}, &cart.Elements[0], cart)
	if !hit {
		t.Fatalf("Pay ¥18 is not guarded: %+v", cart.Elements)
	}
	h := newHarness(t, phone, payModel(), nil, func(c *Config) {
		c.Shortcuts = &fixedShortcuts{steps: []replay.Step{tapStep{"Cart"}, tapStep{"Pay ¥18"}}}
		c.Hints = pageHints{phone}
	})
	// The person consented to this payment as the task began (the task's start resets
	// the stacks, so the consent is given then).
	h.bus.Subscribe(func(r event.Record) {
		if _, ok := r.Event.(event.AppTaskStarted); ok {
			h.mem.Handle(event.Record{Event: event.InteractionEnded{Settled: true, Summary: "The person allows paying ¥18.",
				Consent: &event.Consent{Granted: true, Category: v.Category, Action: v.Action, Subject: v.Subject}}})
		}
	})
	res := h.run(t, "Pay for the cart")
	if res.Outcome != event.OutcomeDone || phone.tapped("Pay ¥18") != 1 {
		t.Fatalf("outcome %s (%s), paid %d times", res.Outcome, res.Reason, phone.tapped("Pay ¥18"))
	}
	if len(find[event.ActionGuarded](h)) != 0 {
		t.Error("the replay asked although the person had consented to this payment")
	}
	if _, ok := h.mem.Consent(v.Category, v.Action); ok {
		t.Error("the replay through Pay left its consent unspent: one yes could pay twice")
	}
}

// TestPlannerConsentBindsToTheOnlySensitiveAction: the Re-Planner's own consent question on
// a page that offers exactly one guarded action names that action, and a yes covers it
// once: the payment runs without a second question, and the consent is spent.
func TestPlannerConsentBindsToTheOnlySensitiveAction(t *testing.T) {
	phone := payPhone()
	phone.cur = "cart"
	model := payModel()
	model.fn[llm.RoleReplanner] = func(n int, u string) string {
		switch {
		case strings.Contains(u, `"Paid ¥18"`):
			return plan("A", "Finished", 0, "")
		case n == 0:
			return plan("", "Pay", 1, "paying spends the person's money")
		}
		return plan("B", "Pay", 0, "")
	}
	h := newHarness(t, phone, model, []interaction.Rule{{Pattern: ".", Reply: "yes"}}, nil)
	res := h.run(t, "Pay for the cart")
	if res.Outcome != event.OutcomeDone || phone.tapped("Pay ¥18") != 1 {
		t.Fatalf("outcome %s (%s), paid %d times", res.Outcome, res.Reason, phone.tapped("Pay ¥18"))
	}
	asked := find[event.InteractionEnded](h)
	if len(asked) != 1 || asked[0].Consent == nil || asked[0].Consent.Category != "payment" || !strings.Contains(asked[0].Consent.Subject, "Pay ¥18") {
		t.Fatalf("interactions %+v, want one consent naming the payment", asked)
	}
	if len(find[event.ActionGuarded](h)) != 0 {
		t.Error("the guard asked again although the person's yes named this payment")
	}
	if _, ok := h.mem.Consent(asked[0].Consent.Category, asked[0].Consent.Action); ok {
		t.Error("the consent was not spent by the payment")
	}
}

// TestNavigateNotOfferedAfterTwoFailures (issue 21): a known path whose replay keeps
// stopping short — its steps lead back to where it started (a tap with an effect the map
// took for a way) — is offered twice at most in a task; then the task goes on step by
// step instead of repeating it until the step limit.
func TestNavigateNotOfferedAfterTwoFailures(t *testing.T) {
	phone := deepPhone()
	phone.screens["home"] = append(phone.screens["home"], fakeNode{kind: "button", text: "Add", to: "added"})
	phone.screens["added"] = []fakeNode{{kind: "text", text: "Added"}, {kind: "button", text: "Menu", to: "home"}}
	shortcuts := &fixedShortcuts{steps: []replay.Step{tapStep{"Add"}, tapStep{"Menu"}, tapStep{"All apps"}}}
	h := newHarness(t, phone, deepModel(), nil, func(c *Config) {
		c.Shortcuts = shortcuts
		c.Hints = pageHints{phone}
	})
	res := h.run(t, "Turn off Maps notifications")
	if res.Outcome != event.OutcomeDone || phone.cur != "off" {
		t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
	}
	navs := find[event.Navigated](h)
	if len(navs) != 2 {
		t.Errorf("%d Navigate replays (%+v), want %d", len(navs), navs, 2)
	}
	adds := 0
	for _, a := range find[event.ActionExecuted](h) {
		if a.Element != nil && a.Element.Label == "Add" {
			adds++
		}
	}
	if adds != 2 {
		t.Errorf("the path's first step ran %d times, want %d", adds, 2)
	}
}
