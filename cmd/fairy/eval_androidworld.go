package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/eval/androidworld/awreport"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/spf13/cobra"
)

// awFlags choose the instances of androidworld:sim.
type awFlags struct {
	seed      int64
	instances int
	family    string
	// approveAll: the simulated person approves every consent (the figure without a
	// judging person: AndroidWorld's agents are never asked).
	approveAll bool
	// seeds are --seeds without --sweep: one evaluation per seed, pooled in one summary.
	seeds []uint64
	// learnSeed (set when learnSeedSet) is --learn-seed: learn on that seed's instances
	// first, then evaluate every seed cold, learning as it goes, and warm both ways with
	// what the learn seed taught.
	learnSeed    uint64
	learnSeedSet bool
	// learnInstances is --learn-instances: instances of each family the learn seed runs
	// (0: --instances). A routine replays without the model only once clean runs on
	// several instances confirmed it, so one instance a family teaches no trusted routine.
	learnInstances int
}

// addAndroidWorldFlags adds --instances, --family and --approve-all to `fairy eval` (its
// --seed and --seeds are the run's, set in newEvalCmd).
func addAndroidWorldFlags(cmd *cobra.Command, f *awFlags) {
	fl := cmd.Flags()
	fl.IntVar(&f.instances, "instances", 1, "androidworld:sim: instances of each family")
	fl.StringVar(&f.family, "family", "*", "androidworld:sim: run the families whose name matches one of these globs, comma-separated (e.g. 'SimpleSms*,Markor*')")
	fl.Uint64Var(&f.learnSeed, "learn-seed", 0, "androidworld:sim: learn first on this seed's instances (one shared knowledge file), then evaluate --seeds (or --seed) four ways each: cold, learning as it goes, warm with what the learn seed taught, warm with a model that never takes a routine or Navigate; writes the table of the four over the seeds (report.md/json in --out)")
	fl.IntVar(&f.learnInstances, "learn-instances", 0, "androidworld:sim with --learn-seed: instances of each family the learn seed runs (default: --instances); a routine is trusted to replay without the model once clean runs on two instances confirmed it")
	fl.BoolVar(&f.approveAll, "approve-all", false, "androidworld:sim: the simulated person approves every consent, as AndroidWorld's agents are never asked (by default they judge each by what the task asks for and refuse a wrong send or delete)")
}

// androidWorldSeeds reads --seeds for androidworld:sim without --sweep: the seeds to run
// one after the other (nil: one run, --seed).
func androidWorldSeeds(ref string, f evalFlags) ([]uint64, error) {
	if f.sweep != "" || strings.TrimSpace(f.seeds) == "" || !androidworld.Is(ref) {
		return nil, nil
	}
	var out []uint64
	for _, s := range strings.Split(f.seeds, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds: %q is not a seed (a whole number)", s)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("--seeds names no seed: pass them comma-separated, e.g. --seeds 1,2,3")
	}
	return out, nil
}

// builtinSuite reports whether ref names a suite built into fairy (builtin:NAME or
// androidworld:sim): it runs on a virtual phone with its scripted model by default.
func builtinSuite(ref string) bool {
	return strings.HasPrefix(ref, suite.BuiltinPrefix) || androidworld.Is(ref)
}

// loadSuite reads a suite file, a built-in suite or builds androidworld:sim.
func loadSuite(ref string, f awFlags) (*suite.Suite, error) {
	if androidworld.Is(ref) {
		if f.instances < 1 {
			return nil, fmt.Errorf("--instances must be at least 1")
		}
		return androidworld.Load(ref, androidworld.Options{Seed: f.seed, Instances: f.instances, Family: f.family, ApproveAll: f.approveAll})
	}
	if f.approveAll {
		return nil, fmt.Errorf("--approve-all is for androidworld:sim; a suite file says its person's consent itself (user: scripted: consent: approve)")
	}
	return suite.Load(ref)
}

// writeAndroidWorld prints and writes (androidworld.md, androidworld.json in dir) the
// benchmark-style summary of an androidworld:sim report.
func writeAndroidWorld(out io.Writer, ref string, f awFlags, rep *eval.Report, dir string) error {
	if !androidworld.Is(ref) || rep == nil {
		return nil
	}
	return writeAndroidWorldSummary(out, f, []awreport.Run{{Seed: f.seed, Report: rep}}, dir)
}

