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
	}{
		{"known tap", settingsApp, "s-main", display, "s-display"},
		{"back", settingsApp, "s-display", back, "s-main"},
		{"a switch stays on its page", settingsApp, "s-display", tap(1, "Dark theme", settingsApp+":id/dark", "android.widget.Switch"), ""},
		{"led by typed text", settingsApp, "s-main", act{a: event.Action{Type: event.Enter}}, ""},
		{"typing is no navigation", settingsApp, "s-main",
			act{a: event.Action{Type: event.Input, Index: 3, Text: "x"}, el: &event.ElementRef{ResourceID: settingsApp + ":id/search", Class: "android.widget.EditText"}}, ""},
		{"unknown action", settingsApp, "s-main", tap(2, "Sound", settingsApp+":id/sound", "android.widget.LinearLayout"), ""},
		{"unknown page", settingsApp, "s-nowhere", display, ""},
		{"unknown app", "com.nothing", "s-main", display, ""},
		{"opening an item", shop, "s-menu", tap(1, "珍珠奶茶 Bubble tea", shop+":id/menu_item", "android.widget.LinearLayout"), "s-item"},
		{"a side effect is no way", shop, "s-item", tap(1, "加入购物车", shop+":id/add_to_cart", "android.widget.Button"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := l.Start("", "").Predict(t.Context(), tc.app, tc.from, tc.act.a, tc.act.el)
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
		if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el); ok {
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
	if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el); !ok || got != "s-display" {
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
	if got, ok := l.Predict(t.Context(), settingsApp, "s-main", display.a, display.el); ok {
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
