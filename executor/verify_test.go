package executor

import (
	"context"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// idPhone is deepPhone with a resource-id on every button, so that each page has its own
// signature (a signature ignores the text).
func idPhone() *fakePhone {
	p := deepPhone()
	for name, nodes := range p.screens {
		for i := range nodes {
			if nodes[i].kind == "button" {
				nodes[i].id = "com.android.settings:id/" + name + "_next"
			}
		}
	}
	return p
}

// stepModel plans one sub-goal per page of deepPhone and names the page's button in it;
// the decider taps the button the sub-goal names.
func stepModel() *fakeModel {
	steps := []string{"Open Apps", "Open All apps", "Open Maps", "Turn off"}
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if strings.Contains(u, "Notifications off") {
				return plan("A", "Finished", 0, "", steps...)
			}
			for _, l := range []string{"Turn off", "Maps", "All apps", "Apps"} {
				if index(u, l) > 0 {
					sub := "Open " + l
					if l == "Turn off" {
						sub = l
					}
					return plan("A", sub, 0, "", steps...)
				}
			}
			return plan("C", "Open Apps", 0, "", steps...)
		},
		llm.RoleDecider: func(_ int, u string) string {
			_, sub, _ := strings.Cut(u, "Current sub-goal: ")
			sub, _, _ = strings.Cut(sub, "\n")
			if i := index(u, strings.TrimPrefix(strings.TrimSpace(sub), "Open ")); i > 0 {
				return tap(i)
			}
			return `{"thought":"lost","actions":[],"expect":""}`
		},
	}}
}

// signature is the page signature of the fake phone's screen name.
func signature(t *testing.T, p *fakePhone, name string) string {
	t.Helper()
	q := &fakePhone{pkg: p.pkg, screens: p.screens, cur: name}
	xml, _ := q.Dump(context.Background())
	s, err := perception.Parse(xml)
	if err != nil {
		t.Fatal(err)
	}
	return s.Signature
}

// mapPredictions predicts, for a tap on a label, the page signature it holds.
type mapPredictions struct {
	to    map[string]string // label → predicted signature
	asked int
}

func (m *mapPredictions) Predict(_ context.Context, _, from string, a event.Action, el *event.ElementRef, _ string) (string, bool) {
	m.asked++
	if a.Type != event.Tap || el == nil || from == "" {
		return "", false
	}
	to, ok := m.to[el.Label]
	return to, ok
}

func TestVerifiedStepSkipsReplanner(t *testing.T) {
	tests := []struct {
		name          string
		predict       func(t *testing.T, p *fakePhone) map[string]string
		wantReplanner int
		wantVerified  int
		wantSurprises int // pages the map predicted otherwise (event.Unpredicted)
	}{
		{name: "no map", wantReplanner: 5},
		{name: "every page predicted", predict: func(t *testing.T, p *fakePhone) map[string]string {
			return map[string]string{"Apps": signature(t, p, "apps"), "All apps": signature(t, p, "all"),
				"Maps": signature(t, p, "info"), "Turn off": signature(t, p, "off")}
		}, wantReplanner: 2, wantVerified: 3}, // the first step plans; the last sub-goal's page goes to the Re-Planner
		{name: "a mismatch calls the Re-Planner", predict: func(t *testing.T, p *fakePhone) map[string]string {
			return map[string]string{"Apps": signature(t, p, "apps"), "All apps": signature(t, p, "info"), // the map expects another page
				"Maps": signature(t, p, "info")}
		}, wantReplanner: 3, wantVerified: 2, wantSurprises: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phone := idPhone()
			if a, b := signature(t, phone, "all"), signature(t, phone, "info"); a == b {
				t.Fatalf("pages all and info share the signature %s", a)
			}
			var preds *mapPredictions
			if tt.predict != nil {
				preds = &mapPredictions{to: tt.predict(t, phone)}
			}
			h := newHarness(t, phone, stepModel(), nil, func(c *Config) {
				c.TextOnly = false // screenshots are counted
				if preds != nil {
					c.Predictions = preds
				}
			})
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone || phone.cur != "off" {
				t.Fatalf("outcome %s (%s), phone on %q", res.Outcome, res.Reason, phone.cur)
			}
			if got := h.model.count(llm.RoleReplanner); got != tt.wantReplanner {
				t.Errorf("replanner calls = %d, want %d", got, tt.wantReplanner)
			}
			var verified []event.Reflected
			for _, r := range find[event.Reflected](h) {
				if r.Verified {
					verified = append(verified, r)
					if r.Result != "A" || r.Reflection != verifiedReflection {
						t.Errorf("verified reflection %+v, want result A", r)
					}
				}
			}
			if len(verified) != tt.wantVerified {
				t.Errorf("%d verified steps, want %d", len(verified), tt.wantVerified)
			}
			if got := find[event.Unpredicted](h); len(got) != tt.wantSurprises {
				t.Errorf("pages the map predicted otherwise: %+v, want %d", got, tt.wantSurprises)
			}
			// A picture only when it is used: a verified step's page is decided on from its
			// text form, so it takes no screenshot; every other page takes one.
			if perceived := len(find[event.ScreenPerceived](h)); phone.shots != perceived-tt.wantVerified {
				t.Errorf("%d screenshots for %d perceived pages and %d verified steps, want %d", phone.shots, perceived, len(verified), perceived-tt.wantVerified)
			}
			// Every step still has a sub-goal, and the decider was asked for each.
			if got := h.model.count(llm.RoleDecider); got != 4 {
				t.Errorf("decider calls = %d, want 4", got)
			}
			for _, p := range find[event.Planned](h) {
				if p.Subgoal == "" {
					t.Errorf("planned %+v without a sub-goal", p)
				}
			}
		})
	}
}

