package global

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/rundir"
)

type appList []event.App

func (a appList) Apps(context.Context) ([]event.App, error) { return a, nil }

type launcher struct{ launched []string }

func (l *launcher) Launch(_ context.Context, pkg string) error {
	l.launched = append(l.launched, pkg)
	return nil
}

// fakeRunner plays app tasks: it publishes what a real executor would and records the
// context each task was handed.
type fakeRunner struct {
	bus      *event.Bus
	outcomes map[string]event.Outcome
	facts    map[string][]event.Fact
	got      []executor.Assignment
}

func (f *fakeRunner) Run(_ context.Context, a executor.Assignment) (executor.Result, error) {
	f.got = append(f.got, a)
	f.bus.Publish(event.AppTaskStarted{Index: a.Index, Instruction: a.Instruction, Task: a.Task, Context: a.Context})
	f.bus.Publish(event.StepStarted{Step: 1, App: a.Task.App})
	if fs := f.facts[a.Task.App]; fs != nil {
		f.bus.Publish(event.ContextCollected{Step: 1, Facts: fs})
	}
	o := f.outcomes[a.Task.App]
	if o == "" {
		o = event.OutcomeDone
	}
	f.bus.Publish(event.TaskFinished{Index: a.Index, App: a.Task.App, Outcome: o, Steps: 1})
	return executor.Result{Outcome: o, Steps: 1, Reason: map[bool]string{true: "the person refused"}[o == event.OutcomeRefused]}, nil
}

type plannerModel struct {
	mu      sync.Mutex
	answers []string
	prompts []string
}

func (m *plannerModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if req.Role != llm.RolePlanner || req.Schema.Name != "planner" {
		return llm.Response{}, fmt.Errorf("unexpected role %s", req.Role)
	}
	m.prompts = append(m.prompts, req.Messages[0].Text)
	if len(m.answers) == 0 {
		return llm.Response{}, errors.New("no more answers")
	}
	a := m.answers[0]
	m.answers = m.answers[1:]
	return llm.Response{Text: a, Usage: llm.Usage{PromptTokens: 50, CompletionTokens: 10}}, nil
}

const (
	mapsThenMessages = `{"thought":"","status":"continue","tasks":[{"app":"com.fairy.maps","task":"Find a coffee shop","produces":"its address"},{"app":"com.fairy.messages","task":"Send the address to Alice","produces":""}],"next":0,"progress":"","reason":""}`
	nextMessages     = `{"thought":"","status":"continue","tasks":[{"app":"com.fairy.maps","task":"Find a coffee shop","produces":"its address"},{"app":"com.fairy.messages","task":"Send the address to Alice","produces":""}],"next":1,"progress":"address found","reason":""}`
	allDone          = `{"thought":"","status":"done","tasks":[],"next":-1,"progress":"sent","reason":"the address was sent"}`
)

var phoneApps = appList{{Package: "com.fairy.maps", Label: "Maps"}, {Package: "com.fairy.messages", Label: "Messages"}}

