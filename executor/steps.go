package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"golang.org/x/sync/errgroup"
)

// perceive starts a step: limits, then the screen (dump, screenshot and foreground
// activity concurrently), then the key-context collection of the new screen in the
// background.
func (r *run) perceive(ctx context.Context) (State, error) {
	if why := r.cfg.Limits.exceeded(r.step, r.cfg.Clock().Sub(r.start), r.cfg.Meter); why != "" {
		return r.fail(why)
	}
	r.step++
	r.publish(event.StepStarted{Step: r.step, App: r.a.Task.App})
	if r.reuse && r.screen != nil {
		r.reuse = false
		r.change = "no action since the last step"
		r.publishScreen(nil)
		return StateReflect, nil
	}
	s, png, err := r.observe(ctx)
	if err != nil {
		return StateError, err
	}
	if shot := r.readPixels(ctx, s, png); !r.cfg.TextOnly {
		png = shot // in text-only mode a screenshot taken to read it is never sent
	}
	prev := r.screen
	r.screen = s
	if items := itemLines(s); len(items) > 0 {
		r.items = items // what an order holds, for a payment page that shows only the amount
	}
	r.shotLater = r.replaying && !r.cfg.TextOnly
	marked := r.setPicture(png)
	unchanged := false
	if prev == nil {
		r.change = "first screen of the task"
	} else {
		d := perception.Diff(prev, s)
		unchanged = d.Unchanged()
		r.change = strings.TrimSpace(d.String())
	}
	r.publishScreen(marked)
	if !unchanged && !r.replaying {
		r.collect(ctx, r.step, s)
	}
	return StateReflect, nil
}

// setPicture makes png the screen's screenshot: the secure flag, and the image the models
// see (set-of-mark when configured), which it returns when marked.
func (r *run) setPicture(png []byte) (marked []byte) {
	r.rawPNG = png
	r.secure = png != nil && isBlack(png)
	r.image, r.imageMIME = nil, ""
	if png != nil && !r.secure {
		r.image, r.imageMIME = png, "image/png"
		if r.cfg.Mark != nil {
			if m, mime, err := r.cfg.Mark(png, r.screen); err == nil {
				r.image, r.imageMIME, marked = m, mime, m
			} else {
				r.e.log.Warn("set-of-mark failed", logErr, err)
			}
		}
	}
	return marked
}

// pictureNow takes the screenshot a replayed page went without, now that a model is to
// see it (or the secure flag decide something); a failure leaves the page without one.
func (r *run) pictureNow(ctx context.Context) {
	if !r.shotLater {
		return
	}
	r.shotLater = false
	png, err := r.cfg.Device.Screenshot(ctx)
	if err != nil {
		r.e.log.Warn("screenshot failed", logErr, err)
		return
	}
	r.setPicture(png)
}

func (r *run) publishScreen(marked []byte) {
	s := r.screen
	r.publish(event.ScreenPerceived{Step: r.step, Package: s.Package, Activity: s.Activity, Signature: s.Signature,
		Elements: len(s.Elements), Keyboard: s.Keyboard, Secure: r.secure, Text: s.Text(), Marked: marked, MarkedMIME: r.markedMIME(marked),
		Read: readBoxes(s)})
}

func (r *run) markedMIME(marked []byte) string {
	if marked == nil {
		return ""
	}
	return r.imageMIME
}

