package event

// Routine is the Re-Planner's high-level action: run a learned routine (a finished app
// task's trajectory, named by what it achieves) by name, with its parameters.
type Routine struct {
	Name string   `json:"name"`
	Args []string `json:"args"` // one per parameter, in order
}

// RoutineRan reports one routine replay: how many of its steps were replayed with no
// model call, and why the replay stopped early, if it did (the Re-Planner takes over
// there). The replayed actions are published as ActionExecuted events, as usual.
type RoutineRan struct {
	Step     int    `json:"step"`
	App      string `json:"app"`
	ID       string `json:"id"`
	Name     string `json:"name"`
	Planned  int    `json:"planned"`
	Replayed int    `json:"replayed"`
	Stopped  string `json:"stopped,omitempty"`
	// Held: it stopped at a sensitive step to ask the person (no surprise).
	Held bool `json:"held,omitempty"`
	// LearnedFrom is the run the routine was first learned from (its run ID: the task's
	// name in an evaluation), "" when the knowledge does not say; Params say what each
	// parameter is (with the value it was learned with) and Args what this replay bound
	// them to, in order: the knowledge in play, for a reader of the trace.
	LearnedFrom string   `json:"learned_from,omitempty"`
	Params      []string `json:"params,omitempty"`
	Args        []string `json:"args,omitempty"`
}

// RoutineDeclined reports a routine the Re-Planner chose that did not run: a name not
// offered, wrong arguments, or steps that cannot run from this page. The Re-Planner is
// asked again with the reason; a routine chosen again and again burns the step budget.
type RoutineDeclined struct {
	Step   int      `json:"step"`
	App    string   `json:"app"`
	ID     string   `json:"id,omitempty"` // "" when no offered routine has the name
	Name   string   `json:"name"`
	Args   []string `json:"args,omitempty"`
	Reason string   `json:"reason"`
}

// ContextRead reports a page content whose facts were already known from an earlier
// reading: the Key Context Collector was not called for it.
type ContextRead struct {
	Step  int `json:"step"`
	Facts int `json:"facts"` // facts the earlier reading gave
	// Signature is the page whose earlier reading was used.
	Signature string `json:"signature,omitempty"`
}

// Kind implements Event.
func (RoutineRan) Kind() string { return "RoutineRan" }

// Kind implements Event.
func (RoutineDeclined) Kind() string { return "RoutineDeclined" }

// Kind implements Event.
func (ContextRead) Kind() string { return "ContextRead" }
