package global

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/table"
)

// Progress is the terminal progress view: one short line per thing a person cares about.
type Progress struct {
	mu sync.Mutex
	w  io.Writer
	// plan is the plan last shown, so that an adjustment that changes nothing is not shown
	// again.
	plan []event.AppTask
	// HideQuestions leaves questions out, for when the Dialoger shows them on the same terminal.
	HideQuestions bool
	// replay: the actions now carried out were not decided for this step — a routine's or
	// a Navigate's replayed steps.
	replay bool
}

// NewProgress returns a view writing to w.
func NewProgress(w io.Writer) *Progress { return &Progress{w: w} }

// Handle renders one event.
func (p *Progress) Handle(r event.Record) {
	var line string
	switch e := r.Event.(type) {
	case event.RunStarted:
		line = fmt.Sprintf("▶ %s", e.Instruction)
	case event.GlobalPlanned:
		if !p.newPlan(e.Tasks) {
			return // re-planned to the same tasks: nothing for a person to read
		}
		var b strings.Builder
		verb := "plan"
		if e.Adjusted {
			verb = "plan adjusted"
		}
		fmt.Fprintf(&b, "◆ %s:", verb)
		for i, t := range e.Tasks {
			fmt.Fprintf(&b, "\n   %d. [%s] %s", i+1, t.App, t.Task)
		}
		line = b.String()
	case event.AppTaskStarted:
		line = fmt.Sprintf("▸ task %d in %s: %s", e.Index+1, e.Task.App, e.Task.Task)
	case event.Planned:
		p.setReplay(true) // until a decision: what runs now is a routine's replay
		line = fmt.Sprintf("  step %d · sub-goal: %s", e.Step, e.Subgoal)
		if e.Full {
			line += " (new plan)"
		}
	case event.Reflected:
		if e.Result != "" {
			line = fmt.Sprintf("  step %d · last step: %s", e.Step, resultWords(e.Result))
			if e.Reflection != "" {
				line += " · " + e.Reflection
			}
		}
	case event.ActionsDecided:
		// The actions show as they are carried out (ActionExecuted), with their elements'
		// labels; a Navigate is shown here, its steps as replayed.
		nav := false
		for _, a := range e.Actions {
			if a.Type == event.Navigate {
				nav = true
				line = fmt.Sprintf("  step %d · go to %q by a known path", e.Step, a.Target)
			}
		}
		p.setReplay(nav)
	case event.ActionExecuted:
		label := ""
		if e.Element != nil {
			label = e.Element.Label
		}
		line = fmt.Sprintf("  step %d · %s", e.Step, actionWords(e.Action, label))
		if p.replaying() {
			line = fmt.Sprintf("  step %d · replayed %s", e.Step, actionWords(e.Action, label))
		}
		if e.Err != "" {
			line += " failed: " + e.Err
		}
	case event.RoutineRan:
		line = fmt.Sprintf("  routine %q: %d of %s replayed", e.Name, e.Replayed, table.Count(e.Planned, "step", "steps"))
		switch {
		case e.Held:
			line += ", paused for the person's consent"
		case e.Stopped != "":
			line += ", stopped at " + e.Stopped
		}
	case event.ActionGuarded:
		line = fmt.Sprintf("  step %d · held back %s: %s needs your consent", e.Step, actionWords(e.Action,
			e.Target), e.Category)
	case event.ActionRejected:
		line = fmt.Sprintf("  step %d · rejected %s: %s", e.Step, e.Action, e.Reason)
	case event.LoopBroken:
		line = fmt.Sprintf("  step %d · loop on %s: %s", e.Step, e.Action, e.Remedy)
	case event.InteractionAsked:
		if !p.HideQuestions {
			line = fmt.Sprintf("  ? %s", e.Question)
			if len(e.Options) > 0 {
				line += " [" + strings.Join(e.Options, " | ") + "]"
			}
		}
	case event.HandOver:
		switch {
		case e.Error != "":
			line = fmt.Sprintf("  step %d · the phone was handed over for %s and not given back: %s", e.Step, e.Reason, e.Error)
		case !e.Ended.IsZero():
			line = fmt.Sprintf("  step %d · the phone is back after %.0f s (%s): reading the screen again", e.Step,
				e.Duration.Seconds(), e.Reason)
		case !p.HideQuestions:
			line = fmt.Sprintf("  step %d · your turn: the screen needs %s", e.Step, e.Reason)
		}
	case event.InteractionAnswered:
		line = fmt.Sprintf("  ↳ answer: %s", e.Answer)
	case event.ContextCollected:
		kv := make([]string, len(e.Facts))
		for i, f := range e.Facts {
			kv[i] = f.Key + "=" + f.Value
		}
		line = fmt.Sprintf("  noted %s", strings.Join(kv, "; "))
	case event.FinishChecked:
		if !e.Passed {
			line = fmt.Sprintf("  step %d · not done yet: %s", e.Step, e.Reason)
		}
	case event.TaskFinished:
		line = fmt.Sprintf("%s task %d %s after %s", mark(e.Outcome), e.Index+1, e.Outcome, table.Count(e.Steps,
			"step", "steps"))
		if e.Reason != "" {
			line += ": " + e.Reason
		}
	case event.RunFinished:
		line = fmt.Sprintf("%s %s", mark(e.Outcome), e.Outcome)
		if e.Reason != "" {
			line += ": " + e.Reason
		}
		if e.Answer != "" {
			line += "\n  answer: " + e.Answer
		}
	}
	if line == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, table.EscapeLines(line)) // what the model said and the screen shows
}

