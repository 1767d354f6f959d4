package prompts

import (
	"fmt"
	"strings"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/replay"
)

// PlannerData fills the Global Planner prompt. Phase "plan" makes the first plan;
// "adjust" reviews the plan after an app task.
type PlannerData struct {
	Phase       string
	Instruction string
	Now         time.Time // the phone's clock; zero: not read, no line
	Progress    string    // the planner's own progress note from its last answer (adjust phase)
	Apps        []event.App
	Tasks       []event.AppTask    // the current plan (adjust phase)
	Done        []event.TaskResult // finished app tasks (adjust phase)
	Context     []event.Fact
	Tricks      []string
	Notes       []string // what was wrong with the last answer
}

// Plan renders the Global Planner prompt.
func (s *Set) Plan(d PlannerData) (Prompt, error) { return s.render(NamePlanner, d) }

// ReplannerData fills the Re-Planner prompt.
type ReplannerData struct {
	Instruction  string               // the person's whole instruction
	Task         event.AppTask        // the app task
	Instructions []memory.Instruction // the instruction stack
	Step         int
	Now          time.Time // the phone's clock; zero: not read, no line
	First        bool      // no plan yet: make one
	Plan         []string
	Subgoal      string
	Progress     string
	LastActions  []string // the previous step's actions with their effect
	Expect       string   // what the Action Decider expected them to show
	// Asked is set when the last step only asked the person (the reason asked): no action
	// ran, so there is nothing to judge, and LastActions and Expect are not shown.
	Asked   string
	Change  string // how the screen changed since the previous step
	Screen  string // text form
	Secure  bool   // the screenshot is black (FLAG_SECURE)
	Visual  bool   // a set-of-mark screenshot is attached
	Context []event.Fact
	Tricks  []string
	Hint    string // navigation hint from the App Map
	// Routines are the learned routines that can run from this screen.
	Routines []replay.Offer
	Notes    []Note // what the executor tells it about the step (notes.go)
}

// Replan renders the Re-Planner prompt.
func (s *Set) Replan(d ReplannerData) (Prompt, error) { return s.render(NameReplanner, d) }

// DeciderData fills the Action Decider prompt.
type DeciderData struct {
	Instruction  string // the person's whole instruction
	Task         event.AppTask
	Instructions []memory.Instruction
	Now          time.Time // the phone's clock; zero: not read, no line
	AnswerFormat string    // the answer's form the person asked for (AnswerFormat); "" when none
	Plan         []string
	Subgoal      string
	History      []StepRecord // earlier steps, oldest first
	Screen       string
	Keyboard     bool
	Secure       bool
	Visual       bool
	Context      []event.Fact
	Tricks       []string
	Shell        []string // allow-listed shell commands; empty: no Shell action
	Notes        []Note   // what was wrong with its last answer's actions (notes.go)
	Hint         string   // navigation hint from the App Map
	Navigate     bool     // offer the Navigate action (the App Map can replay paths)
	// Grounding is the family of a model that answers in coordinates ("uitars", "autoglm",
	// "qwen-vl", "guiowl"): DecideInCoordinates renders that family's prompt. Decide
	// ignores it.
	Grounding string
	// Frame is the line that states the coordinate frame and the screen's size
	// (grounding.FrameLine); Boxes are the elements' boxes in that frame, a
	// grounding.BoxLine each.
	Frame string
	Boxes string
}

// Decide renders the Action Decider prompt.
func (s *Set) Decide(d DeciderData) (Prompt, error) { return s.render(NameDecider, d) }

// DecideInCoordinates renders the Action Decider prompt of a model that answers in
// coordinates, in its family's own syntax (d.Grounding). The answer is text in that syntax,
// not JSON: the prompt's Schema is empty and the caller sends none.
func (s *Set) DecideInCoordinates(d DeciderData) (Prompt, error) {
	sys := "decider_" + d.Grounding + ".system"
	if d.Grounding == "" || s.tmpl.Lookup(sys) == nil {
		return Prompt{}, fmt.Errorf("prompts: no Action Decider prompt for the model family %q (families: uitars, autoglm, qwen-vl, guiowl)", d.Grounding)
	}
	var system, user strings.Builder
	if err := s.tmpl.ExecuteTemplate(&system, sys, d); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render %s: %w", sys, err)
	}
	if err := s.tmpl.ExecuteTemplate(&user, "decider_coords.user", d); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render decider_coords.user: %w", err)
	}
	return Prompt{System: tidy(system.String()), User: tidy(user.String())}, nil
}

// InteractorData fills the User Interactor prompt.
type InteractorData struct {
	Instruction  string
	Task         event.AppTask
	Instructions []memory.Instruction
	Subgoal      string
	Type         int    // 1 sensitive, 2 irreversible, 3 choice, 4 ambiguous
	Kind         string // yes/no, options, open
	Reason       string
	Screen       string
	Turns        []memory.Turn
	MaxTurns     int
}

// Interact renders the User Interactor prompt.
func (s *Set) Interact(d InteractorData) (Prompt, error) { return s.render(NameInteractor, d) }

// ExtractorData fills the Key Context Collector prompt.
type ExtractorData struct {
	Instruction string
	Task        event.AppTask
	Subgoal     string
	Screen      string
	Known       []event.Fact
}

// Extract renders the Key Context Collector prompt.
func (s *Set) Extract(d ExtractorData) (Prompt, error) { return s.render(NameExtractor, d) }

// CheckerData fills the finish-check prompt.
type CheckerData struct {
	Instruction  string
	Task         event.AppTask
	Instructions []memory.Instruction
	Screen       string
	Context      []event.Fact
	Answer       string
	AnswerFormat string    // the answer's form the person asked for (AnswerFormat); "" when none
	Now          time.Time // the phone's clock; zero: not read, no line
	Plan         []string
	Progress     string
}

// Check renders the finish-check prompt.
func (s *Set) Check(d CheckerData) (Prompt, error) { return s.render(NameChecker, d) }

// StepRecord is one earlier step as the Action Decider's history shows it: what was done,
// what was expected, and how the Re-Planner judged it.
type StepRecord struct {
	Step       int
	Subgoal    string
	Actions    []string // each action with its element, and ": failed: …" when it failed
	Expect     string   // what the decider expected the actions to show
	Result     string   // A, B, C or D; "" when not judged yet
	Reflection string
}

// ProbeData fills the prompt of `fairy model probe`: the family whose syntax the model is
// asked in (uitars, autoglm, qwen-vl, guiowl, or auto for a family not known yet), the
// size of the picture it is sent, and the named element it is asked to tap.
type ProbeData struct {
	Family string
	W, H   int
	Target string
}

// Probe renders the probe's prompt: the family's system prompt cut to a tap, and the ask.
// The answer is text in the family's syntax: the prompt has no schema.
func (s *Set) Probe(d ProbeData) (Prompt, error) {
	sys := "probe_" + d.Family + ".system"
	if d.Family == "" || s.tmpl.Lookup(sys) == nil {
		return Prompt{}, fmt.Errorf("prompts: no probe prompt for the model family %q (families: uitars, autoglm, qwen-vl, guiowl, auto)", d.Family)
	}
	var system, user strings.Builder
	if err := s.tmpl.ExecuteTemplate(&system, sys, d); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render %s: %w", sys, err)
	}
	if err := s.tmpl.ExecuteTemplate(&user, "probe.user", d); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render probe.user: %w", err)
	}
	return Prompt{System: tidy(system.String()), User: tidy(user.String())}, nil
}
