package main

import (
	"cmp"
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

	"github.com/fairy-go/fairy/grounding"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/agentrun"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/knowledge/etcdstore"
	"github.com/fairy-go/fairy/llm/inject"
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
	// WatchToken is the live page's token the person chose (FAIRY_WATCH_TOKEN).
	WatchToken func() string
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
	// uiServer is how many virtual phones have the resident UI server installed.
	uiServer int
	// modelErrors, modelErrorsIn and seed inject model errors (llm/inject).
	modelErrors   string
	modelErrorsIn string
	seed          uint64
	// grounding is the family the decider's model answers in (coordinates).
	grounding string
	// sweep (KIND=R1,R2,…) and seeds run the cold/warm evaluation once per rate and seed
	// and write the robustness table.
	sweep string
	seeds string
	aw    awFlags
	watch watchFlags
}

// newEvalCmd builds `fairy eval`.
func newEvalCmd(d evalDeps) *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval SUITE [--devices S1,S2,… | --sim N] [--parallel N] [--repeat K] [--knowledge fresh|shared|FILE] [--cold-warm] [--learn-from LEARN | --learn-tags T --eval-tags T | --learn-seed S] [--no-navigate] [--model-errors KIND=RATE,… [--seed N] [--model-errors-in all|learn] [--sweep KIND=R1,R2,… --seeds S1,S2]] [--approve-all] [--out DIR]",
		Short: "Evaluate the agent on a suite of tasks with simulated users, on one or many phones",
		Long: `Runs every task of SUITE (a YAML file, builtin:sim, or androidworld:sim — AndroidWorld's task
families mirrored on the virtual phone, drawn from --seed, --instances and --family — not
AndroidWorld itself; its simulated person judges each consent by what the task asks for,
--approve-all makes them approve every one as AndroidWorld's agents are never asked, and
--seeds 1,2,3 runs it once per seed and reports the spread) with its simulated user, checks the
outcome, and writes report.json, report.md and report.html (plus one run directory per task)
into --out. One worker per phone; a task never shares a phone.

Phones: --sim N starts N virtual phones in-process; --devices takes serials of real devices,
each SERIAL or HOST:PORT/SERIAL for a device behind a remote adb server. A suite whose tasks
all run on the virtual phone (phone: {sim: …}), built in or your own, starts one with neither.
With no model configured the suite's scripted model rules answer (a test double), and a suite
whose tasks have none is refused; a built-in suite always answers with them unless --model
NAME or --real-model names a real one.
--cold-warm runs the suite three times: cold, with empty knowledge; then twice with what the
cold pass learned (App Map, tricks, routines, known readings) — once with the scripted model
taking the routines and Navigate shortcuts it is offered (model-cooperating), once with a
model that never takes one (model-independent: only what the executor saves by itself).
The summary and the report split each saving by mechanism: steps confirmed by the App Map
with no Re-Planner call (verified steps), pages whose facts were known (no Key Context
Collector call), tasks not distilled again, routines and Navigates replayed with no model
call per step, and the rest, per role.
--learn-from LEARN (a suite) or --learn-tags T1,T2 (tasks of SUITE; the others, or those
tagged --eval-tags, are evaluated) learns first on those tasks into one shared knowledge
file, then runs the evaluated tasks cold and with that file, both ways: learn-then-evaluate.
--no-navigate compiles the scripted rules without Navigate (a single pass or the cold one).
--learn-seed S (androidworld:sim) learns first on seed S's instances into one knowledge file,
then evaluates each of --seeds (or --seed) four ways: cold; learning as it goes (the tasks in
order, families in order, on one file that starts empty); warm with what seed S taught;
warm with a model that never takes a routine or Navigate. report.md/json in --out hold the
table of the four per seed with the means over the seeds; every report has the knowledge
that misled (each task lost against cold and each false success, with the routine, verified
step, Navigate or tips in play and what went wrong) and, with --instances N, the learning
curve by instance number. With --model-errors-in learn only the learning run errs.

Model errors: --model-errors KIND=RATE,… makes the agent's model (scripted or real) err on
purpose, at the role boundary, drawn from --seed: grounding (a tap on another element of the
same screen), index (a number not on the screen), typo (one character of typed text),
repeat (the last action again), stale (the previous answer again), reflect (a false A
verdict), done (a false "Finished"), format (prose around the JSON, truncated JSON, a
missing key). Each injected error is a ModelErrorInjected line in the run's trace (step,
role, kind, what changed) and counted in the report, with false successes (done, and the
task's checks failed), sensitive actions done without a consent that named their
specifics, and refused consents. --model-errors-in learn injects them only where
knowledge is learned (cold and learning passes): the warm passes then measure clean runs
on knowledge learned from a model that erred. --sweep grounding=0,0.1,0.2,0.3 --seeds
1,2,3 runs the cold/warm evaluation per rate and seed and writes the robustness table
(robustness.md/json/html). Example:

  fairy eval builtin:sim --sim 2 --parallel 2 --cold-warm --model-errors grounding=0.2,reflect=0.05 --seed 1 --out /tmp/e
  fairy eval builtin:sim --sim 2 --parallel 2 --cold-warm --sweep grounding=0,0.1,0.2,0.3 --seeds 1,2,3 --out /tmp/r
  fairy eval androidworld:sim --sim 2 --parallel 2 --learn-seed 11 --seeds 12,13,14 --cold-warm --model-errors grounding=0.2 --out /tmp/l

Ctrl-C stops the run and still writes the report of the tasks that finished.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			token := ""
			if d.WatchToken != nil {
				token = d.WatchToken()
			}
			wt, ctx, err := startWatch(cmd.Context(), f.watch, "fairy eval "+args[0], token, cmp.Or(d.Stdout, cmd.OutOrStdout()), cmd.ErrOrStderr(), nil)
			if err != nil {
				return err
			}
			defer func() { err = wt.close(ctx, err) }()
			cmd.SetContext(ctx)
			return runEval(cmd, d, f, args[0], wt)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.devices, "devices", "", "real devices: SERIAL or HOST:PORT/SERIAL, comma-separated")
	fl.IntVar(&f.sims, "sim", 0, "number of virtual phones to start (with no --devices, a suite whose tasks all run on the virtual phone: 1)")
	fl.IntVar(&f.uiServer, "sim-ui-server", 0, "how many of the virtual phones have the resident UI server installed, as `fairy device setup` leaves a phone (the others read the screen with uiautomator dump: both side by side in one run)")
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
	fl.StringVar(&f.modelErrors, "model-errors", "", "inject model errors at these rates: KIND=RATE,… with kinds grounding, index, typo, repeat, frame, stale, reflect, done, format, and offset=PX (every point of a coordinate answer PX pixels off) (e.g. grounding=0.2,reflect=0.05)")
	fl.StringVar(&f.modelErrorsIn, "model-errors-in", "all", "passes that get --model-errors: all, or learn (the cold and learning passes only: clean runs on knowledge learned from a model that erred)")
	fl.StringVar(&f.grounding, "grounding", "", "the family the decider's model answers in: som (numbered actions, the default), uitars, autoglm, qwen-vl or guiowl (coordinates, in that family's syntax and frame; the scripted model answers so too)")
	fl.Uint64Var(&f.seed, "seed", 1, "the run's seed: androidworld:sim draws every instance's parameters and noise rows from it, and --model-errors its errors (each run its own, from the seed, the task, the pass and the repeat)")
	fl.StringVar(&f.sweep, "sweep", "", "with --cold-warm: evaluate once per rate of one error kind, KIND=R1,R2,… (e.g. grounding=0,0.1,0.2,0.3), on top of --model-errors, and write robustness.json/md/html into --out")
	fl.StringVar(&f.seeds, "seeds", "", "with --sweep: the seeds to run each rate with, comma-separated (default: --seed); with androidworld:sim: run once per seed and report the spread over seeds")
	f.watch.add(cmd, "the evaluation, one panel per phone")
	addAndroidWorldFlags(cmd, &f.aw)
	addEvalModelFlags(cmd)
	return cmd
}

func runEval(cmd *cobra.Command, d evalDeps, f evalFlags, ref string, wt *watching) error {
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
	switch {
	case f.devices != "" && f.sims > 0:
		return withExit(2, errors.New("use either --devices or --sim, not both"))
	case f.repeat < 1 || f.parallel < 0:
		return withExit(2, errors.New("--repeat must be at least 1 and --parallel not negative"))
	}
	f.aw.seed = int64(f.seed) // one --seed: the suite's draw and the injected errors
	seeds, err := androidWorldSeeds(ref, f)
	if err != nil {
		return withExit(2, err)
	}
	f.aw.seeds = seeds
	if err := checkLearnSeed(cmd, ref, &f); err != nil {
		return withExit(2, err)
	}
	if len(f.aw.seeds) > 0 { // androidworld:sim --seeds: one run per seed, the first loaded here
		f.seed, f.aw.seed, f.seeds = f.aw.seeds[0], int64(f.aw.seeds[0]), ""
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
	if f.devices == "" && !cmd.Flags().Changed("sim") && (builtinSuite(ref) || virtualOnly(suite, learn)) {
		// A suite written for the virtual phone (built in, or every task on sim:) just
		// runs: `fairy eval builtin:sim`, `fairy eval my-suite.yaml`.
		f.sims = 1
	}
	if f.devices == "" && f.sims <= 0 {
		return withExit(2, errors.New("no phones: pass --sim N for virtual phones or --devices S1,S2 for real ones"))
	}
	rates, err := inject.ParseRates(f.modelErrors)
	if err != nil {
		return withExit(2, fmt.Errorf("--model-errors: %w", err))
	}
	if err := checkSweep(f); err != nil {
		return withExit(2, err)
	}
	if f.modelErrorsIn != "all" && f.modelErrorsIn != "learn" {
		return withExit(2, fmt.Errorf("--model-errors-in %q: want all or learn", f.modelErrorsIn))
	}
	rc, err := d.Config(cmd)
	if err != nil {
		return withExit(2, err)
	}
	rc, modelLine, err := evalModel(cmd, ref, rc)
	if err != nil {
		return withExit(2, err)
	}
	if rc.Model == nil {
		if err := checkScripted(suite, learn); err != nil {
			return withExit(2, err)
		}
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
		farm, err := agentrun.ServeFarm(sim.FarmConfig{Phones: f.sims, UIServer: f.uiServer, Base: sim.Config{Seed: 1, Logger: log, Profile: profile, Apps: apps}}, log)
		if err != nil {
			return withExit(2, err)
		}
		defer farm.Close()
		devices = farm.Devices()
	} else if devices, err = parseDevices(f.devices, d.Device()); err != nil {
		return withExit(2, err)
	}
	ac := rc.Agent
	fam, err := evalGrounding(f.grounding, ac.Grounding)
	if err != nil {
		return withExit(2, err)
	}
	agent, err := agentrun.New(agentrun.Config{Model: rc.Model, Grounding: fam, Limits: ac.Limits, Guard: ac.Guard, Pixels: ac.Pixels, TextOnly: ac.TextOnly,
		Shell: ac.Shell, Secrets: ac.Secrets, Logger: log, OpenKnowledge: func(loc string, opts knowledge.Options) (*knowledge.Store, error) {
			return openKnowledgeStore(loc, opts, rc.Etcd)
		}, Watch: wt.phonePanels()})
	if err != nil {
		return withExit(2, err)
	}
	fmt.Fprintln(out, modelLine)
	if f.sims > 0 {
		fmt.Fprintf(out, "phones: %d virtual phone(s) (sim, a test double)\n", f.sims)
	}
	fmt.Fprintf(out, "suite %s: %s → %s\n", table.Escape(suite.Name), evalRuns(len(suite.Tasks), learn, f), f.out)
	if rates.Any() {
		where := "every pass"
		if f.modelErrorsIn == "learn" {
			where = "the passes that learn only (cold, learning)"
		}
		fmt.Fprintf(out, "model errors injected on purpose: %s, seed %d, in %s\n", rates, f.seed, where)
	}
	if learn != nil {
		fmt.Fprintf(out, "learning first on %d tasks: %s\n", len(learn.Tasks), table.Escape(taskIDs(learn)))
	}
	ecfg := eval.Config{Suite: suite, Learn: learn, Agent: agent, Devices: devices, Out: f.out, Parallel: f.parallel,
		Repeat: f.repeat, Knowledge: f.knowledge, ColdWarm: f.coldWarm, NoNavigate: f.noNavigate, Merge: agentrun.Merge, Progress: out, Logger: log,
		ModelErrors: rates, ModelErrorsLearnOnly: f.modelErrorsIn == "learn", Seed: f.seed}
	if f.sweep != "" {
		return runSweep(ctx, out, ecfg, f)
	}
	if len(f.aw.seeds) > 0 {
		return runAndroidWorldSeeds(ctx, out, ecfg, f)
	}
	rep, runErr := eval.Run(ctx, ecfg)
	if rep != nil {
		t := rep.Totals
		fmt.Fprintf(out, "passed %d of %s · %s · %.1f s\n", t.Passed, table.Count(t.Tasks, "run", "runs"),
			table.Count(t.ModelCalls, "model call", "model calls"), t.WallSeconds)
		if cw := t.ColdWarm; cw != nil && t.Cold != nil && t.Warm != nil {
			printColdWarm(out, t, cw, len(suite.Tasks))
		}
		for _, p := range rep.DevicePaths() {
			fmt.Fprintf(out, "device time, %s\n", p.DeviceLine())
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

// virtualOnly reports whether every task of the suite (and of the suite learned on first)
// runs on the virtual phone.
func virtualOnly(suites ...*suite.Suite) bool {
	n := 0
	for _, s := range suites {
		if s == nil {
			continue
		}
		for _, t := range s.Tasks {
			if !t.Phone.Virtual() {
				return false
			}
			n++
		}
	}
	return n > 0
}

// checkScripted refuses, before any phone starts, a suite whose tasks would meet a
// scripted model with no rules: with no model configured the suite's rules answer, and a
// task without any fails at its first model call, each with the same error.
func checkScripted(suites ...*suite.Suite) error {
	for _, s := range suites {
		if s == nil {
			continue
		}
		var bare []string
		for _, t := range s.Tasks {
			if rules, err := s.Rules(t); err == nil && len(rules) == 0 {
				bare = append(bare, t.ID)
			}
		}
		if len(bare) == 0 {
			continue
		}
		which := "its tasks have"
		if len(bare) < len(s.Tasks) {
			shown := bare[:min(len(bare), 5)]
			which = fmt.Sprintf("%s %s", table.Count(len(bare), "task", "tasks"), strings.Join(shown, ", "))
			if len(bare) > len(shown) {
				which += ", …"
			}
			if len(bare) == 1 {
				which += " has"
			} else {
				which += " have"
			}
		}
		return fmt.Errorf("suite %q: no model is configured, and %s no scripted model rules to answer with, so every model call would fail: "+
			"give the suite rules (model: or recover: for every task, a task's own model: or walk:; see eval/suite/doc.go and examples/wallet-suite.yaml), "+
			"or configure a model (set OPENAI_API_KEY, or model.base-url and model.default in the config file)", s.Name, which)
	}
	return nil
}

// evalRuns says how many runs an evaluation makes of its tasks, the same count as the
// progress lines' "[n/total]" and the "passed" line: "33 tasks × 3 passes (…) = 99 runs".
func evalRuns(tasks int, learn *suite.Suite, f evalFlags) string {
	what := table.Count(tasks, "task", "tasks")
	runs := tasks
	switch {
	case learn != nil:
		runs = len(learn.Tasks) + 3*tasks
		what = fmt.Sprintf("%d tasks to learn on, then %s × 3 passes (cold; warm with what was learned; warm with a model that never takes a routine or Navigate)",
			len(learn.Tasks), what)
	case f.coldWarm:
		runs = 3 * tasks
		what += " × 3 passes (cold; warm with what the cold pass learned; warm with a model that never takes a routine or Navigate)"
	}
	if f.repeat > 1 {
		runs *= f.repeat
		what += fmt.Sprintf(" × %d repeats", f.repeat)
	}
	if runs == tasks {
		return what
	}
	return what + " = " + table.Count(runs, "run", "runs")
}

// printColdWarm states the cold/warm comparison in words: each pass ran the suite's tasks
// once; what the warm passes saved, and by which mechanism.
func printColdWarm(out io.Writer, t eval.Totals, cw *eval.ColdWarm, tasks int) {
	fewer := func(cold, warm int) string {
		if cold == 0 {
			return ""
		}
		return fmt.Sprintf(" (%.0f%% fewer)", 100*(1-float64(warm)/float64(cold)))
	}
	fmt.Fprintf(out, "cold → warm, each pass over the same %s:\n", table.Count(tasks, "task", "tasks"))
	fmt.Fprintf(out, "  all tasks: %d → %d model calls%s, %d → %d steps, %d → %d prompt tokens\n",
		t.Cold.ModelCalls, t.Warm.ModelCalls, fewer(t.Cold.ModelCalls, t.Warm.ModelCalls), t.Cold.Steps, t.Warm.Steps,
		t.Cold.PromptTokens, t.Warm.PromptTokens)
	if rv := cw.Revisit; len(rv.Tasks) > 0 {
		fmt.Fprintf(out, "  the %s tagged revisit: %d → %d model calls%s, %d → %d steps, %d → %d prompt tokens\n",
			table.Count(len(rv.Tasks), "task", "tasks"), rv.ColdModelCalls, rv.WarmModelCalls, fewer(rv.ColdModelCalls, rv.WarmModelCalls),
			rv.ColdSteps, rv.WarmSteps, rv.ColdPromptTokens, rv.WarmPromptTokens)
	}
	for _, fg := range cw.Figures {
		who := "a model that takes the routines and Navigates it is offered"
		if fg.Name == eval.FigureIndependent {
			who = "a model that never takes one"
		}
		sv := fg.Savings
		rest := fmt.Sprintf("%d elsewhere", sv.Other)
		if sv.Other < 0 {
			rest = fmt.Sprintf("%d more spent elsewhere", -sv.Other)
		}
		fmt.Fprintf(out, "  %s (%s): %d → %d model calls%s; saved: %s, %s whose facts were known, %s not learned again, "+
			"%d on the tasks that ran %s, %d on the tasks that replayed %s, %s; model calls a step waits on: %.2f → %.2f\n",
			who, fg.Name, fg.ColdModelCalls, fg.WarmModelCalls, fewer(fg.ColdModelCalls, fg.WarmModelCalls),
			table.Count(sv.VerifiedSteps, "step confirmed by the App Map", "steps confirmed by the App Map"),
			table.Count(sv.KnownReads, "page", "pages"), table.Count(sv.SkippedLearns, "task", "tasks"),
			sv.RoutineSaved, table.Count(sv.Routines, "routine", "routines"), sv.NavigateSaved, table.Count(sv.Navigations, "Navigate", "Navigates"),
			rest, fg.ColdCriticalPerStep, fg.WarmCriticalPerStep)
	}
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
// for neither); with --learn-tags, s keeps the tasks to evaluate.
func learnSuite(s *suite.Suite, f evalFlags) (*suite.Suite, error) {
	switch {
	case f.learnFrom != "" && f.learnTags != "":
		return nil, errors.New("use either --learn-from or --learn-tags, not both")
	case f.evalTags != "" && f.learnTags == "":
		return nil, errors.New("--eval-tags needs --learn-tags (the tasks to learn on first)")
	case f.learnFrom != "":
		l, err := suite.Load(f.learnFrom)
		if err != nil {
			return nil, fmt.Errorf("--learn-from: %w", err)
		}
		return l, nil
	case f.learnTags == "":
		return nil, nil
	}
	tagged := func(t *suite.Task, list string) bool {
		for _, tag := range strings.Split(list, ",") {
			if t.HasTag(strings.TrimSpace(tag)) {
				return true
			}
		}
		return false
	}
	learn := *s
	learn.Tasks = nil
	var evaluate []*suite.Task
	for _, t := range s.Tasks {
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
	s.Tasks = evaluate
	return &learn, nil
}

func taskIDs(s *suite.Suite) string {
	ids := make([]string, len(s.Tasks))
	for i, t := range s.Tasks {
		ids[i] = t.ID
	}
	return strings.Join(ids, ", ")
}

// keepTasks narrows a suite to the listed task ids.
func keepTasks(s *suite.Suite, only string) error {
	want := map[string]bool{}
	for _, id := range strings.Split(only, ",") {
		want[strings.TrimSpace(id)] = true
	}
	var ts []*suite.Task
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

// evalGrounding is the family of --grounding, else the configured one.
func evalGrounding(flag, configured string) (grounding.Family, error) {
	name := flag
	if name == "" {
		name = configured
	}
	fam, err := grounding.ParseFamily(name)
	if err != nil {
		return "", fmt.Errorf("--grounding: %w", err)
	}
	if fam == grounding.Auto {
		return "", fmt.Errorf("--grounding auto: an evaluation needs the family itself (som, uitars, autoglm, qwen-vl or guiowl); `fairy model probe` tells a model's")
	}
	return fam, nil
}
