package agent

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/rundir"
)

// Config is what every run of an Agent shares.
type Config struct {
	Guard    *guard.Guard    // nil: the default policy
	Limits   executor.Limits // defaults; a Run's non-zero limits override them
	TextOnly bool            // the models get the screen text only, no screenshots
	Shell    []string        // the technician shell's allow-list offered to the decider
	Secrets  []string        // redacted from traces (API keys)
	Clock    func() time.Time
	Logger   *slog.Logger // nil: discard

	// OrderedContext: a run's prompts and events come in the same order on every run
	// (executor.Config.OrderedContext); the demo's transcript is the same each time.
	OrderedContext bool

	// HandOverLogins is the person's "always hand over logins" (executor.Config.HandOverLogins).
	HandOverLogins bool

	// Pixels reads what the accessibility tree does not describe from the screenshot
	// (OCR); nil: the tree alone.
	Pixels executor.PixelReader

	// ModelImage sends the pictures at the size the decider's grounding model expects
	// (executor.Config.ModelImage); NoMarks leaves the set-of-mark boxes off them, for a
	// model that answers in coordinates and reads the plain screen.
	ModelImage executor.ModelImageFunc
	NoMarks    bool
	// Grounding is the decider's model family when it answers in coordinates
	// (executor.Config.Grounding); "" is fairy's numbered actions.
	Grounding string
	// GroundingFrame is the frame its points are in, as the probe found it
	// (executor.Config.GroundingFrame); zero: the family's documented frame.
	GroundingFrame grounding.Frame
}

// Agent runs instructions; one Agent may run many at once (each Run has its own bus,
// memory and recorder). It holds the prompt templates and the set-of-mark renderer.
type Agent struct {
	cfg    Config
	log    *slog.Logger
	prompt *prompts.Set
	mark   executor.MarkFunc
}

// New loads the prompts and, in visual mode, the set-of-mark renderer.
func New(cfg Config) (*Agent, error) {
	ps, err := prompts.Load()
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	a := &Agent{cfg: cfg, log: cfg.Logger, prompt: ps}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if !cfg.TextOnly && !cfg.NoMarks {
		m, err := perception.NewMarker(perception.MarkOptions{})
		if err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
		a.mark = m.Render
	}
	return a, nil
}

// Run is one run's values.
type Run struct {
	Instruction string
	// Dir is the run directory (trace.jsonl, screenshots, summary.json); required.
	Dir string
	// ID names the run in the trace and in what the Self-Learner stores; "" is Dir's base name.
	ID       string
	Device   Device               // required; *adb.Device is one
	Model    executor.Model       // required; every role, metered per run
	Dialoger interaction.Dialoger // required: the person, or a simulated one
	// Knowledge is the long-term knowledge file, opened and closed by the caller; nil runs
	// without. With it, tricks, navigation hints, shortcuts and app descriptions come from
	// it and the Self-Learner learns after every app task.
	Knowledge *knowledge.Store
	// KnowledgeOff, with no Knowledge, says why the run goes without the knowledge file it
	// was configured with (it is damaged); the summary says it (knowledge.off).
	KnowledgeOff string
	Limits       executor.Limits // non-zero fields override Config.Limits
	// Progress, if set, receives the terminal progress view; HideQuestions leaves the
	// questions out of it, for when the Dialoger shows them on the same terminal.
	Progress      io.Writer
	HideQuestions bool
	// Watch, when set, receives every event of the run as it happens (the live run page);
	// like every subscriber of the bus it must return quickly.
	Watch event.Handler
	// WrapModel, when set, wraps the run's model before it is metered (an evaluation's
	// error injection); what it injects, it tells note, and the run writes that to its
	// trace (ModelErrorInjected, with the step it happened in).
	WrapModel func(m executor.Model, note func(role, kind, change string)) executor.Model
}

