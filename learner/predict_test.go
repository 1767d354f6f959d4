package learner

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

func TestPredict(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	settingsRun(t, l.Start("", ""), event.OutcomeDone)

	const shop = "com.fairy.shop"
	s := l.Start("", "")
	menu := screen{shop, ".MainActivity", "s-menu", `- [1] item "珍珠奶茶 Bubble tea" id=menu_item` + "\n" + `- [2] button "购物车 (0)" id=cart_button`}
	item := screen{shop, ".ItemActivity", "s-item", `- "珍珠奶茶"` + "\n" + `- [1] button "加入购物车" id=add_to_cart`}
	r := startRun(t, s, "r1", "order a tea", shop, "order a tea")
	r.see(menu, "", "Open the tea")
	r.do("s-menu", tap(1, "珍珠奶茶 Bubble tea", shop+":id/menu_item", "android.widget.LinearLayout"))
	r.see(item, "A", "Add it to the cart")
	r.do("s-item", tap(1, "加入购物车", shop+":id/add_to_cart", "android.widget.Button"))
	r.see(menu, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}

	display := tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout")
	back := act{a: event.Action{Type: event.Back}}
	tests := []struct {
		name, app, from string
		act             act
		want            string // "": no prediction
		goal            string // "": Open and the element's label
	}{
		{"known tap", settingsApp, "s-main", display, "s-display", ""},
		{"a known tap the sub-goal does not name", settingsApp, "s-main", display, "", "Turn on Dark theme"},
		{"back, with no sub-goal it served", settingsApp, "s-display", back, "", "Go back"},
		{"a switch stays on its page", settingsApp, "s-display", tap(1, "Dark theme", settingsApp+":id/dark", "android.widget.Switch"), "", ""},
		{"led by typed text", settingsApp, "s-main", act{a: event.Action{Type: event.Enter}}, "", ""},
		{"typing is no navigation", settingsApp, "s-main",
			act{a: event.Action{Type: event.Input, Index: 3, Text: "x"}, el: &event.ElementRef{ResourceID: settingsApp + ":id/search", Class: "android.widget.EditText"}}, "", ""},
		{"unknown action", settingsApp, "s-main", tap(2, "Sound", settingsApp+":id/sound", "android.widget.LinearLayout"), "", ""},
		{"unknown page", settingsApp, "s-nowhere", display, "", ""},
		{"unknown app", "com.nothing", "s-main", display, "", ""},
		{"opening an item", shop, "s-menu", tap(1, "珍珠奶茶 Bubble tea", shop+":id/menu_item", "android.widget.LinearLayout"), "s-item", ""},
		{"a side effect is no way", shop, "s-item", tap(1, "加入购物车", shop+":id/add_to_cart", "android.widget.Button"), "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			goal := tc.goal
			if goal == "" && tc.act.el != nil {
				goal = "Open " + tc.act.el.Label
			}
			got, ok := l.Start("", "").Predict(t.Context(), tc.app, tc.from, tc.act.a, tc.act.el, goal)
			if ok != (tc.want != "") || got != tc.want {
				t.Errorf("Predict = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}

	t.Run("unreliable", func(t *testing.T) {
		// Display twice failed to open its page since: (1+1)/(1+2+2) = 0.4.
		m, err := st.Map(settingsApp)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range m.Transitions {
			if tr.Action.Target.Text == "Display" && tr.Action.Kind == knowledge.ActionTap {
				for range 2 {
					if _, err := st.RecordTransition(settingsApp, tr, false); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display"); ok {
			t.Errorf("Predict = %q after two failures, want none", got)
		}
	})
}

// TestPredictNotWhereThePersonWasAsked: a page where the person was asked something (a
// choice, a consent) is never predicted: the Re-Planner judges there, every time.
func TestPredictNotWhereThePersonWasAsked(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	settingsRun(t, l.Start("", ""), event.OutcomeDone)
	display := tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout")
	if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display"); !ok || got != "s-display" {
		t.Fatalf("Predict before any question = %q, %v", got, ok)
	}
	s := l.Start("", "")
	r := startRun(t, s, "r2", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	r.see(mainPage, "", "Open Display")
	r.do("s-main", display)
	r.see(displayPage, "A", "Ask which theme")
	r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 3, Question: "Dark or light?"})
	r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "dark"})
	r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Summary: "dark", Turns: 1})
	r.finish(event.OutcomeDone, "")
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display"); ok {
		t.Errorf("Predict = %q after a question on that page; want none", got)
	}
	m, err := st.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := m.Page(knowledge.PageKey(".Display", "s-display")); err != nil || p.Asked != 1 {
		t.Errorf("display page = %+v, %v; want asked once", p, err)
	}
}