func TestVerifyDeclines(t *testing.T) {
	plan := []string{"Open Apps", "Open All apps", "Turn off"}
	screen := &perception.Screen{Signature: "sig", Elements: []perception.Element{{Index: 1}}}
	guard, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Guard: guard}
	base := func() *run {
		return &run{cfg: cfg, step: 2, plan: plan, subgoal: "Open Apps", subgoalAt: planPosition(plan, "Open Apps"), predicted: "sig", screen: screen}
	}
	tests := []struct {
		name  string
		tweak func(r *run)
	}{
		{"no prediction", func(r *run) { r.predicted = "" }},
		{"another page", func(r *run) { r.predicted = "other" }},
		{"first step", func(r *run) { r.step = 1 }},
		{"after C or D", func(r *run) { r.cd = 1 }},
		{"a note for the planner", func(r *run) { r.planNote = []prompts.Note{prompts.NoteAnswered{Reason: "which size"}} }},
		{"a decider question", func(r *run) { r.forced = "which one" }},
		{"secure screen", func(r *run) { r.secure = true }},
		{"empty screen", func(r *run) { r.screen = &perception.Screen{Signature: "sig"} }},
		{"last sub-goal", func(r *run) { r.subgoal = "Turn off"; r.subgoalAt = planPosition(r.plan, r.subgoal) }},
		{"sub-goal not in the plan", func(r *run) { r.subgoal = "Look around"; r.subgoalAt = planPosition(r.plan, r.subgoal) }},
		{"finished next", func(r *run) { r.plan = []string{"Open Apps", "Finished"} }},
		{"full re-plan", func(r *run) { r.full = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			tt.tweak(r)
			if r.verify() {
				t.Errorf("verified; want the Re-Planner")
			}
			if r.predicted != "" {
				t.Errorf("prediction %q kept after the step", r.predicted)
			}
		})
	}
}

// TestNextSubgoalByPosition: the plan is followed by position, so a sub-goal written twice
// ("Open the notifications of X" first and last) never sends a verified step back to the
// start; a repeated sub-goal the Re-Planner picked has no known position and is not
// verified at all.
func TestNextSubgoalByPosition(t *testing.T) {
	plan := []string{"Open the notifications of Maps", "Open See all apps", "Open Maps", "Open the notifications of Maps", "Turn them off"}
	if got := planPosition(plan, "Open the notifications of Maps"); got != -1 {
		t.Errorf("a repeated sub-goal has position %d, want -1 (unknown)", got)
	}
	if got := nextSubgoal(plan, -1); got != "" {
		t.Errorf("an unknown position leads to %q", got)
	}
	if got := planPosition(plan, "Open Maps"); got != 2 {
		t.Fatalf("position of Open Maps = %d", got)
	}
	if got := nextSubgoal(plan, 2); got != "Open the notifications of Maps" {
		t.Errorf("after Open Maps comes %q", got)
	}
	if got := nextSubgoal(plan, 3); got != "Turn them off" {
		t.Errorf("after the second notifications sub-goal comes %q, want Turn them off", got)
	}
	if got := nextSubgoal(append(plan, "Finished"), 4); got != "" {
		t.Errorf("before Finished comes %q, want none", got)
	}
}

// TestVerifyNeedsTheTasksRow: a tap on a row the map knows the way from is not confirmed
// without the Re-Planner when the task names another row of the same list: a slip onto
// Calendar's row leads to the page the map predicts, and the Re-Planner hears which row
// the task names; the named row is confirmed as before.
func TestVerifyNeedsTheTasksRow(t *testing.T) {
	for _, tc := range []struct {
		row          string
		wantVerified int
	}{{"Maps", 3}, {"Calendar", 2}} {
		t.Run(tc.row, func(t *testing.T) {
			phone := idPhone()
			const rowID = "com.android.settings:id/app_row"
			phone.screens["all"] = []fakeNode{{kind: "text", text: "All apps"},
				{kind: "button", text: "Calendar", id: rowID, to: "info"}, {kind: "button", text: "Maps", id: rowID, to: "info"}}
			preds := &mapPredictions{to: map[string]string{"Apps": signature(t, phone, "apps"), "All apps": signature(t, phone, "all"),
				"Maps": signature(t, phone, "info"), "Calendar": signature(t, phone, "info"), "Turn off": signature(t, phone, "off")}}
			m := stepModel()
			decide := m.fn[llm.RoleDecider]
			m.fn[llm.RoleDecider] = func(n int, u string) string {
				if strings.Contains(u, "Current sub-goal: Open Maps\n") {
					return tap(index(u, tc.row))
				}
				return decide(n, u)
			}
			var replans []string
			replan := m.fn[llm.RoleReplanner]
			m.fn[llm.RoleReplanner] = func(n int, u string) string { replans = append(replans, u); return replan(n, u) }
			h := newHarness(t, phone, m, nil, func(c *Config) { c.Predictions = preds })
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone {
				t.Fatalf("outcome %s (%s)", res.Outcome, res.Reason)
			}
			verified := 0
			for _, r := range find[event.Reflected](h) {
				if r.Verified {
					verified++
				}
			}
			if verified != tc.wantVerified {
				t.Errorf("%d verified steps, want %d", verified, tc.wantVerified)
			}
			if told := strings.Contains(strings.Join(replans, "\n"), `the task names "Maps"`); told != (tc.row != "Maps") {
				t.Errorf("the Re-Planner told of the other row: %t", told)
			}
		})
	}
}
