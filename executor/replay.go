package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

// replayed is what a replay did.
type replayed struct {
	replayed int
	stopped  string   // why it stopped before its end ("" when it ran whole)
	done     []string // the actions run, in words
	// unreflected: the screen was read during the replay and nothing was done on it yet.
	unreflected bool
	held        bool  // it stopped at a sensitive step to ask the person
	skipped     int   // steps skipped: their switch already showed the wanted state
	state       State // set when the run must leave at once (an error, a cancel, a perceive failure)
	err         error
}

// replay runs known steps with no model call: before each step it perceives the page
// reached (no key-context collection on the way) and checks it against what the step
// expects; at the first mismatch, guarded action without consent, or failed action it
// stops. Every replayed action is published as an ActionExecuted, so the App Map keeps
// learning from replays, and a sensitive step needs the person's consent every time.
func (r *run) replay(ctx context.Context, steps []replay.Step) replayed {
	var res replayed
	r.lastActs = nil
	for i, st := range steps {
		if i > 0 {
			r.replaying = true
			next, err := r.perceive(ctx)
			r.replaying = false
			if err != nil || next != stateReflect {
				res.state, res.err = next, err
				return res
			}
			res.unreflected = true
		}
		if r.cfg.Limits.actionsSpent(r.e.spent()) {
			res.stopped = fmt.Sprintf("step %d of %d: the action limit (%d actions) is reached", i+1, len(steps), r.cfg.Limits.MaxActions)
			break
		}
		a, err := st.Resolve(r.screen)
		if errors.Is(err, replay.ErrSatisfied) {
			// The switch already shows the state the step is for: nothing to tap.
			res.done = append(res.done, fmt.Sprintf("skipped %s (%v)", st, err))
			res.skipped++
			continue
		}
		if sk, ok := st.(seeker); ok && errors.Is(err, replay.ErrMismatch) {
			if how, seeks := sk.Seeking(); seeks {
				var state State
				a, state, err = r.seek(ctx, st, how, &res)
				if state != "" {
					res.state, res.err = state, err
					return res
				}
			}
		}
		if err != nil {
			res.stopped = fmt.Sprintf("step %d of %d (%s): %v", i+1, len(steps), st, err)
			break
		}
		el := r.element(a.Index)
		if (a.Targeted() || (a.Type == event.Swipe && a.Index > 0)) && el == nil {
			res.stopped = fmt.Sprintf("step %d of %d (%s): index %d is not on the screen", i+1, len(steps), st, a.Index)
			break
		}
		var used guard.Verdict
		if v, hit := r.judge(a, r.screen.Focused()); hit {
			if v.Blocked {
				// The person's own rule refuses it: the replay stops here, unasked.
				res.stopped = fmt.Sprintf("step %d of %d: %s is refused by your rule %q", i+1, len(steps), v.Subject, v.Rule)
				break
			}
			if _, ok := r.cfg.Memory.Consent(v.Category, v.Action); !ok {
				// A replay never passes a sensitive step unasked: ask now; the task goes
				// on from this page after the answer.
				res.stopped = fmt.Sprintf("step %d of %d: %s needs the person's consent (%s)", i+1, len(steps), v.Subject, v.Category)
				res.held = true
				r.hold(a, v)
				break
			}
			used = v
		}
		r.fresh = true
		_, err = r.exec(ctx, a, el)
		ae := event.ActionExecuted{Step: r.step, Action: r.masked([]event.Action{a})[0], Signature: r.screen.Signature,
			Consent: used.Category, ConsentFor: used.Action}
		desc := r.masked([]event.Action{a})[0].String()
		if el != nil {
			ae.Element = elementRef(el)
			desc += fmt.Sprintf(" on %s %q", el.Role, el.Name())
		}
		res.unreflected = false
		if err != nil {
			ae.Err = err.Error()
			r.publish(ae)
			if ctx.Err() != nil {
				res.state, res.err = stateError, ctx.Err()
				return res
			}
			res.done = append(res.done, desc+": failed: "+err.Error())
			res.stopped = fmt.Sprintf("step %d of %d (%s) failed: %v", i+1, len(steps), st, err)
			break
		}
		r.publish(ae)
		if used.Action != "" {
			r.did(used.Category)
		}
		if used.Action != "" && (a.Type == event.Tap || a.Type == event.LongPress) {
			// What the person consented to is reconciled with the next screen (deeds.go).
			r.recordDeed(used.Category, readSpecifics(used.Category, r.screen, el, r.items, r.a.Task.App), el)
		}
		res.replayed++
		res.done = append(res.done, desc)
		if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
			res.state, res.err = stateError, ctx.Err()
			return res
		}
	}
	return res
}

