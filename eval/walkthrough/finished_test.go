package walkthrough

import (
	"regexp"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/prompts"
)

// TestFinishedTaskSpansLines: the Global Planner's adjust prompt lists a finished app task
// whose text holds line breaks (a task that adds records, one block a record); the rule for
// its outcome matches it (it did not: the planner then had no rule and the run ended on a
// scripted-model error), and never takes the next task's outcome for its own.
func TestFinishedTaskSpansLines(t *testing.T) {
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	const app = "com.fairy.expenses"
	records := event.AppTask{App: app, Task: "Add the following expenses:\nExpense: Shirt Purchase\n amount_dollars: $209.34\n\nExpense: Rent\n amount_dollars: $900"}
	other := event.AppTask{App: "com.google.android.apps.messaging", Task: "Text Bob the total"}
	render := func(done ...event.TaskResult) string {
		p, err := set.Plan(prompts.PlannerData{Phase: prompts.PhaseAdjust, Instruction: records.Task, Tasks: []event.AppTask{records, other}, Done: done})
		if err != nil {
			t.Fatal(err)
		}
		return p.User
	}
	failed := regexp.MustCompile(finishedTask(0, app, "failed|stopped"))
	done := regexp.MustCompile(finishedTask(0, app, "done"))
	one := render(event.TaskResult{Index: 0, Task: records, Outcome: event.OutcomeFailed, Reason: "a value never entered"})
	if !failed.MatchString(one) || done.MatchString(one) {
		t.Errorf("a failed task of several lines: failed rule %t, done rule %t; want only the failed one:\n%s", failed.MatchString(one), done.MatchString(one), one)
	}
	two := render(event.TaskResult{Index: 0, Task: records, Outcome: event.OutcomeDone},
		event.TaskResult{Index: 1, Task: other, Outcome: event.OutcomeFailed})
	if failed.MatchString(two) || !done.MatchString(two) {
		t.Errorf("task 0 done, task 1 failed: task 0's failed rule %t, done rule %t; want only the done one:\n%s", failed.MatchString(two), done.MatchString(two), two)
	}
}
