package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// fakeSuite drives fakeAgent: each instruction is a shell command line run on the phone.
const fakeSuite = `
name: fake
defaults:
  phone: {sim: {}}
  user: {scripted: {consent: approve}}
tasks:
  - id: wifi-off
    instruction: settings put global wifi_on 0
    checks:
      - setting: {name: global/wifi_on, equals: "0"}
      - outcome: done
    questions: {must_not_ask: true}
  - id: bt-on
    instruction: "ask: Turn Bluetooth on?; settings put global bluetooth_on 1"
    checks:
      - setting: {name: global/bluetooth_on, equals: "1"}
    questions:
      must_ask: [bluetooth]
      consent: {action: "^Pay$"}
  - id: refused
    instruction: "ask: Pay ¥15?; settings put global low_power 1"
    user: {scripted: {rules: [{pattern: "pay", reply: refuse}]}}
    checks:
      - setting: {name: global/low_power, equals: "0"}
      - outcome: refused
  - id: impossible
    instruction: settings put global zen_mode 1
    checks:
      - setting: {name: global/zen_mode, equals: "2"}
  - id: crash
    tags: [crash]
    instruction: settings put global wifi_on 0
    checks:
      - outcome: done
  - id: after-crash
    tags: [slow]
    instruction: settings put global airplane_mode_on 1
    checks:
      - setting: {name: global/airplane_mode_on, equals: "1"}
`

