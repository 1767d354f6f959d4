// Package agentrun runs fairy's agent core for evaluations: it implements eval.Agent by
// wiring, for each task run, the device layer (executor/adb) to the task's phone, the
// model (a configured endpoint, or the scripted model serving the suite's rules over HTTP
// through the real OpenAI adapter), the knowledge file and the Self-Learner, the memory
// bus with its trace recorder, the interaction loop with the simulated user, the
// App-Level Executor and the Global Task Manager.
//
// It also serves virtual phones (a sim.Farm on the adb host protocol) for `--sim N`.
package agentrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/executor/prompts"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

// ErrConfig means the Agent was built with a bad part.
var ErrConfig = errors.New("agentrun: bad configuration")

// Config holds what every task run shares.
type Config struct {
	// Model is the agent's model (every role, also the model-played user and the judge).
	// Nil: each task run gets the scripted model answering from the suite's rules — a
	// test double, named as such in every answer.
	Model executor.Model
	// Limits are the defaults; a task's limits override them.
	Limits   executor.Limits
	Guard    *executor.Guard
	TextOnly bool
	// Shell is the technician shell's allow-list for the device and the decider.
	Shell []string
	// NoLearn runs without knowledge even when a job names a knowledge file.
	NoLearn bool
	// FastSettle shortens the device layer's settle and retry pauses (virtual phones
	// answer at once).
	FastSettle bool
	Secrets    []string
	Clock      func() time.Time
	Logger     *slog.Logger
}

// Agent implements eval.Agent. Knowledge files are opened once per path and shared by
// the runs using them at the same time.
type Agent struct {
	cfg    Config
	log    *slog.Logger
	prompt *prompts.Set
	marker *perception.Marker

	mu     sync.Mutex
	stores map[string]*storeRef
}

type storeRef struct {
	store *knowledge.Store
	refs  int
}

