package learner

import (
	"slices"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// TestRoutineTrust: a routine is offered for replay only once clean runs confirmed it on
// two instances with different bindings: one run is not enough, the same binding again
// is not either, another row (or the switch the other way) is.
func TestRoutineTrust(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	offered := func() int {
		return len(l.Offer(t.Context(), appsApp, "r-main", "Turn off notifications for Messages", nil, nil))
	}
	learn := func(task, row string, checked bool) {
		t.Helper()
		s := l.Start("", "")
		notificationsRunFor(t, s, task, row, checked)
		if _, err := s.Learn(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	learn("Turn off notifications for Maps", "Maps", true)
	if n := offered(); n != 0 {
		t.Fatalf("offered %d routines after one run, want none", n)
	}
	learn("Turn off notifications for Maps", "Maps", true)
	if n := offered(); n != 0 {
		t.Fatalf("offered %d routines after the same instance twice, want none", n)
	}
	learn("Turn on notifications for Calendar", "Calendar", false)
	rs, _ := st.Routines(appsApp)
	if len(rs) != 1 || rs[0].Runs != 3 || len(rs[0].Instances) != 2 || !rs[0].Trusted() {
		t.Fatalf("routines = %+v, want one run 3 times on 2 instances", rs)
	}
	if n := offered(); n != 1 {
		t.Fatalf("offered %d routines after two instances, want it", n)
	}
}

// TestRoutineDemotedAtOnce: a trusted routine whose replay stops at a surprise, whose
// task's finish check fails, or whose task fails, is not offered again from that moment;
// a clean run alone does not restore it, two instances do.
func TestRoutineDemotedAtOnce(t *testing.T) {
	for _, how := range []string{"stopped", "finish check", "task failed"} {
		t.Run(how, func(t *testing.T) {
			st, _ := tempStore(t)
			l := newLearner(t, st, nil)
			s := l.Start("", "")
			notificationsRun(t, s, "Turn off notifications for Maps")
			notificationsRunFor(t, s, "Turn on notifications for Calendar", "Calendar", false)
			if _, err := s.Learn(t.Context()); err != nil {
				t.Fatal(err)
			}
			task := "Turn off notifications for Messages"
			o := l.Offer(t.Context(), appsApp, "r-main", task, nil, nil)
			if len(o) != 1 {
				t.Fatalf("offers = %+v, want the trusted routine", o)
			}
			s2 := l.Start("", "")
			r := startRun(t, s2, "run2", task, appsApp, task)
			r.see(rtMain, "", "Run the routine")
			ran := event.RoutineRan{Step: r.step, App: appsApp, ID: o[0].ID, Name: o[0].Name, Planned: 4, Replayed: 4}
			if how == "stopped" {
				ran.Replayed, ran.Stopped = 1, "step 2 of 4: no element on the screen"
			}
			r.bus.Publish(ran)
			switch how {
			case "finish check":
				r.bus.Publish(event.FinishChecked{Step: r.step, Passed: false, Reason: "the switch is still on"})
			case "task failed":
				r.finish(event.OutcomeFailed, "the step budget is spent")
			}
			if o := l.Offer(t.Context(), appsApp, "r-main", task, nil, nil); len(o) != 0 {
				t.Fatalf("offers right after the replay (%s) = %+v, want none", how, o)
			}
			if how != "task failed" {
				r.finish(event.OutcomeFailed, "stopped")
			}
			if _, err := s2.Learn(t.Context()); err != nil {
				t.Fatal(err)
			}
			s3 := l.Start("", "")
			notificationsRun(t, s3, "Turn off notifications for Maps")
			if _, err := s3.Learn(t.Context()); err != nil {
				t.Fatal(err)
			}
			if o := l.Offer(t.Context(), appsApp, "r-main", task, nil, nil); len(o) != 0 {
				t.Fatalf("offers after one clean run = %+v, want none until two instances confirm it again", o)
			}
			notificationsRunFor(t, s3, "Turn on notifications for Calendar", "Calendar", false)
			if _, err := s3.Learn(t.Context()); err != nil {
				t.Fatal(err)
			}
			if o := l.Offer(t.Context(), appsApp, "r-main", task, nil, nil); len(o) != 1 {
				t.Fatalf("offers after two clean instances = %+v, want it back", o)
			}
		})
	}
}

// TestRoutineSameBinding: before it is trusted, a routine whose every row is an argument
// replays the very binding a clean run confirmed (the same app, the same on/off word),
// never another; one that taps a row no argument names does not even replay that.
func TestRoutineSameBinding(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	notificationsRun(t, s, "Turn off notifications for Maps")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if o := l.Offer(ctx, appsApp, "r-main", "Turn off notifications for Maps", nil, nil); len(o) != 1 || !slices.Equal(o[0].Fit, []string{"Maps", "off"}) {
		t.Errorf("offers for the binding confirmed = %+v, want the routine", o)
	}
	for _, task := range []string{"Turn off notifications for Messages", "Turn on notifications for Maps"} {
		if o := l.Offer(ctx, appsApp, "r-main", task, nil, nil); len(o) != 0 {
			t.Errorf("offers for %q, a binding no run confirmed = %+v, want none", task, o)
		}
	}
	// A routine that taps a row its task does not name (the list's first entry).
	s2 := l.Start("", "")
	r := startRun(t, s2, "run", "Open the first app's info", appsApp, "Open the first app's info")
	r.see(rtMain, "", "Open Apps")
	r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
	r.see(rtApps, "A", "Open the first app")
	r.do("r-apps", tap(1, "Calendar", appsApp+":id/app_row", "android.widget.LinearLayout"))
	r.see(rtInfo, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s2.Learn(ctx); err != nil {
		t.Fatal(err)
	}
	if o := l.Offer(ctx, appsApp, "r-main", "Open the first app's info", nil, nil); len(o) != 0 {
		t.Errorf("offers of a routine with a row of its last run = %+v, want none before two instances", o)
	}
}

// TestRoutineRerun: before it is trusted, a routine replays a rerun of the very task a
// clean run confirmed (the same words) when every row it taps that no argument names is
// one the task's words name (a menu row "Bubble tea ¥15" for "Order a bubble tea"); not
// the same task in other words, and not a demoted one.
func TestRoutineRerun(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	menu := screen{appsApp, ".Menu", "r-menu", `- "Menu"
- [1] item "珍珠奶茶 Bubble tea ¥15" id=menu_item
- [2] item "Green tea ¥12" id=menu_item`}
	item := screen{appsApp, ".Item", "r-item", `- "珍珠奶茶 Bubble tea"
- [1] button "Add to cart" id=add`}
	added := screen{appsApp, ".Item", "r-item", `- "珍珠奶茶 Bubble tea"
- "In your cart"
- [1] button "Add to cart" id=add`}
	const task = "Add a bubble tea (珍珠奶茶) to the cart"
	s := l.Start("", "")
	r := startRun(t, s, "run-tea", task, appsApp, task)
	r.see(menu, "", "Open the bubble tea")
	r.do("r-menu", tap(1, "珍珠奶茶 Bubble tea ¥15", appsApp+":id/menu_item", "android.widget.LinearLayout"))
	r.see(item, "A", "Add it to the cart")
	r.do("r-item", tap(1, "Add to cart", appsApp+":id/add", "android.widget.Button"))
	r.see(added, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	rs, err := st.Routines(appsApp)
	if err != nil || len(rs) != 1 || len(rs[0].Params) != 0 || rs[0].Trusted() {
		t.Fatalf("routines = %+v, %v: want one with no parameter, not trusted", rs, err)
	}
	ctx := t.Context()
	if o := l.Offer(ctx, appsApp, "r-menu", task, nil, nil); len(o) != 1 {
		t.Errorf("offers for a rerun of the task confirmed = %+v, want the routine", o)
	}
	if o := l.Offer(ctx, appsApp, "r-menu", "Put a bubble tea (珍珠奶茶) into the cart", nil, nil); len(o) != 0 {
		t.Errorf("offers for the task in other words = %+v, want none before two instances", o)
	}
	if err := st.Update(func(tx *knowledge.Tx) error { return tx.RoutineDemoted(appsApp, rs[0].ID) }); err != nil {
		t.Fatal(err)
	}
	if o := l.Offer(ctx, appsApp, "r-menu", task, nil, nil); len(o) != 0 {
		t.Errorf("offers of a demoted routine = %+v, want none", o)
	}
}
