package agent

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// withRoutines is pageByPage for a model that takes a learned routine when the prompt
// says one fits the task, and that dismisses a "Rate this app" dialog.
var withRoutines = strings.Replace(pageByPage, "rules:\n", `rules:
  - name: rate dialog
    role: replanner
    match: ['\[\d+\] button "Not now"']
    answer: '{"result":"C","reflection":"a dialog is in the way","progress":"","plan":["Dismiss the dialog"],"subgoal":"Dismiss the dialog","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: dismiss
    role: decider
    match: ['Current sub-goal: Dismiss the dialog']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Not now"}}}],"expect":"the page under the dialog"}'
  - name: run the routine that fits
    role: replanner
    match: ['<<<ROUTINES\n(?:[^\n]*\n)*?- "([^"\n]*)" — [^\n]*?fits this task with args (\[[^\n]*\])']
    answer: '{"result":"B","reflection":"","progress":"","plan":[],"subgoal":"Run the learned routine","facts":[],"routine":{"name":{{json (match 1)}},"args":{{match 2}}},"interaction":0,"reason":""}'
`, 1)

// apps whose notifications the tests turn off: label and package.
var (
	mapsApp     = [2]string{"Maps", "com.fairy.maps"}
	messagesApp = [2]string{"Messages", "com.google.android.apps.messaging"}
	calendarApp = [2]string{"Calendar", "com.google.android.calendar"}
)

// runFor runs the task for app and fails the test unless it ends done with the
// notifications off; it returns the summary.
func runFor(t *testing.T, path, id string, app [2]string, faults sim.Faults) rundir.Summary {
	t.Helper()
	s, off := runNotificationsTask(t, path, id, withRoutines, faults, app[0], app[1])
	if s.Outcome != event.OutcomeDone || !off {
		t.Fatalf("run %s (%s): %s (%s), notifications off %v", id, app[0], s.Outcome, s.Reason, off)
	}
	return s
}

// TestRoutineOnSecondRun: the second run of a task takes the routine the first one
// learned (the very binding a clean run confirmed): its steps replay with no model call
// per step, its end page goes straight to the finish check, and nothing is distilled
// again.
func TestRoutineOnSecondRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	cold := runFor(t, path, "cold", mapsApp, sim.Faults{})
	warm := runFor(t, path, "warm", mapsApp, sim.Faults{})
	k := warm.Knowledge
	t.Logf("model calls %d → %d (%v → %v), steps %d → %d", cold.ModelCalls, warm.ModelCalls, cold.ModelCallsByRole, warm.ModelCallsByRole, cold.Steps, warm.Steps)
	if k.Routines != 1 || k.RoutineSteps != 5 || k.Fallbacks != 0 || k.SkippedLearns != 1 || warm.ModelCallsByRole["learner"] != 0 {
		t.Errorf("warm knowledge %+v, calls %v: want one routine of 5 steps run whole and no distillation", k, warm.ModelCallsByRole)
	}
	if warm.ModelCallsByRole["decider"] != 0 || warm.ModelCallsByRole["replanner"] != 1 {
		t.Errorf("warm calls %v: want one Re-Planner call (taking the routine) and no decider call", warm.ModelCallsByRole)
	}
}

// TestRoutineTrustedAfterTwoInstances: a routine replays for a new binding (another app)
// only once clean runs confirmed it on two instances: learned on Maps, the run for
// Messages goes step by step; after it, the run for Calendar takes the routine.
func TestRoutineTrustedAfterTwoInstances(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	runFor(t, path, "maps", mapsApp, sim.Faults{})
	if s := runFor(t, path, "messages", messagesApp, sim.Faults{}); s.Knowledge.Routines != 0 {
		t.Fatalf("the run for Messages replayed the routine confirmed on Maps alone: %+v", s.Knowledge)
	}
	s := runFor(t, path, "calendar", calendarApp, sim.Faults{})
	t.Logf("calendar: knowledge %+v, calls %v", s.Knowledge, s.ModelCallsByRole)
	if s.Knowledge.Routines != 1 || s.Knowledge.RoutineSteps != 5 || s.ModelCallsByRole["decider"] != 0 {
		t.Errorf("the run for Calendar: knowledge %+v, calls %v; want the routine trusted on two instances run whole", s.Knowledge, s.ModelCallsByRole)
	}
}

// TestRoutineMeetsAChangedScreen: the routine learned on a well-behaved phone meets a
// phone where a "Rate this app" dialog pops up on the way. The replay stops at the page
// it does not expect and hands back to the Re-Planner, which dismisses the dialog and
// finishes the task step by step; the routine is demoted at once: it keeps no
// confirmation, and is not offered until clean runs confirm it again.
func TestRoutineMeetsAChangedScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	runFor(t, path, "learn", mapsApp, sim.Faults{})
	changed, off := runMapsTask(t, path, "changed", withRoutines, sim.Faults{Dialog: 1})
	if changed.Outcome != event.OutcomeDone || !off {
		t.Fatalf("run on the changed phone: %s (%s), notifications off %v", changed.Outcome, changed.Reason, off)
	}
	k := changed.Knowledge
	t.Logf("knowledge %+v, calls %v, steps %d", k, changed.ModelCallsByRole, changed.Steps)
	if k.Routines == 0 || k.Fallbacks == 0 {
		t.Errorf("knowledge %+v: want a routine run that stopped at the surprise", k)
	}
	if k.SkippedLearns != 0 {
		t.Errorf("a run that met a surprise was not distilled: %+v", k)
	}
	store, err := knowledge.Open(path, knowledge.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rs, err := store.Routines("com.android.settings")
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for _, r := range rs {
		if r.Stops == 0 {
			continue
		}
		stopped++
		if r.Demoted == 0 || len(r.Bindings) != 0 || len(r.Instances) != 0 {
			t.Errorf("routine %q stopped at the surprise but kept its confirmations: %+v", r.Name, r)
		}
	}
	if stopped != 1 {
		t.Errorf("%d routines stopped, want the one replayed: %+v", stopped, rs)
	}
}
