package executor

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// offers returns the routines to list in this step's Re-Planner prompt, and remembers them
// for the answer: none on a secure or empty screen, and none the task's ledger drops.
func (r *run) offers(ctx context.Context) []replay.Offer {
	r.offered = nil
	if r.cfg.Routines == nil || r.screen == nil || r.secure || len(r.screen.Elements) == 0 {
		return nil
	}
	var answers []string
	for _, in := range r.cfg.Memory.Instructions() {
		if in.Source == "user" && in.Consent == nil {
			answers = append(answers, in.Text)
		}
	}
	labels := make([]string, 0, len(r.screen.Elements))
	for _, e := range r.screen.Elements {
		if e.Label != "" {
			labels = append(labels, e.Label)
		}
	}
	r.offered = r.ledger.Offers(r.cfg.Routines.Offer(ctx, r.a.Task.App, r.screen.Signature, r.a.Task.Task, answers, labels))
	return r.offered
}

// runRoutine runs the routine the Re-Planner chose: it replays its steps from the current
// page with no model call, each page checked and each sensitive step asked, and hands
// back to the Re-Planner at the first surprise (which then is not offered again in this
// task). An answer it cannot run (a name not offered, wrong arguments, a routine that
// cannot run here) is refused: the routine is not offered again in the task, the
// Re-Planner is told so, and the refusal counts as a step that made no progress.
func (r *run) runRoutine(ctx context.Context, choice event.Routine) (State, error) {
	name := strings.TrimSpace(choice.Name)
	var o *replay.Offer
	for i := range r.offered {
		if sameRoutineName(r.offered[i].Name, name) {
			o = &r.offered[i]
			break
		}
	}
	if o == nil {
		r.publish(event.RoutineDeclined{Step: r.step, App: r.a.Task.App, Name: name, Args: choice.Args, Reason: "not offered on this screen"})
		for _, x := range r.offered {
			r.ledger.Drop(x.ID) // the model cannot name them: step by step from here
		}
		return r.refuseRoutine(prompts.NoteRoutineAbsent{Routine: name})
	}
	if len(choice.Args) != len(o.Params) {
		r.publish(event.RoutineDeclined{Step: r.step, App: r.a.Task.App, ID: o.ID, Name: name, Args: choice.Args,
			Reason: fmt.Sprintf("%d argument(s) for %d parameter(s)", len(choice.Args), len(o.Params))})
		r.ledger.Drop(o.ID)
		return r.refuseRoutine(prompts.NoteRoutineArgs{Routine: name, Params: len(o.Params), Args: len(choice.Args)})
	}
	run, err := r.cfg.Routines.Steps(ctx, r.a.Task.App, o.ID, r.screen.Signature, choice.Args, r.ledger.ResumeAt(o.ID))
	steps, pause := run.Steps, run.Pause
	if err == nil && len(steps) == 0 {
		err = fmt.Errorf("no step left")
	}
	if err != nil {
		r.ledger.Drop(o.ID)
		r.publish(event.RoutineDeclined{Step: r.step, App: r.a.Task.App, ID: o.ID, Name: name, Args: choice.Args, Reason: "cannot run here: " + err.Error()})
		return r.refuseRoutine(prompts.NoteRoutineCannotRun{Routine: name, Err: err})
	}
	name = o.Name
	ev := event.RoutineRan{Step: r.step, App: r.a.Task.App, ID: o.ID, Name: name, Planned: len(steps),
		LearnedFrom: o.LearnedFrom, Params: o.Params, Args: choice.Args}
	res := r.replay(ctx, steps)
	ev.Replayed, ev.Stopped, ev.Held = res.replayed, res.stopped, res.held
	r.ledger.Ran(o.ID, run, res.replayed+res.skipped, res.stopped, res.held)
	r.publish(ev)
	if res.state != "" {
		return res.state, res.err
	}
	line := fmt.Sprintf("Routine(%q, %q): replayed %d of %d learned steps with no decision", name, choice.Args, ev.Replayed, ev.Planned)
	switch {
	case ev.Stopped != "" && !ev.Held:
		r.planNote = append(r.planNote, prompts.NoteRoutineStopped{Routine: name, At: ev.Stopped})
	case ev.Held:
		r.planNote = append(r.planNote, prompts.NoteRoutinePaused{Routine: name, At: ev.Stopped})
	case pause != "":
		r.planNote = append(r.planNote, prompts.NoteRoutineUnknown{Routine: name, Pause: pause})
	default:
		r.routineEnd, r.routineEndID, r.routineEndState = o.End, o.ID, run.End // done once: the ledger never offers it again in this task
		r.planNote = append(r.planNote, prompts.NoteRoutineEnded{Routine: name})
	}
	return r.afterReplay(ctx, line, res)
}

