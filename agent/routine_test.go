package agent

import (
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

// TestRoutineOnSecondRun: the second run of a task takes the routine the first one
// learned: its steps replay with no model call per step, its end page goes straight to
// the finish check, and nothing is distilled again.
func TestRoutineOnSecondRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	cold, coldOff := runMapsTask(t, path, "cold", withRoutines, sim.Faults{})
	warm, warmOff := runMapsTask(t, path, "warm", withRoutines, sim.Faults{})
	if cold.Outcome != event.OutcomeDone || warm.Outcome != event.OutcomeDone || !coldOff || !warmOff {
		t.Fatalf("outcomes %s (%s), %s (%s); notifications off: %v, %v", cold.Outcome, cold.Reason, warm.Outcome, warm.Reason, coldOff, warmOff)
	}
	k := warm.Knowledge
	t.Logf("model calls %d → %d (%v → %v), steps %d → %d", cold.ModelCalls, warm.ModelCalls, cold.ModelCallsByRole, warm.ModelCallsByRole, cold.Steps, warm.Steps)
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
// finishes the task step by step; the surprise counts against the routine.
func TestRoutineMeetsAChangedScreen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	if s, off := runMapsTask(t, path, "learn", withRoutines, sim.Faults{}); s.Outcome != event.OutcomeDone || !off {
		t.Fatalf("learning run: %s (%s)", s.Outcome, s.Reason)
	}
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
}
