package executor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// reflect asks the Re-Planner to classify the last step and plan this one.
func (r *run) reflect(ctx context.Context) (State, error) {
	r.showScreen(ctx)
	if r.routineEnd != "" || !r.verifiable() {
		r.pictureNow(ctx) // a replayed page: the Re-Planner or the finish check sees it
	}
	if need, by := secretNeed(r.screen, r.cfg.HandOverLogins); need != "" && r.screen.Signature != r.handedBack {
		return r.handOver(ctx, need, by)
	}
	if r.routineDone() {
		return stateCheck, nil
	}
	if r.verify() {
		return stateDecide, nil
	}
	mem := r.cfg.Memory
	first := r.plan == nil || r.full
	full := r.full && r.plan != nil
	r.full = false
	d := prompts.ReplannerData{
		Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(), Step: r.step, Now: r.phoneNow(ctx), First: first,
		Plan: r.plan, Subgoal: r.subgoal, Progress: mem.Progress(), LastActions: r.lastActs, Expect: r.expect, Asked: r.asked, Change: r.change,
		Screen: r.screen.Text(), Secure: r.secure, Visual: r.images() != nil, Context: mem.KeyContext(),
		Notes: r.planNote,
	}
	if len(r.lastActs) == 0 {
		d.Expect = "" // an expectation is about actions, and none ran
	} else {
		d.Asked = "" // actions ran since the question: they are what is judged
	}
	query := r.a.Task.Task
	if r.subgoal != "" {
		query += " " + r.subgoal
	}
	d.Tricks = r.tricks(ctx, TrickPlanning, query)
	if r.cd > 0 || full {
		// After a wrong or idle result (or a full re-plan, which follows three of them or a
		// loop): recovery tips that match what was just done.
		d.Tricks = append(d.Tricks, r.tricks(ctx, trickRecovery, strings.Join(r.lastActs, "; "))...)
	}
	if r.subgoal != "" {
		d.Hint = r.hint(ctx, r.subgoal)
	} else {
		d.Hint = r.hint(ctx, r.a.Task.Task) // no sub-goal yet: a page that serves the task
	}
	d.Routines = r.offers(ctx)
	r.served(string(llm.RoleReplanner), d.Tricks, d.Hint)
	p, err := r.cfg.Prompts.Replan(d)
	if err != nil {
		return stateError, err
	}
	r.expect, r.asked = "", "" // said once, with the step they were about
	var ans prompts.ReplannerAnswer
	if err := call(ctx, r.cfg.Model, llm.RoleReplanner, p, r.images(), &ans); err != nil {
		return stateError, err
	}
	r.planNote = nil
	ans.Result = strings.ToUpper(strings.TrimSpace(ans.Result))
	if first || r.noActs {
		ans.Result = "" // nothing was done to classify
	} else if r.deedMiss != "" && (ans.Result == "A" || ans.Result == "B") {
		ans.Result = "C" // the screen does not show what the person consented to (deeds.go)
	}
	r.deedMiss = ""
	r.noActs = false
	r.remember(ans.Facts)
	if ans.Interaction < 0 || ans.Interaction > prompts.HandOverInteraction {
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
		r.planNote = append(r.planNote, prompts.NoteThreeFailed{})
		return stateReflect, nil
	}
	r.plan, r.subgoal = ans.Plan, strings.TrimSpace(ans.Subgoal)
	r.subgoalAt = planPosition(r.plan, r.subgoal)
	r.publish(event.Planned{Step: r.step, Plan: r.plan, Subgoal: r.subgoal, Interaction: ans.Interaction, Reason: ans.Reason, Full: full})
	switch {
	case first || (ans.Result == "A" && !r.unpredicted):
		r.markGood()
	case ans.Result == "C" && ans.Interaction == 0 && r.forced == "":
		if st, err := r.recoverPage(ctx); st != "" || err != nil {
			return st, err
		}
	}

	if r.forced != "" && ans.Interaction == 0 {
		// The decider saw that the person must decide; the planner did not: ask anyway.
		ans.Interaction, ans.Reason = 4, r.forced
	}
	r.forced = ""
	if ans.Interaction == prompts.HandOverInteraction {
		reason := strings.TrimSpace(ans.Reason)
		if reason == "" {
			reason = "what only the person may do here"
		}
		return r.handOver(ctx, reason, handOverModel)
	}
	if ans.Interaction != 0 {
		reason := ans.Reason
		if reason == "" {
			reason = r.subgoal
		}
		r.need = &interaction.Need{Step: r.step, Type: ans.Interaction, Reason: reason, Subgoal: r.subgoal, Screen: r.screen.Text()}
		if ans.Interaction <= 2 {
			r.bindConsent(r.need)
		}
		return stateInteract, nil
	}
	if isFinished(r.subgoal) {
		return stateCheck, nil
	}
	if strings.TrimSpace(ans.Routine.Name) != "" && r.cfg.Routines != nil {
		return r.runRoutine(ctx, ans.Routine)
	}
	return stateDecide, nil
}

// bindConsent gives the Re-Planner's own consent question (type 1 or 2) the one action it
// can be about: when the screen offers exactly one action the guard holds, the question
// names it and a yes covers that action once. Otherwise the question stays vague, and a
// yes to it authorises nothing the guard holds: the guard asks again at the action.
func (r *run) bindConsent(need *interaction.Need) {
	offers := slices.DeleteFunc(r.cfg.Guard.Offers(r.screen), func(v guard.Verdict) bool { return v.Blocked }) // no yes covers those
	if len(offers) != 1 {
		return
	}
	v := offers[0]
	need.Category, need.Action, need.Subject = v.Category, v.Action, v.Subject
	need.Reason = fmt.Sprintf("%s — a yes allows once: %s (%s)", need.Reason, v.Subject, v.Category)
	if sp := readSpecifics(v.Category, r.screen, r.element(indexOf(r.screen, v.Target)), r.items, r.a.Task.App); !sp.IsZero() {
		need.Specifics = sp
		need.Reason += " — " + sp.String()
	}
}

// remember puts what the Re-Planner read (a list before deleting, the date it took as
// today) into the key context, where the finish check and later app tasks find it.
func (r *run) remember(facts []event.Fact) {
	var out []event.Fact
	for _, f := range facts {
		f.Key, f.Value = strings.TrimSpace(f.Key), strings.TrimSpace(f.Value)
		if f.Key == "" || f.Value == "" {
			continue
		}
		f.App, f.Step = r.a.Task.App, r.step
		out = append(out, f)
	}
	if out = newFacts(out, r.cfg.Memory.KeyContext(), r.step); len(out) > 0 {
		r.publish(event.ContextCollected{Step: r.step, Facts: out})
	}
}