// New checks cfg and returns an Agent.
func New(cfg Config) (*Agent, error) {
	ps, err := prompts.Load()
	if err != nil {
		return nil, fmt.Errorf("agentrun: %w", err)
	}
	m, err := perception.NewMarker(perception.MarkOptions{})
	if err != nil {
		return nil, fmt.Errorf("agentrun: %w", err)
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Agent{cfg: cfg, log: log, prompt: ps, marker: m, stores: map[string]*storeRef{}}, nil
}

func (a *Agent) openStore(path string) (*knowledge.Store, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r := a.stores[path]; r != nil {
		r.refs++
		return r.store, nil
	}
	s, err := knowledge.Open(path, knowledge.Options{Clock: a.cfg.Clock})
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
	return r.store.Close()
}

// Session is one task run; it implements eval.Session.
type Session struct {
	a       *Agent
	job     eval.Job
	dev     *adb.Device
	model   executor.Model
	script  *scriptedEndpoint
	store   *knowledge.Store
	storeAt string
}

// Start implements eval.Agent: it opens the phone, the model and the knowledge file.
func (a *Agent) Start(ctx context.Context, job eval.Job) (_ eval.Session, err error) {
	s := &Session{a: a, job: job, model: a.cfg.Model}
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	if s.model == nil {
		rules, err := job.Suite.Rules(job.Task)
		if err != nil {
			return nil, err
		}
		s.script, err = startScripted(rules, a.log)
		if err != nil {
			return nil, err
		}
		s.model, err = openai.New(openai.Config{BaseURL: s.script.URL, DefaultModel: scripted.ModelName, MaxRetries: 1})
		if err != nil {
			return nil, fmt.Errorf("agentrun: scripted model client: %w", err)
		}
	}
	d := job.Device
	ac := adb.Config{Host: d.Host, Port: d.Port, Serial: d.Serial, ShellAllow: a.cfg.Shell, Logger: a.log}
	if a.cfg.FastSettle || d.Sim != nil {
		ac.SettleInterval, ac.DumpBackoff = 20*time.Millisecond, 20*time.Millisecond
	}
	if s.dev, err = adb.Open(ctx, ac); err != nil {
		return nil, fmt.Errorf("agentrun: open %s: %w", d.Serial, err)
	}
	if job.Knowledge != "" && !a.cfg.NoLearn {
		if s.store, err = a.openStore(job.Knowledge); err != nil {
			return nil, fmt.Errorf("agentrun: knowledge: %w", err)
		}
		s.storeAt = job.Knowledge
	}
	return s, nil
}

// Model implements eval.Session: the unmetered model, for the simulated user and the judge.
func (s *Session) Model() eval.Model { return s.model }

// Shell implements eval.Session; it runs any command (setup and checks come from the
// suite's author, not from a model).
func (s *Session) Shell(ctx context.Context, cmd string) (string, error) {
	out, status, err := s.dev.RawShell(ctx, cmd)
	if err == nil && status != 0 {
		err = fmt.Errorf("agentrun: shell %q: exit status %d", cmd, status)
	}
	return out, err
}

// Dump implements eval.Session.
func (s *Session) Dump(ctx context.Context) ([]byte, error) { return s.dev.Dump(ctx) }

// Close implements eval.Session.
func (s *Session) Close() error {
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
func (s *Session) Unused() []string {
	if s.script == nil {
		return nil
	}
	return s.script.Script.Unused()
}

// Run implements eval.Session: one agent run of the task's instruction, recorded in the
// job's run directory.
func (s *Session) Run(ctx context.Context, user interaction.Dialoger) (global.Summary, error) {
	a, job := s.a, s.job
	rec, err := global.NewRecorder(job.RunDir, a.cfg.Secrets...)
	if err != nil {
		return global.Summary{}, err
	}
	bus := memory.NewBus(a.cfg.Clock)
	mem := memory.NewManager()
	mem.Attach(bus)
	bus.Subscribe(rec.Handle)
	meter := &llm.Meter{}
	model := executor.Metered{Model: s.model, Meter: meter, Bus: bus}

	var (
		tricks executor.Tricks
		hints  executor.Hints
		cuts   executor.Shortcuts
		ls     *learner.Session
	)
	if s.store != nil {
		l, err := learner.New(learner.Config{Store: s.store, Model: model, Clock: a.cfg.Clock, Logger: a.log})
		if err != nil {
			return global.Summary{}, err
		}
		runID := job.Task.ID
		ls = l.Start(runID, job.Task.Instruction)
		defer ls.Attach(bus)()
		tricks, hints, cuts = ls, ls, shortcuts{ls}
	}
	limits := a.cfg.Limits
	if l := job.Task.Limits; l.Steps > 0 {
		limits.MaxSteps = l.Steps
	}
	if l := job.Task.Limits; l.Time > 0 {
		limits.MaxWall = l.Time
	}
	if l := job.Task.Limits; l.Cost > 0 {
		limits.MaxCost = l.Cost
	}
	it, err := interaction.New(interaction.Config{Model: model, Dialoger: user, Memory: mem, Prompts: a.prompt, Bus: bus, Logger: a.log})
	if err != nil {
		return global.Summary{}, err
	}
	var mark executor.MarkFunc
	if !a.cfg.TextOnly {
		mark = a.marker.Render
	}
	ex, err := executor.New(executor.Config{Device: s.dev, Model: model, Interactor: it, Memory: mem, Prompts: a.prompt, Bus: bus,
		Meter: meter, Guard: a.cfg.Guard, Tricks: tricks, Hints: hints, Shortcuts: cuts, Mark: mark, TextOnly: a.cfg.TextOnly,
		Limits: limits, Shell: a.cfg.Shell, Clock: a.cfg.Clock, Logger: a.log})
	if err != nil {
		return global.Summary{}, err
	}
	phone := appSource{dev: s.dev, store: s.store}
	gm, err := global.New(global.Config{Apps: phone, Launcher: s.dev, Executor: ex, Model: model, Prompts: a.prompt, Memory: mem,
		Bus: bus, Tricks: tricks, RunID: job.Task.ID, TextOnly: a.cfg.TextOnly, Logger: a.log})
	if err != nil {
		return global.Summary{}, err
	}
	_, runErr := gm.Run(ctx, job.Task.Instruction)
	if ls != nil {
		// Learning never fails the task; it runs even after a stop, bounded.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
		if _, err := ls.Learn(lctx); err != nil {
			a.log.Warn("learning failed", "task", job.Task.ID, "err", err)
		}
		cancel()
	}
	if err := rec.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return rec.Summary(), runErr
}

// shortcuts adapts the learner's known paths to the executor's Navigate action.
type shortcuts struct{ s *learner.Session }

// Shortcut implements executor.Shortcuts.
func (c shortcuts) Shortcut(ctx context.Context, app, from, target string) ([]executor.ShortcutStep, bool) {
	steps, ok := c.s.Shortcut(ctx, app, from, target)
	if !ok {
		return nil, false
	}
	out := make([]executor.ShortcutStep, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return out, true
}

// appSource lists the phone's launchable apps for the Global Planner, with the learned
// descriptions from the knowledge file.
type appSource struct {
	dev   *adb.Device
	store *knowledge.Store
}

func (p appSource) Apps(ctx context.Context) ([]global.App, error) {
	list, err := p.dev.Apps(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]global.App, 0, len(list))
	for _, x := range list {
		app := global.App{Package: x.Package, Label: x.Label}
		if app.Label == "" {
			app.Label = labelFromPackage(x.Package)
		}
		if p.store != nil {
			if k, err := p.store.GetApp(x.Package); err == nil {
				app.Description = k.Description
			}
		}
		out = append(out, app)
	}
	return out, nil
}

// labelFromPackage makes a readable label of a package name's last part.
func labelFromPackage(pkg string) string {
	last := pkg[strings.LastIndex(pkg, ".")+1:]
	if last == "" {
		return pkg
	}
	r := []rune(last)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// scriptedEndpoint is the scripted model served over HTTP on a free loopback port, so the
// agent reaches it through the real OpenAI adapter.
type scriptedEndpoint struct {
	Script *scripted.Server
	URL    string
	hs     *http.Server
	done   chan error
}

func startScripted(rules []scripted.Rule, log *slog.Logger) (*scriptedEndpoint, error) {
	srv, err := scripted.NewServer(rules, scripted.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("agentrun: scripted model: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("agentrun: scripted model: listen: %w", err)
	}
	e := &scriptedEndpoint{Script: srv, URL: "http://" + ln.Addr().String() + "/v1",
		hs: &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}, done: make(chan error, 1)}
	go func() { e.done <- e.hs.Serve(ln) }()
	return e, nil
}

// Close stops the server at once. The run is over, so no answer is cut; Shutdown would wait
// up to 5 s for a connection the client dialed but never used (http.StateNew).
func (e *scriptedEndpoint) Close() error {
	err := e.hs.Close()
	if serr := <-e.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
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
