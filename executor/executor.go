package executor

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// Config holds an Executor's parts and settings.
type Config struct {
	Device     Device       // required
	Model      Model        // required; wrap it in Metered to account for calls
	Interactor Interactor   // required
	Memory     Memory       // required; fed by Bus
	Prompts    *prompts.Set // required
	Bus        *event.Bus   // where events go; the Memory must listen to it
	Meter      *llm.Meter   // run totals for the token and cost limits; nil: those limits are off
	Guard      *guard.Guard // nil: the DefaultGuardPolicy
	Tricks     Tricks       // optional App Tricks
	Hints      Hints        // optional App Map navigation hints
	Shortcuts  Shortcuts    // optional App Map paths the decider's Navigate replays
	// Predictions, optional, lets a step whose known action opened the page the App Map
	// predicted confirm its sub-goal without the Re-Planner (a verified step).
	Predictions Predictions
	// Readings, optional, lets a page content read before give its facts without the
	// Key Context Collector.
	Readings Readings
	// Pixels, optional, reads what the tree does not describe from the screenshot (OCR).
	Pixels PixelReader
	// Routines, optional, offers learned routines to the Re-Planner.
	Routines Routines
	// Effects, optional, gives the guard what actions were once seen to do (learned effects).
	Effects  Effects
	Mark     MarkFunc // set-of-mark renderer for visual mode; nil sends the plain screenshot
	TextOnly bool     // no screenshots: the models see the text form only
	Limits   Limits
	Shell    []string // allow-listed shell commands offered to the decider (the device enforces them)
	// HandOverLogins is the person's "always hand over logins": a sign-in page with a field
	// to fill is handed over too, not only a password, a one-time code, a biometric prompt
	// or a CAPTCHA (which always are).
	HandOverLogins bool
	// NoFinishCheck skips the finish check (the "checker" call) before a task is done.
	NoFinishCheck bool
	Clock         func() time.Time                                 // nil: time.Now
	Sleep         func(ctx context.Context, d time.Duration) error // nil: a timer honouring ctx
	Logger        *slog.Logger                                     // nil: discard

	// OrderedContext makes a run reproducible: the facts the Key Context Collector reads
	// off a step's screen are held until the next step starts, and the next step waits for
	// them. The collection still runs beside the step's model calls, but every prompt and
	// every event comes in the same order on every run, however loaded the machine (the
	// demo; tests that compare prompts or transcripts). Off, facts count as soon as they are
	// read: a step uses the last step's facts when they are ready, earlier ones when not.
	OrderedContext bool

	// ModelImage, optional, gives the size pictures are sent to the models at (a grounding
	// model's own, with set-of-mark off: Mark nil); nil sends them as taken.
	ModelImage ModelImageFunc
	// Grounding is the family of the decider's model when it answers in coordinates
	// (grounding.Family: "uitars", "autoglm", "qwen-vl", "guiowl"); "" or "som" is
	// fairy's numbered actions. The decider then speaks that family's prompt and syntax and
	// each point becomes the element under it (see decideInCoordinates).
	Grounding string
	// GroundingFrame is the frame the model's points are in (the probe's answer); its zero
	// value takes the family's documented frame (grounding.DefaultFrame). An Absolute frame
	// without a size is the picture the model is sent.
	GroundingFrame grounding.Frame
}

// Executor is the App-Level Executor. One Executor may run app tasks one after another; it
// is not meant for concurrent Runs on one device.
type Executor struct {
	cfg Config
	log *slog.Logger
	// actions counts the actions sent to the device over every app task (Limits.MaxActions).
	actions atomic.Int64
}

// spent is how many actions the Executor has sent to the device.
func (e *Executor) spent() int { return int(e.actions.Load()) }