// refuseRoutine answers a routine choice the executor cannot run: the Re-Planner hears
// why (a note whose line starts with prompts.MarkRoutineRefused) on the same screen, and the
// refusal counts as a result that changed nothing (D): three in a row force a full
// re-plan, as idle steps do, so no model can spend the task's budget on it.
func (r *run) refuseRoutine(why prompts.Note) (State, error) {
	r.planNote = append(r.planNote, why)
	r.cd++
	if r.cd >= 3 {
		r.cd = 0
		r.full = true
		r.planNote = append(r.planNote, prompts.NoteNoProgress{})
	}
	return r.reflectAgain()
}

// sameRoutineName reports whether a routine name the model answered is offered's: the
// same, or the same once the quoting the prompt shows it in (\n for a line break, \"
// for a quote) is read back and the spaces are folded.
func sameRoutineName(offered, answered string) bool {
	if offered == answered {
		return true
	}
	if u, err := strconv.Unquote(`"` + answered + `"`); err == nil {
		answered = u
	}
	return strings.Join(strings.Fields(offered), " ") == strings.Join(strings.Fields(answered), " ")
}

// reflectAgain sends the step back to the Re-Planner on the same screen, with the notes.
func (r *run) reflectAgain() (State, error) {
	r.reuse, r.noActs = true, true
	return statePerceive, nil
}

// routineDone ends the task's steps without the Re-Planner when a routine just ran to its
// end and the screen is the page its task was done on when it was learned, in the state
// it was learned with (its toggles, its parameters' rows shown or gone, bound to this
// task's arguments): the finish check (a model call that reads the screen) judges it, as
// it would after the Re-Planner's "Finished". Without a finish check, on a screen that
// offers a sensitive action, after anything the Re-Planner must hear, for a routine whose
// end state was never learned or on a page whose state differs (a switch that was already
// on when the routine was learned, and is off now), the Re-Planner judges as usual.
func (r *run) routineDone() bool {
	end, state := r.routineEnd, r.routineEndState
	r.routineEnd, r.routineEndState = "", nil
	s := r.screen
	switch {
	case end == "" || s == nil || s.Signature != end || r.secure || r.cfg.NoFinishCheck:
		return false
	case r.need != nil || r.heldAfter || r.forced != "" || len(r.planNote) != 1:
		return false // only the routine's own note: nothing else happened
	case len(r.cfg.Guard.Offers(s)) > 0:
		return false
	case state == nil:
		return false // nothing learned to compare the page with: reaching it proves nothing
	}
	if miss := state.Miss(s.Text()); miss != "" {
		r.planNote = append(r.planNote, prompts.NoteRoutineShort{Missing: miss})
		return false
	}
	r.planNote = nil
	r.publish(event.Reflected{Step: r.step, Result: "A", Reflection: "verified: the routine reached the page its task was done on", Verified: true,
		VerifiedBy: event.VerifiedByRoutineEnd, Routine: r.routineEndID, Page: end})
	r.subgoal, r.subgoalAt = prompts.Finished, -1
	r.publish(event.Planned{Step: r.step, Plan: r.plan, Subgoal: r.subgoal})
	return true
}
