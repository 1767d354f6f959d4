package global_test

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
)

// A one-task plan whose task is done ends the run without a second planner call; a
// failed task still goes back to the planner, which may re-plan or explain.
func TestOneTaskPlanSkipsTheAdjustCall(t *testing.T) {
	tests := []struct {
		name     string
		limits   executor.Limits
		outcome  event.Outcome
		planners int
	}{
		{"done ends the run", executor.Limits{}, event.OutcomeDone, 1},
		{"failed is adjusted", executor.Limits{MaxSteps: 2}, event.OutcomeFailed, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := scenario{rules: "calendar.yaml", limits: tc.limits}.run(t, dinner)
			if o.err != nil || o.res.Outcome != tc.outcome {
				t.Fatalf("outcome %+v (%v), want %s", o.res, o.err, tc.outcome)
			}
			if got := o.sum.ModelCallsByRole["planner"]; got != tc.planners {
				t.Errorf("%d planner calls, want %d", got, tc.planners)
			}
			if len(o.res.Tasks) != 1 || o.res.Tasks[0].Outcome != tc.outcome || o.res.Reason != o.res.Tasks[0].Reason &&
				!strings.Contains(o.res.Reason, o.res.Tasks[0].Reason) {
				t.Errorf("result %+v: the run's reason is not its task's", o.res)
			}
			if o.sum.Outcome != tc.outcome || o.sum.Reason != o.res.Reason || len(o.sum.Tasks) != 1 {
				t.Errorf("summary %+v does not match the result %+v", o.sum, o.res)
			}
			if tc.outcome == event.OutcomeDone && !dinnerSaved(o) {
				t.Error("the event was not saved")
			}
		})
	}
}
