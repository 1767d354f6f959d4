package executor

import (
	"context"
	"fmt"
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
// task). A name not offered or wrong arguments go back to the Re-Planner with a note.
func (r *run) runRoutine(ctx context.Context, choice event.Routine) (State, error) {
	name := strings.TrimSpace(choice.Name)
	var o *replay.Offer
	for i := range r.offered {
		if r.offered[i].Name == name {
			o = &r.offered[i]
			break
		}
	}
	if o == nil {
		r.planNote = append(r.planNote, fmt.Sprintf("There is no routine %q on this screen: choose one of those listed, by its exact name, or leave the routine empty.", name))
		return r.reflectAgain()
	}
	if len(choice.Args) != len(o.Params) {
		r.planNote = append(r.planNote, fmt.Sprintf("Routine %q takes %d argument(s), one per parameter; the answer gave %d.", name, len(o.Params), len(choice.Args)))
		return r.reflectAgain()
	}
	run, err := r.cfg.Routines.Steps(ctx, r.a.Task.App, o.ID, r.screen.Signature, choice.Args, r.ledger.ResumeAt(o.ID))
	steps, pause := run.Steps, run.Pause
	if err == nil && len(steps) == 0 {
		err = fmt.Errorf("no step left")
	}
	if err != nil {
		r.ledger.Drop(o.ID)
		r.planNote = append(r.planNote, fmt.Sprintf("Routine %q cannot run here (%v): go on step by step.", name, err))
		return r.reflectAgain()
	}
	ev := event.RoutineRan{Step: r.step, App: r.a.Task.App, ID: o.ID, Name: name, Planned: len(steps)}
	res := r.replay(ctx, steps)
	ev.Replayed, ev.Stopped, ev.Held = res.replayed, res.stopped, res.held
	r.ledger.Ran(o.ID, run, res.replayed, res.stopped, res.held)
	r.publish(ev)
	if res.state != "" {
		return res.state, res.err
	}
	line := fmt.Sprintf("Routine(%q, %q): replayed %d of %d learned steps with no decision", name, choice.Args, ev.Replayed, ev.Planned)
	switch {
	case ev.Stopped != "" && !ev.Held:
		r.planNote = append(r.planNote, fmt.Sprintf("The routine %q stopped at %s: the screen was not what it learned. Go on step by step from the current screen.", name, ev.Stopped))
	case ev.Held:
		r.planNote = append(r.planNote, fmt.Sprintf("The routine %q paused at %s; once the person has answered, it can go on from the current screen.", name, ev.Stopped))
	case pause != "":
		r.planNote = append(r.planNote, fmt.Sprintf("The routine %q paused: %s, which is not known yet. Ask the person; then it can go on from the current screen.", name, pause))
	default:
		r.routineEnd, r.routineEndState = o.End, run.End // done once: the ledger never offers it again in this task
		r.planNote = append(r.planNote, fmt.Sprintf("The routine %q ran to its end: judge whether the app task is done.", name))
	}
	return r.afterReplay(ctx, line, res)
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
		r.planNote = append(r.planNote, "The routine reached the page its task was done on, but the page is not in the state the task needs: "+miss+". Judge what is left to do.")
		return false
	}
	r.planNote = nil
	r.publish(event.Reflected{Step: r.step, Result: "A", Reflection: "verified: the routine reached the page its task was done on", Verified: true})
	r.subgoal, r.subgoalAt = prompts.Finished, -1
	r.publish(event.Planned{Step: r.step, Plan: r.plan, Subgoal: r.subgoal})
	return true
}
