package event

import "time"

// Event is something that happened in a run. Every event is a small struct that encodes to
// JSON; its Kind is the name the trace writes.
type Event interface {
	Kind() string
}

// Record is an event as the bus delivers it: numbered and stamped.
type Record struct {
	Seq   int64
	Time  time.Time
	Event Event
}

// RunStarted opens a run.
type RunStarted struct {
	RunID       string `json:"run_id"`
	Instruction string `json:"instruction"`
	TextOnly    bool   `json:"text_only,omitempty"`
}

// GlobalPlanned is the Global Planner's plan (first or adjusted).
type GlobalPlanned struct {
	Tasks    []AppTask `json:"tasks"`
	Next     int       `json:"next"`               // index into Tasks of the task to run next; -1 when ending
	Progress string    `json:"progress,omitempty"` // what is done so far
	Adjusted bool      `json:"adjusted,omitempty"` // false for the first plan
}

// AppTaskStarted hands an app task to the App-Level Executor.
type AppTaskStarted struct {
	Index       int     `json:"index"`
	Instruction string  `json:"instruction"` // the person's whole instruction
	Task        AppTask `json:"task"`
	Context     []Fact  `json:"context,omitempty"` // key context gathered by earlier tasks
}

// StepStarted opens a step of the app task.
type StepStarted struct {
	Step int    `json:"step"`
	App  string `json:"app"`
}

// ScreenPerceived is the perceived screen of a step. The images are not written to the
// trace line; the recorder stores the marked one as a file.
type ScreenPerceived struct {
	Step       int    `json:"step"`
	Package    string `json:"package,omitempty"`
	Activity   string `json:"activity,omitempty"`
	Signature  string `json:"signature"`
	Elements   int    `json:"elements"`
	Keyboard   bool   `json:"keyboard,omitempty"`
	Secure     bool   `json:"secure,omitempty"`
	Secret     bool   `json:"secret,omitempty"` // a field holds or asks for a secret (password, one-time code): no live stream shows it
	Text       string `json:"text"`
	Marked     []byte `json:"-"` // set-of-mark image, when rendered
	MarkedMIME string `json:"-"` // its type: image/png or image/jpeg
	// Picture is the step's screenshot as the phone showed it (no marks), for a live
	// view of the run; nil when the step took none or the screen is secure. Never traced.
	Picture     []byte `json:"-"`
	PictureMIME string `json:"-"`
	// Read are the text boxes read from the picture where the tree describes nothing.
	Read []ReadBox `json:"read,omitempty"`
}

// ReadBox is a line of text read from the screenshot (OCR) and where: [x1,y1,x2,y2].
type ReadBox struct {
	Text   string `json:"text"`
	Bounds [4]int `json:"bounds"`
}

// Reflected is the Re-Planner's verdict on the last step's actions.
type Reflected struct {
	Step       int    `json:"step"`             // the step that reflects
	Result     string `json:"result,omitempty"` // A done, B partial, C wrong, D no change; "" on the first step
	Reflection string `json:"reflection,omitempty"`
	Progress   string `json:"progress,omitempty"`
	// Verified marks a verdict the executor gave without the Re-Planner: the last action
	// was a reliable App Map transition and the screen is the page it predicted (result A).
	Verified bool `json:"verified,omitempty"`
	// VerifiedBy says which knowledge gave a Verified verdict: VerifiedByMap (an App Map
	// transition: Action is the last action, the one the map knew) or VerifiedByRoutineEnd
	// (a routine ran to its end: Routine is its ID); Page is the page signature the
	// knowledge predicted and the screen showed.
	VerifiedBy string `json:"verified_by,omitempty"`
	Action     string `json:"action,omitempty"`
	Routine    string `json:"routine,omitempty"`
	Page       string `json:"page,omitempty"`
}

// What gave a verified verdict (Reflected.VerifiedBy).
const (
	VerifiedByMap        = "app-map"     // a reliable App Map transition led to the predicted page
	VerifiedByRoutineEnd = "routine-end" // a routine ran to its end on the page its task was done on
)

