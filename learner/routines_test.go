package learner

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

const appsApp = "com.example.settings"

var (
	rtMain = screen{appsApp, ".Main", "r-main", `- "Settings"
- [1] item "Apps"
- [2] item "Display"`}
	rtApps = screen{appsApp, ".Apps", "r-apps", `- "All apps"
- [1] item "Calendar" id=app_row
- [2] item "Maps" id=app_row
- [3] item "Messages" id=app_row`}
	rtInfo = screen{appsApp, ".Info", "r-info", `- "App info"
- "Maps"
- [1] item "Storage"
- [2] item "Notifications"`}
	rtStorage = screen{appsApp, ".Storage", "r-storage", `- "Storage"
- [1] button "Clear cache" id=clear`}
	rtNotif = screen{appsApp, ".Notif", "r-notif", `- [1] switch "All Maps notifications" id=switch_bar checked`}
	rtDone  = screen{appsApp, ".Notif", "r-notif", `- [1] switch "All Maps notifications" id=switch_bar`}
)

// notificationsRun turns off Maps' notifications the long way: into Storage by mistake,
// Back, then Notifications.
func notificationsRun(t *testing.T, s *Session, task string) {
	t.Helper()
	notificationsRunFor(t, s, task, "Maps", true)
}

// notificationsRunFor is notificationsRun for the app row named row, its switch
// starting on (checked) or off, and tapped once.
func notificationsRunFor(t *testing.T, s *Session, task, row string, checked bool) {
	t.Helper()
	info := screen{appsApp, ".Info", "r-info", `- "App info"
- "` + row + `"
- [1] item "Storage"
- [2] item "Notifications"`}
	state := func(on bool) string {
		if on {
			return " checked"
		}
		return " unchecked"
	}
	notif := screen{appsApp, ".Notif", "r-notif", `- [1] switch "All ` + row + ` notifications" id=switch_bar` + state(checked)}
	done := screen{appsApp, ".Notif", "r-notif", `- [1] switch "All ` + row + ` notifications" id=switch_bar` + state(!checked)}
	index := map[string]int{"Calendar": 1, "Maps": 2, "Messages": 3}[row]
	r := startRun(t, s, "run-"+task, task, appsApp, task)
	r.see(rtMain, "", "Open Apps")
	r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
	r.see(rtApps, "A", "Open "+row)
	r.do("r-apps", tap(index, row, appsApp+":id/app_row", "android.widget.LinearLayout"))
	r.see(info, "A", "Open Notifications")
	r.do("r-info", tap(1, "Storage", "", "android.widget.LinearLayout"))
	r.see(rtStorage, "C", "Go back")
	r.do("r-storage", act{a: event.Action{Type: event.Back}})
	r.see(info, "A", "Open Notifications")
	r.do("r-info", tap(2, "Notifications", "", "android.widget.LinearLayout"))
	r.see(notif, "A", "Switch the notifications")
	r.do("r-notif", tap(1, "All "+row+" notifications", appsApp+":id/switch_bar", "android.widget.Switch"))
	r.see(done, "A", "Finished")
	r.finish(event.OutcomeDone, "")
}

