package agentrun

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/fairy-go/fairy/rundir"
)

// TestInjectedErrorsAreTracedAndCounted: with --model-errors, every injected error is a
// ModelErrorInjected line of the run's trace (its step, role, kind and what changed), and
// the report counts them by kind, per task and in the totals; the same seed draws the same
// errors.
func TestInjectedErrorsAreTracedAndCounted(t *testing.T) {
	t.Parallel()
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	s.Tasks = []*suite.Task{suiteTask(t, s, "messages-text-bob")}
	rates := inject.Rates{inject.Typo: 1, inject.Format: 0.3}
	var out string
	run := func() *eval.Report {
		out = t.TempDir()
		a, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Agent: a, Devices: serveFarm(t, 1).Devices(), Out: out,
			ModelErrors: rates, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := run()
	r := rep.Tasks[0]
	if r.InjectedErrors["typo"] == 0 {
		t.Fatalf("no typo injected into a task that types: %v", r.InjectedErrors)
	}
	tr, err := rundir.ReadTrajectory(filepath.Join(out, r.RunDir))
	if err != nil {
		t.Fatal(err)
	}
	traced := map[string]int{}
	for _, e := range tr.Events {
		if e.Kind != "ModelErrorInjected" {
			continue
		}
		var ev struct {
			Step         int
			Role, Change string
			Kind         string `json:"kind"`
		}
		if err := json.Unmarshal(e.Raw, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Step < 1 && ev.Role != "planner" || ev.Role == "" || ev.Change == "" {
			t.Errorf("trace line %s lacks its step, role or change", e.Raw)
		}
		traced[ev.Kind]++
	}
	for k, n := range r.InjectedErrors {
		if traced[k] != n || rep.Totals.InjectedErrors[k] != n {
			t.Errorf("%s: %d in the task's result, %d in the trace, %d in the totals", k, n, traced[k], rep.Totals.InjectedErrors[k])
		}
	}
	if rep.Options.ModelErrors != rates.String() || rep.Options.Seed != 3 {
		t.Errorf("report options %+v do not say which errors were injected", rep.Options)
	}
	// A typo in the message is a wrong result: the message check fails, and a run that
	// still says done is a false success.
	if r.Pass {
		t.Errorf("the task passed with a typo in every typed text")
	}
	if r.FalseSuccess != (r.Outcome == "done") {
		t.Errorf("false success %t with outcome %s and a failed check", r.FalseSuccess, r.Outcome)
	}
	again := run().Tasks[0]
	if len(again.InjectedErrors) != len(r.InjectedErrors) || again.InjectedErrors["typo"] != r.InjectedErrors["typo"] {
		t.Errorf("seed 3 drew %v, then %v", r.InjectedErrors, again.InjectedErrors)
	}
}
