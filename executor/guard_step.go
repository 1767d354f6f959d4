package executor

import (
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/perception"
)

// guard holds back the first sensitive action the person has not consented to; the
// actions before it still run. A consent covers one action: two sensitive actions of a
// batch need two consents.
func (r *run) guard() (State, error) {
	r.consents = map[int]consented{}
	reserved := map[string]bool{}
	focus := r.screen.Focused()
	for i, a := range r.batch {
		v, hit := r.judge(a, focus)
		if el := r.element(a.Index); el != nil && (el.Editable || a.Type == event.Input || a.Type == event.Clear) {
			focus = el // the action puts the focus there: an Enter after it goes to it
		}
		if !hit {
			if v.Rule != "" {
				// Let through by the person's own rule: a standing consent, spent and
				// checked afterwards like a yes.
				sp := readSpecifics(v.Category, typedInto(r.screen, r.batch[:i]), r.element(a.Index), r.items, r.a.Task.App)
				r.consents[i] = consented{Verdict: v, specifics: sp.String(), sp: sp}
			}
			continue
		}
		if v.Blocked {
			// The person's own rule refuses it outright: nothing is asked, nothing of the
			// batch is done, and the task ends refused, saying which rule.
			r.batch, r.finishAfter = nil, false
			return stateRefuse, r.setReason(fmt.Sprintf("refused by your rule %q: %s (%s)", v.Rule, v.Subject, v.Category))
		}
		sp := readSpecifics(v.Category, typedInto(r.screen, r.batch[:i]), r.element(a.Index), r.items, r.a.Task.App)
		read := sp.String()
		spec := r.again(v, sp)
		if r.takeCarried(v) {
			// The yes to the action that opened this confirmation was for this deed.
			r.consents[i] = consented{Verdict: v, specifics: read, sp: sp}
			continue
		}
		if c, ok := r.cfg.Memory.Consent(v.Category, v.Action); ok && !reserved[v.Action] && (c.Specifics.IsZero() || c.Specifics.Equal(spec)) {
			// A yes covers the action with the specifics it named: the same "Send" on
			// another conversation is asked again.
			reserved[v.Action] = true
			r.consents[i] = consented{Verdict: v, specifics: read, sp: sp}
			continue
		}
		r.holdSpec(a, v, spec)
		r.batch = r.batch[:i]
		r.finishAfter = false
		break
	}
	return stateAct, nil
}

// hold publishes that the guard held a back and sets the consent question for it.
func (r *run) hold(a event.Action, v guard.Verdict) {
	r.holdSpec(a, v, r.again(v, readSpecifics(v.Category, r.screen, r.element(a.Index), r.items, r.a.Task.App)))
}

// again adds to the specifics of a consent for v that this task already did the very same
// action once with a consent: a step that undid the progress (a wrong tap on Navigate up
// after an order was placed) brings the same "Submit order" back, and the person must be
// told that a yes orders a second time.
func (r *run) again(v guard.Verdict, sp event.Specifics) event.Specifics {
	if at, ok := r.spent[spentKey(v.Category, v.Action, sp.String())]; ok {
		sp.Again = at
	}
	return sp
}

// openedConfirmation (true when it did) takes back, from what the task has done, the consented action the
// last batch ran when the screen it led to, s, asks to confirm an action of the same kind
// (the dialog "Delete note" opens, with its own Delete): that action was a step toward
// the deed, not the deed: the consent given for it carries to the dialog's confirm
// (consent_carry.go). A wrong tap on the dialog's Cancel then leaves nothing done,
// and the next "Delete note" is no second deletion (see again). An order whose next page
// asks for a payment stays done: the payment is another kind; so does a payment whose
// success page has a "Done" the guard holds only because the page shows an amount.
func (r *run) openedConfirmation(s *perception.Screen) bool {
	key, on := r.justSpent, r.justSpentOn
	r.justSpent, r.justSpentOn = "", ""
	r.carried = nil // a carried consent holds for the screen after its opener only
	if key == "" || s.Signature == on {
		// Still on the page the consented action ran on: it opened no confirmation, and
		// the page's other sensitive buttons are other deeds, each asked.
		return false
	}
	cat, act, _ := splitSpent(key)
	for _, v := range r.cfg.Guard.Offers(s) {
		// Only an action held for its own words confirms: a page held as a whole by its
		// amount (the "Done" of a payment's success page) is what the deed led to.
		if v.Category == cat && deedOf(v.Action) != act && !v.Page {
			delete(r.spent, key)
			r.carryTo(key, s.Signature)
			r.publish(event.ConfirmationOpened{Step: r.step, Category: cat})
			return true
		}
	}
	return false
}

// consented is a guarded action of the batch a consent covers: its verdict, and the
// specifics read for it (before any "again" note), which make it the deed it is.
type consented struct {
	guard.Verdict
	specifics string
	sp        event.Specifics // the same, as read: what the screen after it must show (deeds.go)
}

// spentKey is the key of r.spent: the same action with the same specifics is the same deed;
// "Delete recipe" on another recipe's page (the same page template) is another. The page's
// signature is no part of it: the menu a wrong "Back to menu" returns to may be laid out
// otherwise (a row opened), and "Pay ¥36" for the same items there is the same payment.
func spentKey(category, action, specifics string) string {
	return category + "\x00" + deedOf(action) + "\x00" + specifics
}

// deedOf is a guard's action identity without its page's signature: the element's class,
// label, resource id, texts and the page's amounts.
func deedOf(action string) string {
	if rest, ok := strings.CutPrefix(action, "page "); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			return after
		}
	}
	return action
}

// splitSpent splits a key of r.spent.
func splitSpent(key string) (category, action, specifics string) {
	category, rest, _ := strings.Cut(key, "\x00")
	action, specifics, _ = strings.Cut(rest, "\x00")
	return category, action, specifics
}

// holdSpec is hold with the consent's specifics already read.
func (r *run) holdSpec(a event.Action, v guard.Verdict, spec event.Specifics) {
	// The question names what the person needs to judge it, read from the screen: a
	// model that tapped the wrong row cannot hide it behind "tap Send".
	r.publish(event.ActionGuarded{Step: r.step, Action: r.masked([]event.Action{a})[0], Category: v.Category, Target: v.Target, Specifics: spec})
	reason := fmt.Sprintf("%s (%s)", v.Subject, v.Category)
	if s := spec.String(); s != "" {
		reason += " — " + s
	}
	r.need = &interaction.Need{Step: r.step, Type: v.Type, Reason: reason,
		Subgoal: r.subgoal, Screen: r.screen.Text(), Category: v.Category, Action: v.Action, Subject: v.Subject, Specifics: spec}
}

// judge asks the guard about a on the current screen; focus is the element that has the
// focus when a runs (nil: none known), which is where an Enter goes.
func (r *run) judge(a event.Action, focus *perception.Element) (guard.Verdict, bool) {
	el := r.element(a.Index)
	if a.Type == event.Enter {
		el = focus
	}
	v, ok := r.cfg.Guard.Check(a, el, r.screen)
	if ok || r.cfg.Effects == nil {
		return v, ok
	}
	if lv, held := r.cfg.Guard.Learned(a, el, r.screen, r.cfg.Effects.Effects(r.learnedApp())); held || lv.Rule != "" {
		return lv, held
	}
	return v, false // v.Rule: a person's allow let it through
}

// learnedApp is the app whose learned effects count on the current screen: its package,
// else the task's app.
func (r *run) learnedApp() string {
	if r.screen != nil && r.screen.Package != "" {
		return r.screen.Package
	}
	return r.a.Task.App
}
