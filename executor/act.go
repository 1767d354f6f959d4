package executor

import (
	"context"
	"fmt"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// errSecretWithheld replaces the device's error when typing into a password field fails.
const errSecretWithheld = "typing into the password field failed (the device's message is withheld: it may quote the password)"

// loopLimit is how often the same action on the same page may run before it is a loop.
const loopLimit = 3

// act runs the batch on the device.
func (r *run) act(ctx context.Context) (State, error) {
	r.lastActs = nil
	acted := false
	var done []event.ActionExecuted // what ran without error, for the App Map's prediction
	for i, a := range r.batch {
		if r.cfg.Limits.actionsSpent(r.e.spent()) {
			// The budget ends mid-batch: the next step stops the task (exceeded).
			r.lastActs = append(r.lastActs, fmt.Sprintf("%s and the rest of the batch were not run: the action limit (%d actions) is reached", a, r.cfg.Limits.MaxActions))
			break
		}
		key := r.screen.Signature + "\x00" + a.String()
		if el := r.element(a.Index); el != nil {
			key += "\x00" + el.Name()
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
		if a.Type == event.Tap {
			// A tap on a switch the sub-goal (or the task) wants on, already on, would turn it
			// off: it is not made, whatever the decider answered, and the Re-Planner judges.
			if why := replay.Satisfied(r.screen, a.Index, r.subgoal, r.a.Task.Task); why != "" {
				r.publish(event.ActionRejected{Step: r.step, Action: a, Reason: why})
				r.lastActs = append(r.lastActs, fmt.Sprintf("%s was not made: %s, the state the sub-goal asks", a, why))
				r.planNote = append(r.planNote, prompts.NoteAlreadySo{Why: why})
				break
			}
		}
		r.fresh = i == 0
		out, err := r.exec(ctx, a, el)
		ev := event.ActionExecuted{Step: r.step, Action: r.masked([]event.Action{a})[0], Signature: r.screen.Signature,
			Consent: r.consents[i].Category, ConsentFor: r.consents[i].Action}
		if el != nil {
			ev.Element = elementRef(el)
		}
		desc := ev.Action.String()
		if el != nil {
			desc += fmt.Sprintf(" on %s %q", el.Role, el.Name())
		}
		if err != nil {
			ev.Err = err.Error()
			if ev.Action.Text != a.Text {
				// The device's error may quote the command line, password and all.
				ev.Err = errSecretWithheld
			}
			r.publish(ev)
			if ctx.Err() != nil {
				return stateError, ctx.Err()
			}
			r.lastActs = append(r.lastActs, desc+": failed: "+ev.Err)
			break
		}
		r.publish(ev)
		done = append(done, ev)
		acted = true
		if v := r.consents[i]; v.Action != "" {
			if r.spent == nil {
				r.spent = map[string]int{}
			}
			key := spentKey(v.Category, v.Action, v.specifics)
			r.spent[key] = r.step
			r.justSpent, r.justSpentOn = key, r.screen.Signature
			r.did(v.Category)
			if a.Type == event.Tap || a.Type == event.LongPress {
				// A button's deed; text typed with a line break "may send" (the guard's
				// caution) and has no page that shows what it sent.
				r.recordDeed(v.Category, v.sp, el)
			}
		}
		if out != "" {
			desc += ": output: " + llm.Head(out, 400)
		}
		r.lastActs = append(r.lastActs, desc)
	}
	whole := len(done) == len(r.batch) && len(r.consents) == 0
	r.batch, r.consents = nil, nil
	if whole && r.need == nil {
		r.predict(ctx, done) // before settling: whether the next step needs a picture depends on it
	}
	if acted {
		if err := r.settle(ctx); err != nil && ctx.Err() != nil {
			return stateError, ctx.Err()
		}
	}
	if r.finishAfter {
		r.finishAfter = false
		r.planNote = append(r.planNote, prompts.NoteFinishAfter{})
	}
	if r.need != nil {
		// The guard held an action back: ask before anything else.
		r.heldAfter = acted
		return stateInteract, nil
	}
	if !acted && len(r.lastActs) == 0 {
		r.noActs = true
		r.reuse = true
	}
	return statePerceive, nil
}

// settle waits for the screen to be idle after the actions. When the next step is sure to
// show its screen to a model (no App Map prediction to verify, nothing to ask first, not
// text-only), the device takes the screenshot while it waits.
func (r *run) settle(ctx context.Context) error {
	if s, ok := r.cfg.Device.(shotSettler); ok && !r.cfg.TextOnly && r.predicted == "" && r.need == nil {
		return s.SettleShot(ctx)
	}
	return r.cfg.Device.Settle(ctx)
}

// sameTarget reports whether what a tap on el would reach on now is still el (same label,
// resource id and class); true when el is nil.
func sameTarget(now *perception.Screen, el *perception.Element) bool {
	if el == nil {
		return true
	}
	at := now.ElementAt(el.Center.X, el.Center.Y)
	return at != nil && at.Name() == el.Name() && at.ResourceID == el.ResourceID && at.Class == el.Class
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
	ev := event.LoopBroken{Step: r.step, Action: a, Signature: r.screen.Signature}
	switch r.loopBreaks {
	case 1:
		ev.Remedy = "back"
		r.publish(ev)
		err := r.cfg.Device.Key(ctx, "back")
		r.publish(event.ActionExecuted{Step: r.step, Action: event.Action{Type: event.Back}, Signature: r.screen.Signature, Err: errText(err)})
		if err != nil && ctx.Err() != nil {
			return stateError, ctx.Err()
		}
		r.lastActs = append(r.lastActs, "Back(): pressed by the executor to leave a loop")
		r.planNote = append(r.planNote, prompts.NoteLoop{Action: a, Times: loopLimit, Back: true})
	case 2:
		ev.Remedy = "replan"
		r.publish(ev)
		r.full = true
		r.planNote = append(r.planNote, prompts.NoteLoop{Action: a, Times: loopLimit})
		r.noActs, r.reuse = true, true
		return statePerceive, nil
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
		x1, y1, x2, y2 := perception.SwipePath(b, a.Direction)
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
		if x, y, long, ok := r.pointTap(a.Command); ok {
			if long {
				return "", dev.LongPress(ctx, x, y, longPressDuration)
			}
			return "", dev.Tap(ctx, x, y)
		}
		return dev.Shell(ctx, a.Command)
	}
	return "", fmt.Errorf("executor: action %s cannot be executed", a.Type)
}

// slidePath drags a slider's thumb along its whole track: a "slide to confirm" control acts
// only when its thumb, which sits at the track's start, reaches the end; a swipe through
// the middle of the element (perception.SwipePath) leaves it short.
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