func newFarm(t testing.TB, n int) []Device {
	t.Helper()
	f, err := sim.NewFarm(sim.FarmConfig{Phones: n, Base: sim.Config{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var ds []Device
	for _, p := range f.Phones() {
		ds = append(ds, Device{Serial: p.Serial(), Sim: p})
	}
	return ds
}

func byID(r *Report) map[string]TaskResult {
	m := map[string]TaskResult{}
	for _, x := range r.Tasks {
		m[x.ID] = x
	}
	return m
}

func TestRunFakeAgent(t *testing.T) {
	s, err := suite.Parse([]byte(fakeSuite), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var prog bytes.Buffer
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 2), Out: out, Progress: &prog})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(rep)
	want := map[string]struct {
		pass    bool
		outcome string
	}{
		"wifi-off":    {true, "done"},
		"bt-on":       {true, "done"},
		"refused":     {true, "refused"},
		"impossible":  {false, "done"},
		"crash":       {false, "crashed"},
		"after-crash": {true, "done"},
	}
	if len(got) != len(want) {
		t.Fatalf("report has %d tasks, want %d: %+v", len(got), len(want), rep.Tasks)
	}
	for id, w := range want {
		g := got[id]
		if g.Pass != w.pass || g.Outcome != w.outcome {
			t.Errorf("%s: pass=%t outcome=%s (%s), want pass=%t outcome=%s", id, g.Pass, g.Outcome, g.Reason, w.pass, w.outcome)
		}
	}
	// A failing check says which check and what it saw.
	imp := got["impossible"]
	if !strings.Contains(imp.Reason, "setting global/zen_mode = 2") || len(imp.Checks) != 2 || imp.Checks[0].Evidence != "global/zen_mode = 1" {
		t.Errorf("impossible: reason %q, checks %+v", imp.Reason, imp.Checks)
	}
	if !strings.Contains(got["crash"].Reason, "boom") {
		t.Errorf("crash reason %q", got["crash"].Reason)
	}
	bt := got["bt-on"]
	if len(bt.Questions) != 1 || bt.Questions[0].Answer != approveReply || bt.Questions[0].By != "consent" {
		t.Errorf("bt-on questions %+v", bt.Questions)
	}
	if bt.ModelCalls != 2 || bt.ModelCallsByRole["decider"] != 1 || bt.PromptTokens != 180 || bt.Steps != 1 {
		t.Errorf("bt-on accounting %+v", bt)
	}
	devs := map[string]bool{}
	for _, x := range rep.Tasks {
		devs[x.Device] = true
		if x.Outcome != "crashed" {
			if _, err := os.Stat(filepath.Join(out, x.RunDir, "trace.jsonl")); err != nil {
				t.Errorf("%s: run directory: %v", x.ID, err)
			}
		}
	}
	if len(devs) != 2 {
		t.Errorf("tasks ran on %v, want both phones", devs)
	}
	if rep.Totals.Tasks != 6 || rep.Totals.Passed != 4 || rep.Totals.ModelCalls != 10 {
		t.Errorf("totals %+v", rep.Totals)
	}
	for _, f := range []string{ReportJSON, reportMD, ReportHTML} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	back, err := ReadReport(filepath.Join(out, ReportJSON))
	if err != nil || len(back.Tasks) != 6 || back.Schema != reportSchema {
		t.Errorf("report.json read back: %v %+v", err, back)
	}
	md, _ := os.ReadFile(filepath.Join(out, reportMD))
	if !strings.Contains(string(md), "### impossible") || !strings.Contains(string(md), "global/zen_mode = 1") {
		t.Errorf("report.md lacks the failure:\n%s", md)
	}
	// One line per task (its outcome, a failure's reason on the same line), then the count.
	p := prog.String()
	lines := strings.Split(strings.TrimSuffix(p, "\n"), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[6], "6 of 6 runs finished, 4 passed") {
		t.Errorf("progress: want 6 task lines and the count:\n%s", p)
	}
	for i, l := range lines[:min(6, len(lines))] {
		if !strings.HasPrefix(l, fmt.Sprintf("[%d/6] ", i+1)) || (!strings.Contains(l, " ✓ ") && !strings.Contains(l, " ✗ ")) {
			t.Errorf("progress line %d %q: want [%d/6] and a mark", i+1, l, i+1)
		}
		if strings.Contains(l, " ✗ ") && !strings.Contains(l, "s: ") {
			t.Errorf("progress line %q: a failed task's line says why", l)
		}
	}
}

func TestRunColdWarm(t *testing.T) {
	s, err := suite.Parse([]byte(fakeSuite), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Tasks = s.Tasks[:2]
	s.Tasks[1].Tags = append(s.Tasks[1].Tags, revisitTag)
	var mu sync.Mutex
	var merged []string
	merge := func(dst string, srcs []string) error {
		mu.Lock()
		defer mu.Unlock()
		merged = append(merged, dst)
		return os.WriteFile(dst, []byte("knowledge"), 0o644)
	}
	out := t.TempDir()
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: out, ColdWarm: true, Merge: merge, Repeat: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Cold, warm, and warm again without Navigate (the model-independent figure).
	if len(rep.Tasks) != 12 || rep.Totals.Cold == nil || rep.Totals.Warm == nil || rep.Totals.WarmIndependent == nil || rep.Totals.ColdWarm == nil {
		t.Fatalf("report %+v", rep.Totals)
	}
	if rep.Totals.Cold.Tasks != 4 || rep.Totals.Warm.Tasks != 4 || rep.Totals.WarmIndependent.Tasks != 4 || len(rep.Totals.ColdWarm.Revisit.Tasks) != 1 {
		t.Errorf("cold/warm totals %+v %+v %+v", rep.Totals.Cold, rep.Totals.Warm, rep.Totals.ColdWarm)
	}
	if fs := rep.Totals.ColdWarm.Figures; len(fs) != 2 || fs[0].Name != FigureCooperating || fs[1].Name != FigureIndependent ||
		fs[1].ColdModelCalls != 8 || fs[1].WarmModelCalls != 8 || fs[1].Savings.ByRole["replanner"] != (RoleCalls{Cold: 4, Warm: 4}) {
		t.Errorf("figures %+v", fs)
	}
	if len(merged) != 1 || merged[0] != filepath.Join(out, "knowledge.db") {
		t.Errorf("merged into %v", merged)
	}
	for _, x := range rep.Tasks {
		if x.PassIndex == 1 {
			b, err := os.ReadFile(filepath.Join(out, x.RunDir, "knowledge.db"))
			if err != nil || string(b) != "knowledge" {
				t.Errorf("%s warm: knowledge copy %q %v", x.ID, b, err)
			}
			if x.Phase != "warm" || !strings.HasPrefix(x.RunDir, "runs/warm/") {
				t.Errorf("%s: phase %q dir %q", x.ID, x.Phase, x.RunDir)
			}
		}
		if x.PassIndex == 2 && (x.Phase != phaseIndependent || !strings.HasPrefix(x.RunDir, "runs/warm-independent/")) {
			t.Errorf("%s: phase %q dir %q", x.ID, x.Phase, x.RunDir)
		}
	}
}

// TestRunLearnThenEvaluate: the learning suite's tasks run first into one shared file;
// the evaluated tasks run cold (own fresh files) and warm, both ways, each from its own
// copy of it.
func TestRunLearnThenEvaluate(t *testing.T) {
	s, err := suite.Parse([]byte(fakeSuite), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	learn := *s
	learn.Tasks = s.Tasks[:1]
	s.Tasks = s.Tasks[1:2]
	out := t.TempDir()
	a := &jobAgent{}
	rep, err := Run(t.Context(), Config{Suite: s, Learn: &learn, Agent: a, Devices: newFarm(t, 1), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 4 || rep.Totals.Learn == nil || rep.Totals.Learn.Tasks != 1 || rep.Totals.Cold.Tasks != 1 || len(rep.Totals.ColdWarm.Figures) != 2 {
		t.Fatalf("report %+v", rep.Totals)
	}
	if rep.Tasks[0].Phase != PhaseLearn || rep.Options.LearnTasks[0] != learn.Tasks[0].ID {
		t.Errorf("first task %s %q, options %+v", rep.Tasks[0].ID, rep.Tasks[0].Phase, rep.Options)
	}
	shared := filepath.Join(out, "learned.db")
	for _, j := range a.jobs {
		var want string
		switch j.Phase {
		case PhaseLearn:
			want = shared
		default: // cold: its own fresh file; warm: its own copy of the shared one
			want = filepath.Join(j.RunDir, "knowledge.db")
		}
		if j.Knowledge != want || j.NoNavigate != (j.Phase == phaseIndependent) {
			t.Errorf("%s %s: knowledge %q no-navigate %t, want %q", j.Task.ID, j.Phase, j.Knowledge, j.NoNavigate, want)
		}
	}
}

// jobAgent is a fakeAgent that records the jobs it was given, as the pass handed them.
type jobAgent struct {
	fakeAgent
	mu   sync.Mutex
	jobs []Job
}

func (a *jobAgent) Start(ctx context.Context, job Job) (TaskRun, error) {
	a.mu.Lock()
	a.jobs = append(a.jobs, job)
	a.mu.Unlock()
	return a.fakeAgent.Start(ctx, job)
}

func TestRunInterrupted(t *testing.T) {
	s, err := suite.Parse([]byte(`
name: stop
defaults: {phone: {sim: {}}}
tasks:
  - {id: quick, instruction: settings put global wifi_on 0, checks: [{outcome: done}]}
  - {id: stuck, tags: [block], instruction: settings put global wifi_on 0, checks: [{outcome: done}]}
  - {id: never, instruction: settings put global wifi_on 0, checks: [{outcome: done}]}
`), "stop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	a := &fakeAgent{}
	out := t.TempDir()
	go func() {
		for a.started.Load() < 2 {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	rep, err := Run(ctx, Config{Suite: s, Agent: a, Devices: newFarm(t, 1), Out: out})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if !rep.Interrupted || len(rep.Tasks) != 1 || rep.Tasks[0].ID != "quick" || !rep.Tasks[0].Pass {
		t.Fatalf("report %+v", rep)
	}
	if r, err := ReadReport(filepath.Join(out, ReportJSON)); err != nil || !r.Interrupted || len(r.Tasks) != 1 {
		t.Errorf("report.json after interrupt: %v %+v", err, r)
	}
}

func TestRunSkipsTasksNoDeviceFits(t *testing.T) {
	s, err := suite.Parse([]byte(`
name: real
tasks:
  - id: on-device
    instruction: x
    phone: {device: {serial: R58M}}
    checks: [{screen: {contains: Done}}]
`), "real.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 1 || rep.Tasks[0].Outcome != "skipped" || rep.Tasks[0].Pass || !strings.Contains(rep.Tasks[0].Reason, "R58M") {
		t.Errorf("%+v", rep.Tasks)
	}
}

func TestRunConfigErrors(t *testing.T) {
	s, _ := suite.Parse([]byte(fakeSuite), "fake.yaml")
	for name, cfg := range map[string]Config{
		"no suite":   {Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: t.TempDir()},
		"no agent":   {Suite: s, Devices: newFarm(t, 1), Out: t.TempDir()},
		"no devices": {Suite: s, Agent: &fakeAgent{}, Out: t.TempDir()},
		"no out":     {Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1)},
		"no merge":   {Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: t.TempDir(), ColdWarm: true},
	} {
		if _, err := Run(t.Context(), cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: err = %v, want ErrConfig", name, err)
		}
	}
}