// Planned is the Re-Planner's plan and choice for the step.
type Planned struct {
	Step        int      `json:"step"`
	Plan        []string `json:"plan"`
	Subgoal     string   `json:"subgoal"`               // "Finished" when the task looks done
	Interaction int      `json:"interaction,omitempty"` // 0 none … 4 ambiguous
	Reason      string   `json:"reason,omitempty"`      // why the person must be asked
	Full        bool     `json:"full,omitempty"`        // a full re-plan (three C/D, loop, failed check)
}

// InteractionAsked is a question put to the person.
type InteractionAsked struct {
	Step     int      `json:"step"`
	Type     int      `json:"type"`
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
}

// InteractionAnswered is the person's answer.
type InteractionAnswered struct {
	Step   int    `json:"step"`
	Answer string `json:"answer"`
}

// InteractionEnded closes an interaction; a settled one pushes its summary onto the
// instruction stack, with the consent it carries.
type InteractionEnded struct {
	Step     int      `json:"step"`
	Settled  bool     `json:"settled"`
	Summary  string   `json:"summary,omitempty"`
	Consent  *Consent `json:"consent,omitempty"`
	Turns    int      `json:"turns"`
	Subgoal  string   `json:"subgoal,omitempty"`
	Category string   `json:"category,omitempty"`
}

// ActionsDecided is the Action Decider's batch.
type ActionsDecided struct {
	Step    int      `json:"step"`
	Thought string   `json:"thought,omitempty"`
	Actions []Action `json:"actions"`
	Expect  string   `json:"expect,omitempty"` // what the decider expects the screen to show after them
}

// ActionRejected is an action that was not executed: an index the screen lacks, a bad
// field, a denied shell command (the decider is asked again), or a tap on a switch that
// already shows the state the sub-goal asks (the Re-Planner judges the page).
type ActionRejected struct {
	Step   int    `json:"step"`
	Action Action `json:"action"`
	Reason string `json:"reason"`
}

// ActionGuarded is a sensitive action the guard held back until the person consents.
type ActionGuarded struct {
	Step     int    `json:"step"`
	Action   Action `json:"action"`
	Category string `json:"category"`
	Target   string `json:"target,omitempty"` // the element's label
	// Specifics are what the consent question names, read from the screen: recipient
	// and text for a send, items, amount and payee for an order or payment.
	Specifics Specifics `json:"specifics,omitzero"`
}

// ElementRef identifies the element an action touched, robustly (not by index).
type ElementRef struct {
	Label      string `json:"label,omitempty"`
	ResourceID string `json:"resource_id,omitempty"`
	Class      string `json:"class,omitempty"`
	X          int    `json:"x"`
	Y          int    `json:"y"`
}

// LearnedEffect is what an action on an element was once seen to do that cannot be taken
// back (the App Map's deed: a row gone, the typed text appended to a conversation, an
// order number issued after an amount), as the guard is given it. The element is named
// without its words, which change with the app's language: by its resource id, else by
// its place on its page's activity, else by its label.
type LearnedEffect struct {
	Category   string `json:"category"`           // the guard's category: delete, send, payment
	Evidence   string `json:"evidence,omitempty"` // what the screen showed, after "last time this": "deleted a row"
	Activity   string `json:"activity,omitempty"`
	ResourceID string `json:"resource_id,omitempty"`
	Class      string `json:"class,omitempty"`
	Label      string `json:"label,omitempty"`
	X          int    `json:"x,omitempty"` // the element's centre when it was seen, in pixels
	Y          int    `json:"y,omitempty"`
}

// ActionExecuted is one action carried out on the device.
type ActionExecuted struct {
	Step       int         `json:"step"`
	Action     Action      `json:"action"`
	Signature  string      `json:"signature"` // page signature the action was taken on
	Element    *ElementRef `json:"element,omitempty"`
	Consent    string      `json:"consent,omitempty"`     // the consent category it used
	ConsentFor string      `json:"consent_for,omitempty"` // the identity of the action that consent names
	Err        string      `json:"error,omitempty"`
}

// ContextCollected is key context extracted from the screen at the end of a step.
type ContextCollected struct {
	Step  int    `json:"step"`
	Facts []Fact `json:"facts"`
}

// LoopBroken says the same action on the same page came back and how it was broken.
type LoopBroken struct {
	Step      int    `json:"step"`
	Action    Action `json:"action"`
	Signature string `json:"signature"`
	Remedy    string `json:"remedy"` // back, replan, fail
}

