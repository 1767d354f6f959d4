package global

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/memory"
)

// Progress is the terminal progress view: one short line per thing a person cares about.
type Progress struct {
	mu sync.Mutex
	w  io.Writer
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
			line = fmt.Sprintf("  step %d · last result %s %s", e.Step, e.Result, e.Reflection)
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
		line = fmt.Sprintf("%s task %d %s after %d steps", mark(e.Outcome), e.Index+1, e.Outcome, e.Steps)
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
