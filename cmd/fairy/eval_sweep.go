package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/llm/inject"
)

// sweepSpec is --sweep KIND=R1,R2,… with --seeds.
type sweepSpec struct {
	kind  inject.Kind
	rates []float64
	seeds []uint64
}

// parseSweep reads --sweep and --seeds (default: the one --seed).
func parseSweep(f evalFlags) (sweepSpec, error) {
	var sp sweepSpec
	k, list, ok := strings.Cut(f.sweep, "=")
	if !ok || strings.TrimSpace(list) == "" {
		return sp, fmt.Errorf("--sweep %q: want KIND=R1,R2,… such as grounding=0,0.1,0.2,0.3", f.sweep)
	}
	for _, r := range strings.Split(list, ",") {
		one, err := inject.ParseRates(strings.TrimSpace(k) + "=" + strings.TrimSpace(r))
		if err != nil {
			return sp, fmt.Errorf("--sweep: %w", err)
		}
		for kind, v := range one {
			sp.kind = kind
			sp.rates = append(sp.rates, v)
		}
	}
	if strings.TrimSpace(f.seeds) == "" {
		sp.seeds = []uint64{f.seed}
	}
	for _, s := range strings.Split(f.seeds, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return sp, fmt.Errorf("--seeds: %q is not a seed (a whole number)", s)
		}
		sp.seeds = append(sp.seeds, n)
	}
	return sp, nil
}

// checkSweep refuses a --sweep the evaluation cannot run, before any phone starts.
func checkSweep(f evalFlags) error {
	if f.sweep == "" {
		if f.seeds != "" {
			return errors.New("--seeds goes with --sweep (one evaluation takes --seed), or with androidworld:sim (one run per seed)")
		}
		return nil
	}
	if !f.coldWarm {
		return errors.New("--sweep compares cold and warm passes: add --cold-warm")
	}
	_, err := parseSweep(f)
	return err
}

// runSweep runs the cold/warm evaluation once per rate and seed, each into its own
// directory under --out, and writes the robustness table (robustness.json/md/html) there.
func runSweep(ctx context.Context, out io.Writer, cfg eval.Config, f evalFlags) error {
	sp, err := parseSweep(f)
	if err != nil {
		return withExit(2, err)
	}
	base := cfg.Out
	var reps []*eval.Report
	failed := 0
	for _, rate := range sp.rates {
		for _, seed := range sp.seeds {
			c := cfg
			c.ModelErrors = maps.Clone(cfg.ModelErrors)
			c.ModelErrors[sp.kind] = rate
			c.Seed = seed
			c.Out = filepath.Join(base, fmt.Sprintf("%s-%g-seed-%d", sp.kind, rate, seed))
			fmt.Fprintf(out, "— %s, seed %d → %s\n", c.ModelErrors, seed, c.Out)
			rep, err := eval.Run(ctx, c)
			if rep != nil {
				reps = append(reps, rep)
				t := rep.Totals
				if t.Cold != nil && t.Warm != nil && t.WarmIndependent != nil {
					fmt.Fprintf(out, "%s seed %d: cold %d/%d, warm %d/%d, warm-independent %d/%d passed; false success %d/%d/%d\n", c.ModelErrors, seed,
						t.Cold.Passed, t.Cold.Tasks, t.Warm.Passed, t.Warm.Tasks, t.WarmIndependent.Passed, t.WarmIndependent.Tasks,
						t.Cold.FalseSuccess, t.Warm.FalseSuccess, t.WarmIndependent.FalseSuccess)
				}
				failed += t.Failed
			}
			if ctx.Err() != nil || err != nil {
				if werr := eval.WriteRobustness(base, eval.Robustness(reps)); werr != nil {
					err = errors.Join(err, werr)
				}
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return withExit(1, err)
			}
		}
	}
	rows := eval.Robustness(reps)
	if err := eval.WriteRobustness(base, rows); err != nil {
		return withExit(1, err)
	}
	fmt.Fprint(out, table.EscapeLines(eval.RobustnessMarkdown(rows)))
	fmt.Fprintf(out, "robustness: %s\n", filepath.Join(base, eval.RobustnessHTML))
	if failed > 0 {
		return withExit(1, fmt.Errorf("%d task runs failed over the sweep", failed))
	}
	return nil
}
