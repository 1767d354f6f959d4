package explore

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/agentrun"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/executor/adb"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim"
)

// exploredFigure is the measurement of issue 16's second figure: Settings is explored on
// a virtual phone (no task ever run), then each of the built-in suite's Settings tasks
// (those of ids, or every task tagged settings) runs once with empty knowledge and once
// from its own copy of the explored file, with the scripted model never taking Navigate
// (model-independent). It returns the model calls of both passes and the verified steps
// of the explored one; every outcome must be the same.
func exploredFigure(tb testing.TB, ids ...string) (cold, explored, verified int) {
	tb.Helper()
	s, err := suite.Load("builtin:sim")
	if err != nil {
		tb.Fatal(err)
	}
	var tasks []*suite.Task
	for _, x := range s.Tasks {
		if (len(ids) == 0 && slices.Contains(x.Tags, "settings")) || slices.Contains(ids, x.ID) {
			tasks = append(tasks, x)
		}
	}
	if len(tasks) == 0 {
		tb.Fatal("no Settings task in the built-in suite")
	}
	farm, err := agentrun.ServeFarm(sim.FarmConfig{Phones: 1, Base: sim.Config{Seed: 1}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { farm.Close() })
	devs := farm.Devices()
	dir := tb.TempDir()

	// Explore through the device layer, on the phone the tasks then run on.
	ctx := tb.Context()
	dev, err := adb.Open(ctx, adb.Config{Host: devs[0].Host, Port: devs[0].Port, Serial: devs[0].Serial})
	if err != nil {
		tb.Fatal(err)
	}
	explored0 := filepath.Join(dir, "explored.db")
	store, err := knowledge.Open(explored0, knowledge.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	sum, err := Run(ctx, Config{Device: dev, Store: store, App: settingsApp, Budget: 200})
	store.Close()
	dev.Close(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Logf("explored: %d pages, %d transitions, %d actions", sum.Pages, sum.Transitions, sum.Actions)

	a, err := agentrun.New(agentrun.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	run := func(name, knowledgeFile string, t *suite.Task) eval.TaskResult {
		out := filepath.Join(dir, name, t.ID)
		one := *s // the suite's model rules and users, this task only
		one.Tasks = []*suite.Task{t}
		rep, err := eval.Run(ctx, eval.Config{Suite: &one, Agent: a,
			Devices: devs, Out: out, Knowledge: knowledgeFile, NoNavigate: true, Merge: agentrun.Merge, Progress: io.Discard})
		if err != nil || len(rep.Tasks) != 1 {
			tb.Fatalf("%s %s: %v", name, t.ID, err)
		}
		return rep.Tasks[0]
	}
	for _, t := range tasks {
		c := run("cold", eval.KnowledgeFresh, t)
		own := filepath.Join(dir, "copies", t.ID+".db")
		copyFile(tb, explored0, own)
		e := run("explored", own, t)
		tb.Logf("%s: cold %d → explored %d model calls (%d verified steps); pass %t → %t", t.ID, c.ModelCalls, e.ModelCalls, e.VerifiedSteps, c.Pass, e.Pass)
		if !c.Pass {
			tb.Errorf("%s failed with empty knowledge: %s — %s", t.ID, c.Outcome, c.Reason)
		}
		if c.Pass != e.Pass || c.Outcome != e.Outcome {
			tb.Errorf("%s: outcome changed with explored knowledge: %s (pass %t) → %s (pass %t)", t.ID, c.Outcome, c.Pass, e.Outcome, e.Pass)
		}
		cold += c.ModelCalls
		explored += e.ModelCalls
		verified += e.VerifiedSteps
	}
	return cold, explored, verified
}

func copyFile(tb testing.TB, from, to string) {
	tb.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// TestExploredKnowledgeServesTasks: with only what exploring Settings learned (no task
// ever run), the deep Settings tasks keep their outcome and need fewer model calls, the
// executor confirming steps from the explored map (verified steps) as from a learned one.
func TestExploredKnowledgeServesTasks(t *testing.T) {
	cold, explored, verified := exploredFigure(t, "settings-maps-notifications-off", "settings-messages-clear-cache", "settings-screen-timeout")
	t.Logf("cold %d → explored %d model calls (%.2f×), %d verified steps", cold, explored, float64(explored)/float64(cold), verified)
	if explored >= cold || verified == 0 {
		t.Errorf("cold %d → explored %d model calls with %d verified steps: want fewer calls, steps verified from the explored map", cold, explored, verified)
	}
}

// BenchmarkExploredKnowledge is issue 16's second figure over every Settings task of the
// built-in suite: model calls with only explored knowledge per model call with empty
// knowledge (model-independent: no Navigate), and the verified steps that saved them.
func BenchmarkExploredKnowledge(b *testing.B) {
	var cold, explored, verified int
	for b.Loop() {
		cold, explored, verified = exploredFigure(b)
	}
	b.ReportMetric(float64(cold), "cold-calls/op")
	b.ReportMetric(float64(explored), "explored-calls/op")
	b.ReportMetric(float64(explored)/float64(cold), "ratio")
	b.ReportMetric(float64(verified), "verified-steps/op")
}
