package learner

import (
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"

	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
)

var epoch = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

func clock() time.Time { return epoch }

// openStore opens (creating) a real bbolt knowledge file.
func openStore(t *testing.T, path string) *knowledge.Store {
	t.Helper()
	st, err := knowledge.Open(path, knowledge.Options{Clock: clock})
	if err != nil {
		t.Fatalf("open knowledge: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func tempStore(t *testing.T) (*knowledge.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "knowledge.db")
	return openStore(t, path), path
}

// scriptedModel serves rules with the scripted model over httptest and returns the real
// go-openai adapter pointed at it.
func scriptedModel(t *testing.T, rules string) (*openai.Client, *scripted.Server) {
	t.Helper()
	rs, err := scripted.ParseRules([]byte(rules))
	if err != nil {
		t.Fatalf("rules: %v", err)
	}
	srv, err := scripted.NewServer(rs, scripted.Options{})
	if err != nil {
		t.Fatalf("scripted server: %v", err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	c, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", DefaultModel: "test-model",
		MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("openai client: %v", err)
	}
	return c, srv
}

func newLearner(t *testing.T, st Store, m Model) *Learner {
	t.Helper()
	l, err := New(Config{Store: st, Model: m, Clock: clock})
	if err != nil {
		t.Fatalf("learner.New: %v", err)
	}
	return l
}

// screen is a perceived screen in the events' terms.
type screen struct {
	pkg, activity, sig, text string
}

// run publishes the events of one app task on a bus the session listens to.
type run struct {
	t    *testing.T
	bus  *event.Bus
	step int
}

func startRun(t *testing.T, s *Session, runID, instruction, app, task string) *run {
	t.Helper()
	bus := event.NewBus(clock)
	unsub := s.Attach(bus)
	t.Cleanup(unsub)
	bus.Publish(event.RunStarted{RunID: runID, Instruction: instruction})
	bus.Publish(event.AppTaskStarted{Instruction: instruction, Task: event.AppTask{App: app, Task: task}})
	return &run{t: t, bus: bus}
}

// see starts a step on sc, with the sub-goal the re-planner chose and its verdict on the
// step before.
func (r *run) see(sc screen, result, subgoal string) {
	r.step++
	r.bus.Publish(event.StepStarted{Step: r.step, App: sc.pkg})
	r.bus.Publish(event.ScreenPerceived{Step: r.step, Package: sc.pkg, Activity: sc.activity, Signature: sc.sig, Text: sc.text})
	r.bus.Publish(event.Reflected{Step: r.step, Result: result, Reflection: "looked at it"})
	r.bus.Publish(event.Planned{Step: r.step, Plan: []string{subgoal}, Subgoal: subgoal})
}

// do executes actions on the current step's screen.
func (r *run) do(sig string, acts ...act) {
	var batch []event.Action
	for _, a := range acts {
		batch = append(batch, a.a)
	}
	r.bus.Publish(event.ActionsDecided{Step: r.step, Actions: batch})
	for _, a := range acts {
		r.bus.Publish(event.ActionExecuted{Step: r.step, Action: a.a, Signature: sig, Element: a.el, Err: a.err, Consent: a.consent})
	}
}

func (r *run) finish(o event.Outcome, reason string) {
	r.bus.Publish(event.TaskFinished{App: "", Outcome: o, Reason: reason, Steps: r.step})
	r.bus.Publish(event.RunFinished{Outcome: o, Reason: reason})
}

type act struct {
	a       event.Action
	el      *event.ElementRef
	err     string
	consent string // the guard category the person consented to
}

func tap(i int, label, id, class string) act {
	return act{a: event.Action{Type: event.Tap, Index: i}, el: &event.ElementRef{Label: label, ResourceID: id, Class: class}}
}
