package learner

import (
	"testing"

	"github.com/fairy-go/fairy/event"
)

const msgApp = "com.example.messages"

var (
	mList = screen{msgApp, ".List", "m-list", `- [1] button "Start chat"
- [2] item "Alice Chen" id=row
- [3] item "Alice Wong" id=row`}
	mConv = screen{msgApp, ".Conv", "m-conv", `- "Alice Chen"
- [1] button "Navigate up"
- [2] input "Text message" id=compose
- [3] button "Send SMS" id=send`}
)

// sendRun sends "see you at 7" to the Alice the person chose; wrong taps Alice Wong
// first (a grounding error), and refused says whether the person then refused a consent.
func sendRun(t *testing.T, s *Session, wrong, refused bool) {
	t.Helper()
	task := "Send Alice a message saying: see you at 7"
	r := startRun(t, s, "run", task, msgApp, task)
	r.see(mList, "", "Pick the right Alice")
	r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 3, Question: "Which Alice?", Options: []string{"Alice Chen", "Alice Wong"}})
	r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "Alice Chen"})
	r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Summary: "Alice Chen"})
	label := "Alice Chen"
	if wrong {
		label = "Alice Wong"
	}
	r.do("m-list", tap(2, label, msgApp+":id/row", "android.widget.LinearLayout"))
	r.see(mConv, "A", "Write the message")
	r.do("m-conv", act{a: event.Action{Type: event.Input, Index: 2, Text: "see you at 7"}, el: &event.ElementRef{Label: "Text message", ResourceID: msgApp + ":id/compose", Class: "android.widget.EditText"}})
	// A tap on Navigate up that left the page where it was: no detour, and the typed text stays a step.
	r.see(mConv, "A", "Send the message")
	r.do("m-conv", tap(1, "Navigate up", "", "android.widget.ImageButton"))
	r.see(mConv, "D", "Send the message")
	if refused {
		r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "Send SMS" (send) — to: Alice Wong`})
		r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "No — I meant Alice Chen."})
		r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: false, Category: "send"}})
	}
	r.do("m-conv", act{a: event.Action{Type: event.Tap, Index: 3}, el: &event.ElementRef{Label: "Send SMS", ResourceID: msgApp + ":id/send", Class: "android.widget.ImageButton"}, consent: "send"})
	r.see(mConv, "A", "Finished")
	r.finish(event.OutcomeDone, "")
}

// TestRoutineOnlyFromConfirmedRuns: a routine is learned from a run that did what the
// person said — its typed text kept even when a way back stayed on its page — and never
// from a run that tapped a row the person did not choose, or whose consent they refused.
func TestRoutineOnlyFromConfirmedRuns(t *testing.T) {
	for _, tc := range []struct {
		name           string
		wrong, refused bool
		want           int
	}{
		{"confirmed", false, false, 1},
		{"tapped the row the person did not choose", true, false, 0},
		{"the person refused a consent", false, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := tempStore(t)
			l := newLearner(t, st, nil)
			s := l.Start("", "")
			sendRun(t, s, tc.wrong, tc.refused)
			if _, err := s.Learn(t.Context()); err != nil {
				t.Fatal(err)
			}
			rs, err := st.Routines(msgApp)
			if err != nil || len(rs) != tc.want {
				t.Fatalf("routines = %+v, %v; want %d", rs, err, tc.want)
			}
			if tc.want == 0 {
				return
			}
			var kinds []string
			for _, s := range rs[0].Steps {
				kinds = append(kinds, string(s.Action.Kind)+" "+s.Action.Target.Text)
			}
			if len(rs[0].Steps) != 3 || rs[0].Steps[1].Text == 0 {
				t.Errorf("steps %q: want the chosen row, the typed text and Send (no Navigate up, the text kept)", kinds)
			}
			if !rs[0].Params[0].Chosen {
				t.Errorf("params %+v: the row the person chose must be a parameter they choose", rs[0].Params)
			}
		})
	}
}

// TestRoutineDemotedByRefusal: a replayed routine after which the person refused a
// consent is demoted, and no longer offered once demoted as often as it ran well.
func TestRoutineDemotedByRefusal(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	sendRun(t, s, false, false)
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	task := "Send Alice a message saying: see you at 7"
	offers := l.Offer(t.Context(), msgApp, "m-list", task, []string{"Alice Chen"}, []string{"Alice Chen", "Alice Wong"})
	if len(offers) != 1 {
		t.Fatalf("offers before = %+v, want the routine", offers)
	}
	s2 := l.Start("", "")
	r := startRun(t, s2, "run2", task, msgApp, task)
	r.see(mList, "", "Run the routine")
	r.bus.Publish(event.RoutineRan{Step: r.step, App: msgApp, ID: offers[0].ID, Name: task, Planned: 3, Replayed: 2, Stopped: "consent", Held: true})
	r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "Send SMS" (send) — to: Alice Wong`})
	r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "No — I meant Alice Chen."})
	r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: false, Category: "send"}})
	r.finish(event.OutcomeRefused, "refused")
	rs, err := st.Routines(msgApp)
	if err != nil || len(rs) != 1 || rs[0].Demoted != 1 {
		t.Fatalf("routines = %+v, %v; want one demoted once", rs, err)
	}
	if o := l.Offer(t.Context(), msgApp, "m-list", task, []string{"Alice Chen"}, []string{"Alice Chen", "Alice Wong"}); len(o) != 0 {
		t.Errorf("offers after the refusal = %+v, want none", o)
	}
}
