package learner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// TestRoutineOfAStateAlreadyHeld: a run that found the switch its task names already in
// the wanted state tapped no switch: it holds no step another instance could replay, and
// is no routine. Nor is one whose task names two states and that tapped one switch.
func TestRoutineOfAStateAlreadyHeld(t *testing.T) {
	network := screen{appsApp, ".Network", "r-net", `- "Network & internet"
- [1] switch "Wi-Fi" id=switch_row checked
- [2] switch "Bluetooth" id=switch_row unchecked`}
	after := screen{appsApp, ".Network", "r-net", `- "Network & internet"
- [1] switch "Wi-Fi" id=switch_row checked
- [2] switch "Bluetooth" id=switch_row checked`}
	for _, tc := range []struct {
		task string
		tap  bool
		want int
	}{
		{"Turn wifi on.", false, 0},
		{"Turn off WiFi, then enable bluetooth", true, 0},
		{"Enable bluetooth", true, 1},
	} {
		st, _ := tempStore(t)
		s := newLearner(t, st, nil).Start("", "")
		r := startRun(t, s, "run", tc.task, appsApp, tc.task)
		r.see(rtMain, "", "Open the network page")
		r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
		r.see(network, "A", "Set the switches")
		if tc.tap {
			r.do("r-net", tap(2, "Bluetooth", appsApp+":id/switch_row", "android.widget.Switch"))
			r.see(after, "A", "Finished")
		}
		r.finish(event.OutcomeDone, "")
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
		rs, _ := st.Routines(appsApp)
		if len(rs) != tc.want {
			t.Errorf("%q: routines = %+v, want %d", tc.task, rs, tc.want)
		}
		if tc.want == 1 && len(rs) == 1 && (rs[0].Name != "{1} bluetooth" || rs[0].Steps[1].Want != 1) {
			t.Errorf("%q: routine %+v, want its on/off word bound to the switch", tc.task, rs[0])
		}
	}
}

// TestDeletedRowIsAnArgument: a routine that deletes a row names that row with an
// argument from the task's words; a run that deleted a row the task does not name (the
// duplicates, whichever were found) is no routine: a replay would delete the last run's
// row.
func TestDeletedRowIsAnArgument(t *testing.T) {
	const app = "com.example.expenses"
	list := screen{app, ".Main", "e-list", `- [1] item "Dress" id=expense_row
- [2] item "Freelance Payment" id=expense_row
- [3] item "Freelance Payment" id=expense_row`}
	detail := screen{app, ".Expense", "e-detail", `- [1] button "Delete expense" id=delete_expense`}
	for _, tc := range []struct {
		task, row string
		want      int
	}{
		{"Delete all but one of any expenses that are exact duplicates", "Freelance Payment", 0},
		{"Delete the following expenses: Dress.", "Dress", 1},
	} {
		st, _ := tempStore(t)
		s := newLearner(t, st, nil).Start("", "")
		r := startRun(t, s, "run", tc.task, app, tc.task)
		r.see(list, "", "Open the row")
		r.do("e-list", tap(2, tc.row, app+":id/expense_row", "android.widget.LinearLayout"))
		r.see(detail, "A", "Delete it")
		r.do("e-detail", act{a: event.Action{Type: event.Tap, Index: 1}, el: &event.ElementRef{Label: "Delete expense", ResourceID: app + ":id/delete_expense", Class: "android.widget.Button"}, consent: "delete"})
		r.see(list, "A", "Finished")
		r.finish(event.OutcomeDone, "")
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
		rs, _ := st.Routines(app)
		if len(rs) != tc.want {
			t.Errorf("%q: routines = %+v, want %d", tc.task, rs, tc.want)
		}
		if tc.want == 1 && len(rs) == 1 && rs[0].Steps[0].Action.Target.Text != "{1}" {
			t.Errorf("%q: the deleted row is %q, want the argument {1}", tc.task, rs[0].Steps[0].Action.Target.Text)
		}
	}
}

