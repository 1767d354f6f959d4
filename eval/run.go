package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// Device is one phone a worker owns for the whole evaluation: a virtual phone (Sim set) or
// a real device reached through an adb server, local or remote.
type Device struct {
	Serial string
	Host   string     // adb server host; "" is the local one
	Port   int        // adb server port; 0 is 5037
	Sim    *sim.Phone // the virtual phone, nil for a real device
}

// Job is one task run handed to the Agent.
type Job struct {
	Suite     *suite.Suite
	Task      *suite.Task
	Device    Device
	RunDir    string // the run directory to create and fill (trace.jsonl, screenshots, summary.json)
	Knowledge string // the knowledge file for this run; "" for none
	PassIndex int    // 0 cold (or the only pass), 1 warm, 2 warm without Navigate, 3 learn
	Phase     string // with cold/warm or learning: PhaseCold, PhaseWarm, PhaseIndependent or PhaseLearn
	// NoNavigate asks for a model that never takes a learned shortcut (Navigate): the
	// scripted model's rules are compiled WithoutNavigate.
	NoNavigate bool
	Repeat     int
	// ModelErrors are the errors to inject into the agent's model answers (none when
	// empty), drawn from Seed (one seed per run: the evaluation's, the task, the phase
	// and the repeat).
	ModelErrors inject.Rates
	Seed        uint64
}

// Phases of an evaluation with cold/warm passes or a learning pass.
const (
	phaseCold = "cold" // empty knowledge
	phaseWarm = "warm" // what was learned; the model may take Navigate (model-cooperating)
	// phaseIndependent is the warm pass again with a model that never takes Navigate:
	// what the executor saves by itself (model-independent).
	phaseIndependent = "warm-independent"
	PhaseLearn       = "learn" // Config.Learn's tasks, learning into one shared file
	// phaseAsItGoes is the suite's tasks in order, all learning into one knowledge file
	// that starts empty (Config.AsItGoes): learning as it goes.
	phaseAsItGoes = "as-it-goes"
)

// passIndex numbers the phases (Job.PassIndex, TaskResult.PassIndex).
var passIndex = map[string]int{phaseCold: 0, phaseWarm: 1, phaseIndependent: 2, PhaseLearn: 3, phaseAsItGoes: 4}

// Agent starts the agent for one task on one phone. cmd wires the fairy agent core in
// (package eval/agentrun); tests plug in fakes.
type Agent interface {
	Start(ctx context.Context, job Job) (TaskRun, error)
}

// TaskRun is one started task run.
type TaskRun interface {
	// Model answers the model-played user (role "user") and the judge (role "judge"); nil
	// when the session has none. Its calls are not the agent's and are not counted as such.
	Model() suite.Model
	// Run carries out the task's instruction with user answering the agent's questions.
	Run(ctx context.Context, user interaction.Dialoger) (rundir.Summary, error)
	// Shell and Dump reach the phone for setup commands and checks on real devices.
	Shell(ctx context.Context, cmd string) (string, error)
	Dump(ctx context.Context) ([]byte, error)
	Close() error
}

// Contradicter is a TaskRun that can take back what a run learned: the evaluation calls
// it when the run said done and the task's checks failed (a false success), as a person
// who saw the wrong result would say so, so the knowledge never carries the mistake on.
type Contradicter interface {
	Contradict(ctx context.Context) error
}

// Knowledge modes for Config.Knowledge (anything else is a file path).
const (
	KnowledgeFresh  = "fresh"  // every task run starts with empty knowledge
	KnowledgeShared = "shared" // one knowledge file in the output directory, shared by every run
)