// observe reads the screen; a dumper error ("could not get idle state") is retried after
// the screen settles.
func (r *run) observe(ctx context.Context) (*perception.Screen, []byte, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
		}
		var xml, png []byte
		var activity string
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() (err error) { xml, err = r.cfg.Device.Dump(gctx); return err })
		if !r.cfg.TextOnly && !r.replaying { // a replayed page is checked on its dump alone
			g.Go(func() (err error) { png, err = r.cfg.Device.Screenshot(gctx); return err })
		}
		g.Go(func() error {
			// The activity only enriches the screen; a failure here is not fatal.
			if _, act, err := r.cfg.Device.Foreground(gctx); err == nil {
				activity = act
			}
			return nil
		})
		keyboard := false
		if k, ok := r.cfg.Device.(keyboardReporter); ok {
			g.Go(func() error {
				// Like the activity: a device that cannot tell leaves the dump's answer.
				if up, err := k.KeyboardShown(gctx); err == nil {
					keyboard = up
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			lastErr = err
			continue
		}
		s, err := perception.Parse(xml)
		if err != nil {
			lastErr = err
			continue
		}
		s.Activity = activity
		s.Keyboard = s.Keyboard || keyboard // an IME window in the dump, or the input method's word
		return s, png, nil
	}
	return nil, nil, fmt.Errorf("%w: %w", ErrPerceive, lastErr)
}

// reflect asks the Re-Planner to classify the last step and plan this one.
func (r *run) reflect(ctx context.Context) (State, error) {
	r.pictureNow(ctx)
	if r.routineDone() {
		return StateCheck, nil
	}
	if r.verify() {
		return StateDecide, nil
	}
	mem := r.cfg.Memory
	first := r.plan == nil || r.full
	full := r.full && r.plan != nil
	r.full = false
	d := prompts.ReplannerData{
		Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(), Step: r.step, First: first,
		Plan: r.plan, Subgoal: r.subgoal, Progress: mem.Progress(), LastActions: r.lastActs, Expect: r.expect, Change: r.change,
		Screen: r.screen.Text(), Secure: r.secure, Visual: r.images() != nil, Context: mem.KeyContext(),
		Notes: r.planNote,
	}
	query := r.a.Task.Task
	if r.subgoal != "" {
		query += " " + r.subgoal
	}
	d.Tricks = r.tricks(ctx, TrickPlanning, query)
	if r.cd > 0 || full {
		// After a wrong or idle result (or a full re-plan, which follows three of them or a
		// loop): recovery tips that match what was just done.
		d.Tricks = append(d.Tricks, r.tricks(ctx, TrickRecovery, strings.Join(r.lastActs, "; "))...)
	}
	if r.subgoal != "" {
		d.Hint = r.hint(ctx, r.subgoal)
	} else {
		d.Hint = r.hint(ctx, r.a.Task.Task) // no sub-goal yet: a page that serves the task
	}
	d.Routines = r.offers(ctx)
	r.served(string(llm.RoleReplanner), len(d.Tricks), d.Hint)
	p, err := r.cfg.Prompts.Replan(d)
	if err != nil {
		return StateError, err
	}
	r.expect = "" // said once, with the actions it was about
	var ans prompts.ReplannerAnswer
	if err := call(ctx, r.cfg.Model, llm.RoleReplanner, p, r.images(), &ans); err != nil {
		return StateError, err
	}
	r.planNote = nil
	ans.Result = strings.ToUpper(strings.TrimSpace(ans.Result))
	if first || r.noActs {
		ans.Result = "" // nothing was done to classify
	}
	r.noActs = false
	if ans.Interaction < 0 || ans.Interaction > 4 {
		ans.Interaction = 4
	}
	if len(ans.Plan) == 0 {
		ans.Plan = r.plan
	}
	if len(ans.Plan) == 0 && !isFinished(ans.Subgoal) {
		ans.Plan = []string{ans.Subgoal}
	}
	if !first {
		r.publish(event.Reflected{Step: r.step, Result: ans.Result, Reflection: ans.Reflection, Progress: ans.Progress})
	} else {
		r.publish(event.Reflected{Step: r.step, Progress: ans.Progress})
	}
	switch ans.Result {
	case "C", "D":
		r.cd++
	case "A", "B":
		r.cd = 0
	}
	if r.cd >= 3 {
		// Three wrong or idle results in a row: the plan does not work. Make a new one now.
		r.cd = 0
		r.full = true
		r.plan = ans.Plan
		r.planNote = append(r.planNote, "The last three steps failed (results C or D). The current plan does not work: make a full new plan from the current screen.")
		return StateReflect, nil
	}
	r.plan, r.subgoal = ans.Plan, strings.TrimSpace(ans.Subgoal)
	r.subgoalAt = planPosition(r.plan, r.subgoal)
	r.publish(event.Planned{Step: r.step, Plan: r.plan, Subgoal: r.subgoal, Interaction: ans.Interaction, Reason: ans.Reason, Full: full})

	if r.forced != "" && ans.Interaction == 0 {
		// The decider saw that the person must decide; the planner did not: ask anyway.
		ans.Interaction, ans.Reason = 4, r.forced
	}
	r.forced = ""
	if ans.Interaction != 0 {
		reason := ans.Reason
		if reason == "" {
			reason = r.subgoal
		}
		r.need = &interaction.Need{Step: r.step, Type: ans.Interaction, Reason: reason, Subgoal: r.subgoal, Screen: r.screen.Text()}
		if ans.Interaction <= 2 {
			r.bindConsent(r.need)
		}
		return StateInteract, nil
	}
	if isFinished(r.subgoal) {
		return StateCheck, nil
	}
	if strings.TrimSpace(ans.Routine.Name) != "" && r.cfg.Routines != nil {
		return r.runRoutine(ctx, ans.Routine)
	}
	return StateDecide, nil
}

// bindConsent gives the Re-Planner's own consent question (type 1 or 2) the one action it
// can be about: when the screen offers exactly one action the guard holds, the question
// names it and a yes covers that action once. Otherwise the question stays vague, and a
// yes to it authorises nothing the guard holds: the guard asks again at the action.
func (r *run) bindConsent(need *interaction.Need) {
	offers := r.cfg.Guard.Offers(r.screen)
	if len(offers) != 1 {
		return
	}
	v := offers[0]
	need.Category, need.Action, need.Subject = v.Category, v.Action, v.Subject
	need.Reason = fmt.Sprintf("%s — a yes allows once: %s (%s)", need.Reason, v.Subject, v.Category)
	if spec := readSpecifics(v.Category, r.screen, r.element(indexOf(r.screen, v.Target)), r.items, r.a.Task.App).String(); spec != "" {
		need.Specifics = spec
		need.Reason += " — " + spec
	}
}

// interact runs the interaction loop for the pending need.
func (r *run) interact(ctx context.Context) (State, error) {
	need := *r.need
	ranBefore := r.heldAfter
	r.need, r.heldAfter = nil, false
	res, err := r.cfg.Interactor.Resolve(ctx, need)
	if err != nil {
		if ctx.Err() != nil {
			return StateError, err
		}
		if errors.Is(err, interaction.ErrNoAnswer) {
			return r.fail("no answer from the person: " + need.Reason)
		}
		return StateError, err
	}
	if res.Refused() {
		if need.Specifics != "" && corrects(res.Answer) && r.corrections < maxCorrections {
			// The person refused what the question named and said what they meant: the
			// steps before led to a wrong result, whatever the Re-Planner judged.
			return r.recoverFromRefusal(ctx, need, res.Answer)
		}
		return StateRefuse, r.setReason("the person refused: " + need.Reason)
	}
	if !res.Settled {
		return r.fail("the person's answers did not settle it: " + need.Reason)
	}
	if need.Type == 3 && res.Answer != "" {
		r.choices = append(r.choices, res.Answer)
	}
	r.planNote = append(r.planNote, fmt.Sprintf("The person was just asked (%s) and answered; the summary is on the instruction stack: %q. Keep working on the sub-goal this was for (%s): do not skip it.", need.Reason, res.Summary, need.Subgoal))
	if ranBefore {
		// The actions before the held one ran: the screen changed under them (a typed
		// text, a ticked box). Read it again, and let the planner judge what they did.
		r.reuse, r.noActs = false, false
		return StatePerceive, nil
	}
	if need.Type <= 2 {
		// The screen may have changed while the person read the question (a total that
		// went up): read it again before anything is done under the consent.
		r.reuse, r.noActs, r.lastActs = false, true, nil
		return StatePerceive, nil
	}
	r.reuse, r.noActs, r.lastActs = true, true, nil
	return StatePerceive, nil
}

func (r *run) setReason(s string) error {
	r.reason = s
	return nil
}

// maxReasks is how often one step asks the decider again for a usable batch.
const maxReasks = 2

// maxBadDecides is how many steps in a row may end without a usable batch before the
// task fails.
const maxBadDecides = 3

// decide asks the Action Decider for a batch and checks it against the screen.
func (r *run) decide(ctx context.Context) (State, error) {
	mem := r.cfg.Memory
	tips := r.tricks(ctx, TrickAction, r.subgoal) // once a step, not once an attempt
	for attempt := 0; ; attempt++ {
		d := prompts.DeciderData{
			Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(), Plan: r.plan, Subgoal: r.subgoal,
			History: history(mem.LastFrames(6)), Screen: r.screen.Text(), Keyboard: r.screen.Keyboard, Secure: r.secure,
			Visual: r.images() != nil, Context: mem.KeyContext(), Shell: r.cfg.Shell, Notes: r.decNote,
			Tricks: tips,
		}
		if r.cfg.Shortcuts != nil {
			d.Hint = r.hint(ctx, r.subgoal)
			d.Navigate = d.Hint != ""
		}
		r.served(string(llm.RoleDecider), len(d.Tricks), d.Hint)
		p, err := r.cfg.Prompts.Decide(d)
		if err != nil {
			return StateError, err
		}
		var ans prompts.DeciderAnswer
		if err := call(ctx, r.cfg.Model, llm.RoleDecider, p, r.images(), &ans); err != nil {
			return StateError, err
		}
		r.decNote = nil
		batch, problems := r.screenCheck(ans.Actions)
		if len(problems) == 0 && len(batch) > 0 {
			r.badDecides = 0
		}
		if n := len(batch); len(problems) == 0 && n > 0 && batch[n-1].Type == event.Navigate {
			steps, why := r.shortcut(ctx, batch)
			if why == "" {
				r.publish(event.ActionsDecided{Step: r.step, Thought: ans.Thought, Actions: batch, Expect: ans.Expect})
				r.expect = ans.Expect
				return r.navigate(ctx, batch[n-1].Target, steps)
			}
			r.publish(event.ActionRejected{Step: r.step, Action: withheld(batch[n-1]), Reason: why})
			problems = []string{why}
		}
		if len(problems) == 0 && len(batch) > 0 {
			r.publish(event.ActionsDecided{Step: r.step, Thought: ans.Thought, Actions: r.masked(batch), Expect: ans.Expect})
			r.expect = ans.Expect
			return r.route(batch)
		}
		if len(problems) == 0 {
			problems = []string{"The answer had no action. Give at least one action."}
		}
		if attempt >= maxReasks {
			r.badDecides++
			if r.badDecides >= maxBadDecides {
				// The re-planner's new sub-goals did not help either: more steps would only
				// spend model calls until the step limit hides why.
				return r.fail(fmt.Sprintf("the Action Decider gave no usable action in %d steps in a row: %s", r.badDecides, strings.Join(problems, " ")))
			}
			// Nothing usable: let the planner see it and try again next step.
			r.planNote = append(r.planNote, "The Action Decider gave no usable action: "+strings.Join(problems, " "))
			r.reuse, r.noActs, r.lastActs = true, true, nil
			return StatePerceive, nil
		}
		r.decNote = problems
	}
}

// screenCheck truncates a batch after the first action that changes the screen and rejects actions
// the screen cannot take; it returns the usable batch or the problems to tell the decider.
func (r *run) screenCheck(actions []event.Action) ([]event.Action, []string) {
	var batch []event.Action
	var problems []string
	for _, a := range actions {
		a.Type = normalizeType(a.Type)
		if err := a.Validate(); err != nil {
			shown := withheld(a)
			problems = append(problems, fmt.Sprintf("%s is not valid: %v.", shown, err))
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: err.Error()})
			continue
		}
		if el := r.element(a.Index); el != nil && (a.Type == event.Input || a.Type == event.Clear) && !el.Editable {
			// Focusing it would tap it: typing into a button is pressing the button.
			shown := withheld(a)
			why := fmt.Sprintf("[%d] is a %s, not a text field", a.Index, el.Role)
			problems = append(problems, fmt.Sprintf("%s: %s; type only into input fields.", shown, why))
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: why})
			continue
		}
		if (a.Targeted() || (a.Type == event.Swipe && a.Index > 0)) && r.element(a.Index) == nil {
			shown := withheld(a)
			why := fmt.Sprintf("index %d is not on the current screen (it has elements 1–%d)", a.Index, len(r.screen.Elements))
			problems = append(problems, fmt.Sprintf("%s: %s; use an index from the screen.", shown, why))
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: why})
			continue
		}
		if why := r.againstChoice(a); why != "" {
			problems = append(problems, fmt.Sprintf("%s: %s.", a, why))
			r.publish(event.ActionRejected{Step: r.step, Action: a, Reason: why})
			continue
		}
		batch = append(batch, a)
		if a.EndsBatch() {
			break // the screen changes under anything after it
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return batch, nil
}

