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
	"github.com/fairy-go/fairy/internal/table"
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
}

// addAndroidWorldFlags adds --instances, --family and --approve-all to `fairy eval` (its
// --seed and --seeds are the run's, set in newEvalCmd).
func addAndroidWorldFlags(cmd *cobra.Command, f *awFlags) {
	fl := cmd.Flags()
	fl.IntVar(&f.instances, "instances", 1, "androidworld:sim: instances of each family")
	fl.StringVar(&f.family, "family", "*", "androidworld:sim: run the families whose name matches one of these globs, comma-separated (e.g. 'SimpleSms*,Markor*')")
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
	return strings.HasPrefix(ref, eval.BuiltinPrefix) || androidworld.Is(ref)
}

// loadSuite reads a suite file, a built-in suite or builds androidworld:sim.
func loadSuite(ref string, f awFlags) (*eval.Suite, error) {
	if androidworld.Is(ref) {
		if f.instances < 1 {
			return nil, fmt.Errorf("--instances must be at least 1")
		}
		return androidworld.Load(ref, androidworld.Options{Seed: f.seed, Instances: f.instances, Family: f.family, ApproveAll: f.approveAll})
	}
	if f.approveAll {
		return nil, fmt.Errorf("--approve-all is for androidworld:sim; a suite file says its person's consent itself (user: scripted: consent: approve)")
	}
	return eval.Load(ref)
}

// writeAndroidWorld prints and writes (androidworld.md, androidworld.json in dir) the
// benchmark-style summary of an androidworld:sim report.
func writeAndroidWorld(out io.Writer, ref string, f awFlags, rep *eval.Report, dir string) error {
	if !androidworld.Is(ref) || rep == nil {
		return nil
	}
	return writeAndroidWorldSummary(out, f, []androidworld.Run{{Seed: f.seed, Report: rep}}, dir)
}

// writeAndroidWorldSummary prints and writes the summary of one or several seeds' runs.
func writeAndroidWorldSummary(out io.Writer, f awFlags, runs []androidworld.Run, dir string) error {
	s := androidworld.SummarizeRuns(runs)
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
	var runs []androidworld.Run
	failed, total := 0, 0
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
			runs = append(runs, androidworld.Run{Seed: int64(seed), Report: rep})
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
	if failed > 0 {
		return withExit(1, fmt.Errorf("%d of %d tasks failed", failed, total))
	}
	return nil
}

// androidworldRef is the one androidworld suite.
const androidworldRef = "androidworld:sim"