// writeAndroidWorldSummary prints and writes the summary of one or several seeds' runs.
func writeAndroidWorldSummary(out io.Writer, f awFlags, runs []awreport.Run, dir string) error {
	s := awreport.SummarizeRuns(runs)
	s.ApproveAll = f.approveAll
	md := s.Markdown()
	fmt.Fprint(out, table.EscapeLines(md)) // task names and reasons from files and models
	if err := os.WriteFile(filepath.Join(dir, "androidworld.md"), []byte(md), 0o644); err != nil {
		return err
	}
	b, err := s.JSON()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "androidworld.json"), b, 0o644)
}

// runAndroidWorldSeeds runs androidworld:sim once per seed (its instances and its model
// errors drawn from it), each into --out/seed-N, and writes the summary of all of them,
// with the spread over seeds, into --out.
func runAndroidWorldSeeds(ctx context.Context, out io.Writer, cfg eval.Config, f evalFlags) error {
	var runs []awreport.Run
	failed, total := 0, 0
	var learned *learnSeedRun
	if f.aw.learnSeedSet {
		l, err := learnOnSeed(ctx, out, cfg, f)
		if err != nil {
			return err
		}
		learned = l
		cfg.Learned, cfg.AsItGoes, cfg.ColdWarm = l.knowledge, true, true
		if cfg.ModelErrorsLearnOnly {
			// Learned at one error mix, evaluated clean: every pass of the evaluation seeds.
			cfg.ModelErrors, cfg.ModelErrorsLearnOnly = inject.Rates{}, false
		}
	}
	for _, seed := range f.aw.seeds {
		aw := f.aw
		aw.seed = int64(seed)
		suite, err := loadSuite(androidworldRef, aw)
		if err != nil {
			return withExit(2, err)
		}
		if f.only != "" {
			if err := keepTasks(suite, f.only); err != nil {
				return withExit(2, err)
			}
		}
		c := cfg
		c.Suite, c.Seed, c.Out = suite, seed, filepath.Join(cfg.Out, fmt.Sprintf("seed-%d", seed))
		fmt.Fprintf(out, "seed %d → %s\n", seed, c.Out)
		rep, err := eval.Run(ctx, c)
		if rep != nil {
			fmt.Fprintf(out, "seed %d: passed %d of %s\n", seed, rep.Totals.Passed, table.Count(rep.Totals.Tasks, "run", "runs"))
			runs = append(runs, awreport.Run{Seed: int64(seed), Report: rep})
			failed += rep.Totals.Failed
			total += rep.Totals.Tasks
		}
		if err != nil {
			if len(runs) > 0 {
				_ = writeAndroidWorldSummary(out, f.aw, runs, cfg.Out)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return withExit(1, err)
		}
	}
	if err := writeAndroidWorldSummary(out, f.aw, runs, cfg.Out); err != nil {
		return withExit(1, err)
	}
	if learned != nil {
		if err := writeLearnSeedTable(out, f, learned, runs, cfg.Out); err != nil {
			return withExit(1, err)
		}
	}
	if failed > 0 {
		return withExit(1, fmt.Errorf("%d of %d tasks failed", failed, total))
	}
	return nil
}

// androidworldRef is the one androidworld suite.
const androidworldRef = "androidworld:sim"

// learnSeedRun is the learning run of --learn-seed: its report and the knowledge file it
// filled.
type learnSeedRun struct {
	seed      uint64
	dir       string
	knowledge string
	report    *eval.Report
}

// learnOnSeed runs the learn seed's instances once, in order, all learning into one
// knowledge file (--out/learn-seed-N/knowledge.db), with the model errors of the run
// (also with --model-errors-in learn).
func learnOnSeed(ctx context.Context, out io.Writer, cfg eval.Config, f evalFlags) (*learnSeedRun, error) {
	aw := f.aw
	aw.seed = int64(aw.learnSeed)
	if aw.learnInstances > 0 {
		aw.instances = aw.learnInstances
	}
	suite, err := loadSuite(androidworldRef, aw)
	if err != nil {
		return nil, withExit(2, err)
	}
	if f.only != "" {
		if err := keepTasks(suite, f.only); err != nil {
			return nil, withExit(2, err)
		}
	}
	c := cfg
	c.Suite, c.Seed, c.Out = suite, aw.learnSeed, filepath.Join(cfg.Out, fmt.Sprintf("learn-seed-%d", aw.learnSeed))
	c.Knowledge, c.ColdWarm, c.Learn, c.Learned, c.AsItGoes, c.ModelErrorsLearnOnly = eval.KnowledgeShared, false, nil, "", false, false
	fmt.Fprintf(out, "learn seed %d → %s\n", aw.learnSeed, c.Out)
	rep, err := eval.Run(ctx, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, withExit(1, fmt.Errorf("learning on seed %d: %w", aw.learnSeed, err))
	}
	fmt.Fprintf(out, "learn seed %d: passed %d of %s\n", aw.learnSeed, rep.Totals.Passed, table.Count(rep.Totals.Tasks, "run", "runs"))
	return &learnSeedRun{seed: aw.learnSeed, dir: c.Out, knowledge: filepath.Join(c.Out, "knowledge.db"), report: rep}, nil
}

// writeLearnSeedTable prints and writes (report.md, report.json in dir) the table of the
// four passes on each evaluation seed and their means over the seeds, with each seed's
// knowledge that misled and learning curves.
func writeLearnSeedTable(out io.Writer, f evalFlags, l *learnSeedRun, runs []awreport.Run, dir string) error {
	errorsIn := "every pass"
	if f.modelErrorsIn == "learn" {
		errorsIn = fmt.Sprintf("the learning run on seed %d only (every pass of the evaluation seeds ran clean)", l.seed)
	}
	rep := eval.LearnSeedReport{LearnSeed: l.seed, LearnDir: filepath.Base(l.dir), Learn: l.report.Totals, LearnMisled: l.report.Misled,
		ModelErrors: l.report.Options.ModelErrors, ModelErrorsIn: errorsIn}
	for _, r := range runs {
		rep.Add(uint64(r.Seed), fmt.Sprintf("seed-%d", r.Seed), r.Report)
	}
	md, err := rep.Write(dir)
	if err != nil {
		return err
	}
	fmt.Fprint(out, table.EscapeLines(md))
	return nil
}

// checkLearnSeed reads --learn-seed: androidworld:sim only, never one of the seeds it is
// evaluated on, and not with another way to learn first; the evaluation seeds are --seeds,
// or --seed alone.
func checkLearnSeed(cmd *cobra.Command, ref string, f *evalFlags) error {
	if !cmd.Flags().Changed("learn-seed") {
		if cmd.Flags().Changed("learn-instances") {
			return errors.New("--learn-instances goes with --learn-seed: the instances of each family the learn seed runs")
		}
		return nil
	}
	if f.aw.learnInstances < 0 {
		return fmt.Errorf("--learn-instances %d: give a number of instances, 1 or more", f.aw.learnInstances)
	}
	f.aw.learnSeedSet = true
	switch {
	case !androidworld.Is(ref):
		return errors.New("--learn-seed is for androidworld:sim (a suite file learns first with --learn-from or --learn-tags)")
	case f.learnFrom != "" || f.learnTags != "":
		return errors.New("use either --learn-seed or --learn-from/--learn-tags, not both")
	case f.sweep != "":
		return errors.New("--learn-seed does not go with --sweep: pass the evaluation seeds with --seeds")
	case f.knowledge != eval.KnowledgeFresh:
		return errors.New("--learn-seed learns into a file of its own and evaluates with fresh, shared-as-it-goes and learned knowledge: drop --knowledge")
	}
	if len(f.aw.seeds) == 0 {
		f.aw.seeds = []uint64{f.seed}
	}
	for _, s := range f.aw.seeds {
		if s == f.aw.learnSeed {
			return fmt.Errorf("--learn-seed %d is also an evaluation seed: evaluate on other seeds than the one learned on", s)
		}
	}
	return nil
}