// normalizeType maps a type in any letter case to its canonical name.
func normalizeType(t event.ActionType) event.ActionType {
	for _, k := range event.ActionTypes() {
		if strings.EqualFold(string(k), string(t)) {
			return k
		}
	}
	return t
}

// route sends a checked batch on: to the planner (NeedInteraction), the finish check
// (Finish alone) or the guard.
func (r *run) route(batch []event.Action) (State, error) {
	last := batch[len(batch)-1]
	if last.Type == event.NeedInteraction {
		r.forced = last.Reason
		if r.forced == "" {
			r.forced = "the Action Decider says the person must decide before going on"
		}
		r.planNote = append(r.planNote, "The Action Decider says the person must be asked before going on: "+r.forced+". Decide the interaction type and ask.")
		r.reuse, r.noActs, r.lastActs = true, true, nil
		return StatePerceive, nil
	}
	r.finishAfter = false
	if last.Type == event.Finish {
		r.answer = last.Text
		if len(batch) == 1 {
			return StateCheck, nil
		}
		batch = batch[:len(batch)-1]
		r.finishAfter = true
	}
	r.batch = batch
	return StateGuard, nil
}

// errSecretWithheld replaces the device's error when typing into a password field fails.
const errSecretWithheld = "typing into the password field failed (the device's message is withheld: it may quote the password)"

