package agentrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim"
)

// suiteOnly narrows the built-in suite to the comma-separated task ids in EVAL_TASKS (for
// working on the suite); by default every task runs.
func loadSuite(t testing.TB) *eval.Suite {
	t.Helper()
	s, err := eval.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	if only := os.Getenv("EVAL_TASKS"); only != "" {
		keep := map[string]bool{}
		for _, id := range strings.Split(only, ",") {
			keep[id] = true
		}
		var ts []*eval.Task
		for _, x := range s.Tasks {
			if keep[x.ID] {
				ts = append(ts, x)
			}
		}
		s.Tasks = ts
	}
	return s
}

func serveFarm(t testing.TB, n int) *Farm {
	t.Helper()
	f, err := ServeFarm(sim.FarmConfig{Phones: n, Base: sim.Config{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestBuiltinSuiteColdWarm(t *testing.T) {
	s := loadSuite(t)
	f := serveFarm(t, 2)
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if d := os.Getenv("EVAL_OUT"); d != "" {
		out = d
	}
	var prog bytes.Buffer
	rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Agent: a, Devices: f.Devices(), Parallel: 2, ColdWarm: true,
		Merge: Merge, Out: out, Progress: &prog})
	t.Logf("progress:\n%s", prog.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range rep.Tasks {
		if !x.Pass {
			t.Errorf("%s (%s) failed: %s — %s", x.ID, x.Phase, x.Outcome, x.Reason)
			for _, c := range x.Checks {
				t.Logf("  check %s pass=%t: %s", c.Name, c.Pass, c.Evidence)
			}
			if tr, err := eval.ReadTrajectory(filepath.Join(out, x.RunDir)); err == nil {
				for i := len(tr.Events) - 1; i >= 0; i-- {
					if tr.Events[i].Kind == "ScreenPerceived" {
						t.Logf("  last screen: %s", tr.Events[i].Raw)
						break
					}
				}
			}
		}
	}
	cw := rep.Totals.ColdWarm
	t.Logf("cold %d calls, warm %d calls (%.0f%% fewer); revisit tasks %v: %d → %d (%.0f%% fewer)",
		rep.Totals.Cold.ModelCalls, rep.Totals.Warm.ModelCalls, 100*cw.ModelCallsReduction,
		cw.Revisit.Tasks, cw.Revisit.ColdModelCalls, cw.Revisit.WarmModelCalls, 100*cw.Revisit.Reduction)
}