func mark(o event.Outcome) string {
	if o == event.OutcomeDone {
		return "✓"
	}
	return "✗"
}

// newPlan records tasks as the plan shown and reports whether it differs from the last one.
func (p *Progress) newPlan(tasks []event.AppTask) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plan != nil && slices.EqualFunc(p.plan, tasks, func(a, b event.AppTask) bool { return a.App == b.App && a.Task == b.Task }) {
		return false
	}
	p.plan = slices.Clone(tasks)
	return true
}

func (p *Progress) setReplay(on bool) {
	p.mu.Lock()
	p.replay = on
	p.mu.Unlock()
}

func (p *Progress) replaying() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.replay
}

// resultWords says what a reflection's result letter means to a person.
func resultWords(r string) string {
	switch r {
	case "A":
		return "done"
	case "B":
		return "progress"
	case "C":
		return "wrong result"
	case "D":
		return "no change"
	}
	return "result " + r
}

// actionWords says what an action does, naming the element by its label (label may be
// ""): Tap "Bubble tea ¥15", Type "18:00" into "Time", Swipe up, Back.
func actionWords(a event.Action, label string) string {
	on := ""
	if label != "" {
		on = strconv.QuoteToGraphic(label)
	} else if a.Index > 0 {
		on = fmt.Sprintf("element %d", a.Index)
	}
	q := strconv.QuoteToGraphic
	switch {
	case a.Type == event.Tap && on != "":
		return "Tap " + on
	case a.Type == event.LongPress && on != "":
		return "Long-press " + on
	case a.Type == event.Clear && on != "":
		return "Clear " + on
	case a.Type == event.Input && on != "":
		return fmt.Sprintf("Type %s into %s", q(a.Text), on)
	case a.Type == event.Input:
		return "Type " + q(a.Text)
	case a.Type == event.Swipe && on != "":
		return fmt.Sprintf("Swipe %s on %s", a.Direction, on)
	case a.Type == event.Swipe:
		return "Swipe " + a.Direction
	case a.Type == event.Wait:
		return fmt.Sprintf("Wait %gs", a.Seconds)
	case a.Type == event.OpenApp:
		return "Open " + a.Package
	case a.Type == event.Shell:
		return "Shell " + q(a.Command)
	case a.Type == event.Back, a.Type == event.Home, a.Type == event.Enter:
		return string(a.Type)
	}
	return a.String()
}
