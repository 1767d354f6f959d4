package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// verifiedReflection is the reflection of a step the App Map verified.
const verifiedReflection = "verified: the App Map predicted this page"

// predict asks the App Map where the batch that just ran whole leads: the page its last
// action is known to open. A batch that typed first is left to the Re-Planner (where it
// leads depends on the text).
func (r *run) predict(ctx context.Context, done []event.ActionExecuted) {
	if len(done) == 0 {
		return
	}
	for _, ev := range done {
		if ev.Action.Type == event.Input || ev.Action.Type == event.Clear {
			return
		}
	}
	last := done[len(done)-1]
	if why := r.offTask(last); why != "" {
		// The map knows where a tap on a row leads, not whether it was the row the task
		// names: the Re-Planner judges it, with or without an App Map.
		r.planNote = append(r.planNote, prompts.NoteOffTask{Why: why})
		return
	}
	if r.cfg.Predictions == nil {
		return
	}
	if to, ok := r.cfg.Predictions.Predict(ctx, r.a.Task.App, last.Signature, last.Action, last.Element, r.subgoal); ok {
		r.predicted = to
	}
}

// offTask says why the action that ran, last, acted on a row that is not the one the task
// names while a sibling row (the same resource id, on the page it ran on) is: another
// expense, another recipient, another date than the task's. "" when it acted on the
// named row, on no row, or the task names none of the rows.
func (r *run) offTask(last event.ActionExecuted) string {
	el := last.Element
	if el == nil || el.ResourceID == "" || strings.TrimSpace(el.Label) == "" || r.screen == nil {
		return ""
	}
	task := r.a.Task.Task
	if replay.HasWords(task, el.Label) {
		return ""
	}
	for _, o := range r.screen.Elements {
		if o.ResourceID == el.ResourceID && o.Label != el.Label && strings.TrimSpace(o.Label) != "" && replay.HasWords(task, o.Label) {
			return fmt.Sprintf("acted on %q, and the task names %q, a row of the same list", el.Label, o.Label)
		}
	}
	return ""
}

// verify confirms the sub-goal without the Re-Planner when the last batch's known action
// opened the page the App Map predicted and the plan already names the next sub-goal: it
// publishes result A and the next sub-goal, as the Re-Planner would have. Anything the
// Re-Planner must judge — the first step, a C/D before, a note for it (an answer, a finish
// check, a loop, a decider's question), a pending interaction, a secure or empty screen,
// the plan's last sub-goal — sends the step to it as usual. A page where the person was
// ever asked something (a checkout with its choices, a consent) is never predicted (the
// learner's Predict), and an action the guard holds on a verified page is still held:
// the decider's batch passes the guard, which asks the person.
func (r *run) verify() bool {
	want, s := r.predicted, r.screen
	r.unpredicted = want != "" && s != nil && s.Signature != want && !r.secure
	if r.unpredicted {
		// The map knew where this action leads for this sub-goal, and the phone is not
		// there: a wrong page or a changed app. The Re-Planner hears it; the page is not
		// taken as a good one to come back to, whatever it judges.
		r.publish(event.Unpredicted{Step: r.step, Expected: want, Got: s.Signature})
		r.planNote = append(r.planNote, prompts.NoteMapDisagrees{})
	}
	ok := r.verifiable()
	r.predicted = ""
	if !ok {
		return false
	}
	next := nextSubgoal(r.plan, r.subgoalAt)
	progress := strings.TrimSpace(r.cfg.Memory.Progress())
	if progress != "" {
		progress += " "
	}
	progress += "Done: " + strings.TrimSpace(r.subgoal) + "."
	ev := event.Reflected{Step: r.step, Result: "A", Reflection: verifiedReflection, Progress: progress, Verified: true,
		VerifiedBy: event.VerifiedByMap, Page: want}
	if n := len(r.lastActs); n > 0 {
		ev.Action = r.lastActs[n-1]
	}
	r.publish(ev)
	r.markGood()
	r.subgoal, r.subgoalAt, r.expect = next, r.subgoalAt+1, ""
	r.publish(event.Planned{Step: r.step, Plan: r.plan, Subgoal: r.subgoal})
	return true
}

// verifiable reports whether verify will confirm this step, without consuming the
// prediction: the step's picture is taken only when it will not (a verified step's decider
// works from the text form; a secure screen is known only from a picture, so a step that
// takes none is judged on its tree, as in text-only mode).
func (r *run) verifiable() bool {
	return !r.secure && r.verifiableOn(r.screen)
}

// verifiableOn is verifiable for screen s, read this step and not yet pictured.
func (r *run) verifiableOn(s *perception.Screen) bool {
	want := r.predicted
	switch {
	case want == "" || s == nil || s.Signature != want || len(s.Elements) == 0:
		return false
	case r.step <= 1 || r.plan == nil || r.full || r.noActs || r.cd > 0:
		return false
	case len(r.planNote) > 0 || r.forced != "" || r.need != nil || r.heldAfter:
		return false
	}
	return nextSubgoal(r.plan, r.subgoalAt) != ""
}

// nextSubgoal is the sub-goal after position at of plan, or "" when the position is not
// known, is the last sub-goal, or is followed by the end of the task.
func nextSubgoal(plan []string, at int) string {
	if at < 0 || at+1 >= len(plan) {
		return ""
	}
	next := strings.TrimSpace(plan[at+1])
	if next == "" || isFinished(next) {
		return ""
	}
	return next
}

// planPosition is where sub-goal cur stands in plan: its index when it stands there
// exactly once, -1 when it is missing or repeated (which one is meant is not known).
func planPosition(plan []string, cur string) int {
	cur = strings.TrimSpace(cur)
	at := -1
	for i, p := range plan {
		if strings.TrimSpace(p) != cur {
			continue
		}
		if at >= 0 {
			return -1
		}
		at = i
	}
	return at
}