// TestPredictNeedsEvidenceForTheSubgoal: a known action predicts its page only for a
// sub-goal it is evidence for. A confirmed run files the sub-goals its transitions
// completed, so Back, which no sub-goal names, is predicted for the sub-goal it served; a
// run that was not confirmed (failed), and a step whose A a later C took back (a wrong
// page), file nothing.
func TestPredictNeedsEvidenceForTheSubgoal(t *testing.T) {
	back := act{a: event.Action{Type: event.Back}}
	display := tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout")
	sound := tap(2, "Sound", settingsApp+":id/sound", "android.widget.LinearLayout")
	soundPage := screen{settingsApp, ".Sound", "s-sound", `- "Sound"` + "\n" + `- [1] switch "Do not disturb" id=dnd`}
	learn := func(t *testing.T, l *Learner, outcome event.Outcome, wrongTurn bool) {
		t.Helper()
		s := l.Start("", "")
		r := startRun(t, s, "r", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
		r.see(mainPage, "", "Open Display settings")
		if wrongTurn {
			// The model tapped Sound for "Open Display settings"; a false A, then the next
			// look sees the wrong page and goes back.
			r.do("s-main", sound)
			r.see(soundPage, "A", "Go on from here")
			r.do("s-sound", act{a: event.Action{Type: event.Swipe, Direction: "up"}})
			r.see(soundPage, "C", "Go back to the main page")
			r.do("s-sound", back)
			r.see(mainPage, "A", "Open Display settings")
		}
		r.do("s-main", display)
		r.see(displayPage, "A", "Return to the main page")
		r.do("s-display", back)
		r.see(mainPage, "A", "Finished")
		r.finish(outcome, "")
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	predict := func(l *Learner, from string, a act, goal string) string {
		to, _ := l.Predict(t.Context(), settingsApp, from, a.a, a.el, goal)
		return to
	}
	t.Run("confirmed", func(t *testing.T) {
		st, _ := tempStore(t)
		l := newLearner(t, st, nil)
		learn(t, l, event.OutcomeDone, true)
		if got := predict(l, "s-display", back, "Return to the main page"); got != "s-main" {
			t.Errorf("Back for the sub-goal it served: %q, want s-main", got)
		}
		if got := predict(l, "s-display", back, "  return to the MAIN page "); got != "s-main" {
			t.Errorf("Back for the same sub-goal written otherwise: %q, want s-main", got)
		}
		if got := predict(l, "s-display", back, "Open Sound"); got != "" {
			t.Errorf("Back for another sub-goal: %q, want none", got)
		}
		if got := predict(l, "s-main", sound, "Open Display settings"); got != "" {
			t.Errorf("the wrong tap of the run, for the sub-goal it did not serve: %q, want none", got)
		}
		if got := predict(l, "s-main", display, "Open Display settings"); got != "s-display" {
			t.Errorf("Display for its sub-goal: %q, want s-display", got)
		}
		m, err := st.Map(settingsApp)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range m.Transitions {
			if tr.Action.Target.Text == "Sound" && len(tr.Goals) > 0 {
				t.Errorf("the wrong tap was credited with %q", tr.Goals)
			}
		}
	})
	t.Run("not confirmed", func(t *testing.T) {
		st, _ := tempStore(t)
		l := newLearner(t, st, nil)
		learn(t, l, event.OutcomeFailed, false)
		if got := predict(l, "s-display", back, "Return to the main page"); got != "" {
			t.Errorf("Back after a failed run: %q, want none", got)
		}
	})
}

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		label, goal string
		want        bool
	}{
		{"See all apps", "Open See all apps", true},
		{"Apps", "Open Apps", true},
		{"App", "Open Apps", false},
		{"All", "Open See all apps", true},
		{"Special app access", "Open See all apps", false},
		{"书店", "打开书店的信息卡", true},
		{"咖啡馆", "打开书店的信息卡", false},
		{"A", "Open A", false},
		{"", "Open", false},
		{"Wi-Fi", "Turn off Wi-Fi.", true},
	} {
		if got := named(tc.label, tc.goal); got != tc.want {
			t.Errorf("named(%q, %q) = %v, want %v", tc.label, tc.goal, got, tc.want)
		}
	}
}

