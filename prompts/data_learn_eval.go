package prompts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/event"

	"github.com/fairy-go/fairy/memory"
)

// LearnerData fills the Self-Learner prompt: one finished app task.
type LearnerData struct {
	Instruction  string // the person's whole instruction
	Task         event.AppTask
	Outcome      event.Outcome
	Reason       string // why the task ended
	Steps        int    // the steps the task took
	Tricks       GivenTricks
	Trajectory   Trajectory // the steps shown, oldest first
	Omitted      int        // earlier steps left out of Trajectory to keep the prompt short
	Interactions Interactions
	Recoveries   []string // errors and how the agent got out of them, one a line
}

// Learn renders the Self-Learner prompt.
func (s *Set) Learn(d LearnerData) (Prompt, error) { return s.render(NameLearner, d) }

// GivenTrick is a stored trick the task's prompts carried; the Self-Learner names the
// wrong ones by ID.
type GivenTrick struct {
	ID   string
	Kind string // planning, action or error-recovery
	Text string
}

// GivenTricks renders as one trick a line: "- [ID] (kind) text".
type GivenTricks []GivenTrick

// String renders the tricks for the TRICKS block.
func (ts GivenTricks) String() string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "- [%s] (%s) %s\n", t.ID, t.Kind, t.Text)
	}
	return b.String()
}

// TrajectoryStep is one step of an app task as the Self-Learner reads it.
type TrajectoryStep struct {
	Step       int
	Page       string   // the page's short description
	Plan       []string // the Re-Planner's plan at this step
	Subgoal    string
	Actions    []string // each action with its element and, when it failed, why
	Result     string   // the next step's verdict on the actions: A, B, C or D; "" when none
	Reflection string
}

// Trajectory renders the steps oldest first; a plan is shown only where it changed.
type Trajectory []TrajectoryStep

// String renders the steps for the TRAJECTORY block.
func (tr Trajectory) String() string {
	var b strings.Builder
	var plan []string
	for i, s := range tr {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "step %d", s.Step)
		if s.Page != "" {
			fmt.Fprintf(&b, " on page %q", s.Page)
		}
		b.WriteString(":\n")
		if len(s.Plan) > 0 && (i == 0 || !slices.Equal(s.Plan, plan)) {
			fmt.Fprintf(&b, "  plan: %s\n", strings.Join(s.Plan, "; "))
			plan = s.Plan
		}
		if s.Subgoal != "" {
			fmt.Fprintf(&b, "  sub-goal: %s\n", s.Subgoal)
		}
		for _, a := range s.Actions {
			fmt.Fprintf(&b, "  action: %s\n", a)
		}
		if len(s.Actions) == 0 {
			b.WriteString("  no action\n")
		}
		if s.Result != "" {
			fmt.Fprintf(&b, "  result: %s", s.Result)
			if s.Reflection != "" {
				fmt.Fprintf(&b, " — %s", s.Reflection)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Interaction is one interaction with the person, as the Self-Learner reads it: the
// questions with their options and the person's answers, and how it ended.
type Interaction struct {
	Step     int
	Type     int // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Subgoal  string
	Turns    []memory.Turn
	Settled  bool
	Summary  string // what the person wants, when settled
	Consent  string // ConsentGranted or ConsentRefused for types 1 and 2; "" otherwise
	Category string // what the consent is about (payment, message, …)
}

// interactionTypes names the interaction types.
var interactionTypes = map[int]string{1: "sensitive", 2: "irreversible", 3: "choice", 4: "ambiguous instruction"}

// Interactions renders each interaction as its heading, its turns and its end.
type Interactions []Interaction

// String renders the interactions for the CONVERSATION block.
func (xs Interactions) String() string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "step %d", x.Step)
		if x.Type > 0 {
			fmt.Fprintf(&b, ", type %d", x.Type)
		}
		if w := interactionTypes[x.Type]; w != "" {
			fmt.Fprintf(&b, " (%s)", w)
		}
		if x.Subgoal != "" {
			fmt.Fprintf(&b, ", sub-goal: %s", x.Subgoal)
		}
		b.WriteString("\n")
		b.WriteString(turnsText(x.Turns))
		switch {
		case !x.Settled:
			b.WriteString("Not settled.\n")
		case x.Consent != "":
			fmt.Fprintf(&b, "Consent %s", x.Consent)
			if x.Category != "" {
				fmt.Fprintf(&b, " (%s)", x.Category)
			}
			if x.Summary != "" {
				fmt.Fprintf(&b, ": %s", x.Summary)
			}
			b.WriteByte('\n')
		default:
			fmt.Fprintf(&b, "Settled: %s\n", x.Summary)
		}
	}
	return b.String()
}

// UserData fills the simulated user's prompt (evaluations): the person the model plays
// and the agent's question.
type UserData struct {
	Persona     string
	Intent      string // what the person really wants; the agent does not know it
	Instruction string // what the person told the agent
	Kind        string // yes/no, options, open
	Question    string
	Options     []string
}

// Play renders the simulated user's prompt.
func (s *Set) Play(d UserData) (Prompt, error) { return s.render(nameUser, d) }

// JudgeData fills the evaluation judge's prompt.
type JudgeData struct {
	Instruction string
	Criteria    string
	Outcome     string // done, failed, refused, stopped
	Reason      string // why the run ended
	Answer      string // the agent's answer to the person
	Screen      string // the final screen's text form; "" when it could not be read
}

// Judge renders the evaluation judge's prompt.
func (s *Set) Judge(d JudgeData) (Prompt, error) { return s.render(nameJudge, d) }
