package executor

import (
	"context"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/prompts"
)

// maxRecoveries is how many times a task goes back to its last good page by itself.
const maxRecoveries = 3

// Recovery from a wrong page, model-independent. The Re-Planner judged the last step C (it
// led somewhere the sub-goal did not need: a wrong row, another app, the home screen).
// Instead of feeling its way back one Back at a time — each a step, each a chance to err
// again — the executor returns to the last page a step was judged good on: it opens the
// task's app again when the phone left it, and follows the App Map's known path to that
// page, with no model call. What it cannot reach that way is left to the Re-Planner, as
// before.

// markGood remembers the current page as the last one the task was judged to be on the
// right way.
func (r *run) markGood() {
	if r.screen != nil && r.screen.Signature != "" && r.screen.Package == r.a.Task.App {
		r.good = r.screen.Signature
		if r.goodSeen == nil {
			r.goodSeen = map[string]bool{}
		}
		r.goodSeen[r.good] = true
	}
}

// recoverPage goes back toward the last good page after a C. It returns the state "" when
// there is nothing to do (no good page, already there, no known way, too many recoveries):
// the step goes on as planned.
func (r *run) recoverPage(ctx context.Context) (State, error) {
	s := r.screen
	if r.good == "" || s == nil || s.Signature == r.good || r.recoveries >= maxRecoveries || r.secure {
		return "", nil
	}
	if r.goodSeen[s.Signature] {
		// A page the task was on the right way before: it is behind, not off the way (a
		// sub-goal of this page is to be done again); going forward would skip it.
		return "", nil
	}
	if s.Package != "" && s.Package != r.a.Task.App {
		// The phone left the task's app (a wrong tap on Back, a link, Home): open it again.
		r.recoveries++
		if err := r.actAlone(ctx, event.Action{Type: event.OpenApp, Package: r.a.Task.App}); err != nil {
			if ctx.Err() != nil {
				return stateError, err
			}
			return "", nil
		}
		r.planNote = append(r.planNote, prompts.NoteReopened{App: r.a.Task.App})
		r.lastActs = []string{"OpenApp(" + r.a.Task.App + "): the phone had left the task's app"}
		r.reuse, r.noActs = false, true
		return statePerceive, nil
	}
	if r.cfg.Shortcuts == nil {
		return "", nil
	}
	steps, found := r.cfg.Shortcuts.Shortcut(ctx, r.a.Task.App, s.Signature, r.good)
	if !found || len(steps) == 0 {
		return "", nil
	}
	r.recoveries++
	r.planNote = append(r.planNote, prompts.NoteWentBackKnown{})
	st, err := r.navigateAs(ctx, r.good, steps, true)
	r.noActs = true
	return st, err
}
