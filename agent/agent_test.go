package agent

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
)

// noApp scripts a Global Planner that finds no app for the instruction, naming the apps it
// was shown so the test sees the app list the run assembled.
const noApp = `
rules:
  - name: no app
    role: planner
    match: ['Phase: plan', '(?m)^- com\.fairy\.notes — (\S+)']
    answer: '{"thought":"","status":"impossible","tasks":[],"next":-1,"progress":"","reason":"no app books flights (notes app: {{match 1}})"}'
`

// TestRunOnVirtualPhone assembles a whole run on a virtual phone with the scripted model and
// a knowledge file: the outcome and summary come back, the run directory holds the trace,
// and the learner was told the phone's apps.
func TestRunOnVirtualPhone(t *testing.T) {
	ctx := t.Context()
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	phones, err := ServePhones(nil, phone)
	if err != nil {
		t.Fatal(err)
	}
	defer phones.Close()
	dev, err := OpenDevice(ctx, phones.Device(phone.Serial(), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(ctx)
	rules, err := scripted.ParseRules([]byte(noApp))
	if err != nil {
		t.Fatal(err)
	}
	model, err := ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	store, err := knowledge.Open(filepath.Join(t.TempDir(), "k.db"), knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	person, err := interaction.NewCanned(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(Config{TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run-1")
	var progress strings.Builder
	res, err := ag.Run(ctx, Run{Instruction: "Book a flight", Dir: dir, Device: dev, Model: model.Model, Dialoger: person,
		Knowledge: store, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil || res.Outcome != event.OutcomeFailed || res.Reason != "cannot be done: no app books flights (notes app: Notes)" {
		t.Errorf("result = %+v, %v", res.Result, res.Err)
	}
	if res.Summary.Outcome != event.OutcomeFailed || res.Summary.ModelCallsByRole["planner"] != 1 {
		t.Errorf("summary = %+v", res.Summary)
	}
	for _, f := range []string{"trace.jsonl", "summary.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(progress.String(), "no app books flights") {
		t.Errorf("progress view:\n%s", progress.String())
	}
	if a, err := store.GetApp("com.fairy.notes"); err != nil || a.Label != "Notes" {
		t.Errorf("learned app = %+v, %v", a, err)
	}
}

func TestRunNeedsItsParts(t *testing.T) {
	ag, err := New(Config{TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ag.Run(t.Context(), Run{Instruction: "x", Dir: t.TempDir()}); !errors.Is(err, errConfig) {
		t.Errorf("err = %v, want ErrConfig", err)
	}
}

// TestScriptedCloseIsPrompt: a client connection that was dialed but never used must not
// hold Close up (http.Server.Shutdown would wait for it).
func TestScriptedCloseIsPrompt(t *testing.T) {
	s, err := ServeScriptedModel(nil, openai.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	time.Sleep(20 * time.Millisecond) // let the server accept it
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v with an idle connection", d)
	}
}