// Unpredicted says the App Map knew the last action, taken for its sub-goal, to open
// another page than the one the screen shows: a surprise, whatever the Re-Planner judges.
type Unpredicted struct {
	Step     int    `json:"step"`
	Expected string `json:"expected"` // the page signature the map predicted
	Got      string `json:"got"`      // the signature of the page perceived
}

// ConfirmationOpened says the consented action of the step before opened a page that asks
// to confirm an action of the same kind (the dialog "Delete note" opens): that action was
// a step toward the deed, not the deed, and a way back out of the page leaves it undone.
type ConfirmationOpened struct {
	Step     int    `json:"step"`
	Category string `json:"category"` // the guard's category of both actions
}

// FinishChecked is the verdict of the finish check.
type FinishChecked struct {
	Step   int    `json:"step"`
	Passed bool   `json:"passed"`
	Reason string `json:"reason,omitempty"`
}

// ModelErrorInjected is an error an evaluation injected into a model answer on purpose
// (`fairy eval --model-errors`): which role, which kind, what changed.
type ModelErrorInjected struct {
	Step   int    `json:"step"`
	Role   string `json:"role"`
	Error  string `json:"kind"` // the kind of error: grounding, stale, format, …
	Change string `json:"change"`
}

// ModelCalled accounts for one model call.
type ModelCalled struct {
	Role             string  `json:"role"`
	Step             int     `json:"step,omitempty"`
	Critical         bool    `json:"critical"` // on the step's critical path
	Model            string  `json:"model,omitempty"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
	LatencyMS        float64 `json:"latency_ms"`
	Err              string  `json:"error,omitempty"`
}

// TaskFinished closes an app task.
type TaskFinished struct {
	Index   int     `json:"index"`
	App     string  `json:"app"`
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
	Steps   int     `json:"steps"`
	Answer  string  `json:"answer,omitempty"`
	Facts   []Fact  `json:"facts,omitempty"`
}

// RunFinished closes the run.
type RunFinished struct {
	Outcome Outcome `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
	Answer  string  `json:"answer,omitempty"`
}

// Kind implements Event.
func (RunStarted) Kind() string { return "RunStarted" }

// Kind implements Event.
func (GlobalPlanned) Kind() string { return "GlobalPlanned" }

// Kind implements Event.
func (AppTaskStarted) Kind() string { return "AppTaskStarted" }

// Kind implements Event.
func (StepStarted) Kind() string { return "StepStarted" }

// Kind implements Event.
func (ScreenPerceived) Kind() string { return "ScreenPerceived" }

// Kind implements Event.
func (Reflected) Kind() string { return "Reflected" }

// Kind implements Event.
func (Planned) Kind() string { return "Planned" }

// Kind implements Event.
func (InteractionAsked) Kind() string { return "InteractionAsked" }

// Kind implements Event.
func (InteractionAnswered) Kind() string { return "InteractionAnswered" }

// Kind implements Event.
func (InteractionEnded) Kind() string { return "InteractionEnded" }

// Kind implements Event.
func (ActionsDecided) Kind() string { return "ActionsDecided" }

// Kind implements Event.
func (ActionRejected) Kind() string { return "ActionRejected" }

// Kind implements Event.
func (ActionGuarded) Kind() string { return "ActionGuarded" }

// Kind implements Event.
func (ActionExecuted) Kind() string { return "ActionExecuted" }

// Kind implements Event.
func (ContextCollected) Kind() string { return "ContextCollected" }

// Kind implements Event.
func (LoopBroken) Kind() string { return "LoopBroken" }

// Kind implements Event.
func (Unpredicted) Kind() string { return "Unpredicted" }

// Kind implements Event.
func (ConfirmationOpened) Kind() string { return "ConfirmationOpened" }

// Kind implements Event.
func (FinishChecked) Kind() string { return "FinishChecked" }

// Kind implements Event.
func (ModelCalled) Kind() string { return "ModelCalled" }

// Kind implements Event.
func (ModelErrorInjected) Kind() string { return "ModelErrorInjected" }

// Kind implements Event.
func (TaskFinished) Kind() string { return "TaskFinished" }

// Kind implements Event.
func (RunFinished) Kind() string { return "RunFinished" }