// maskedText replaces text that may be a password wherever an action is shown.
const maskedText = "••••••"

// masked returns the batch with text typed into password fields hidden.
func (r *run) masked(batch []event.Action) []event.Action {
	out := append([]event.Action(nil), batch...)
	for i, a := range out {
		if a.Type == event.Input {
			if el := r.element(a.Index); el != nil && el.Password {
				out[i].Text = maskedText
			}
		}
	}
	return out
}

// withheld is a rejected action as events and prompts show it. Its target is unknown or
// unchecked, so its text may have been meant for a password field: the text is always
// hidden (an Input's, or one an action of an unknown type carries); the reason still tells
// the decider what was wrong.
func withheld(a event.Action) event.Action {
	if a.Text != "" {
		a.Text = maskedText
	}
	return a
}

// guard holds back the first sensitive action the person has not consented to; the
// actions before it still run. A consent covers one action: two sensitive actions of a
// batch need two consents.
func (r *run) guard() (State, error) {
	r.consents = map[int]Verdict{}
	reserved := map[string]bool{}
	focus := focused(r.screen)
	for i, a := range r.batch {
		v, hit := r.judge(a, focus)
		if el := r.element(a.Index); el != nil && (el.Editable || a.Type == event.Input || a.Type == event.Clear) {
			focus = el // the action puts the focus there: an Enter after it goes to it
		}
		if !hit {
			continue
		}
		spec := readSpecifics(v.Category, typedInto(r.screen, r.batch[:i]), r.element(a.Index), r.items, r.a.Task.App).String()
		if c, ok := r.cfg.Memory.Consent(v.Category, v.Action); ok && !reserved[v.Action] && (c.Specifics == "" || c.Specifics == spec) {
			// A yes covers the action with the specifics it named: the same "Send" on
			// another conversation is asked again.
			reserved[v.Action] = true
			r.consents[i] = v
			continue
		}
		r.holdSpec(a, v, spec)
		r.batch = r.batch[:i]
		r.finishAfter = false
		break
	}
	return StateAct, nil
}

