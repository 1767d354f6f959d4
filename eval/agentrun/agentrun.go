package agentrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/llm/scripted"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/rundir"
)

// Config holds what every task run shares.
type Config struct {
	// Model is the agent's model (every role, also the model-played user and the judge).
	// Nil: each task run gets the scripted model answering from the suite's rules — a
	// test double, named as such in every answer.
	Model executor.Model
	// Limits are the defaults; a task's limits override them.
	Limits   executor.Limits
	Guard    *guard.Guard
	TextOnly bool
	// Pixels reads what the tree does not describe from screenshots (OCR); nil: none.
	Pixels executor.PixelReader
	// Shell is the technician shell's allow-list for the device and the decider.
	Shell []string
	// Grounding is the family the decider's model answers in (coordinates); "" is fairy's
	// numbered actions. With the scripted model, its decider answers in that family's
	// syntax and frame.
	Grounding grounding.Family
	// NoLearn runs without knowledge even when a job names a knowledge file.
	NoLearn bool
	// FastSettle shortens the device layer's settle and retry pauses (virtual phones
	// answer at once).
	FastSettle bool
	Secrets    []string
	Clock      func() time.Time
	Logger     *slog.Logger
	// OpenKnowledge opens a job's knowledge location (a file, or an etcd:// URL the
	// caller knows how to reach); nil opens knowledge files only.
	OpenKnowledge func(loc string, opts knowledge.Options) (*knowledge.Store, error)
	// Watch, when set, gives the handler that receives a task run's events (the live
	// page's panel of the phone, by its serial); a nil handler watches nothing.
	Watch func(serial, task string) event.Handler
}

// Agent implements eval.Agent. Knowledge files are opened once per path and shared by
// the runs using them at the same time.
type Agent struct {
	cfg   Config
	log   *slog.Logger
	agent *agent.Agent

	mu     sync.Mutex
	stores map[string]*storeRef
}

type storeRef struct {
	store *knowledge.Store
	refs  int
}