func newManager(t *testing.T, model *plannerModel, runner *fakeRunner, bus *event.Bus, mem *memory.Stacks, l *launcher) *Manager {
	t.Helper()
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Config{Apps: phoneApps, Launcher: l, Executor: runner, Model: executor.Metered{Model: model, Bus: bus}, Prompts: ps, Memory: mem, Bus: bus, RunID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTwoAppsPassKeyContext(t *testing.T) {
	bus := event.NewBus(nil)
	mem := memory.NewStacks()
	mem.Attach(bus)
	dir := t.TempDir()
	rec, err := rundir.NewRecorder(dir, "sk-secret-key")
	if err != nil {
		t.Fatal(err)
	}
	bus.Subscribe(rec.Handle)
	var progress strings.Builder
	bus.Subscribe(NewProgress(&progress).Handle)
	addr := event.Fact{Key: "address", Value: "1 Coffee Lane (sk-secret-key)"}
	runner := &fakeRunner{bus: bus, facts: map[string][]event.Fact{"com.fairy.maps": {addr}}}
	l := &launcher{}
	model := &plannerModel{answers: []string{mapsThenMessages, nextMessages, allDone}}
	res, err := newManager(t, model, runner, bus, mem, l).Run(t.Context(), "Send Alice the address of a coffee shop")
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != event.OutcomeDone || len(res.Tasks) != 2 {
		t.Fatalf("result = %+v", res)
	}
	if strings.Join(l.launched, ",") != "com.fairy.maps,com.fairy.messages" {
		t.Errorf("launched %v", l.launched)
	}
	if len(runner.got) != 2 || len(runner.got[1].Context) != 1 || runner.got[1].Context[0].Value != addr.Value {
		t.Errorf("second task's context = %+v, want the address", runner.got[1].Context)
	}
	if !strings.Contains(model.prompts[1], "Phase: adjust") || !strings.Contains(model.prompts[1], "1 Coffee Lane") {
		t.Errorf("adjust prompt lacks the phase or the context:\n%s", model.prompts[1])
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	var s rundir.Summary
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Outcome != event.OutcomeDone || s.Steps != 2 || s.ModelCalls != 3 || s.ModelCallsByRole["planner"] != 3 ||
		s.PromptTokens != 150 || s.CompletionTokens != 30 || len(s.Tasks) != 2 || s.Schema != rundir.SummarySchema {
		t.Errorf("summary = %+v", s)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(trace), "sk-secret-key") || !strings.Contains(string(trace), "[redacted]") {
		t.Error("secret leaked into the trace or was not redacted")
	}
	lines := strings.Split(strings.TrimSpace(string(trace)), "\n")
	var first struct{ Kind string }
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Kind != "RunStarted" {
		t.Errorf("first trace line = %s", lines[0])
	}
	if !strings.Contains(progress.String(), "✓ done") {
		t.Errorf("progress view:\n%s", progress.String())
	}
}

func TestPlannerEndings(t *testing.T) {
	tests := []struct {
		name        string
		answers     []string
		outcomes    map[string]event.Outcome
		wantOutcome event.Outcome
		wantReason  string
		wantTasks   int
		wantErr     error
	}{
		{"no app fits is reported", []string{`{"status":"impossible","tasks":[],"next":-1,"reason":"no app books flights"}`},
			nil, event.OutcomeFailed, "cannot be done: no app books flights", 0, nil},
		{"an unknown app is asked again", []string{
			`{"status":"continue","tasks":[{"app":"com.airline","task":"book"}],"next":0}`,
			`{"status":"impossible","tasks":[],"next":-1,"reason":"no airline app"}`},
			nil, event.OutcomeFailed, "cannot be done: no airline app", 0, nil},
		{"a refusal ends the run", []string{mapsThenMessages},
			map[string]event.Outcome{"com.fairy.maps": event.OutcomeRefused}, event.OutcomeRefused, "the person refused", 1, nil},
		{"two bad answers are an error", []string{`nonsense`, `{"status":"maybe"}`},
			nil, event.OutcomeFailed, "", 0, errBadAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bus := event.NewBus(nil)
			mem := memory.NewStacks()
			mem.Attach(bus)
			model := &plannerModel{answers: tt.answers}
			runner := &fakeRunner{bus: bus, outcomes: tt.outcomes}
			res, err := newManager(t, model, runner, bus, mem, &launcher{}).Run(t.Context(), "do it")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if res.Outcome != tt.wantOutcome || (tt.wantReason != "" && res.Reason != tt.wantReason) || len(runner.got) != tt.wantTasks {
				t.Errorf("result = %+v after %d tasks", res, len(runner.got))
			}
			if tt.name == "an unknown app is asked again" && !strings.Contains(model.prompts[1], `"com.airline", which is not in the list`) {
				t.Errorf("second prompt lacks the note:\n%s", model.prompts[1])
			}
		})
	}
}