// TestDeletedRowTheTaskNames: a run that deleted a row its task's words name without it
// being an argument ("Dentist appointment", the task written in lower case) makes a
// routine that replays a rerun of those very words only: it is never trusted, whatever
// runs confirm it, and other words are not offered it.
func TestDeletedRowTheTaskNames(t *testing.T) {
	const app = "com.example.cal"
	list := screen{app, ".Main", "c-list", `- [1] item "Dentist appointment" id=event_row
- [2] item "Team lunch" id=event_row`}
	detail := screen{app, ".Event", "c-detail", `- [1] button "Delete event" id=info_action_delete`}
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	const task = "Delete the dentist appointment from my calendar"
	for range 2 {
		s := l.Start("", "")
		r := startRun(t, s, "run", task, app, task)
		r.see(list, "", "Open the row")
		r.do("c-list", tap(1, "Dentist appointment", app+":id/event_row", "android.widget.LinearLayout"))
		r.see(detail, "A", "Delete it")
		r.do("c-detail", act{a: event.Action{Type: event.Tap, Index: 1}, el: &event.ElementRef{Label: "Delete event", ResourceID: app + ":id/info_action_delete", Class: "android.widget.ImageButton"}, consent: "delete"})
		r.see(list, "A", "Finished")
		r.finish(event.OutcomeDone, "")
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := st.Routines(app)
	if err != nil || len(rs) != 1 || rs[0].Trusted() || len(rs[0].Bindings) != 0 || len(rs[0].Reruns) != 1 {
		t.Fatalf("routines = %+v, %v: want one, confirmed for its rerun only", rs, err)
	}
	ctx := t.Context()
	if o := l.Offer(ctx, app, "c-list", task, nil, nil); len(o) != 1 {
		t.Errorf("offers for a rerun = %+v, want the routine", o)
	}
	if o := l.Offer(ctx, app, "c-list", "Delete the dentist appointment from my calendar today", nil, nil); len(o) != 0 {
		t.Errorf("offers for other words = %+v, want none", o)
	}
}

// TestTaskNames: a row label the task's words name in one of its scripts, its price aside.
func TestTaskNames(t *testing.T) {
	for _, tc := range []struct {
		task, label string
		want        bool
	}{
		{"Order one bubble tea (珍珠奶茶) for delivery", "珍珠奶茶 Bubble tea ¥15", true},
		{"Order a mango smoothie and a matcha latte", "芒果冰沙 Mango smoothie ¥18", true},
		{"Delete my shopping list note", "Shopping list", true},
		{"Order a bubble tea", "Green tea ¥12", false},
		{"Open the first app's info", "Calendar", false},
		{"Delete the oldest note", "Note 3", false},
		{"Delete the dentist appointment", "", false},
	} {
		if got := taskNames(tc.task, tc.label); got != tc.want {
			t.Errorf("taskNames(%q, %q) = %v, want %v", tc.task, tc.label, got, tc.want)
		}
	}
}

// TestRowFoundWhereverItLies: where an argument's row lies in its list is the instance's:
// a run that scrolled twice to reach its row and one that found it at once learn one
// routine (run twice) whose row step seeks the row with the swipe the first needed, and no
// swipe is a step of its own — a replay of two swipes would miss a row that lies elsewhere;
// nor is a swipe the run made after its last deed, only to look.
func TestRowFoundWhereverItLies(t *testing.T) {
	const app = "com.example.expenses"
	list := screen{app, ".Main", "e-list", `- [1] list "" id=expense_recycler
- [2] item "Dress" id=expense_row
- [3] item "Coat" id=expense_row`}
	detail := screen{app, ".Expense", "e-detail", `- [1] button "Delete expense" id=delete_expense`}
	swipe := act{a: event.Action{Type: event.Swipe, Index: 1, Direction: "up"},
		el: &event.ElementRef{ResourceID: app + ":id/expense_recycler", Class: "androidx.recyclerview.widget.RecyclerView"}}
	st, _ := tempStore(t)
	for i, tc := range []struct {
		row    string
		swipes int
	}{{"Coat", 2}, {"Dress", 0}} {
		task := "Delete the following expenses: " + tc.row + "."
		s := newLearner(t, st, nil).Start("", "")
		r := startRun(t, s, fmt.Sprint("run", i), task, app, task)
		r.see(list, "", "Find the row")
		for range tc.swipes {
			r.do("e-list", swipe)
			r.see(list, "A", "Find the row")
		}
		r.do("e-list", tap(2, tc.row, app+":id/expense_row", "android.widget.LinearLayout"))
		r.see(detail, "A", "Delete it")
		r.do("e-detail", act{a: event.Action{Type: event.Tap, Index: 1}, el: &event.ElementRef{Label: "Delete expense", ResourceID: app + ":id/delete_expense", Class: "android.widget.Button"}, consent: "delete"})
		r.see(list, "A", "Check the row is gone")
		if tc.swipes == 0 {
			r.do("e-list", swipe) // a look down the list after the deed: no step of the routine
			r.see(list, "A", "Finished")
		}
		r.finish(event.OutcomeDone, "")
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	rs, _ := st.Routines(app)
	if len(rs) != 1 {
		t.Fatalf("routines = %d, want one for both instances: %+v", len(rs), rs)
	}
	r := rs[0]
	if r.Runs != 2 || len(r.Steps) != 2 || r.Steps[0].Action.Target.Text != "{1}" {
		t.Fatalf("routine %q: runs %d, steps %+v; want 2 runs of 2 steps, the row {1} first", r.Name, r.Runs, r.Steps)
	}
	if sk := r.Steps[0].Seek; sk == nil || sk.Kind != knowledge.ActionSwipe || sk.Args["direction"] != "up" || !strings.HasSuffix(sk.Target.ResourceID, "expense_recycler") {
		t.Errorf("the row step seeks with %+v, want the list's swipe up", sk)
	}
}
