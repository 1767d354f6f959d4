package event

// Navigate is the decider's shortcut action: go to a page the App Map knows (Target, a
// page ID from a navigation hint) by replaying the map's path, with no model call per
// replayed step. It is always alone (or last) in its batch.
const Navigate ActionType = "Navigate" // Target

// Navigated reports one shortcut replay (a Navigate action): how many of the known path's
// steps were replayed with no model call, and why the replay stopped early, if it did.
// The replayed actions themselves are published as ActionExecuted events, as usual.
type Navigated struct {
	Step     int    `json:"step"` // the step the Navigate was decided in
	App      string `json:"app"`
	Target   string `json:"target"`
	Planned  int    `json:"planned"`           // steps of the known path
	Replayed int    `json:"replayed"`          // steps replayed
	Stopped  string `json:"stopped,omitempty"` // why the replay stopped before the target ("" when it reached it)
	// Recovery marks the executor's own way back to the last good page after a wrong one
	// (no model chose it), not a Navigate the decider took.
	Recovery bool `json:"recovery,omitempty"`
}

// KnowledgeServed reports long-term knowledge put into a model prompt: App Tricks, a
// navigation hint from the App Map, or learned app descriptions.
type KnowledgeServed struct {
	Step   int    `json:"step,omitempty"` // 0 outside an app task's steps (the Global Planner)
	Role   string `json:"role"`
	Tricks int    `json:"tricks,omitempty"` // trick lines
	Hint   bool   `json:"hint,omitempty"`   // a navigation hint
	Apps   int    `json:"apps,omitempty"`   // apps with a learned description
	// TrickTexts are the tips served, each cut to a short line (the Tricks port gives
	// their text, not their IDs): which tips were in play, for a reader of the trace.
	TrickTexts []string `json:"trick_texts,omitempty"`
}

// Learned reports one Self-Learner pass over the finished app tasks: what it stored, or
// why it failed (a failed learning pass never fails the task).
type Learned struct {
	Tasks   int `json:"tasks"`
	Added   int `json:"added"`
	Merged  int `json:"merged"`
	Demoted int `json:"demoted"`
	// Skipped counts app tasks not distilled because they followed a known routine with
	// no surprise: there was nothing new to learn from them.
	Skipped int    `json:"skipped,omitempty"`
	Err     string `json:"err,omitempty"`
}

// Kind implements Event.
func (Navigated) Kind() string { return "Navigated" }

// Kind implements Event.
func (KnowledgeServed) Kind() string { return "KnowledgeServed" }

// Kind implements Event.
func (Learned) Kind() string { return "Learned" }
