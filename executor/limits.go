package executor

import (
	"fmt"
	"time"

	"github.com/fairy-go/fairy/llm"
)

// Limits bound one app task. Zero fields are unlimited, except MaxSteps which defaults to
// 30 (defaultMaxSteps).
type Limits struct {
	MaxSteps  int           // steps of the app task
	MaxWall   time.Duration // wall time of the app task
	MaxTokens int           // prompt + completion tokens of the whole run (the Meter's total)
	MaxCost   float64       // USD of the whole run
	// MaxActions are the actions sent to the device over the Executor's app tasks: a
	// benchmark's step budget, whose agents take one action a step where a step here may
	// take several.
	MaxActions int
}

// defaultMaxSteps is the step limit when Limits.MaxSteps is 0.
const defaultMaxSteps = 30

// exceeded returns the reason a limit is reached, or "".
func (l Limits) exceeded(steps, actions int, elapsed time.Duration, m *llm.Meter) string {
	if l.MaxSteps > 0 && steps >= l.MaxSteps {
		return fmt.Sprintf("step limit reached (%d steps)", l.MaxSteps)
	}
	if l.actionsSpent(actions) {
		return fmt.Sprintf("action limit reached (%d actions)", l.MaxActions)
	}
	if l.MaxWall > 0 && elapsed >= l.MaxWall {
		return fmt.Sprintf("time limit reached (%s)", l.MaxWall)
	}
	if m == nil {
		return ""
	}
	t := m.Total()
	if l.MaxTokens > 0 && t.Usage.Total() >= l.MaxTokens {
		return fmt.Sprintf("token limit reached (%d of %d tokens)", t.Usage.Total(), l.MaxTokens)
	}
	if l.MaxCost > 0 && t.Cost >= l.MaxCost {
		return fmt.Sprintf("cost limit reached ($%.4f of $%.4f)", t.Cost, l.MaxCost)
	}
	return ""
}

// actionsSpent reports whether actions use up the action limit.
func (l Limits) actionsSpent(actions int) bool { return l.MaxActions > 0 && actions >= l.MaxActions }