// afterReplay tells the next Re-Planner call what a replay did (line, and the actions)
// and says where the step loop goes on.
func (r *run) afterReplay(ctx context.Context, line string, res replayed) (State, error) {
	if len(res.done) > 0 {
		line += ": " + strings.Join(res.done, "; ")
	}
	r.lastActs = []string{line}
	switch {
	case r.need != nil:
		// The replay stopped at a sensitive step: ask before anything else.
		r.heldAfter = len(res.done) > 0 || res.unreflected
		return stateInteract, nil
	case res.unreflected:
		// The replay stopped on a page it had just read: that page is this step's screen.
		r.collect(ctx, r.step, r.screen)
		return stateReflect, nil
	case len(res.done) == 0:
		// Nothing ran: the same screen is planned on again.
		r.reuse, r.noActs = true, true
	}
	return statePerceive, nil
}

// seeker is a learned step that may scroll its list to find its row (replay.Learned).
type seeker interface {
	Seeking() (replay.Learned, bool)
}

// maxSeek is how many swipes a replay makes, each way, to find the row a step taps.
const maxSeek = 8

// seek scrolls the page's list with how (the swipe learned before the row) until st's row
// is on the screen, then the way back up when the list ends first; each swipe is an action
// like any other (published, counted). It returns st's action on the screen that shows
// its row, or the last mismatch; a state when the run must leave (an error, a cancel).
func (r *run) seek(ctx context.Context, st replay.Step, how replay.Learned, res *replayed) (event.Action, State, error) {
	a, err := st.Resolve(r.screen)
	for _, dir := range []string{how.Direction, opposite(how.Direction)} {
		how.Direction = dir
		for n := 0; n < maxSeek && err != nil; n++ {
			if r.cfg.Limits.actionsSpent(r.e.spent()) {
				return a, "", err
			}
			sw, serr := how.Resolve(r.screen)
			if serr != nil {
				return a, "", err // not the page the row's list is on
			}
			el := r.element(sw.Index)
			if _, xerr := r.exec(ctx, sw, el); xerr != nil {
				if ctx.Err() != nil {
					return a, stateError, ctx.Err()
				}
				return a, "", err
			}
			ae := event.ActionExecuted{Step: r.step, Action: sw, Signature: r.screen.Signature}
			if el != nil {
				ae.Element = elementRef(el)
			}
			r.publish(ae)
			res.done = append(res.done, fmt.Sprintf("%s to find %s", sw, st))
			if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
				return a, stateError, ctx.Err()
			}
			before := r.screen
			r.replaying = true
			next, perr := r.perceive(ctx)
			r.replaying = false
			if perr != nil || next != stateReflect {
				return a, next, perr
			}
			res.unreflected = true
			a, err = st.Resolve(r.screen)
			if err != nil && perception.Diff(before, r.screen).Unchanged() {
				break // the list ends this way
			}
		}
		if err == nil || !errors.Is(err, replay.ErrMismatch) {
			break
		}
	}
	return a, "", err
}

// opposite is the swipe the other way.
func opposite(dir string) string {
	switch dir {
	case "up":
		return "down"
	case "down":
		return "up"
	case "left":
		return "right"
	case "right":
		return "left"
	}
	return dir
}

// elementRef is how an event names the element an action ran on.
func elementRef(el *perception.Element) *event.ElementRef {
	return &event.ElementRef{Label: el.Name(), ResourceID: el.ResourceID, Class: el.Class, X: el.Center.X, Y: el.Center.Y}
}