// TestUnpredictedPageEarnsNoCredit: a step whose page the App Map had predicted otherwise
// (event.Unpredicted) credits no sub-goal to the action that led there, even in a run that
// is confirmed: the map's word and the phone disagreed.
func TestUnpredictedPageEarnsNoCredit(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	back := act{a: event.Action{Type: event.Back}}
	display := tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout")
	s := l.Start("", "")
	r := startRun(t, s, "r", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	r.see(mainPage, "", "Open Display settings")
	r.do("s-main", display)
	r.see(displayPage, "A", "Return to the main page")
	r.do("s-display", back)
	r.step++
	r.bus.Publish(event.StepStarted{Step: r.step, App: settingsApp})
	r.bus.Publish(event.ScreenPerceived{Step: r.step, Package: mainPage.pkg, Activity: mainPage.activity, Signature: mainPage.sig, Text: mainPage.text})
	r.bus.Publish(event.Unpredicted{Step: r.step, Expected: "s-elsewhere", Got: mainPage.sig})
	r.bus.Publish(event.Reflected{Step: r.step, Result: "A", Reflection: "looked at it"})
	r.bus.Publish(event.Planned{Step: r.step, Plan: []string{"Finished"}, Subgoal: "Finished"})
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	if to, ok := l.Predict(t.Context(), settingsApp, "s-display", back.a, back.el, "Return to the main page"); ok {
		t.Errorf("Back after an unpredicted page predicts %q for its sub-goal; want no credit", to)
	}
	if to, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display settings"); !ok || to != "s-display" {
		t.Errorf("Display for its sub-goal: %q, %v", to, ok)
	}
}

// TestPredictNotOnASecurePage: a page once seen secure (FLAG_SECURE: its picture black) is
// never predicted. A step confirmed from the map takes no picture, and only the picture
// tells a secure page, whose facts must not be remembered.
func TestPredictNotOnASecurePage(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	settingsRun(t, l.Start("", ""), event.OutcomeDone)
	display := tap(1, "Display", settingsApp+":id/display", "android.widget.LinearLayout")
	if _, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display"); !ok {
		t.Fatal("Display not predicted before the page was seen secure")
	}
	s := l.Start("", "")
	r := startRun(t, s, "r2", "Open the display settings", settingsApp, "Open the display settings")
	r.see(mainPage, "", "Open Display")
	r.do("s-main", display)
	r.step++
	r.bus.Publish(event.StepStarted{Step: r.step, App: settingsApp})
	r.bus.Publish(event.ScreenPerceived{Step: r.step, Package: displayPage.pkg, Activity: displayPage.activity, Signature: displayPage.sig, Text: displayPage.text, Secure: true})
	r.finish(event.OutcomeDone, "")
	if to, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el, "Open Display"); ok {
		t.Errorf("Predict = %q onto a page seen secure; want none", to)
	}
}
