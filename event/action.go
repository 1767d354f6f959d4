package event

import (
	"fmt"
	"strconv"
	"strings"
)

// ActionType names an atomic action the Action Decider may choose.
type ActionType string

// The atomic actions. Targets are element indexes of the current screen.
const (
	Tap             ActionType = "Tap"             // Index
	LongPress       ActionType = "LongPress"       // Index
	Swipe           ActionType = "Swipe"           // Index (0: the whole screen), Direction
	Input           ActionType = "Input"           // Index, Text
	Clear           ActionType = "Clear"           // Index
	Back            ActionType = "Back"            // —
	Home            ActionType = "Home"            // —
	Enter           ActionType = "Enter"           // —
	Wait            ActionType = "Wait"            // Seconds
	OpenApp         ActionType = "OpenApp"         // Package
	Finish          ActionType = "Finish"          // Text: optional answer for the user
	Shell           ActionType = "Shell"           // Command: an allow-listed device command
	NeedInteraction ActionType = "NeedInteraction" // Reason
)

// ActionTypes lists every action type in a stable order.
func ActionTypes() []ActionType {
	return []ActionType{Tap, LongPress, Swipe, Input, Clear, Back, Home, Enter, Wait, OpenApp, Finish, Shell, NeedInteraction, Navigate}
}

// Action is one atomic action as the decider writes it and as events carry it.
type Action struct {
	Type      ActionType `json:"type"`
	Index     int        `json:"index,omitempty"`
	Text      string     `json:"text,omitempty"`
	Direction string     `json:"direction,omitempty"` // up, down, left, right (the finger's motion)
	Seconds   float64    `json:"seconds,omitempty"`
	Package   string     `json:"package,omitempty"`
	Command   string     `json:"command,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	Target    string     `json:"target,omitempty"` // Navigate: the App Map page to go to
}

// Targeted reports whether the action needs an element index.
func (a Action) Targeted() bool {
	switch a.Type {
	case Tap, LongPress, Input, Clear:
		return true
	}
	return false
}

// EndsBatch reports whether nothing may follow the action in one batch because the screen
// changes under it.
func (a Action) EndsBatch() bool {
	switch a.Type {
	case Swipe, Back, Home, OpenApp, Finish, NeedInteraction, Navigate:
		return true
	}
	return false
}

// Validate checks the action's own fields (not whether its index exists on a screen).
func (a Action) Validate() error {
	switch a.Type {
	case Tap, LongPress, Clear:
		if a.Index < 1 {
			return fmt.Errorf("%w: %s needs an element index ≥ 1", errBadAction, a.Type)
		}
	case Input:
		if a.Index < 1 {
			return fmt.Errorf("%w: Input needs an element index ≥ 1", errBadAction)
		}
	case Swipe:
		if a.Index < 0 {
			return fmt.Errorf("%w: Swipe index must be ≥ 0 (0 is the whole screen)", errBadAction)
		}
		switch a.Direction {
		case "up", "down", "left", "right":
		default:
			return fmt.Errorf("%w: Swipe direction %q is not up, down, left or right", errBadAction, a.Direction)
		}
	case Wait:
		if a.Seconds < 0 || a.Seconds > 30 {
			return fmt.Errorf("%w: Wait %.1f s is outside 0–30 s", errBadAction, a.Seconds)
		}
	case OpenApp:
		if a.Package == "" {
			return fmt.Errorf("%w: OpenApp needs a package", errBadAction)
		}
	case Shell:
		if strings.TrimSpace(a.Command) == "" {
			return fmt.Errorf("%w: Shell needs a command", errBadAction)
		}
	case Navigate:
		if strings.TrimSpace(a.Target) == "" {
			return fmt.Errorf("%w: Navigate needs a target page", errBadAction)
		}
	case Back, Home, Enter, Finish, NeedInteraction:
	default:
		return fmt.Errorf("%w: unknown action type %q", errBadAction, a.Type)
	}
	return nil
}

// String renders the action the way prompts and logs show it: Tap(5), Input(3, "hi").
func (a Action) String() string {
	q := strconv.QuoteToGraphic
	switch a.Type {
	case Tap, LongPress, Clear:
		return fmt.Sprintf("%s(%d)", a.Type, a.Index)
	case Input:
		return fmt.Sprintf("Input(%d, %s)", a.Index, q(a.Text))
	case Swipe:
		if a.Index == 0 {
			return fmt.Sprintf("Swipe(screen, %s)", a.Direction)
		}
		return fmt.Sprintf("Swipe(%d, %s)", a.Index, a.Direction)
	case Wait:
		return fmt.Sprintf("Wait(%g)", a.Seconds)
	case OpenApp:
		return fmt.Sprintf("OpenApp(%s)", a.Package)
	case Shell:
		return fmt.Sprintf("Shell(%s)", q(a.Command))
	case NeedInteraction:
		return fmt.Sprintf("NeedInteraction(%s)", q(a.Reason))
	case Navigate:
		return fmt.Sprintf("Navigate(%s)", q(a.Target))
	case Finish:
		if a.Text != "" {
			return fmt.Sprintf("Finish(%s)", q(a.Text))
		}
		return "Finish()"
	}
	return string(a.Type) + "()"
}

// Fact is one piece of key context taken from a screen: a flight number, a price, an address.
type Fact struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	App   string `json:"app,omitempty"`
	Step  int    `json:"step,omitempty"`
}

// AppTask is one entry of the global plan: a task to carry out in one app.
type AppTask struct {
	App      string `json:"app"`                // package name
	Task     string `json:"task"`               // what to do in the app
	Produces string `json:"produces,omitempty"` // what later tasks need from it
}

// App is a launchable app as the Global Planner sees it: package, label and, when learned,
// what it does.
type App struct {
	Package     string `json:"package"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// TaskResult is how an app task ended, as the Global Planner's adjust phase sees it.
type TaskResult struct {
	Index   int     `json:"index"`
	Task    AppTask `json:"task"`
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
	Answer  string  `json:"answer,omitempty"`
}

// Outcome is how a task or run ended.
type Outcome string

// The outcomes. They are also the `outcome` values of summary.json.
const (
	OutcomeDone    Outcome = "done"
	OutcomeFailed  Outcome = "failed"
	OutcomeRefused Outcome = "refused"
	OutcomeStopped Outcome = "stopped"
)
