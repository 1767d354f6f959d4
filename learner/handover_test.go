package learner

import (
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
)

// TestHandedOverTaskIsNoRoutine (issue 40): a task during which the person took the phone
// (a sign-in) learns no routine, whatever followed, and no transition links the page the
// phone was handed over on to the page it came back on: what the person did by hand is
// theirs.
func TestHandedOverTaskIsNoRoutine(t *testing.T) {
	st, _ := tempStore(t)
	l := newLearner(t, st, nil)
	s := l.Start("", "")
	r := startRun(t, s, "run-signin", "Turn off notifications for Maps", appsApp, "Turn off notifications for Maps")
	login := screen{appsApp, ".Login", "r-login", `- "Sign in"
- [1] input "Password" id=password`}
	r.see(login, "", "Sign in")
	r.bus.Publish(event.HandOver{Step: r.step, App: appsApp, Reason: "a password", By: "screen", Started: clock()})
	r.bus.Publish(event.HandOver{Step: r.step, App: appsApp, Reason: "a password", By: "screen", Started: clock(), Ended: clock().Add(9 * time.Second), Duration: 9 * time.Second})
	r.see(rtMain, "", "Open Apps")
	r.do("r-main", tap(1, "Apps", "", "android.widget.LinearLayout"))
	r.see(rtApps, "A", "Open Maps")
	r.do("r-apps", tap(2, "Maps", appsApp+":id/app_row", "android.widget.LinearLayout"))
	r.see(rtInfo, "A", "Open Notifications")
	r.do("r-info", tap(2, "Notifications", "", "android.widget.LinearLayout"))
	r.see(rtNotif, "A", "Switch off All Maps notifications")
	r.do("r-notif", tap(1, "All Maps notifications", appsApp+":id/switch_bar", "android.widget.Switch"))
	r.see(rtDone, "A", "Finished")
	r.finish(event.OutcomeDone, "")
	rep, err := s.Learn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Routines != 0 {
		t.Errorf("Learn = %+v: a routine from a task the person took the phone for", rep)
	}
	if rs, err := st.Routines(appsApp); err != nil || len(rs) != 0 {
		t.Errorf("routines = %+v, %v; want none", rs, err)
	}
	m, err := st.Map(appsApp)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range m.Transitions {
		from, _ := m.Page(tr.From)
		if from.Signature == "r-login" {
			t.Errorf("a transition from the handed-over page: %s", tr.Action)
		}
	}
}
