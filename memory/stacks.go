package memory

import (
	"sync"

	"github.com/fairy-go/fairy/event"
)

// Instruction is one entry of the instruction stack.
type Instruction struct {
	Text    string         `json:"text"`
	Source  string         `json:"source"` // "task" for the app task, "user" for an interaction summary
	Consent *event.Consent `json:"consent,omitempty"`
	Used    bool           `json:"used,omitempty"` // the consent was spent on an action
}

// Frame is one step of the action loop.
type Frame struct {
	Step        int
	Package     string
	Signature   string
	Screen      string // the screen's text form at the start of the step
	Plan        []string
	Subgoal     string
	Interaction int
	Thought     string
	Actions     []event.Action // decided
	Expect      string         // what the decider expected them to show
	Executed    []event.ActionExecuted
	Rejected    []event.ActionRejected
	Result      string // A/B/C/D, filled by the next step's reflection
	Reflection  string
}

// Turn is one question and answer of the current interaction.
type Turn struct {
	Question string
	Options  []string
	Answer   string
}

// Stacks keeps the short-term stacks of a run. It is fed by events (Handle) and answers
// queries; it is safe for concurrent use. Queries return copies.
type Stacks struct {
	mu           sync.Mutex
	overall      string
	task         event.AppTask
	instructions []Instruction
	frames       []Frame
	turns        []Turn
	facts        []event.Fact
	progress     string
}

// NewStacks returns empty stacks.
func NewStacks() *Stacks { return &Stacks{} }

// Attach subscribes the manager to bus and returns the unsubscribe function.
func (m *Stacks) Attach(bus *event.Bus) func() { return bus.Subscribe(m.Handle) }

// Handle applies one event to the stacks.
func (m *Stacks) Handle(r event.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch e := r.Event.(type) {
	case event.RunStarted:
		m.overall = e.Instruction
	case event.AppTaskStarted:
		// A new app task starts with fresh stacks; the key context flows on.
		m.overall = e.Instruction
		m.task = e.Task
		m.instructions = []Instruction{{Text: e.Task.Task, Source: "task"}}
		m.frames = nil
		m.turns = nil
		m.progress = ""
		for _, f := range e.Context {
			m.addFact(f)
		}
	case event.StepStarted:
		m.frames = append(m.frames, Frame{Step: e.Step})
	case event.ScreenPerceived:
		if f := m.frame(e.Step); f != nil {
			f.Package, f.Signature, f.Screen = e.Package, e.Signature, e.Text
		}
	case event.Reflected:
		m.progress = e.Progress
		// The verdict is on the previous step's actions.
		if f := m.frame(e.Step - 1); f != nil && e.Result != "" {
			f.Result, f.Reflection = e.Result, e.Reflection
		}
	case event.Planned:
		if f := m.frame(e.Step); f != nil {
			f.Plan = append([]string(nil), e.Plan...)
			f.Subgoal, f.Interaction = e.Subgoal, e.Interaction
		}
	case event.InteractionAsked:
		m.turns = append(m.turns, Turn{Question: e.Question, Options: append([]string(nil), e.Options...)})
	case event.InteractionAnswered:
		if n := len(m.turns); n > 0 {
			m.turns[n-1].Answer = e.Answer
		}
	case event.InteractionEnded:
		if e.Settled && e.Summary != "" {
			m.instructions = append(m.instructions, Instruction{Text: e.Summary, Source: "user", Consent: e.Consent})
		}
		m.turns = nil
	case event.ActionsDecided:
		if f := m.frame(e.Step); f != nil {
			f.Thought, f.Expect = e.Thought, e.Expect
			f.Actions = append(f.Actions, e.Actions...)
		}
	case event.ActionRejected:
		if f := m.frame(e.Step); f != nil {
			f.Rejected = append(f.Rejected, e)
		}
	case event.ActionExecuted:
		if f := m.frame(e.Step); f != nil {
			f.Executed = append(f.Executed, e)
		}
		if e.Consent != "" {
			// Spent when tried: a failed action (a connection lost after the tap ran)
			// may still have paid.
			m.spend(e.Consent, e.ConsentFor)
		}
	case event.ContextCollected:
		for _, f := range e.Facts {
			m.addFact(f)
		}
	}
}

// frame returns the frame of step, or nil.
func (m *Stacks) frame(step int) *Frame {
	for i := len(m.frames) - 1; i >= 0; i-- {
		if m.frames[i].Step == step {
			return &m.frames[i]
		}
	}
	return nil
}

// addFact pushes f, replacing an earlier fact with the same key.
func (m *Stacks) addFact(f event.Fact) {
	if f.Key == "" || f.Value == "" {
		return
	}
	for i := range m.facts {
		if m.facts[i].Key == f.Key {
			m.facts = append(m.facts[:i:i], m.facts[i+1:]...)
			break
		}
	}
	m.facts = append(m.facts, f)
}

// spend marks the newest unspent consent covering category and action as used.
func (m *Stacks) spend(category, action string) {
	for i := len(m.instructions) - 1; i >= 0; i-- {
		c := m.instructions[i].Consent
		if c != nil && !m.instructions[i].Used && c.Covers(category, action) {
			m.instructions[i].Used = true
			return
		}
	}
}

// Overall is the person's whole instruction.
func (m *Stacks) Overall() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.overall
}

// Task is the current app task.
func (m *Stacks) Task() event.AppTask {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.task
}

// Instructions is the instruction stack, bottom first.
func (m *Stacks) Instructions() []Instruction {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Instruction(nil), m.instructions...)
}

// Consent returns the newest unspent granted consent that covers one action of category
// with identity action (see event.Consent.Covers). A consent with no category covers nothing.
func (m *Stacks) Consent(category, action string) (event.Consent, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.instructions) - 1; i >= 0; i-- {
		in := m.instructions[i]
		if in.Consent != nil && !in.Used && in.Consent.Covers(category, action) {
			return *in.Consent, true
		}
	}
	return event.Consent{}, false
}

// Frames is the action-loop stack, oldest first.
func (m *Stacks) Frames() []Frame {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Frame, len(m.frames))
	copy(out, m.frames)
	return out
}

// LastFrames returns up to n most recent frames, oldest first.
func (m *Stacks) LastFrames(n int) []Frame {
	fs := m.Frames()
	if n >= 0 && len(fs) > n {
		fs = fs[len(fs)-n:]
	}
	return fs
}

// Turns is the interaction-loop stack of the current interaction.
func (m *Stacks) Turns() []Turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Turn(nil), m.turns...)
}

// KeyContext is the key-context stack, one fact per key, oldest first.
func (m *Stacks) KeyContext() []event.Fact {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]event.Fact(nil), m.facts...)
}

// Progress is the Re-Planner's latest progress note.
func (m *Stacks) Progress() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.progress
}