// New checks cfg and returns an Executor.
func New(cfg Config) (*Executor, error) {
	switch {
	case cfg.Device == nil:
		return nil, fmt.Errorf("%w: no device", errConfig)
	case cfg.Model == nil:
		return nil, fmt.Errorf("%w: no model", errConfig)
	case cfg.Interactor == nil:
		return nil, fmt.Errorf("%w: no interactor", errConfig)
	case cfg.Memory == nil:
		return nil, fmt.Errorf("%w: no memory", errConfig)
	case cfg.Prompts == nil:
		return nil, fmt.Errorf("%w: no prompts", errConfig)
	}
	fam, err := grounding.ParseFamily(cfg.Grounding)
	if err != nil {
		return nil, fmt.Errorf("%w: model.grounding: %w", errConfig, err)
	}
	if fam == grounding.Auto {
		return nil, fmt.Errorf("%w: model.grounding is auto: the executor needs the family the probe found (run `fairy model probe`)", errConfig)
	}
	cfg.Grounding = string(fam)
	if cfg.Guard == nil {
		g, err := guard.New(guard.DefaultPolicy())
		if err != nil {
			return nil, err
		}
		cfg.Guard = g
	}
	if cfg.Limits.MaxSteps == 0 {
		cfg.Limits.MaxSteps = defaultMaxSteps
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Executor{cfg: cfg, log: log}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Assignment is one app task handed to the executor by the Task Manager, which has already
// launched the app.
type Assignment struct {
	Index       int           // position in the global plan
	Instruction string        // the person's whole instruction
	Task        event.AppTask // the app task
	Context     []event.Fact  // key context gathered by earlier tasks
}

// Result is how an app task ended.
type Result struct {
	Outcome event.Outcome
	Reason  string
	State   State // the terminal state
	Steps   int
	Answer  string       // the decider's Finish text, if any
	Facts   []event.Fact // key context at the end, earlier tasks' included
}

// Log attribute keys.
const (
	logStep  = "step"
	logState = "state"
	logErr   = "err"
	logRole  = "role"
)

// Run carries out one app task. The returned error is non-nil only when the task ended in
// ERROR (device or model failure, or ctx ended — then the outcome is "stopped").
func (e *Executor) Run(ctx context.Context, a Assignment) (Result, error) {
	r := &run{e: e, cfg: &e.cfg, a: a, start: e.cfg.Clock(), loops: map[string]int{}}
	e.cfg.Bus.Publish(event.AppTaskStarted{Index: a.Index, Instruction: a.Instruction, Task: a.Task, Context: a.Context})
	st, err := statePerceive, error(nil)
	for !st.Terminal() {
		if cerr := ctx.Err(); cerr != nil {
			st, err = stateError, cerr
			break
		}
		from := st
		st, err = r.handle(ctx, st)
		if err != nil {
			e.log.Warn("step failed", logStep, r.step, logState, string(from), logErr, err)
			err = &stepError{Step: r.step, State: from, Err: err}
			st = stateError
		}
	}
	r.waitContext()
	res := Result{State: st, Steps: r.step, Answer: r.answer, Reason: r.reason, Facts: e.cfg.Memory.KeyContext()}
	switch st {
	case stateFinish:
		res.Outcome = event.OutcomeDone
	case stateRefuse:
		res.Outcome = event.OutcomeRefused
	case stateFail:
		res.Outcome = event.OutcomeFailed
	default:
		res.Outcome = event.OutcomeFailed
		if ctx.Err() != nil {
			res.Outcome = event.OutcomeStopped
			res.Reason = context.Cause(ctx).Error() // the outcome says "stopped"
		} else if res.Reason == "" && err != nil {
			res.Reason = err.Error()
		}
	}
	e.cfg.Bus.Publish(event.TaskFinished{Index: a.Index, App: a.Task.App, Outcome: res.Outcome, Reason: res.Reason,
		Steps: res.Steps, Answer: res.Answer, Facts: res.Facts})
	return res, err
}

// run is the state of one app task.
type run struct {
	e     *Executor
	cfg   *Config
	a     Assignment
	start time.Time
	step  int

	screen    *perception.Screen
	image     []byte // what the models see: the marked screenshot, or the plain one; nil in text-only mode
	imageMIME string
	sent      sentPicture // the size image was sent at, to map a model's pixels back to the screen
	secure    bool
	change    string // how the screen changed since the previous step
	reuse     bool   // the next PERCEIVE keeps the screen: nothing was done on the phone
	noActs    bool   // the coming reflection has no actions to classify
	rawPNG    []byte
	replaying bool           // perceiving a page on a shortcut's way: no key-context collection, no screenshot
	shotLater bool           // the screen's screenshot is not taken yet (a replayed or verified page): reflect or the finish check takes it
	unshown   *unshownScreen // the screen perceived, not yet published (showScreen)
	ledger    replay.Ledger  // the learned steps this task replayed
	offered   []replay.Offer // the routines this step's Re-Planner prompt listed
	// routineEnd is the page a routine that just ran whole expects to end on.
	routineEnd string
	// routineEndState is what that page must show for the task to be done there.
	routineEndState *replay.End
	// routineEndID is the routine routineEnd belongs to (for the trace).
	routineEndID string
	// deed is the consented action the last batch ran, to reconcile with the next screen;
	// confirming one whose page asked to confirm it; unreconciled, by category, why a deed
	// did not show (the run may not say done); deedMiss that this step's did not.
	deed, confirming *deed
	unreconciled     map[string]string
	didDeed          map[string]int // consented deeds that ran in the app task, by category
	deedMiss         string
	// typed and tapped are the texts typed and the labels tapped in the app task, by any
	// path (decider, routine, Navigate): what an add task's named values are compared with.
	typed, tapped []string
	saved         map[string]bool // the add task's record titles seen saved (outcome.go)
	rowsBefore    map[string]int  // per page and record title, its rows before the title was entered (outcome.go)
	extracted     map[string]bool // static texts and labels of the screens this task sent to the extractor
	locale        *string         // the phone's language, once read (see phoneLocale)
	clockRead     bool            // the phone's clock was read (see phoneNow)
	phoneAt       time.Time       // the phone's clock when read; zero: it could not be read
	phoneRead     time.Time       // the executor's clock then
	asked         string          // the last step only asked the person: the reason asked

	plan     []string
	subgoal  string
	full     bool           // the next reflection makes a full new plan
	cd       int            // C/D results in a row
	planNote []prompts.Note // notes for the next Re-Planner call
	decNote  []prompts.Note // notes for the next decider call
	// pointTaps are the Shell commands (input tap X Y) the decider made of points on no
	// element: the guard judges them as commands, the executor taps (no shell needed).
	pointTaps map[string]bool
	lastActs  []string // the last step's actions and their effect
	forced    string   // the decider's NeedInteraction reason, awaiting the planner
	predicted string   // signature of the page the App Map expects the last batch to open
	// unpredicted: the screen is not the page the App Map predicted for the last batch.
	unpredicted bool

	need        *interaction.Need
	heldAfter   bool // the guard held an action back after others of its batch ran
	batch       []event.Action
	consents    map[int]consented // batch index → the guarded verdict whose consent it spends
	fresh       bool              // nothing ran since the screen was read: its focus is current
	expect      string            // what the decider expected its last batch to show
	subgoalAt   int               // the sub-goal's position in the plan; -1 when not known
	finishAfter bool
	items       []string        // the item lines of the last screen that showed an order's items
	corrections int             // consents the person refused with a correction, in this task
	corrected   []correction    // what the person said they meant, with what they refused
	good        string          // signature of the last page a step was judged right on (see recover.go)
	recoveries  int             // times the task went back to it by itself
	goodSeen    map[string]bool // every page a step of the task was judged right on
	spent       map[string]int  // category and action of each consented action run → its step
	justSpent   string          // the key of spent the last batch added, until the next screen is read
	justSpentOn string          // the signature of the page that action ran on
	carried     *carry          // a consent carried to the confirmation its action opened (consent_carry.go)
	choices     []string        // the person's answers to choice questions (type 3), in this task

	loops      map[string]int
	loopBreaks int
	badDecides int // steps in a row whose decider gave no usable batch
	checkFails int
	handedBack string            // the page the person gave the phone back on: it is not handed over again
	handOvers  int               // times this task gave the phone to the person
	secretAt   []image.Rectangle // where the screen shows what the person typed (secretFields)
	answer     string
	reason     string

	collectors sync.WaitGroup
	heldMu     sync.Mutex
	held       []*event.ContextCollected // OrderedContext: collections not published yet, in order
}

func (r *run) handle(ctx context.Context, st State) (State, error) {
	if r.cfg.OrderedContext && st == statePerceive {
		r.waitContext()
	}
	switch st {
	case statePerceive:
		return r.perceive(ctx)
	case stateReflect:
		return r.reflect(ctx)
	case stateInteract:
		return r.interact(ctx)
	case stateDecide:
		return r.decide(ctx)
	case stateGuard:
		return r.guard()
	case stateAct:
		return r.act(ctx)
	case stateCheck:
		return r.check(ctx)
	}
	return stateError, fmt.Errorf("executor: no handler for state %s", st)
}

func (r *run) publish(ev event.Event) {
	if a, ok := ev.(event.ActionExecuted); ok {
		r.e.actions.Add(1)
		r.noteDone(a)
	}
	r.cfg.Bus.Publish(ev)
}

// element returns the element with a 1-based index on the current screen.
func (r *run) element(i int) *perception.Element {
	if r.screen == nil || i < 1 || i > len(r.screen.Elements) {
		return nil
	}
	return &r.screen.Elements[i-1]
}

// images returns what to attach to a prompt.
func (r *run) images() []llm.Image {
	if r.image == nil || r.secure {
		return nil
	}
	return []llm.Image{{MIME: r.imageMIME, Data: r.image}}
}

// tricks asks the knowledge for tips of one kind that match query; failures only cost the
// tips. An empty query matches nothing: the store would rank every tip by its score alone,
// and tips that match nothing the role is doing only cost tokens.
func (r *run) tricks(ctx context.Context, kind, query string) []string {
	if r.cfg.Tricks == nil || strings.TrimSpace(query) == "" {
		return nil
	}
	ts, err := r.cfg.Tricks.Tricks(ctx, r.a.Task.App, kind, query, 3)
	if err != nil {
		r.e.log.Warn("tricks lookup failed", logErr, err)
		return nil
	}
	return ts
}

func (r *run) fail(reason string) (State, error) {
	r.reason = reason
	return stateFail, nil
}

func isFinished(subgoal string) bool {
	s := strings.ToLower(strings.TrimSpace(subgoal))
	return s == "finished" || s == "finish" || s == "done"
}

// errorsIsCtx reports whether err comes from a cancelled or expired context.
func errorsIsCtx(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
