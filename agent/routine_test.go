package agent

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
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

// learnTwoInstances runs the task for Maps twice (one instance: its routine is not
// replayed yet) and for Messages (a second binding: the routine is trusted from then on).
func learnTwoInstances(t *testing.T, path string) {
	t.Helper()
	for i, app := range []struct{ label, pkg string }{{"Maps", "com.fairy.maps"}, {"Maps", "com.fairy.maps"}, {"Messages", "com.google.android.apps.messaging"}} {
		s, off := runNotificationsTask(t, path, fmt.Sprintf("learn%d", i), withRoutines, sim.Faults{}, app.label, app.pkg)
		if s.Outcome != event.OutcomeDone || !off {
			t.Fatalf("learning run %d (%s): %s (%s), notifications off %v", i, app.label, s.Outcome, s.Reason, off)
		}
		if s.Knowledge.Routines != 0 {
			t.Fatalf("learning run %d (%s) replayed a routine (%+v) before two instances confirmed it", i, app.label, s.Knowledge)
		}
	}
}

// TestRoutineAfterTwoInstances: a routine replays only once clean runs confirmed it on two
// instances: the same task again does not replay it; after another app's run, the next
// run takes it: its steps replay with no model call per step, its end page goes straight
// to the finish check, and nothing is distilled again.
func TestRoutineAfterTwoInstances(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	learnTwoInstances(t, path)
	warm, warmOff := runMapsTask(t, path, "warm", withRoutines, sim.Faults{})
	if warm.Outcome != event.OutcomeDone || !warmOff {
		t.Fatalf("outcome %s (%s); notifications off: %v", warm.Outcome, warm.Reason, warmOff)
	}
	k := warm.Knowledge
	t.Logf("warm model calls %d (%v), steps %d", warm.ModelCalls, warm.ModelCallsByRole, warm.Steps)
	if k.Routines != 1 || k.RoutineSteps != 5 || k.Fallbacks != 0 || k.SkippedLearns != 1 || warm.ModelCallsByRole["learner"] != 0 {
		t.Errorf("warm knowledge %+v, calls %v: want one routine of 5 steps run whole and no distillation", k, warm.ModelCallsByRole)
	}
	if warm.ModelCallsByRole["decider"] != 0 || warm.ModelCallsByRole["replanner"] != 1 {
		t.Errorf("warm calls %v: want one Re-Planner call (taking the routine) and no decider call", warm.ModelCallsByRole)
	}
}

// TestRoutineMeetsAChangedScreen: the routine learned on a well-behaved phone meets a
// phone where a "Rate this app" dialog pops up on the way. The replay stops at the page
// it does not expect and hands back to the Re-Planner, which dismisses the dialog and
// finishes the task step by step; the routine is demoted at once: the next run, on a
// well-behaved phone, goes step by step too.
func TestRoutineMeetsAChangedScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	learnTwoInstances(t, path)
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
	after, off := runMapsTask(t, path, "after", withRoutines, sim.Faults{})
	if after.Outcome != event.OutcomeDone || !off {
		t.Fatalf("run after the surprise: %s (%s), notifications off %v", after.Outcome, after.Reason, off)
	}
	if after.Knowledge.Routines != 0 {
		t.Errorf("the run after the surprise replayed the demoted routine: %+v", after.Knowledge)
	}
}
