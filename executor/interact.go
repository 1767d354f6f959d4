package executor

import (
	"context"
	"errors"

	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/prompts"
)

// interact runs the interaction loop for the pending need.
func (r *run) interact(ctx context.Context) (State, error) {
	need := *r.need
	ranBefore := r.heldAfter
	r.need, r.heldAfter = nil, false
	res, err := r.cfg.Interactor.Resolve(ctx, need)
	if err != nil {
		if ctx.Err() != nil {
			return stateError, err
		}
		if errors.Is(err, interaction.ErrNoAnswer) {
			return r.fail("no answer from the person: " + need.Reason)
		}
		return stateError, err
	}
	if res.Refused() {
		if !need.Specifics.IsZero() && corrects(res.Answer) && r.corrections < maxCorrections {
			// The person refused what the question named and said what they meant: the
			// steps before led to a wrong result, whatever the Re-Planner judged.
			return r.recoverFromRefusal(ctx, need, res.Answer, ranBefore)
		}
		return stateRefuse, r.setReason("the person refused: " + need.Reason)
	}
	if !res.Settled {
		return r.fail("the person's answers did not settle it: " + need.Reason)
	}
	if need.Type == 3 && res.Answer != "" {
		r.choices = append(r.choices, res.Answer)
	}
	r.supersede(need.Category, need.Action)
	r.planNote = append(r.planNote, prompts.NoteAnswered{Reason: need.Reason, Summary: res.Summary, Subgoal: need.Subgoal})
	if ranBefore {
		// The actions before the held one ran: the screen changed under them (a typed
		// text, a ticked box). Read it again, and let the planner judge what they did.
		r.reuse, r.noActs = false, false
		return statePerceive, nil
	}
	if need.Type <= 2 {
		// The screen may have changed while the person read the question (a total that
		// went up): read it again before anything is done under the consent.
		r.reuse, r.noActs, r.lastActs = false, true, nil
		r.asked, r.expect = need.Reason, ""
		return statePerceive, nil
	}
	r.reuse, r.noActs, r.lastActs = true, true, nil
	r.asked, r.expect = need.Reason, "" // the step only asked: no action, no expectation to judge
	return statePerceive, nil
}

// supersede forgets, after a yes to action of category, the other action of that
// category the task ran under a consent at the step just before: the "Delete" of the
// dialog that "Delete note" opened makes "Delete note" a step toward it, not the deed
// itself, and opening the dialog again is no second deed (see again). A deed done earlier
// stays done: a yes to a wrong tap on "Paiement par TeaPay" long after "Payer ¥36" paid
// must not hide that a second "Payer ¥36" pays twice.
func (r *run) supersede(category, action string) {
	if category == "" || action == "" {
		return
	}
	for k, at := range r.spent {
		if cat, act, _ := splitSpent(k); cat == category && act != deedOf(action) && at >= r.step-1 {
			delete(r.spent, k)
		}
	}
}

func (r *run) setReason(s string) error {
	r.reason = s
	return nil
}
