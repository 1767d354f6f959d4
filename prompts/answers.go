package prompts

import (
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
)

// Validator is an answer that can say what is wrong with it; the model adapter's callers
// ask the model once more with that problem named.
type Validator interface {
	Validate() error
}

// PlannerAnswer is the Global Planner's answer.
type PlannerAnswer struct {
	Thought string          `json:"thought"`
	Status  string          `json:"status"` // StatusContinue, StatusDone or StatusImpossible
	Tasks   []event.AppTask `json:"tasks"`  // the plan; empty in the adjust phase keeps the current plan
	// Next is the 0-based index in Tasks (or in the current plan when Tasks is empty) of
	// the app task to run now, with StatusContinue.
	Next     int    `json:"next"`
	Progress string `json:"progress"`
	Reason   string `json:"reason"`
}

// The Global Planner's statuses.
const (
	StatusContinue   = "continue"
	StatusDone       = "done"
	StatusImpossible = "impossible"
)

// Validate implements Validator.
func (a *PlannerAnswer) Validate() error {
	switch strings.ToLower(strings.TrimSpace(a.Status)) {
	case StatusContinue, StatusDone, StatusImpossible, "":
	default:
		return fmt.Errorf("status %q is not one of %s, %s, %s", a.Status, StatusContinue, StatusDone, StatusImpossible)
	}
	for i, t := range a.Tasks {
		if strings.TrimSpace(t.App) == "" || strings.TrimSpace(t.Task) == "" {
			return fmt.Errorf("tasks[%d] needs an app and a task", i)
		}
	}
	if a.Status == StatusContinue && len(a.Tasks) > 0 && (a.Next < 0 || a.Next >= len(a.Tasks)) {
		return fmt.Errorf("next %d is not an index of tasks (0–%d)", a.Next, len(a.Tasks)-1)
	}
	return nil
}

// ReplannerAnswer is the Re-Planner's answer.
type ReplannerAnswer struct {
	Result      string   `json:"result"` // "", A, B, C or D
	Reflection  string   `json:"reflection"`
	Progress    string   `json:"progress"`
	Plan        []string `json:"plan"`    // empty keeps the current plan
	Subgoal     string   `json:"subgoal"` // Finished when the app task is done
	Interaction int      `json:"interaction"`
	Reason      string   `json:"reason"`
	// Facts are what the Re-Planner read that later steps or the finish check need (a
	// list before deleting, the date taken as today); they join the key context.
	Facts []event.Fact `json:"facts"`
	// Routine, when its name is set, runs a learned routine from the current screen
	// instead of deciding the next actions one step at a time.
	Routine event.Routine `json:"routine"`
}

// Finished is the sub-goal that ends an app task.
const Finished = "Finished"

// Validate implements Validator.
func (a *ReplannerAnswer) Validate() error {
	switch strings.ToUpper(strings.TrimSpace(a.Result)) {
	case "", "A", "B", "C", "D":
	default:
		return fmt.Errorf("result %q is not one of A, B, C, D (or empty on the first step)", a.Result)
	}
	if strings.TrimSpace(a.Subgoal) == "" {
		return fmt.Errorf("the sub-goal is empty: give the sub-goal to work on now, or %q", Finished)
	}
	if strings.TrimSpace(a.Routine.Name) == "" && len(a.Routine.Args) > 0 {
		return fmt.Errorf("the routine has arguments but no name: give the routine's name, or no arguments")
	}
	return nil
}

// DeciderAnswer is the Action Decider's answer.
type DeciderAnswer struct {
	Thought string         `json:"thought"`
	Actions []event.Action `json:"actions"`
	// Expect is what the screen should show once the actions ran; the Re-Planner gets it
	// next step to judge the result.
	Expect string `json:"expect"`
}

// InteractorAnswer is the User Interactor's answer.
type InteractorAnswer struct {
	Status   string   `json:"status"` // A settled, B ask (again)
	Question string   `json:"question"`
	Options  []string `json:"options"`
	Summary  string   `json:"summary"`
	Consent  string   `json:"consent"` // ConsentGranted or ConsentRefused for types 1 and 2
}

// Consent verdicts of the User Interactor.
const (
	ConsentGranted = "granted"
	ConsentRefused = "refused"
)

// Validate implements Validator.
func (a *InteractorAnswer) Validate() error {
	switch strings.ToUpper(strings.TrimSpace(a.Status)) {
	case "A", "B":
	default:
		return fmt.Errorf("status %q is not A (settled) or B (ask)", a.Status)
	}
	return nil
}

// ExtractorAnswer is the Key Context Collector's answer.
type ExtractorAnswer struct {
	Facts []event.Fact `json:"facts"`
}

// CheckerAnswer is the finish check's answer.
type CheckerAnswer struct {
	Passed bool   `json:"passed"`
	Reason string `json:"reason"`
}

// HandOverInteraction is the Re-Planner's interaction type that hands the phone to the
// person (a login, a one-time code, a CAPTCHA, a biometric prompt): types 1–4 ask a
// question, this one asks for the person's hands.
const HandOverInteraction = 5