// hold publishes that the guard held a back and sets the consent question for it.
func (r *run) hold(a event.Action, v Verdict) {
	r.holdSpec(a, v, readSpecifics(v.Category, r.screen, r.element(a.Index), r.items, r.a.Task.App).String())
}

// holdSpec is hold with the consent's specifics already read.
func (r *run) holdSpec(a event.Action, v Verdict, spec string) {
	// The question names what the person needs to judge it, read from the screen: a
	// model that tapped the wrong row cannot hide it behind "tap Send".
	r.publish(event.ActionGuarded{Step: r.step, Action: r.masked([]event.Action{a})[0], Category: v.Category, Target: v.Target, Specifics: spec})
	reason := fmt.Sprintf("%s (%s)", v.Subject, v.Category)
	if spec != "" {
		reason += " — " + spec
	}
	r.need = &interaction.Need{Step: r.step, Type: v.Type, Reason: reason,
		Subgoal: r.subgoal, Screen: r.screen.Text(), Category: v.Category, Action: v.Action, Subject: v.Subject, Specifics: spec}
}

// judge asks the guard about a on the current screen; focus is the element that has the
// focus when a runs (nil: none known), which is where an Enter goes.
func (r *run) judge(a event.Action, focus *perception.Element) (Verdict, bool) {
	el := r.element(a.Index)
	if a.Type == event.Enter {
		el = focus
	}
	return r.cfg.Guard.Check(a, el, r.screen)
}