// New checks cfg and returns an Agent.
func New(cfg Config) (*Agent, error) {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ag, err := agent.New(agent.Config{Guard: cfg.Guard, Pixels: cfg.Pixels, Limits: cfg.Limits, TextOnly: cfg.TextOnly, Shell: cfg.Shell,
		Grounding: string(cfg.Grounding), Secrets: cfg.Secrets, Clock: cfg.Clock, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("agentrun: %w", err)
	}
	return &Agent{cfg: cfg, log: log, agent: ag, stores: map[string]*storeRef{}}, nil
}

func (a *Agent) openStore(path string) (*knowledge.Store, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r := a.stores[path]; r != nil {
		r.refs++
		return r.store, nil
	}
	open := a.cfg.OpenKnowledge
	if open == nil {
		open = knowledge.Open
	}
	s, err := open(path, knowledge.Options{Clock: a.cfg.Clock})
	if err != nil {
		return nil, err
	}
	a.stores[path] = &storeRef{store: s, refs: 1}
	return s, nil
}

func (a *Agent) releaseStore(path string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	r := a.stores[path]
	if r == nil {
		return nil
	}
	if r.refs--; r.refs > 0 {
		return nil
	}
	delete(a.stores, path)
	err := r.store.Close()
	if errors.Is(err, knowledge.ErrRemoteAway) {
		a.log.Warn("shared knowledge: some of what was learned is not stored", "err", err)
	}
	return err
}

// taskRun is one task run; it implements eval.TaskRun.
type taskRun struct {
	a       *Agent
	job     eval.Job
	dev     *adb.Device
	model   executor.Model
	script  *agent.ScriptedModel
	store   *knowledge.Store
	storeAt string
	// knowledgeOff says why the run goes without the knowledge it names (unreachable).
	knowledgeOff string
	devTime      eval.DeviceTime // metered over Run
	contradict   func(context.Context) (agent.Undone, error)
}

// Start implements eval.Agent: it opens the phone, the model and the knowledge file.
func (a *Agent) Start(ctx context.Context, job eval.Job) (_ eval.TaskRun, err error) {
	s := &taskRun{a: a, job: job, model: a.cfg.Model}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if s.model == nil {
		var opts []suite.RulesOption
		if job.NoNavigate {
			opts = append(opts, suite.WithoutNavigate())
		}
		rules, err := job.Suite.Rules(job.Task, opts...)
		if err != nil {
			return nil, err
		}
		if s.script, err = agent.ServeScriptedModelWith(rules, scripted.Options{Logger: a.log, Grounding: a.cfg.Grounding}, openai.Config{MaxRetries: 1}); err != nil {
			return nil, fmt.Errorf("agentrun: %w", err)
		}
		s.model = s.script.Model
	}
	d := job.Device
	s.dev, err = agent.OpenDevice(ctx, agent.DeviceConfig{Host: d.Host, Port: d.Port, Serial: d.Serial, Shell: a.cfg.Shell,
		Virtual: a.cfg.FastSettle || d.Sim != nil, Logger: a.log})
	if err != nil {
		return nil, fmt.Errorf("agentrun: %w", err)
	}
	if job.Knowledge != "" && !a.cfg.NoLearn {
		s.store, err = a.openStore(job.Knowledge)
		switch {
		case errors.Is(err, knowledge.ErrRemoteUnreachable):
			// Shared knowledge that cannot be reached costs knowledge, never the task.
			a.log.Warn("running without shared knowledge", "task", job.Task.ID, "err", err)
			s.knowledgeOff, s.store = err.Error(), nil
		case err != nil:
			return nil, fmt.Errorf("agentrun: knowledge: %w", err)
		default:
			s.storeAt = job.Knowledge
		}
	}
	return s, nil
}

// Model implements eval.TaskRun: the unmetered model, for the simulated user and the judge.
func (s *taskRun) Model() suite.Model { return s.model }

// Shell implements eval.TaskRun; it runs any command (setup and checks come from the
// suite's author, not from a model).
func (s *taskRun) Shell(ctx context.Context, cmd string) (string, error) {
	out, status, err := s.dev.RawShell(ctx, cmd)
	if err == nil && status != 0 {
		err = fmt.Errorf("agentrun: shell %q: exit status %d", cmd, status)
	}
	return out, err
}

// Dump implements eval.TaskRun.
func (s *taskRun) Dump(ctx context.Context) ([]byte, error) { return s.dev.Dump(ctx) }

// DeviceTime implements eval.DeviceTimer: the device time of the last Run.
func (s *taskRun) DeviceTime() eval.DeviceTime { return s.devTime }

func deviceTime(d *adb.Device) eval.DeviceTime {
	t := d.DeviceTime()
	out := eval.DeviceTime{Seconds: t.Busy.Seconds(), Ops: map[string]eval.OpTime{}, Path: eval.PathClassic}
	for k, v := range t.Ops {
		out.Ops[k] = eval.OpTime{Calls: v.Calls, Seconds: v.Time.Seconds()}
	}
	if _, ok := t.Ops[adb.OpSource]; ok {
		out.Path = eval.PathUIServer
	}
	return out
}

// Close implements eval.TaskRun.
func (s *taskRun) Close() error {
	var errs []error
	if s.dev != nil {
		errs = append(errs, s.dev.Close(context.Background()))
	}
	if s.script != nil {
		errs = append(errs, s.script.Close())
	}
	if s.store != nil {
		errs = append(errs, s.a.releaseStore(s.storeAt))
	}
	return errors.Join(errs...)
}

// Unused lists the scripted rules that never fired in this run (scripted model only).
func (s *taskRun) Unused() []string {
	if s.script == nil {
		return nil
	}
	return s.script.Script.Unused()
}

// Run implements eval.TaskRun: one agent run of the task's instruction, recorded in the
// job's run directory; the Self-Learner learns after every app task.
func (s *taskRun) Run(ctx context.Context, user interaction.Dialoger) (rundir.Summary, error) {
	job := s.job
	l := job.Task.Limits
	s.dev.ResetDeviceTime()
	defer func() { s.devTime = deviceTime(s.dev) }()
	run := agent.Run{Instruction: job.Task.Instruction, Dir: job.RunDir, ID: job.Task.ID,
		Device: s.dev, Model: s.model, Dialoger: user, Knowledge: s.store, KnowledgeOff: s.knowledgeOff,
		Limits: executor.Limits{MaxSteps: l.Steps, MaxWall: l.Time, MaxCost: l.Cost, MaxActions: l.Actions}}
	if s.a.cfg.Watch != nil {
		run.Watch = s.a.cfg.Watch(s.dev.Serial(), job.Task.ID)
	}
	if job.ModelErrors.Any() {
		// The agent's model errs on purpose; the simulated user and the judge do not.
		run.WrapModel = func(m executor.Model, note func(role, kind, change string)) executor.Model {
			return inject.Wrap(m, job.ModelErrors, job.Seed, func(i inject.Injection) { note(i.Role, string(i.Kind), i.Change) })
		}
	}
	res, err := s.a.agent.Run(ctx, run)
	if err != nil {
		return rundir.Summary{}, err
	}
	if res.KnowledgeErr != nil {
		s.a.log.Warn("App Map updates failed", "task", job.Task.ID, "err", res.KnowledgeErr)
	}
	s.contradict = res.Contradict
	return res.Summary, res.Err
}

// Contradict implements eval.Contradicter: the run said done and the task's checks
// failed, so what it learned and replayed is taken back (agent.Result.Contradict).
func (s *taskRun) Contradict(ctx context.Context) error {
	if s.contradict == nil {
		return nil
	}
	_, err := s.contradict(ctx)
	return err
}

// Merge imports the knowledge files srcs into dst (created when missing): what the cold
// pass of an evaluation learned, for the warm pass. It is eval.Config.Merge.
func Merge(dst string, srcs []string) error {
	out, err := knowledge.Open(dst, knowledge.Options{})
	if err != nil {
		return fmt.Errorf("agentrun: merge into %s: %w", dst, err)
	}
	defer out.Close()
	for _, src := range srcs {
		if err := mergeOne(out, src); err != nil {
			return err
		}
	}
	return out.Close()
}

func mergeOne(out *knowledge.Store, src string) error {
	if _, err := os.Stat(src); err != nil {
		return nil
	}
	in, err := knowledge.Open(src, knowledge.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("agentrun: merge %s: %w", src, err)
	}
	defer in.Close()
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := in.Export(pw)
		pw.CloseWithError(err)
		errc <- err
	}()
	if _, err := out.Import(pr); err != nil {
		pr.CloseWithError(err)
		<-errc
		return fmt.Errorf("agentrun: merge %s: %w", src, err)
	}
	if err := <-errc; err != nil {
		return fmt.Errorf("agentrun: merge %s: %w", src, err)
	}
	return nil
}