// Result is what a run did.
type Result struct {
	global.Result
	// Summary is summary.json as written into the run directory, or as it would have been
	// when it could not be written.
	Summary rundir.Summary
	// SummaryWritten reports whether summary.json was written.
	SummaryWritten bool
	// Err is why the run ended in error: the run's own error, or a *rundir.RecordError when
	// the run could not be recorded (the run stopped at the failed write, its outcome is
	// failed); an interrupted run has its context's error here.
	Err error
	// KnowledgeErr reports App Map updates that failed; the run was not affected.
	KnowledgeErr error
	// Contradict, with a knowledge file, takes back what the run learned and demotes what
	// it replayed, for a run that said done and was wrong (the person says so, or an
	// evaluation's checks failed): see learner.Session.Contradict. nil without knowledge.
	Contradict func(ctx context.Context) (Undone, error)
}

// Undone counts what Result.Contradict took back.
type Undone struct {
	Routines int // routines demoted: those the run replayed and the one stored from it
	Tricks   int // tricks distilled from the run, demoted
	Goals    int // sub-goal credits taken back from App Map transitions
}

// Run carries out r.Instruction. The error is for a run that could not be assembled
// (missing part, run directory not writable); what happened to the task, even when it
// ended in error, is in the Result, whose trace is synced to disk. A run whose trace,
// screenshots or summary cannot be written stops before its next action and fails.
func (a *Agent) Run(ctx context.Context, r Run) (Result, error) {
	if r.Dir == "" || r.Device == nil || r.Model == nil || r.Dialoger == nil {
		return Result{}, fmt.Errorf("%w: a run needs a directory, a device, a model and a dialoger", errConfig)
	}
	id := r.ID
	if id == "" {
		id = filepath.Base(r.Dir)
	}
	rec, err := rundir.NewRecorder(r.Dir, a.cfg.Secrets...)
	if err != nil {
		return Result{}, err
	}
	if r.Knowledge == nil && r.KnowledgeOff != "" {
		rec.SetKnowledgeOff(r.KnowledgeOff)
	}
	// An agent that cannot record does not act: the first write that fails ends the run's
	// context, so it stops before its next action.
	ctx, halt := rec.Context(ctx)
	defer halt()
	bus := event.NewBus(a.cfg.Clock)
	mem := memory.NewStacks()
	mem.Attach(bus)
	bus.Subscribe(rec.Handle)
	if r.Watch != nil {
		bus.Subscribe(r.Watch)
	}
	var view *global.Progress
	if r.Progress != nil {
		view = global.NewProgress(r.Progress)
		view.HideQuestions = r.HideQuestions
		bus.Subscribe(func(e event.Record) {
			if _, last := e.Event.(event.RunFinished); !last {
				view.Handle(e)
			}
		})
	}
	meter := &llm.Meter{}
	inner := r.Model
	if r.WrapModel != nil {
		var step atomic.Int64
		bus.Subscribe(func(e event.Record) {
			if s, ok := e.Event.(event.StepStarted); ok {
				step.Store(int64(s.Step))
			}
		})
		inner = r.WrapModel(inner, func(role, kind, change string) {
			bus.Publish(event.ModelErrorInjected{Step: int(step.Load()), Role: role, Error: kind, Change: change})
		})
	}
	model := executor.Metered{Model: inner, Meter: meter, Bus: bus}
	apps := phoneApps{dev: r.Device, store: r.Knowledge}

	var (
		tricks executor.Tricks
		hints  executor.Hints
		cuts   executor.Shortcuts
		preds  executor.Predictions
		reads  executor.Readings
		rts    executor.Routines
		effs   executor.Effects
		sess   *learner.Session
	)
	if r.Knowledge != nil {
		if sess, err = a.startLearning(ctx, r, id, model, apps); err != nil {
			_ = rec.Close()
			return Result{}, err
		}
		defer sess.Attach(bus)()
		tricks, hints, cuts, preds, reads, rts, effs = sess, sess, sess, sess, sess, sess, sess
	}
	gm, err := a.assemble(r, id, assembly{model: model, meter: meter, bus: bus, mem: mem, apps: apps, tricks: tricks, hints: hints, cuts: cuts, preds: preds, reads: reads, routines: rts, effects: effs, sess: sess})
	if err != nil {
		_ = rec.Close()
		return Result{}, err
	}
	res, runErr := gm.Run(ctx, r.Instruction)
	if err := rec.Close(); err != nil {
		// Whatever the run did, it is not on record: it failed.
		res.Outcome, res.Reason, runErr = event.OutcomeFailed, err.Error(), err
	}
	if view != nil {
		// The run's last line is said once its record is closed, so it never reads
		// "✓ done" for a run whose trace or summary could not be written.
		view.Handle(event.Record{Time: a.cfg.Clock(), Event: event.RunFinished{Outcome: res.Outcome, Reason: res.Reason, Answer: res.Answer}})
	}
	out := Result{Result: res, Summary: rec.Summary(), SummaryWritten: rec.Written(), Err: runErr}
	if sess != nil {
		out.KnowledgeErr = sess.Err()
		out.Contradict = func(ctx context.Context) (Undone, error) {
			r, t, g, err := sess.Contradict(ctx)
			return Undone{Routines: r, Tricks: t, Goals: g}, err
		}
	}
	return out, nil
}