// focused is the element of s that has the focus, a text field before any other (a dump
// may mark both the field and its container), or nil.
func focused(s *perception.Screen) *perception.Element {
	if s == nil {
		return nil
	}
	var other *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		switch {
		case !e.Focused:
		case e.Editable:
			return e
		case other == nil:
			other = e
		}
	}
	return other
}

// loopLimit is how often the same action on the same page may run before it is a loop.
const loopLimit = 3

// act runs the batch on the device.
func (r *run) act(ctx context.Context) (State, error) {
	r.lastActs = nil
	acted := false
	var done []event.ActionExecuted // what ran without error, for the App Map's prediction
	for i, a := range r.batch {
		key := r.screen.Signature + "\x00" + a.String()
		if el := r.element(a.Index); el != nil {
			key += "\x00" + label(el)
		}
		if a.Type == event.Swipe {
			// A scroll that shows other rows is progress through a long list, not a
			// loop: the same swipe counts again only on the same rows.
			key += "\x00" + r.screen.Text()
		}
		if r.loops[key]+1 >= loopLimit {
			st, err := r.breakLoop(ctx, a)
			if st != "" || err != nil {
				return st, err
			}
			acted = true
			break
		}
		if i > 0 && mayNavigate(r.batch[i-1], r.element(r.batch[i-1].Index)) {
			// The guard judged this action on the screen before the batch: if the last
			// action opened another page, what is at its place now is unknown.
			if now, err := r.dumpRead(ctx); err != nil || now.Signature != r.screen.Signature || !sameTarget(now, r.element(a.Index)) {
				r.lastActs = append(r.lastActs, fmt.Sprintf("%s and the rest of the batch were not run: the screen changed under them", a))
				break
			}
		}
		r.loops[key]++
		el := r.element(a.Index)
		r.fresh = i == 0
		out, err := r.exec(ctx, a, el)
		ev := event.ActionExecuted{Step: r.step, Action: r.masked([]event.Action{a})[0], Signature: r.screen.Signature,
			Consent: r.consents[i].Category, ConsentFor: r.consents[i].Action}
		if el != nil {
			ev.Element = &event.ElementRef{Label: label(el), ResourceID: el.ResourceID, Class: el.Class, X: el.Center.X, Y: el.Center.Y}
		}
		desc := ev.Action.String()
		if el != nil {
			desc += fmt.Sprintf(" on %s %q", el.Role, label(el))
		}
		if err != nil {
			ev.Err = err.Error()
			if ev.Action.Text != a.Text {
				// The device's error may quote the command line, password and all.
				ev.Err = errSecretWithheld
			}
			r.publish(ev)
			if ctx.Err() != nil {
				return StateError, ctx.Err()
			}
			r.lastActs = append(r.lastActs, desc+": failed: "+ev.Err)
			break
		}
		r.publish(ev)
		done = append(done, ev)
		acted = true
		if out != "" {
			desc += ": output: " + llm.Head(out, 400)
		}
		r.lastActs = append(r.lastActs, desc)
	}
	whole := len(done) == len(r.batch) && len(r.consents) == 0
	r.batch, r.consents = nil, nil
	if acted {
		if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
			return StateError, ctx.Err()
		}
	}
	if r.finishAfter {
		r.finishAfter = false
		r.planNote = append(r.planNote, "The Action Decider believes the task is finished after these actions; check the screen and answer Finished if so.")
	}
	if r.need != nil {
		// The guard held an action back: ask before anything else.
		r.heldAfter = acted
		return StateInteract, nil
	}
	if !acted && len(r.lastActs) == 0 {
		r.noActs = true
		r.reuse = true
	}
	if whole {
		r.predict(ctx, done)
	}
	return StatePerceive, nil
}