// confirmAgain counts every routine of app as confirmed on one more instance: for the
// tests of what a trusted routine does (trust itself is TestRoutineTrust's).
func confirmAgain(t *testing.T, st *knowledge.Store, app string) {
	t.Helper()
	rs, err := st.Routines(app)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		r.Runs, r.Stops, r.Demoted, r.Instances = 0, 0, 0, []string{"another instance"}
		if err := st.Update(func(tx *knowledge.Tx) error { _, err := tx.PutRoutine(r); return err }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRoutineLearned: a finished task's trajectory becomes one routine: the detour its
// Back undid cut out, the list row the task named made a parameter (in the name and in
// every label that holds it), the page it ended on kept.
func TestRoutineLearned(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	notificationsRun(t, s, "Turn off notifications for Maps")
	rep, err := s.Learn(t.Context())
	if err != nil || rep.Routines != 1 {
		t.Fatalf("Learn = %+v, %v; want one routine", rep, err)
	}
	rs, err := st.Routines(appsApp)
	if err != nil || len(rs) != 1 {
		t.Fatalf("routines = %+v, %v", rs, err)
	}
	r := rs[0]
	if r.Name != "Turn {2} notifications for {1}" || len(r.Params) != 2 || r.Params[0].Example != "Maps" || !r.Params[1].State || r.Params[1].Example != "off" || r.End != "r-notif" || r.Runs != 1 {
		t.Errorf("routine = %+v", r)
	}
	var labels []string
	for _, st := range r.Steps {
		labels = append(labels, st.Action.Target.Text)
	}
	if want := []string{"Apps", "{1}", "Notifications", "All {1} notifications"}; !slices.Equal(labels, want) {
		t.Errorf("steps tap %q, want %q (the Storage detour cut out)", labels, want)
	}
	if c := r.Steps[3].Checked; c == nil || !*c || r.Steps[0].Checked != nil || r.Steps[3].Want != 2 {
		t.Errorf("the switch step keeps checked %v (want %d), the row %v; want the switch on, bound to {2}, the row none", c, r.Steps[3].Want, r.Steps[0].Checked)
	}

	// Replayed, the switch is read against the state the task's own word names: one
	// already in that state is skipped, never a tap that undoes it.
	sw := perception.Element{Index: 1, Label: "All Maps notifications", Text: "All Maps notifications", ResourceID: appsApp + ":id/switch_bar",
		Class: "android.widget.Switch", Checkable: true, Clickable: true}
	off := &perception.Screen{Signature: "r-notif", Activity: ".Notif", Elements: []perception.Element{sw}}
	sw.Checked = true
	on := &perception.Screen{Signature: "r-notif", Activity: ".Notif", Elements: []perception.Element{sw}}
	for _, tc := range []struct {
		arg            string
		screen         *perception.Screen
		tap, satisfied bool
	}{{"off", off, false, true}, {"off", on, true, false}, {"on", off, true, false}, {"on", on, false, true}} {
		run, err := l.Steps(t.Context(), appsApp, r.ID, "r-notif", []string{"Maps", tc.arg}, -1)
		if err != nil || len(run.Steps) != 1 {
			t.Fatalf("Steps from the switch page = %d steps, %v", len(run.Steps), err)
		}
		a, err := run.Steps[0].Resolve(tc.screen)
		if tc.satisfied != errors.Is(err, replay.ErrSatisfied) || tc.tap != (err == nil && a.Type == event.Tap && a.Index == 1) {
			t.Errorf("turn %s, switch checked=%v: Resolve = %+v, %v", tc.arg, tc.screen == on, a, err)
		}
	}
	if _, err := l.Steps(t.Context(), appsApp, r.ID, "r-notif", []string{"Maps", "sideways"}, -1); err == nil {
		t.Error("an on/off argument that says neither was accepted")
	}
}

// TestRoutineOffered: the routine is offered on a page it passes through, with the
// arguments the task's words give when the map knows that row on its page; a row the
// page does not have makes no fit, and a task it does not serve gets no offer.
func TestRoutineOffered(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	notificationsRun(t, s, "Turn off notifications for Maps")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	confirmAgain(t, st, appsApp)
	ctx := t.Context()
	offers := l.Offer(ctx, appsApp, "r-main", "Turn off notifications for Messages", nil, nil)
	if len(offers) != 1 || !slices.Equal(offers[0].Fit, []string{"Messages", "off"}) || offers[0].Steps != 4 || offers[0].End != "r-notif" {
		t.Fatalf("offers for Messages = %+v", offers)
	}
	if o := l.Offer(ctx, appsApp, "r-info", "Turn off notifications for Messages", nil, nil); len(o) != 1 || o[0].Steps != 2 {
		t.Errorf("offers from App info = %+v, want the last 2 steps", o)
	}
	if o := l.Offer(ctx, appsApp, "r-main", "Turn off notifications for Bluetooth", nil, nil); len(o) != 0 {
		t.Errorf("offers for a row the apps page does not have = %+v, want none", o)
	}
	if o := l.Offer(ctx, appsApp, "r-main", "Set an alarm for 7", nil, nil); len(o) != 0 {
		t.Errorf("offers for another task = %+v, want none", o)
	}
	if o := l.Offer(ctx, appsApp, "r-elsewhere", "Turn off notifications for Messages", nil, nil); len(o) != 0 {
		t.Errorf("offers on a page off the routine = %+v, want none", o)
	}

	run, err := l.Steps(ctx, appsApp, offers[0].ID, "r-main", []string{"Messages", "off"}, -1)
	steps, from, pause := run.Steps, run.From, run.Pause
	if err != nil || from != 0 || pause != "" || len(steps) != 4 {
		t.Fatalf("Steps = %d steps from %d, pause %q, %v", len(steps), from, pause, err)
	}
	if got := steps[3].String(); !strings.HasSuffix(got, `"All Messages notifications"`) {
		t.Errorf("last step is %q, want the argument put into its label", got)
	}
	if _, err := l.Steps(ctx, appsApp, offers[0].ID, "r-main", []string{"", "off"}, -1); err == nil {
		t.Error("a blank argument for a row the task names was accepted")
	}
	if _, err := l.Steps(ctx, appsApp, offers[0].ID, "r-main", nil, -1); err == nil {
		t.Error("a missing argument was accepted")
	}
}

// TestRoutineNamesMerge: two tasks with the same steps are one routine with both names,
// and each task is offered the name it fits.
func TestRoutineNamesMerge(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	notificationsRun(t, s, "Turn off notifications for Maps")
	notificationsRun(t, s, "Switch off the notifications of Maps")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, _ := st.Routines(appsApp)
	if len(rs) != 1 || rs[0].Runs != 2 || !slices.Contains(rs[0].Names(), "Turn {2} notifications for {1}") || !slices.Contains(rs[0].Names(), "Switch {2} the notifications of {1}") {
		t.Fatalf("routines = %+v, want one with both names", rs)
	}
	confirmAgain(t, st, appsApp)
	o := l.Offer(t.Context(), appsApp, "r-main", "Switch on the notifications of Calendar", nil, nil)
	if len(o) != 1 || o[0].Name != "Switch {2} the notifications of {1}" || !slices.Equal(o[0].Fit, []string{"Calendar", "on"}) {
		t.Errorf("offer = %+v", o)
	}
}

// TestKnownRoutineIsNotDistilled: a second run that follows a known routine with no
// surprise is not sent to the learning model; one with a wrong step (C) is.
func TestKnownRoutineIsNotDistilled(t *testing.T) {
	st, _ := tempStore(t)
	m, srv := scriptedModel(t, `rules:
  - name: learn
    role: learner
    answer: '{"tricks":[],"wrong":[],"app_description":""}'
`)
	l := newLearner(t, st, m)
	first := l.Start("", "")
	straightRun(t, first, "Turn off notifications for Maps")
	if rep, err := first.Learn(t.Context()); err != nil || rep.Tasks != 1 || rep.Unsurprised != 0 {
		t.Fatalf("first Learn = %+v, %v; want one task distilled", rep, err)
	}
	calls := srv.Calls()
	second := l.Start("", "")
	straightRun(t, second, "Turn off notifications for Messages")
	rep, err := second.Learn(t.Context())
	if err != nil || rep.Tasks != 0 || rep.Unsurprised != 1 || srv.Calls() != calls {
		t.Fatalf("second Learn = %+v, %v, %d model calls; want no distillation", rep, err, srv.Calls()-calls)
	}
	third := l.Start("", "")
	notificationsRun(t, third, "Turn off notifications for Maps") // the Storage detour: a C
	if rep, err := third.Learn(t.Context()); err != nil || rep.Tasks != 1 || rep.Unsurprised != 0 {
		t.Fatalf("third Learn = %+v, %v; want the surprised run distilled", rep, err)
	}
}

// straightRun is notificationsRun without the detour, for the app the task names.
func straightRun(t *testing.T, s *Session, task string) {
	t.Helper()
	app := "Maps"
	if task == "Turn off notifications for Messages" {
		app = "Messages"
	}
	info := rtInfo
	info.text = `- "App info"
- "` + app + `"
- [1] item "Storage"
- [2] item "Notifications"`
	r := startRun(t, s, "run-"+task, task, appsApp, task)
	r.see(rtMain, "", "Open Apps")
	r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
	r.see(rtApps, "A", "Open "+app)
	r.do("r-apps", tap(2, app, appsApp+":id/app_row", "android.widget.LinearLayout"))
	r.see(info, "A", "Open Notifications")
	r.do("r-info", tap(2, "Notifications", "", "android.widget.LinearLayout"))
	r.see(screen{appsApp, ".Notif", "r-notif", `- [1] switch "All ` + app + ` notifications" id=switch_bar checked`}, "A", "Switch it off")
	r.do("r-notif", tap(1, "All "+app+" notifications", appsApp+":id/switch_bar", "android.widget.Switch"))
	r.see(screen{appsApp, ".Notif", "r-notif", `- [1] switch "All ` + app + ` notifications" id=switch_bar`}, "A", "Finished")
	r.finish(event.OutcomeDone, "")
}

// TestRoutineButtonsAreNoParameters: a button whose label the task says ("Delete") is part
// of the way, not a parameter; a row the person chose is one, and the offer fits it only
// once the person has answered, pausing before it when asked to run without the answer.
func TestRoutineButtonsAreNoParameters(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	const shop = "com.example.shop"
	menu := screen{shop, ".Menu", "m-menu", `- [1] item "红豆奶茶 Red bean ¥14" id=menu_item
- [2] item "珍珠奶茶 Bubble tea ¥15" id=menu_item`}
	item := screen{shop, ".Item", "m-item", `- [1] button "Delete" id=remove
- [2] button "加入购物车" id=add`}
	cart := screen{shop, ".Cart", "m-cart", `- [1] button "去结算" id=checkout`}
	r := startRun(t, s, "run-tea", "Delete the draft and order a milk tea", shop, "Delete the draft and order a milk tea")
	r.see(menu, "", "Ask which tea")
	r.bus.Publish(event.InteractionAsked{Step: r.step, Type: 3, Question: "Which tea?", Options: []string{"红豆奶茶", "珍珠奶茶"}})
	r.bus.Publish(event.InteractionAnswered{Step: r.step, Answer: "红豆奶茶"})
	r.bus.Publish(event.InteractionEnded{Step: r.step, Settled: true, Summary: "the person answered: 红豆奶茶", Turns: 1})
	r.do("m-menu", tap(1, "红豆奶茶 Red bean ¥14", shop+":id/menu_item", "android.widget.LinearLayout"))
	r.see(item, "A", "Remove the draft")
	r.do("m-item", tap(1, "Delete", shop+":id/remove", "android.widget.Button"))
	r.see(item, "B", "Add to cart")
	r.do("m-item", tap(2, "加入购物车", shop+":id/add", "android.widget.Button"))
	r.see(cart, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, _ := st.Routines(shop)
	if len(rs) != 1 {
		t.Fatalf("routines = %+v", rs)
	}
	rt := rs[0]
	if rt.Name != "Delete the draft and order a milk tea" || len(rt.Params) != 1 || !rt.Params[0].Chosen || rt.Steps[1].Action.Target.Text != "Delete" {
		t.Fatalf("routine = %+v; want the chosen row as the only parameter", rt)
	}
	confirmAgain(t, st, shop)
	ctx := t.Context()
	o := l.Offer(ctx, shop, "m-menu", rt.Name, nil, nil)
	if len(o) != 1 || o[0].Fit != nil {
		t.Fatalf("offer before the answer = %+v, want it offered with no fit", o)
	}
	labels := []string{"红豆奶茶 Red bean ¥14", "珍珠奶茶 Bubble tea ¥15"}
	o = l.Offer(ctx, shop, "m-menu", rt.Name, []string{"the person answered: 珍珠奶茶"}, labels)
	if len(o) != 1 || !slices.Equal(o[0].Fit, []string{"珍珠奶茶 Bubble tea ¥15"}) {
		t.Fatalf("offer after the answer = %+v, want the row the answer names", o)
	}
	if _, err := l.Steps(ctx, shop, rt.ID, "m-menu", []string{""}, -1); err == nil {
		t.Error("a routine whose next step needs the person's choice ran without it")
	}
	// From the item page the chosen row is behind: nothing needs the answer.
	run, err := l.Steps(ctx, shop, rt.ID, "m-item", []string{""}, 2)
	steps, from, pause := run.Steps, run.From, run.Pause
	if err != nil || from != 2 || pause != "" || len(steps) != 1 {
		t.Errorf("resumed at step 3: %d steps from %d, pause %q, %v", len(steps), from, pause, err)
	}
}

// TestRoutineLeavesOutASwitchSlip: on the way, the model flipped a switch beside the one
// it meant (Mobile data for Airplane mode), and the run still ended well. The routine
// keeps the switch the task and its sub-goals name, and not the slip: a clean replay
// never turns mobile data off.
func TestRoutineLeavesOutASwitchSlip(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	network := screen{appsApp, ".Network", "r-net", `- "Network & internet"
- [1] switch "Mobile data" id=switch_row checked
- [2] switch "Airplane mode" id=switch_row unchecked`}
	slipped := screen{appsApp, ".Network", "r-net", `- "Network & internet"
- [1] switch "Mobile data" id=switch_row unchecked
- [2] switch "Airplane mode" id=switch_row unchecked`}
	done := screen{appsApp, ".Network", "r-net", `- "Network & internet"
- [1] switch "Mobile data" id=switch_row unchecked
- [2] switch "Airplane mode" id=switch_row checked`}
	r := startRun(t, s, "run-airplane", "Turn on airplane mode", appsApp, "Turn on airplane mode")
	r.see(rtMain, "", "Open Network & internet")
	r.do("r-main", tap(2, "Display", "", "android.widget.LinearLayout"))
	r.see(network, "A", "Switch airplane mode on")
	r.do("r-net", tap(1, "Mobile data", appsApp+":id/switch_row", "android.widget.Switch"))
	r.see(slipped, "A", "Switch airplane mode on")
	r.do("r-net", tap(2, "Airplane mode", appsApp+":id/switch_row", "android.widget.Switch"))
	r.see(done, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, err := st.Routines(appsApp)
	if err != nil || len(rs) != 1 {
		t.Fatalf("routines = %+v, %v", rs, err)
	}
	var labels []string
	for _, st := range rs[0].Steps {
		labels = append(labels, st.Action.Target.Text)
	}
	if want := []string{"Display", "Airplane mode"}; !slices.Equal(labels, want) {
		t.Errorf("steps tap %q, want %q (the Mobile data slip left out)", labels, want)
	}
}

// TestAnsweringRoutineEndsAtTheReplanner: a routine learned from a task that ended with an
// answer is offered with no end page: reaching it is no finished task, the Re-Planner
// still reads the answer off the screen.
func TestAnsweringRoutineEndsAtTheReplanner(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	for _, row := range []string{"Maps", "Calendar"} {
		s := l.Start("", "")
		task := "How many notifications does " + row + " send"
		r := startRun(t, s, "run", task, appsApp, task)
		r.see(rtMain, "", "Open Apps")
		r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
		r.see(rtApps, "A", "Open "+row)
		r.do("r-apps", tap(2, row, appsApp+":id/app_row", "android.widget.LinearLayout"))
		r.see(rtInfo, "A", "Finished")
		r.bus.Publish(event.TaskFinished{Outcome: event.OutcomeDone, Steps: r.step, Answer: "3"})
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	o := l.Offer(t.Context(), appsApp, "r-main", "How many notifications does Messages send", nil, nil)
	if len(o) != 1 || o[0].End != "" {
		t.Fatalf("offers = %+v, want the routine with no end page", o)
	}
}

// TestRoutineLearnsItsEndState: a routine keeps what its end page showed — its switch's
// state, labelled with the parameter's place, and the row it named shown or gone — and a
// replay gets it bound to its own arguments, so reaching that page in another state is
// no end of the task.
func TestRoutineLearnsItsEndState(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	task := "Turn off notifications for Maps"
	r := startRun(t, s, "run-end", task, appsApp, task)
	r.see(rtMain, "", "Open Apps")
	r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
	r.see(rtApps, "A", "Open Maps")
	r.do("r-apps", tap(2, "Maps", appsApp+":id/app_row", "android.widget.LinearLayout"))
	r.see(rtInfo, "A", "Open Notifications")
	r.do("r-info", tap(2, "Notifications", "", "android.widget.LinearLayout"))
	r.see(rtNotif, "A", "Switch off All Maps notifications")
	r.do("r-notif", tap(1, "All Maps notifications", appsApp+":id/switch_bar", "android.widget.Switch"))
	r.see(screen{appsApp, ".Notif", "r-notif", "- \"Maps\"\n- [1] switch \"All Maps notifications\" id=switch_bar unchecked"}, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, err := st.Routines(appsApp)
	if err != nil || len(rs) != 1 {
		t.Fatalf("routines = %+v, %v", rs, err)
	}
	e := rs[0].EndState
	if e == nil || len(e.Toggles) != 1 || e.Toggles["All {1} notifications"] || !e.Shown[1] {
		t.Fatalf("end state = %+v, want the switch off (by its templated label) and the row shown", e)
	}
	run, err := l.Steps(t.Context(), appsApp, rs[0].ID, "r-main", []string{"Messages", "off"}, -1)
	if err != nil || run.End == nil {
		t.Fatalf("Steps = %+v, %v", run, err)
	}
	if on, ok := run.End.Toggles["All Messages notifications"]; !ok || on || !run.End.Labels["Messages"] {
		t.Errorf("bound end = %+v, want All Messages notifications off and Messages shown", run.End)
	}
	if miss := run.End.Miss("- \"Messages\"\n- [1] switch \"All Messages notifications\" id=switch_bar checked"); miss == "" {
		t.Error("the end page with the switch still on is taken for the task done")
	}
	// The same routine asked to turn them on ends with the switch on, whatever its
	// learning run left.
	on, err := l.Steps(t.Context(), appsApp, rs[0].ID, "r-main", []string{"Messages", "on"}, -1)
	if err != nil || on.End == nil || !on.End.Toggles["All Messages notifications"] || len(on.End.Labels) != 1 {
		t.Errorf("bound end for on = %+v, %v; want the switch on and only the row as a label", on.End, err)
	}
}