// Config is one evaluation.
type Config struct {
	Suite   *suite.Suite // required
	Agent   Agent        // required
	Devices []Device     // required: one worker per device (up to Parallel)
	Out     string       // required: output directory
	// Parallel bounds how many devices work at once (0: all of them).
	Parallel int
	// Repeat runs every task this many times (0 or 1: once).
	Repeat int
	// Knowledge is fresh, shared or a file path ("": fresh).
	Knowledge string
	// ColdWarm runs the suite with empty knowledge, then again with what that pass learned
	// twice: with the model taking Navigate when a hint offers it (warm), and with a model
	// that never does (warm-independent).
	ColdWarm bool
	// Learn, when set, runs its tasks first with fresh knowledge learning into one shared
	// file (learned.db in Out), then Suite's tasks cold and warm (both ways, as ColdWarm)
	// with that file instead of what a cold pass learned: learn on some tasks, evaluate on
	// others. Merge is not needed.
	Learn *suite.Suite
	// Learned, when set, is a knowledge file learned before (another seed's tasks, by an
	// earlier evaluation): the warm passes start from copies of it, with no learning pass
	// and no merge (it implies ColdWarm). It is only read.
	Learned string
	// AsItGoes adds, with the cold and warm passes, a pass that learns as it goes: the
	// suite's tasks in order share one knowledge file that starts empty (as-it-goes.db in
	// Out). It learns, so ModelErrorsLearnOnly injects its errors too.
	AsItGoes bool
	// NoNavigate compiles the scripted rules without Navigate for the single pass, the
	// cold pass and the learning pass (the warm passes are set by ColdWarm).
	NoNavigate bool
	// Merge merges the knowledge files of the cold pass into one file for the warm pass;
	// required with ColdWarm (cmd wires the knowledge store's export/import).
	Merge func(dst string, srcs []string) error
	// Progress receives the terminal progress lines; nil: none.
	Progress io.Writer
	// TaskTimeout bounds one task run when its limits set no time (default 10 minutes).
	TaskTimeout time.Duration
	// Prompts renders the model-played users' and the judge's prompts; nil: the embedded
	// set (prompts.Load).
	Prompts *prompts.Set
	Clock   func() time.Time
	Logger  *slog.Logger
	// ModelErrors injects errors into the agent's model answers at these rates (package
	// llm/inject), whatever model answers; Seed draws them. ModelErrorsLearnOnly injects
	// them only where knowledge is learned (the cold and learning passes), so the warm
	// passes measure clean runs on knowledge learned from a model that erred.
	ModelErrors          inject.Rates
	ModelErrorsLearnOnly bool
	Seed                 uint64
}

