package learner

import (
	"slices"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
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
// first (a grounding error), and refused is the category of a consent the person refused
// on the conversation before they granted the send ("" for none).
func sendRun(t *testing.T, s *Session, wrong bool, refused string) {
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
	if refused != "" {
		r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "Send SMS" (` + refused + `) — to: Alice Wong`})
		r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "No — I meant Alice Chen."})
		r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: false, Category: refused}})
	}
	r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "Send SMS" (send) — to: Alice Chen`})
	r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "Yes, go ahead."})
	r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: true, Category: "send"}})
	r.do("m-conv", act{a: event.Action{Type: event.Tap, Index: 3}, el: &event.ElementRef{Label: "Send SMS", ResourceID: msgApp + ":id/send", Class: "android.widget.ImageButton"}, consent: "send"})
	r.see(mConv, "A", "Finished")
	r.finish(event.OutcomeDone, "")
}

// TestRoutineOnlyFromConfirmedRuns: a routine is learned from a run that did what the
// person said — its typed text kept even when a way back stayed on its page — and never
// from a run that tapped a row the person did not choose, or whose consent they refused
// on the page the routine reaches. A refused call, after which the person granted the
// send on that same page, refused a wrong tap, not the conversation.
func TestRoutineOnlyFromConfirmedRuns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wrong   bool
		refused string
		want    int
	}{
		{"confirmed", false, "", 1},
		{"tapped the row the person did not choose", true, "", 0},
		{"the person refused a consent", false, "send", 0},
		{"the person refused another kind of action, then granted the send", false, "call", 1},
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
// consent is demoted at once, and no longer offered.
func TestRoutineDemotedByRefusal(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	sendRun(t, s, false, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	confirmAgain(t, st, msgApp)
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

const calApp = "com.example.calendar"

var (
	cList = screen{calApp, ".List", "c-list", `- [1] item "Dentist appointment" id=event
- [2] item "Team standup" id=event`}
	cEvent = screen{calApp, ".Event", "c-event", `- [1] button "Navigate up"
- [2] button "Delete event" id=delete`}
)

// deleteRun deletes the dentist appointment. wrong opens Team standup first, whose
// deletion the person refuses, and the agent goes back to the list.
func deleteRun(t *testing.T, s *Session, wrong bool) {
	t.Helper()
	task := "Delete the Dentist appointment"
	r := startRun(t, s, "run", task, calApp, task)
	r.see(cList, "", "Open the dentist appointment")
	if wrong {
		r.do("c-list", tap(2, "Team standup", calApp+":id/event", "android.widget.LinearLayout"))
		r.see(cEvent, "A", "Delete the event")
		r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "Delete event" (delete) — what: Team standup`})
		r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "No — that is Team standup, and I meant Dentist."})
		r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: false, Category: "delete"}})
		r.do("c-event", act{a: event.Action{Type: event.Back}})
		r.see(cList, "C", "Open the dentist appointment")
	}
	r.do("c-list", tap(1, "Dentist appointment", calApp+":id/event", "android.widget.LinearLayout"))
	r.see(cEvent, "A", "Delete the event")
	r.do("c-event", act{a: event.Action{Type: event.Tap, Index: 2}, el: &event.ElementRef{Label: "Delete event", ResourceID: calApp + ":id/delete", Class: "android.widget.Button"}, consent: "delete"})
	r.see(cList, "A", "Finished")
	r.finish(event.OutcomeDone, "")
}

// TestRefusalUndoneByADetour: the person refused to delete the event a wrong tap opened,
// and the agent went back and opened the right one. The refused way is a detour the
// routine cuts out, so the run still teaches a routine — the right event, then Delete —
// while it files no sub-goal credits (the Re-Planner had judged the wrong page right).
func TestRefusalUndoneByADetour(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	deleteRun(t, s, true)
	got := learnedSteps(t, s, st, calApp)
	if len(got) != 2 || got[0] != "{1}" && got[0] != "Dentist appointment" || got[1] != "Delete event" {
		t.Errorf("routine steps %q: want the dentist appointment, then Delete event (no Team standup)", got)
	}
	if n := goalsFiled(t, st); n != 0 {
		t.Errorf("%d sub-goal credits filed from a run the person contradicted, want none", n)
	}
	// The same run without the wrong tap files its credits: the assertion above can fail.
	st2, _ := tempStore(t)
	s2 := newLearner(t, st2, nil).Start("", "")
	deleteRun(t, s2, false)
	if _, err := s2.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := goalsFiled(t, st2); n == 0 {
		t.Error("the confirmed run filed no sub-goal credits")
	}
}

// goalsFiled counts the sub-goal credits on the calendar's map.
func goalsFiled(t *testing.T, st *knowledge.Store) int {
	t.Helper()
	m, err := st.Map(calApp)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tr := range m.Transitions {
		n += len(tr.Goals)
	}
	return n
}

// TestWayBackDoesNotUndoADeed: a way back to a page the trajectory was on cuts a detour
// out of the routine, but not one that holds a deed done under consent: the deletion
// happened, and a routine without it would not delete. Such a trajectory is no routine.
func TestWayBackDoesNotUndoADeed(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	task := "Delete the Dentist appointment"
	r := startRun(t, s, "run", task, calApp, task)
	r.see(cList, "", "Open the dentist appointment")
	r.do("c-list", tap(1, "Dentist appointment", calApp+":id/event", "android.widget.LinearLayout"))
	r.see(cEvent, "A", "Delete the event")
	// The app stays on the page after the deletion; Navigate up returns to the list, a
	// way back that would leave the row of another event as the whole routine.
	r.do("c-event", act{a: event.Action{Type: event.Tap, Index: 2}, el: &event.ElementRef{Label: "Delete event", ResourceID: calApp + ":id/delete", Class: "android.widget.Button"}, consent: "delete"})
	r.see(cEvent, "A", "Go back to the list")
	r.do("c-event", tap(1, "Navigate up", "", "android.widget.ImageButton"))
	// Back on the list, it opens the next event to see that the dentist's is gone.
	r.see(cList, "A", "Check the list")
	r.do("c-list", tap(2, "Team standup", calApp+":id/event", "android.widget.LinearLayout"))
	r.see(cEvent, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	if rs, err := st.Routines(calApp); err != nil || len(rs) != 0 {
		t.Fatalf("routines = %+v, %v; want none (the way back would cut out the deletion)", rs, err)
	}
}

// TestWayBackOutOfAConfirmation: "Delete note" opens a dialog that asks to confirm the
// deletion (event.ConfirmationOpened); a wrong tap on its Cancel, before any question on
// the dialog, goes back to the note. What "Delete note" did was
// open the dialog, not delete, so the way back may cut it out: the routine is the note,
// Delete note and the dialog's Delete, once each.
func TestWayBackOutOfAConfirmation(t *testing.T) {
	const app = "com.example.notes"
	list := screen{app, ".List", "n-list", `- [1] item "Shopping list" id=note`}
	note := screen{app, ".Note", "n-note", `- [1] button "Navigate up"
- [2] button "Delete note" id=delete`}
	dialog := screen{app, ".Note", "n-dialog", `- "Delete this note?"
- [1] button "Cancel" id=button2
- [2] button "Delete" id=button1`}
	consent := func(r *run, what string) {
		r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 2, Question: `tap "` + what + `" (delete) — what: Shopping list`})
		r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "Yes, go ahead."})
		r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Consent: &event.Consent{Granted: true, Category: "delete"}})
	}
	del := act{a: event.Action{Type: event.Tap, Index: 2}, el: &event.ElementRef{Label: "Delete note", ResourceID: app + ":id/delete", Class: "android.widget.Button"}, consent: "delete"}
	confirm := act{a: event.Action{Type: event.Tap, Index: 2}, el: &event.ElementRef{Label: "Delete", ResourceID: "android:id/button1", Class: "android.widget.Button"}, consent: "delete"}

	st, _ := tempStore(t)
	s := newLearner(t, st, nil).Start("", "")
	task := "Delete the Shopping list note"
	r := startRun(t, s, "run", task, app, task)
	r.see(list, "", "Open the note")
	r.do("n-list", tap(1, "Shopping list", app+":id/note", "android.widget.LinearLayout"))
	r.see(note, "A", "Ask to delete the note")
	consent(r, "Delete note")
	r.do("n-note", del)
	r.see(dialog, "A", "Confirm the deletion")
	r.bus.Publish(event.ConfirmationOpened{Step: r.step, Category: "delete"})         // as the executor says it
	r.do("n-dialog", tap(1, "Cancel", "android:id/button2", "android.widget.Button")) // the wrong tap
	r.see(note, "C", "Ask to delete the note")
	r.do("n-note", del)
	r.see(dialog, "A", "Confirm the deletion")
	r.do("n-dialog", confirm)
	r.see(list, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	got := learnedSteps(t, s, st, app)
	if !slices.Equal(got, []string{"Shopping list", "Delete note", "Delete"}) && !slices.Equal(got, []string{"{1}", "Delete note", "Delete"}) {
		t.Errorf("routine steps %q: want the note, Delete note and Delete, once each", got)
	}
}

// TestDetourThroughAWrongPage: a wrong tap on the cart's row opens the item's page (the
// Re-Planner judges it C), and "Add to cart" there returns to the cart. No way back was
// pressed, but the trajectory came back to a page it had left by a step that led to a
// wrong page: the task did not need that page, and the routine keeps none of it.
func TestDetourThroughAWrongPage(t *testing.T) {
	const app = "com.example.shop"
	menu := screen{app, ".Main", "s-menu", `- [1] item "Red bean milk tea ¥14" id=menu_item
- [2] button "Cart (0)" id=cart_button`}
	item := screen{app, ".Item", "s-item", `- [1] button "Navigate up"
- [2] button "Add to cart" id=add_to_cart`}
	cart := screen{app, ".Cart", "s-cart", `- [1] item "Red bean milk tea" id=cart_item
- [2] button "Check out" id=checkout_button`}
	checkout := screen{app, ".Checkout", "s-checkout", `- [1] button "Submit order" id=submit_order`}
	add := tap(2, "Add to cart", app+":id/add_to_cart", "android.widget.Button")

	st, _ := tempStore(t)
	s := newLearner(t, st, nil).Start("", "")
	task := "Order a red bean milk tea"
	r := startRun(t, s, "run", task, app, task)
	r.see(menu, "", "Open the red bean milk tea")
	r.do("s-menu", tap(1, "Red bean milk tea ¥14", app+":id/menu_item", "android.widget.LinearLayout"))
	r.see(item, "A", "Add it to the cart")
	r.do("s-item", add)
	r.see(menu, "A", "Open the cart")
	r.do("s-menu", tap(2, "Cart (1)", app+":id/cart_button", "android.widget.Button"))
	r.see(cart, "A", "Check out")
	r.do("s-cart", tap(1, "Red bean milk tea", app+":id/cart_item", "android.widget.LinearLayout")) // the wrong tap
	r.see(item, "C", "Add it to the cart")
	r.do("s-item", add)
	r.see(cart, "A", "Check out")
	r.do("s-cart", tap(2, "Check out", app+":id/checkout_button", "android.widget.Button"))
	r.see(checkout, "A", "Submit the order")
	r.do("s-checkout", act{a: event.Action{Type: event.Tap, Index: 1}, el: &event.ElementRef{Label: "Submit order", ResourceID: app + ":id/submit_order", Class: "android.widget.Button"}, consent: "order"})
	r.see(menu, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	got := learnedSteps(t, s, st, app)
	if len(got) != 5 || got[1] != "Add to cart" || got[2] != "Cart (1)" || got[3] != "Check out" || got[4] != "Submit order" {
		t.Errorf("routine steps %q: want the item, Add to cart, the cart, Check out and Submit order — not the cart's row and a second Add to cart", got)
	}
}

// learnedSteps learns from s and returns the labels of the one routine it stored for app.
func learnedSteps(t *testing.T, s *Session, st *knowledge.Store, app string) []string {
	t.Helper()
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, err := st.Routines(app)
	if err != nil || len(rs) != 1 {
		t.Fatalf("routines = %+v, %v; want one", rs, err)
	}
	var got []string
	for _, s := range rs[0].Steps {
		got = append(got, s.Action.Target.Text)
	}
	return got
}