// sameTarget reports whether what a tap on el would reach on now is still el (same label,
// resource id and class); true when el is nil.
func sameTarget(now *perception.Screen, el *perception.Element) bool {
	if el == nil {
		return true
	}
	at := elementAt(now, el.Center.X, el.Center.Y)
	return at != nil && label(at) == label(el) && at.ResourceID == el.ResourceID && at.Class == el.Class
}

// mayNavigate reports whether a may open another page: a tap, long press or Enter on
// anything but a text field or a checkable box.
func mayNavigate(a event.Action, el *perception.Element) bool {
	switch a.Type {
	case event.Tap, event.LongPress, event.Enter:
		return el == nil || !(el.Editable || el.Checkable)
	}
	return false
}

// breakLoop handles an action about to run for the loopLimit-th time on the same page:
// first it goes back, then it forces a full re-plan, then it gives up. It returns "" to go on.
func (r *run) breakLoop(ctx context.Context, a event.Action) (State, error) {
	r.loopBreaks++
	for k := range r.loops {
		delete(r.loops, k)
	}
	a = r.masked([]event.Action{a})[0] // from here on it is only shown
	note := fmt.Sprintf("%s on this page came back %d times without progress: it does not work here; try another way.", a, loopLimit)
	ev := event.LoopBroken{Step: r.step, Action: a, Signature: r.screen.Signature}
	switch r.loopBreaks {
	case 1:
		ev.Remedy = "back"
		r.publish(ev)
		err := r.cfg.Device.Key(ctx, "back")
		r.publish(event.ActionExecuted{Step: r.step, Action: event.Action{Type: event.Back}, Signature: r.screen.Signature, Err: errText(err)})
		if err != nil && ctx.Err() != nil {
			return StateError, ctx.Err()
		}
		r.lastActs = append(r.lastActs, "Back(): pressed by the executor to leave a loop")
		r.planNote = append(r.planNote, note+" The executor pressed Back.")
	case 2:
		ev.Remedy = "replan"
		r.publish(ev)
		r.full = true
		r.planNote = append(r.planNote, note+" Make a full new plan.")
		r.noActs, r.reuse = true, true
		return StatePerceive, nil
	default:
		ev.Remedy = "fail"
		r.publish(ev)
		return r.fail(fmt.Sprintf("stuck in a loop: %s keeps coming back on the same page", a))
	}
	return "", nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Gesture timings.
const (
	longPressDuration = 800 * time.Millisecond
	swipeDuration     = 300 * time.Millisecond
)

// exec performs one action; it returns a Shell command's output.
func (r *run) exec(ctx context.Context, a event.Action, el *perception.Element) (string, error) {
	dev := r.cfg.Device
	switch a.Type {
	case event.Tap:
		return "", dev.Tap(ctx, el.Center.X, el.Center.Y)
	case event.LongPress:
		return "", dev.LongPress(ctx, el.Center.X, el.Center.Y, longPressDuration)
	case event.Input:
		return "", r.typeInto(ctx, a.Text, el)
	case event.Clear:
		return "", dev.ClearText(ctx, el.Center.X, el.Center.Y, 0)
	case event.Swipe:
		b := perception.Bounds{X2: r.screen.Width, Y2: r.screen.Height}
		if el != nil {
			b = el.Bounds
		}
		x1, y1, x2, y2 := swipePath(b, a.Direction)
		if el != nil && el.Role == "slider" {
			x1, y1, x2, y2 = slidePath(b, a.Direction)
		}
		return "", dev.Swipe(ctx, x1, y1, x2, y2, swipeDuration)
	case event.Back:
		return "", dev.Key(ctx, "back")
	case event.Home:
		return "", dev.Key(ctx, "home")
	case event.Enter:
		return "", dev.Key(ctx, "enter")
	case event.Wait:
		return "", r.cfg.Sleep(ctx, time.Duration(a.Seconds*float64(time.Second)))
	case event.OpenApp:
		return "", dev.Launch(ctx, a.Package)
	case event.Shell:
		return dev.Shell(ctx, a.Command)
	}
	return "", fmt.Errorf("executor: action %s cannot be executed", a.Type)
}

// swipePath is a finger path across the middle of b, in the direction of the finger.
func swipePath(b perception.Bounds, dir string) (x1, y1, x2, y2 int) {
	cx, cy := (b.X1+b.X2)/2, (b.Y1+b.Y2)/2
	dx, dy := (b.X2-b.X1)*3/10, (b.Y2-b.Y1)*3/10
	switch dir {
	case "up":
		return cx, cy + dy, cx, cy - dy
	case "down":
		return cx, cy - dy, cx, cy + dy
	case "left":
		return cx + dx, cy, cx - dx, cy
	default:
		return cx - dx, cy, cx + dx, cy
	}
}

// slidePath drags a slider's thumb along its whole track: a "slide to confirm" control acts
// only when its thumb, which sits at the track's start, reaches the end; a swipe through
// the middle of the element (swipePath) leaves it short.
func slidePath(b perception.Bounds, dir string) (x1, y1, x2, y2 int) {
	w, h := b.X2-b.X1, b.Y2-b.Y1
	if h > w { // a vertical slider
		cx, in := (b.X1+b.X2)/2, min(w/2, h/10)
		if dir == "up" {
			return cx, b.Y2 - in, cx, b.Y1 + 1
		}
		return cx, b.Y1 + in, cx, b.Y2 - 1
	}
	cy, in := (b.Y1+b.Y2)/2, min(h/2, w/10)
	if dir == "left" {
		return b.X2 - in, cy, b.X1 + 1, cy
	}
	return b.X1 + in, cy, b.X2 - 1, cy
}

// maxCheckFails is how many failed finish checks end the task.
const maxCheckFails = 3

// check runs the finish check: the final screen and key context against the task.
func (r *run) check(ctx context.Context) (State, error) {
	r.waitContext() // the final screen's facts count
	if r.cfg.NoFinishCheck {
		return StateFinish, nil
	}
	if miss := r.unshownChoice(); miss != "" {
		// Model-independent: an answer read off a page that does not show what the person
		// chose is about someone else, whatever the model judges.
		reason := fmt.Sprintf("the answer is read from a page that does not show %q, the person's choice", miss)
		r.publish(event.FinishChecked{Step: r.step, Passed: false, Reason: reason})
		r.checkFails++
		if r.checkFails >= maxCheckFails {
			return r.fail("the task is not done: " + reason)
		}
		r.planNote = append(r.planNote, "The finish check says the task is NOT done yet: "+reason+". The agent went back a page: open what the person chose.")
		return r.goBack(ctx, "Back: "+reason)
	}
	mem := r.cfg.Memory
	p, err := r.cfg.Prompts.Check(prompts.CheckerData{Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(),
		Screen: r.screen.Text(), Context: mem.KeyContext(), Answer: r.answer, Plan: r.plan, Progress: mem.Progress()})
	if err != nil {
		return StateError, err
	}
	var v prompts.CheckerAnswer
	if err := call(ctx, r.cfg.Model, RoleChecker, p, r.images(), &v); err != nil {
		return StateError, err
	}
	r.publish(event.FinishChecked{Step: r.step, Passed: v.Passed, Reason: v.Reason})
	if v.Passed {
		return StateFinish, nil
	}
	r.checkFails++
	if r.checkFails >= maxCheckFails {
		return r.fail("the task is not done: " + v.Reason)
	}
	r.planNote = append(r.planNote, "The finish check says the task is NOT done yet: "+v.Reason+". Re-plan what is missing.")
	r.reuse, r.noActs, r.lastActs = true, true, nil
	return StatePerceive, nil
}

// history is the earlier steps for the decider: what ran (and what failed, with why),
// what the decider expected, and the Re-Planner's judgement of it.
func history(frames []memory.Frame) []prompts.StepRecord {
	var out []prompts.StepRecord
	for _, f := range frames {
		if len(f.Executed) == 0 && f.Result == "" {
			continue // a step that only asked or planned
		}
		rec := prompts.StepRecord{Step: f.Step, Subgoal: f.Subgoal, Expect: f.Expect, Result: f.Result, Reflection: f.Reflection}
		for _, e := range f.Executed {
			s := e.Action.String()
			if e.Element != nil && e.Element.Label != "" {
				s += fmt.Sprintf(" on %q", e.Element.Label)
			}
			if e.Err != "" {
				s += ": failed: " + llm.Head(e.Err, 200)
			}
			rec.Actions = append(rec.Actions, s)
		}
		out = append(out, rec)
	}
	return out
}