// assembly is one run's shared parts, for assemble.
type assembly struct {
	model    executor.Metered
	meter    *llm.Meter
	bus      *event.Bus
	mem      *memory.Stacks
	apps     global.AppSource
	tricks   executor.Tricks
	hints    executor.Hints
	cuts     executor.Shortcuts
	preds    executor.Predictions
	reads    executor.Readings
	routines executor.Routines
	effects  executor.Effects
	sess     *learner.Session // nil: no learning
}

// assemble builds the interaction loop, the App-Level Executor (wrapped so the learner
// learns after each app task) and the Global Task Manager.
func (a *Agent) assemble(r Run, id string, p assembly) (*global.Manager, error) {
	it, err := interaction.New(interaction.Config{Model: p.model, Dialoger: r.Dialoger, Memory: p.mem, Prompts: a.prompt, Bus: p.bus, Logger: a.log})
	if err != nil {
		return nil, err
	}
	ex, err := executor.New(executor.Config{Device: r.Device, Model: p.model, Interactor: it, Memory: p.mem, Prompts: a.prompt, Bus: p.bus,
		Meter: p.meter, Guard: a.cfg.Guard, Tricks: p.tricks, Hints: p.hints, Shortcuts: p.cuts, Predictions: p.preds, Readings: p.reads, Routines: p.routines, Effects: p.effects, Mark: a.mark, ModelImage: a.cfg.ModelImage, Grounding: a.cfg.Grounding, GroundingFrame: a.cfg.GroundingFrame, Pixels: a.cfg.Pixels, TextOnly: a.cfg.TextOnly,
		Limits: a.limits(r.Limits), Shell: a.cfg.Shell, OrderedContext: a.cfg.OrderedContext, HandOverLogins: a.cfg.HandOverLogins, Clock: a.cfg.Clock, Logger: a.log})
	if err != nil {
		return nil, err
	}
	var runner global.Runner = ex
	if p.sess != nil {
		runner = global.Learning{Runner: ex, Learn: learnFunc(p.sess), Bus: p.bus, Logger: a.log}
	}
	return global.New(global.Config{Apps: p.apps, Launcher: r.Device, Executor: runner, Model: p.model, Prompts: a.prompt, Memory: p.mem,
		Bus: p.bus, Tricks: p.tricks, RunID: id, TextOnly: a.cfg.TextOnly, Logger: a.log})
}

// limits are the configured limits with the run's non-zero ones on top.
func (a *Agent) limits(over executor.Limits) executor.Limits {
	l := a.cfg.Limits
	if over.MaxSteps > 0 {
		l.MaxSteps = over.MaxSteps
	}
	if over.MaxWall > 0 {
		l.MaxWall = over.MaxWall
	}
	if over.MaxTokens > 0 {
		l.MaxTokens = over.MaxTokens
	}
	if over.MaxCost > 0 {
		l.MaxCost = over.MaxCost
	}
	if over.MaxActions > 0 {
		l.MaxActions = over.MaxActions
	}
	return l
}