// Run evaluates the suite. It returns the report of every task that finished — also when
// ctx is cancelled (then Interrupted is set and ctx's error is returned) — and writes
// report.json, report.md and report.html into Out. A task that fails, errs or panics is
// reported as such and never stops the suite.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	switch {
	case cfg.Suite == nil:
		return nil, fmt.Errorf("%w: no suite", ErrConfig)
	case cfg.Agent == nil:
		return nil, fmt.Errorf("%w: no agent", ErrConfig)
	case len(cfg.Devices) == 0:
		return nil, fmt.Errorf("%w: no device: pass --devices or --sim N", ErrConfig)
	case cfg.Out == "":
		return nil, fmt.Errorf("%w: no output directory", ErrConfig)
	case cfg.ColdWarm && cfg.Learn == nil && cfg.Learned == "" && cfg.Merge == nil:
		return nil, fmt.Errorf("%w: cold/warm needs a knowledge merger", ErrConfig)
	case cfg.Learn != nil && cfg.Learned != "":
		return nil, fmt.Errorf("%w: learn on a suite first or use knowledge learned before, not both", ErrConfig)
	case cfg.AsItGoes && !cfg.ColdWarm && cfg.Learn == nil && cfg.Learned == "":
		return nil, fmt.Errorf("%w: the pass that learns as it goes is compared with the cold and warm passes: it needs cold/warm", ErrConfig)
	}
	if cfg.Learned != "" {
		if _, err := os.Stat(cfg.Learned); err != nil {
			return nil, fmt.Errorf("%w: the knowledge learned before: %w", ErrConfig, err)
		}
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Repeat < 1 {
		cfg.Repeat = 1
	}
	if cfg.Knowledge == "" {
		cfg.Knowledge = KnowledgeFresh
	}
	if cfg.Prompts == nil {
		ps, err := prompts.Load()
		if err != nil {
			return nil, fmt.Errorf("eval: %w", err)
		}
		cfg.Prompts = ps
	}
	if cfg.TaskTimeout <= 0 {
		cfg.TaskTimeout = 10 * time.Minute
	}
	devices := cfg.Devices
	if cfg.Parallel > 0 && cfg.Parallel < len(devices) {
		devices = devices[:cfg.Parallel]
	}
	out, err := filepath.Abs(cfg.Out)
	if err != nil {
		return nil, fmt.Errorf("eval: output directory: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("eval: output directory: %w", err)
	}
	cfg.Out = out

	if cfg.Learn != nil || cfg.Learned != "" {
		cfg.ColdWarm = true
	}
	rep := &Report{Schema: reportSchema, Suite: cfg.Suite.Name, Source: cfg.Suite.Source, Started: cfg.Clock(),
		Options: RunOptions{Parallel: len(devices), Repeat: cfg.Repeat, Knowledge: cfg.Knowledge, ColdWarm: cfg.ColdWarm, NoNavigate: cfg.NoNavigate,
			ModelErrors: cfg.ModelErrors.String(), ModelErrorsLearnOnly: cfg.ModelErrorsLearnOnly && cfg.ModelErrors.Any(), Seed: cfg.Seed,
			Learned: cfg.Learned, AsItGoes: cfg.AsItGoes}, Tasks: []TaskResult{}}
	if cfg.Learn != nil {
		rep.Options.Learn = cfg.Learn.Source
		if rep.Options.Learn == "" {
			rep.Options.Learn = cfg.Learn.Name
		}
		for _, t := range cfg.Learn.Tasks {
			rep.Options.LearnTasks = append(rep.Options.LearnTasks, t.ID)
		}
	}
	for _, d := range devices {
		rep.Devices = append(rep.Devices, d.Serial)
	}
	order := map[string]int{}
	revisit := map[string]bool{}
	for i, t := range cfg.Suite.Tasks {
		order[t.ID] = i
		revisit[t.ID] = t.HasTag(revisitTag)
	}
	phases := []string{""}
	switch {
	case cfg.Learn != nil:
		phases = []string{PhaseLearn, phaseCold, phaseWarm, phaseIndependent}
	case cfg.ColdWarm:
		phases = []string{phaseCold, phaseWarm, phaseIndependent}
	}
	if cfg.AsItGoes {
		phases = slices.Insert(phases, slices.Index(phases, phaseCold)+1, phaseAsItGoes)
	}
	total := 0
	for _, ph := range phases {
		suite := cfg.Suite
		if ph == PhaseLearn {
			suite = cfg.Learn
		}
		total += cfg.Repeat * len(suite.Tasks)
	}
	prog := newProgress(cfg.Progress, total, devices, cfg.Clock)
	passWall := make([]float64, len(passIndex))
	var runErr error
	merged := cfg.Learned
	for _, phase := range phases {
		if runErr != nil {
			break
		}
		start := cfg.Clock()
		suite := cfg.Suite
		if phase == PhaseLearn {
			suite = cfg.Learn
		}
		var jobs []*Job
		for rep := 0; rep < cfg.Repeat; rep++ {
			for _, t := range suite.Tasks {
				j := &Job{Suite: suite, Task: t, PassIndex: passIndex[phase], Phase: phase, Repeat: rep,
					NoNavigate: phase == phaseIndependent || (cfg.NoNavigate && phase != phaseWarm)}
				if cfg.ModelErrors.Any() && (!cfg.ModelErrorsLearnOnly || phase == phaseCold || phase == PhaseLearn || phase == phaseAsItGoes) {
					j.ModelErrors = cfg.ModelErrors
					j.Seed = inject.Seed(cfg.Seed, t.ID, phase, strconv.Itoa(rep))
				}
				jobs = append(jobs, j)
			}
		}
		if phase == PhaseLearn {
			merged = filepath.Join(out, "learned.db")
			if err := os.Remove(merged); err != nil && !errors.Is(err, os.ErrNotExist) {
				runErr = fmt.Errorf("eval: fresh learning knowledge: %w", err)
				break
			}
		}
		if phase == phaseAsItGoes {
			if err := os.Remove(filepath.Join(out, asItGoesFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
				runErr = fmt.Errorf("eval: fresh knowledge to learn as it goes: %w", err)
				break
			}
		}
		for _, j := range jobs {
			j.RunDir = filepath.Join(out, "runs", runName(j, cfg))
			j.Knowledge = knowledgeFor(j, cfg, out, merged)
		}
		results, err := runPass(ctx, cfg, devices, jobs, prog)
		rep.Tasks = append(rep.Tasks, results...)
		passWall[passIndex[phase]] = cfg.Clock().Sub(start).Seconds()
		runErr = err
		if phase == phaseCold && cfg.Learn == nil && cfg.Learned == "" && runErr == nil {
			merged = filepath.Join(out, "knowledge.db")
			if cfg.Knowledge != KnowledgeFresh && cfg.Knowledge != KnowledgeShared {
				merged = cfg.Knowledge
			} else if err := os.Remove(merged); err != nil && !errors.Is(err, os.ErrNotExist) {
				// What this cold pass learned, not what an earlier evaluation left there.
				runErr = fmt.Errorf("eval: merge cold-pass knowledge: %w", err)
			}
			var srcs []string
			for _, j := range jobs {
				if _, err := os.Stat(j.Knowledge); err == nil {
					srcs = append(srcs, j.Knowledge)
				}
			}
			if err := cfg.Merge(merged, srcs); err != nil {
				runErr = fmt.Errorf("eval: merge cold-pass knowledge: %w", err)
			}
		}
	}
	prog.finish()
	rep.Finished = cfg.Clock()
	rep.Interrupted = ctx.Err() != nil
	rep.sortTasks(order)
	for i := range rep.Tasks {
		if rd := rep.Tasks[i].RunDir; rd != "" {
			if rel, err := filepath.Rel(out, rd); err == nil {
				rep.Tasks[i].RunDir = rel
			}
		}
	}
	rep.total(passWall, revisit)
	rep.Misled, rep.Curves = rep.misled(out), rep.curves()
	if err := rep.WriteFiles(out); err != nil {
		return rep, errors.Join(runErr, err)
	}
	return rep, runErr
}

// asItGoesFile is the knowledge file the pass that learns as it goes shares, in Out.
const asItGoesFile = "as-it-goes.db"

func runName(j *Job, cfg Config) string {
	name := j.Task.ID
	if cfg.Repeat > 1 {
		name += fmt.Sprintf("-r%d", j.Repeat+1)
	}
	if j.Phase != "" {
		return filepath.Join(j.Phase, name)
	}
	return name
}

// knowledgeFor names the knowledge file of a job. With cold/warm the cold runs learn into
// files of their own and every warm run starts from a copy of their merge, so each warm
// run sees exactly what the cold pass learned.
func knowledgeFor(j *Job, cfg Config, out, merged string) string {
	own := filepath.Join(j.RunDir, "knowledge.db")
	switch {
	case j.Phase == PhaseLearn:
		return merged // one shared file: each learning run builds on the ones before
	case j.Phase == phaseAsItGoes:
		return filepath.Join(out, asItGoesFile)
	case j.Phase == phaseCold:
		return own
	case j.Phase == phaseWarm || j.Phase == phaseIndependent:
		return "copy:" + merged // resolved by the worker: copied into the run directory
	case cfg.Knowledge == KnowledgeFresh:
		return own
	case cfg.Knowledge == KnowledgeShared:
		return filepath.Join(out, "knowledge.db")
	}
	return cfg.Knowledge
}

// fits reports whether a job can run on a device.
func fits(t *suite.Task, d Device) bool {
	if t.Phone.Sim != nil {
		return d.Sim != nil
	}
	if d.Sim != nil {
		return false
	}
	return t.Phone.Device.Serial == "" || t.Phone.Device.Serial == d.Serial
}
