package global

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/memory"
)

// Progress is the terminal progress view: one short line per thing a person cares about.
type Progress struct {
	mu sync.Mutex
	w  io.Writer
	// plan is the plan last shown, so that an adjustment that changes nothing is not shown
	// again.
	plan []memory.AppTask
	// HideQuestions leaves questions out, for when the Dialoger shows them on the same terminal.
	HideQuestions bool
}

// NewProgress returns a view writing to w.
func NewProgress(w io.Writer) *Progress { return &Progress{w: w} }

// Handle renders one event.
func (p *Progress) Handle(r memory.Record) {
	var line string
	switch e := r.Event.(type) {
	case memory.RunStarted:
		line = fmt.Sprintf("▶ %s", e.Instruction)
	case memory.GlobalPlanned:
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
	case memory.AppTaskStarted:
		line = fmt.Sprintf("▸ task %d in %s: %s", e.Index+1, e.Task.App, e.Task.Task)
	case memory.Planned:
		line = fmt.Sprintf("  step %d · sub-goal: %s", e.Step, e.Subgoal)
		if e.Full {
			line += " (new plan)"
		}
	case memory.Reflected:
		if e.Result != "" {
			line = fmt.Sprintf("  step %d · last step: %s (%s)", e.Step, resultWords(e.Result), e.Result)
			if e.Reflection != "" {
				line += " · " + e.Reflection
			}
		}
	case memory.ActionsDecided:
		acts := make([]string, len(e.Actions))
		for i, a := range e.Actions {
			acts[i] = a.String()
		}
		line = fmt.Sprintf("  step %d · %s", e.Step, strings.Join(acts, ", "))
	case memory.ActionGuarded:
		line = fmt.Sprintf("  step %d · held back %s: %s needs your consent", e.Step, e.Action, e.Category)
	case memory.ActionRejected:
		line = fmt.Sprintf("  step %d · rejected %s: %s", e.Step, e.Action, e.Reason)
	case memory.LoopBroken:
		line = fmt.Sprintf("  step %d · loop on %s: %s", e.Step, e.Action, e.Remedy)
	case memory.InteractionAsked:
		if !p.HideQuestions {
			line = fmt.Sprintf("  ? %s", e.Question)
			if len(e.Options) > 0 {
				line += " [" + strings.Join(e.Options, " | ") + "]"
			}
		}
	case memory.InteractionAnswered:
		line = fmt.Sprintf("  ↳ answer: %s", e.Answer)
	case memory.ContextCollected:
		kv := make([]string, len(e.Facts))
		for i, f := range e.Facts {
			kv[i] = f.Key + "=" + f.Value
		}
		line = fmt.Sprintf("  noted %s", strings.Join(kv, "; "))
	case memory.FinishChecked:
		if !e.Passed {
			line = fmt.Sprintf("  step %d · not done yet: %s", e.Step, e.Reason)
		}
	case memory.TaskFinished:
		line = fmt.Sprintf("%s task %d %s after %s", mark(e.Outcome), e.Index+1, e.Outcome, Count(e.Steps, "step", "steps"))
		if e.Reason != "" {
			line += ": " + e.Reason
		}
	case memory.RunFinished:
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
	fmt.Fprintln(p.w, line)
}

func mark(o memory.Outcome) string {
	if o == memory.OutcomeDone {
		return "✓"
	}
	return "✗"
}

// newPlan records tasks as the plan shown and reports whether it differs from the last one.
func (p *Progress) newPlan(tasks []memory.AppTask) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.plan != nil && slices.EqualFunc(p.plan, tasks, func(a, b memory.AppTask) bool { return a.App == b.App && a.Task == b.Task }) {
		return false
	}
	p.plan = slices.Clone(tasks)
	return true
}

// resultWords says what a reflection's result letter means to a person.
func resultWords(r string) string {
	switch r {
	case "A":
		return "succeeded"
	case "B":
		return "partly done"
	case "C":
		return "went wrong"
	case "D":
		return "changed nothing"
	}
	return "result"
}

// Count writes n with the singular or the plural noun: "1 step", "3 steps".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
