package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/agentrun"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/sim"
	"github.com/spf13/cobra"
)

// evalDeps are the hooks of `fairy eval`.
type evalDeps struct {
	// Config resolves the model (nil: each task gets the scripted model with the suite's
	// rules), limits and the runs directory, as for `fairy run`.
	Config func(cmd *cobra.Command) (runConfig, error)
	// Device gives the default adb server (--adb-host/--adb-port) for --devices.
	Device func() deviceTarget
	Stdout io.Writer
	Now    func() time.Time
	// Style dresses the progress on a terminal (colour; see termStyle).
	Style termStyle
}

// evalFlags are `fairy eval`'s options.
type evalFlags struct {
	devices   string
	sims      int
	parallel  int
	repeat    int
	knowledge string
	coldWarm  bool
	out       string
	only      string
	// noNavigate compiles the scripted rules without Navigate (single, cold and learning
	// passes).
	noNavigate bool
	// learnFrom, learnTags and evalTags ask for learn-then-evaluate.
	learnFrom string
	learnTags string
	evalTags  string
	// profile is the virtual phones' timing (sim.ParseProfile).
	profile string
	aw      awFlags
}

// newEvalCmd builds `fairy eval`.
func newEvalCmd(d evalDeps) *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval SUITE [--devices S1,S2,… | --sim N] [--parallel N] [--repeat K] [--knowledge fresh|shared|FILE] [--cold-warm] [--learn-from LEARN | --learn-tags T --eval-tags T] [--no-navigate] [--out DIR]",
		Short: "Evaluate the agent on a suite of tasks with simulated users, on one or many phones",
		Long: `Runs every task of SUITE (a YAML file, builtin:sim, or androidworld:sim — AndroidWorld's task
families mirrored on the virtual phone, drawn from --seed, --instances and --family — not
AndroidWorld itself) with its simulated user, checks the
outcome, and writes report.json, report.md and report.html (plus one run directory per task)
into --out. One worker per phone; a task never shares a phone.

Phones: --sim N starts N virtual phones in-process; --devices takes serials of real devices,
each SERIAL or HOST:PORT/SERIAL for a device behind a remote adb server.
With no model configured the suite's scripted model rules answer (a test double); a built-in
suite always answers with them unless --model NAME or --real-model names a real one.
--cold-warm runs the suite with empty knowledge, then again with what that pass learned,
twice: with the scripted model taking Navigate when a hint offers it (model-cooperating)
and with a model that never does (model-independent); the report splits each saving by
mechanism (verified steps, Navigate replays, skipped fixed calls, calls per role).
--learn-from LEARN (a suite) or --learn-tags T1,T2 (tasks of SUITE; the others, or those
tagged --eval-tags, are evaluated) learns first on those tasks into one shared knowledge
file, then runs the evaluated tasks cold and with that file, both ways: learn-then-evaluate.
--no-navigate compiles the scripted rules without Navigate (a single pass or the cold one).
Ctrl-C stops the run and still writes the report of the tasks that finished.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(cmd, d, f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.devices, "devices", "", "real devices: SERIAL or HOST:PORT/SERIAL, comma-separated")
	fl.IntVar(&f.sims, "sim", 0, "number of virtual phones to start (a built-in suite with no --devices: 1)")
	fl.StringVar(&f.profile, "profile", "instant", "timing of the virtual phones: instant, pixel (a recent phone's latencies) or slow (an older phone's)")
	fl.IntVar(&f.parallel, "parallel", 0, "phones working at once (default: all)")
	fl.IntVar(&f.repeat, "repeat", 1, "run every task this many times")
	fl.StringVar(&f.knowledge, "knowledge", eval.KnowledgeFresh, "knowledge per run: fresh, shared (one file in --out) or a knowledge FILE")
	fl.BoolVar(&f.coldWarm, "cold-warm", false, "run with empty knowledge, then again with what was learned, and compare")
	fl.StringVar(&f.out, "out", "", "output directory (default: a new directory under the runs directory)")
	fl.StringVar(&f.only, "tasks", "", "run only these task ids (comma-separated)")
	fl.BoolVar(&f.noNavigate, "no-navigate", false, "scripted model: never take a learned shortcut (Navigate)")
	fl.StringVar(&f.learnFrom, "learn-from", "", "learn first on this suite's tasks, then evaluate SUITE cold and with what they learned")
	fl.StringVar(&f.learnTags, "learn-tags", "", "learn first on SUITE's tasks with one of these tags (comma-separated)")
	fl.StringVar(&f.evalTags, "eval-tags", "", "with --learn-tags: evaluate the tasks with one of these tags (default: all the others)")
	addAndroidWorldFlags(cmd, &f.aw)
	addEvalModelFlags(cmd)
	return cmd
}

func runEval(cmd *cobra.Command, d evalDeps, f evalFlags, ref string) error {
	ctx := cmd.Context()
	out := d.Stdout
	if out == nil {
		out = cmd.OutOrStdout()
	}
	out = termStyle{Color: d.Style.Color}.wrap(out) // no live line: eval's lines say what runs
	now := d.Now
	if now == nil {
		now = time.Now
	}
	if f.devices == "" && !cmd.Flags().Changed("sim") && builtinSuite(ref) {
		f.sims = 1 // a built-in suite is written for the virtual phone: `fairy eval builtin:sim` just runs
	}
	switch {
	case f.devices != "" && f.sims > 0:
		return withExit(2, errors.New("use either --devices or --sim, not both"))
	case f.devices == "" && f.sims <= 0:
		return withExit(2, errors.New("no phones: pass --sim N for virtual phones or --devices S1,S2 for real ones"))
	case f.repeat < 1 || f.parallel < 0:
		return withExit(2, errors.New("--repeat must be at least 1 and --parallel not negative"))
	}
	suite, err := loadSuite(ref, f.aw)
	if err != nil {
		return withExit(2, err)
	}
	if f.only != "" {
		if err := keepTasks(suite, f.only); err != nil {
			return withExit(2, err)
		}
	}
	learn, err := learnSuite(suite, f)
	if err != nil {
		return withExit(2, err)
	}
	rc, err := d.Config(cmd)
	if err != nil {
		return withExit(2, err)
	}
	rc, modelLine, err := evalModel(cmd, ref, rc)
	if err != nil {
		return withExit(2, err)
	}
	log := rc.Agent.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if f.out == "" {
		f.out = filepath.Join(rc.RunsDir, "eval-"+now().UTC().Format("20060102-150405"))
	}
	if etcdstore.IsURL(f.knowledge) && (f.coldWarm || f.learnFrom != "" || f.learnTags != "") {
		return withExit(2, errors.New("--knowledge etcd://… is one knowledge every run shares: --cold-warm, --learn-from and --learn-tags need a knowledge file (or fresh/shared)"))
	}
	if err := checkEvalKnowledge(f.knowledge, f.out); err != nil {
		return withExit(2, err)
	}
	var devices []eval.Device
	profile, err := sim.ParseProfile(f.profile)
	if err != nil {
		return withExit(2, fmt.Errorf("--profile: %w", err))
	}
	if f.sims == 0 && profile.Name != "instant" {
		return withExit(2, errors.New("--profile times virtual phones: use it with --sim N"))
	}
	apps := suite.SimApps()
	if apps == nil && learn != nil {
		apps = learn.SimApps()
	}
	if apps != nil && f.sims == 0 {
		return withExit(2, fmt.Errorf("the suite's apps: (%s) install on virtual phones: run it with --sim N", suite.Apps))
	}
	if f.sims > 0 {
		farm, err := agentrun.ServeFarm(sim.FarmConfig{Phones: f.sims, Base: sim.Config{Seed: 1, Logger: log, Profile: profile, Apps: apps}}, log)
		if err != nil {
			return withExit(2, err)
		}
		defer farm.Close()
		devices = farm.Devices()
	} else if devices, err = parseDevices(f.devices, d.Device()); err != nil {
		return withExit(2, err)
	}
	ac := rc.Agent
	agent, err := agentrun.New(agentrun.Config{Model: rc.Model, Limits: ac.Limits, Guard: ac.Guard, TextOnly: ac.TextOnly,
		Shell: ac.Shell, Secrets: ac.Secrets, Logger: log, OpenKnowledge: func(loc string, opts knowledge.Options) (*knowledge.Store, error) {
			return openKnowledgeStore(loc, opts, rc.Etcd)
		}})
	if err != nil {
		return withExit(2, err)
	}
	fmt.Fprintln(out, modelLine)
	if f.sims > 0 {
		fmt.Fprintf(out, "phones: %d virtual phone(s) (sim, a test double)\n", f.sims)
	}
	fmt.Fprintf(out, "suite %s: %d tasks → %s\n", suite.Name, len(suite.Tasks), f.out)
	if learn != nil {
		fmt.Fprintf(out, "learning first on %d tasks: %s\n", len(learn.Tasks), taskIDs(learn))
	}
	rep, runErr := eval.Run(ctx, eval.Config{Suite: suite, Learn: learn, Agent: agent, Devices: devices, Out: f.out, Parallel: f.parallel,
		Repeat: f.repeat, Knowledge: f.knowledge, ColdWarm: f.coldWarm, NoNavigate: f.noNavigate, Merge: agentrun.Merge, Progress: out, Logger: log})
	if rep != nil {
		t := rep.Totals
		fmt.Fprintf(out, "passed %d of %d · %d model calls · %.1f s\n", t.Passed, t.Tasks, t.ModelCalls, t.WallSeconds)
		if cw := t.ColdWarm; cw != nil {
			rv := cw.Revisit
			fmt.Fprintf(out, "cold %d → warm %d model calls (%.0f%% fewer); tasks tagged revisit: %d → %d (%.0f%% fewer)\n",
				t.Cold.ModelCalls, t.Warm.ModelCalls, 100*cw.ModelCallsReduction, rv.ColdModelCalls, rv.WarmModelCalls, 100*rv.Reduction)
			fmt.Fprintf(out, "cold %d → warm %d steps, %d → %d prompt tokens; tasks tagged revisit: %d → %d steps, %d → %d prompt tokens\n",
				t.Cold.Steps, t.Warm.Steps, t.Cold.PromptTokens, t.Warm.PromptTokens, rv.ColdSteps, rv.WarmSteps, rv.ColdPromptTokens, rv.WarmPromptTokens)
			for _, fg := range cw.Figures {
				sv := fg.Savings
				fmt.Fprintf(out, "%s: cold %d → warm %d model calls (%.2f×), %d saved: %d verified steps, %d known readings, %d learning skipped, %d on tasks that ran %d routines, %d on tasks that replayed %d Navigate, %d fixed calls and the rest; calls a step waits on %.2f → %.2f per step\n",
					fg.Name, fg.ColdModelCalls, fg.WarmModelCalls, float64(fg.WarmModelCalls)/float64(max(fg.ColdModelCalls, 1)), sv.Saved,
					sv.VerifiedSteps, sv.KnownReads, sv.SkippedLearns, sv.RoutineSaved, sv.Routines, sv.NavigateSaved, sv.Navigations, sv.Other,
					fg.ColdCriticalPerStep, fg.WarmCriticalPerStep)
			}
		}
		if err := writeAndroidWorld(out, ref, f.aw, rep, f.out); err != nil {
			return withExit(1, err)
		}
		fmt.Fprintf(out, "report: %s\n", filepath.Join(f.out, eval.ReportHTML))
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case runErr != nil:
		return withExit(1, runErr)
	case rep.Totals.Failed > 0:
		return withExit(1, fmt.Errorf("%d of %d tasks failed", rep.Totals.Failed, rep.Totals.Tasks))
	}
	return nil
}

// checkEvalKnowledge checks, before any phone is started, the knowledge file an evaluation
// would share (--knowledge FILE, or shared: knowledge.db in the output directory) when it
// exists: a damaged one stops the evaluation instead of failing every task.
func checkEvalKnowledge(mode, out string) error {
	path := mode
	switch {
	case etcdstore.IsURL(mode):
		return nil // every run opens it; an unreachable cluster costs knowledge, not tasks
	case mode == eval.KnowledgeFresh:
		return nil
	case mode == eval.KnowledgeShared:
		path = filepath.Join(out, "knowledge.db")
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	s, err := knowledge.Open(path, knowledge.Options{ReadOnly: true, Timeout: knowledgeLockWait})
	if err != nil {
		return fmt.Errorf("--knowledge %s: %w", mode, err)
	}
	return s.Close()
}

// learnSuite splits off the tasks to learn on first (--learn-from or --learn-tags; nil
// for neither); with --learn-tags, suite keeps the tasks to evaluate.
func learnSuite(suite *eval.Suite, f evalFlags) (*eval.Suite, error) {
	switch {
	case f.learnFrom != "" && f.learnTags != "":
		return nil, errors.New("use either --learn-from or --learn-tags, not both")
	case f.evalTags != "" && f.learnTags == "":
		return nil, errors.New("--eval-tags needs --learn-tags (the tasks to learn on first)")
	case f.learnFrom != "":
		l, err := eval.Load(f.learnFrom)
		if err != nil {
			return nil, fmt.Errorf("--learn-from: %w", err)
		}
		return l, nil
	case f.learnTags == "":
		return nil, nil
	}
	tagged := func(t *eval.Task, list string) bool {
		for _, tag := range strings.Split(list, ",") {
			if t.HasTag(strings.TrimSpace(tag)) {
				return true
			}
		}
		return false
	}
	learn := *suite
	learn.Tasks = nil
	var evaluate []*eval.Task
	for _, t := range suite.Tasks {
		switch {
		case tagged(t, f.learnTags):
			learn.Tasks = append(learn.Tasks, t)
		case f.evalTags == "" || tagged(t, f.evalTags):
			evaluate = append(evaluate, t)
		}
	}
	if len(learn.Tasks) == 0 || len(evaluate) == 0 {
		return nil, fmt.Errorf("--learn-tags %s --eval-tags %s: %d tasks to learn on, %d to evaluate; both need at least one",
			f.learnTags, f.evalTags, len(learn.Tasks), len(evaluate))
	}
	suite.Tasks = evaluate
	return &learn, nil
}

func taskIDs(s *eval.Suite) string {
	ids := make([]string, len(s.Tasks))
	for i, t := range s.Tasks {
		ids[i] = t.ID
	}
	return strings.Join(ids, ", ")
}

// keepTasks narrows a suite to the listed task ids.
func keepTasks(s *eval.Suite, only string) error {
	want := map[string]bool{}
	for _, id := range strings.Split(only, ",") {
		want[strings.TrimSpace(id)] = true
	}
	var ts []*eval.Task
	for _, t := range s.Tasks {
		if want[t.ID] {
			ts = append(ts, t)
			delete(want, t.ID)
		}
	}
	for id := range want {
		return fmt.Errorf("--tasks: suite %s has no task %q", s.Name, id)
	}
	s.Tasks = ts
	return nil
}

// parseDevices reads --devices: SERIAL (on the default adb server) or HOST:PORT/SERIAL.
func parseDevices(list string, def deviceTarget) ([]eval.Device, error) {
	var out []eval.Device
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		d := eval.Device{Serial: item, Host: def.Host, Port: def.Port}
		if server, serial, ok := strings.Cut(item, "/"); ok {
			host, port, found := strings.Cut(server, ":")
			n, err := strconv.Atoi(port)
			if !found || host == "" || err != nil || n <= 0 || n > 65535 || serial == "" {
				return nil, fmt.Errorf("--devices %q: use SERIAL or HOST:PORT/SERIAL", item)
			}
			d = eval.Device{Serial: serial, Host: host, Port: n}
		}
		key := fmt.Sprintf("%s:%d/%s", d.Host, d.Port, d.Serial)
		if seen[key] {
			return nil, fmt.Errorf("--devices: %s listed twice (a task never shares a phone)", item)
		}
		seen[key] = true
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, errors.New("--devices: no serial given")
	}
	return out, nil
}

// Compile-time check: the evaluation's agent is the agent core.
var _ eval.Agent = (*agentrun.Agent)(nil)
