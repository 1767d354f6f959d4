package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/replay"
)

// Shortcuts supplies the App Map's known paths for the decider's Navigate action: the steps
// from the page with signature from to the page target (a page ID a navigation hint named);
// ok is false when the map knows no reliable path that can be replayed without the model.
// The learner's session satisfies it; nil means Navigate is not offered.
type Shortcuts interface {
	Shortcut(ctx context.Context, app, from, target string) ([]replay.Step, bool)
}

// hint asks the App Map for a navigation hint toward a page that serves query; failures
// only cost the hint.
func (r *run) hint(ctx context.Context, query string) string {
	if r.cfg.Hints == nil || r.screen == nil || strings.TrimSpace(query) == "" || isFinished(query) || r.ledger.Pathless(r.screen.Signature) {
		return ""
	}
	h, err := r.cfg.Hints.Hint(ctx, r.a.Task.App, r.screen.Signature, query)
	if err != nil {
		r.e.log.Warn("navigation hint failed", logErr, err)
		return ""
	}
	if r.ledger.Retired(h) {
		return "" // a Navigate that stopped short twice is not offered again in this task
	}
	return h
}

// served publishes that long-term knowledge went into a prompt of role.
func (r *run) served(role string, tricks int, hint string) {
	if tricks == 0 && hint == "" {
		return
	}
	r.publish(event.KnowledgeServed{Step: r.step, Role: role, Tricks: tricks, Hint: hint != ""})
}

// shortcut checks a batch ending in Navigate and looks its path up; why is what to tell the
// decider when the batch cannot be replayed.
func (r *run) shortcut(ctx context.Context, batch []event.Action) (steps []replay.Step, why string) {
	nav := batch[len(batch)-1]
	switch {
	case len(batch) > 1:
		return nil, fmt.Sprintf("%s must be the only action of its batch.", nav)
	case r.cfg.Shortcuts == nil:
		return nil, fmt.Sprintf("%s is not available: there is no App Map; use atomic actions.", nav)
	}
	if n, retired := r.ledger.NavFailures(nav.Target); retired {
		return nil, fmt.Sprintf("%s stopped short %d times in this task; it is not offered again: use atomic actions.", nav, n)
	}
	steps, ok := r.cfg.Shortcuts.Shortcut(ctx, r.a.Task.App, r.screen.Signature, nav.Target)
	if !ok || len(steps) == 0 {
		// The hint promised more than the map holds: no more hints on this page.
		r.ledger.NoPath(r.screen.Signature)
		return nil, fmt.Sprintf("%s: the App Map knows no reliable path from this page to page %q; use atomic actions.", nav, nav.Target)
	}
	return steps, ""
}

// navigate replays a known path with no model call (see replay); at the first mismatch,
// guarded action or failed action it stops, and the task goes on with normal steps from
// wherever the phone is.
func (r *run) navigate(ctx context.Context, target string, steps []replay.Step) (State, error) {
	ev := event.Navigated{Step: r.step, App: r.a.Task.App, Target: target, Planned: len(steps)}
	res := r.replay(ctx, steps)
	ev.Replayed, ev.Stopped = res.replayed, res.stopped
	r.publish(ev)
	if res.stopped != "" && !res.held {
		r.ledger.NavStopped(target)
	}
	if res.state != "" {
		return res.state, res.err
	}
	line := fmt.Sprintf("Navigate(%q): replayed %d of %d known steps of the App Map with no decision", target, ev.Replayed, ev.Planned)
	if ev.Stopped != "" {
		r.planNote = append(r.planNote, fmt.Sprintf("The shortcut to page %q stopped at %s. Go on step by step from the current screen.", target, ev.Stopped))
	}
	return r.afterReplay(ctx, line, res)
}

// replayed is what a replay did.
type replayed struct {
	replayed int
	stopped  string   // why it stopped before its end ("" when it ran whole)
	done     []string // the actions run, in words
	// unreflected: the screen was read during the replay and nothing was done on it yet.
	unreflected bool
	held        bool  // it stopped at a sensitive step to ask the person
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
			if err != nil || next != StateReflect {
				res.state, res.err = next, err
				return res
			}
			res.unreflected = true
		}
		a, err := st.Resolve(r.screen)
		if err != nil {
			res.stopped = fmt.Sprintf("step %d of %d (%s): %v", i+1, len(steps), st, err)
			break
		}
		el := r.element(a.Index)
		if (a.Targeted() || (a.Type == event.Swipe && a.Index > 0)) && el == nil {
			res.stopped = fmt.Sprintf("step %d of %d (%s): index %d is not on the screen", i+1, len(steps), st, a.Index)
			break
		}
		var used Verdict
		if v, hit := r.judge(a, focused(r.screen)); hit {
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
			ae.Element = &event.ElementRef{Label: label(el), ResourceID: el.ResourceID, Class: el.Class, X: el.Center.X, Y: el.Center.Y}
			desc += fmt.Sprintf(" on %s %q", el.Role, label(el))
		}
		res.unreflected = false
		if err != nil {
			ae.Err = err.Error()
			r.publish(ae)
			if ctx.Err() != nil {
				res.state, res.err = StateError, ctx.Err()
				return res
			}
			res.done = append(res.done, desc+": failed: "+err.Error())
			res.stopped = fmt.Sprintf("step %d of %d (%s) failed: %v", i+1, len(steps), st, err)
			break
		}
		r.publish(ae)
		res.replayed++
		res.done = append(res.done, desc)
		if err := r.cfg.Device.Settle(ctx); err != nil && ctx.Err() != nil {
			res.state, res.err = StateError, ctx.Err()
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
		return StateInteract, nil
	case res.unreflected:
		// The replay stopped on a page it had just read: that page is this step's screen.
		r.collect(ctx, r.step, r.screen)
		return StateReflect, nil
	case len(res.done) == 0:
		// Nothing ran: the same screen is planned on again.
		r.reuse, r.noActs = true, true
	}
	return StatePerceive, nil
}
