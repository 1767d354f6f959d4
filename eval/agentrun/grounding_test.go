package agentrun

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/grounding"
	"github.com/fairy-go/fairy/llm/inject"
)

// TestScriptedModelInEachFamily: a builtin task that types, sends and asks consent passes
// with the scripted decider answering in each family's syntax and frame, with the calls of
// numbered actions; a point moved far off its element is counted by where it went.
func TestScriptedModelInEachFamily(t *testing.T) {
	t.Parallel()
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	s.Tasks = []*suite.Task{suiteTask(t, s, "messages-text-bob")}
	run := func(fam grounding.Family, rates inject.Rates) eval.TaskResult {
		a, err := New(Config{Grounding: fam})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Agent: a, Devices: serveFarm(t, 1).Devices(), Out: t.TempDir(), ModelErrors: rates, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Tasks[0]
	}
	som := run(grounding.Som, nil)
	if !som.Pass {
		t.Fatalf("numbered actions: the task failed: %+v", som)
	}
	families := grounding.Families()
	if testing.Short() {
		// A run per family is a whole task on the virtual phone; the fast tier runs the
		// first (UI-TARS, pixels of the picture sent) and the 400 px AutoGLM run below,
		// the full tier every family. grounding's own tests parse every family's syntax.
		families = families[:1]
	}
	for _, fam := range families {
		r := run(fam, nil)
		if !r.Pass || r.ModelCalls != som.ModelCalls || r.Steps != som.Steps {
			t.Errorf("%s: pass %t, %d calls, %d steps; numbered actions: %d calls, %d steps (%s)", fam, r.Pass, r.ModelCalls, r.Steps, som.ModelCalls, som.Steps, r.Reason)
		}
	}
	r := run(grounding.AutoGLM, inject.Rates{inject.Offset: 400})
	n := 0
	for k, c := range r.InjectedErrors {
		if strings.HasPrefix(k, "offset") {
			n += c
		}
	}
	if n == 0 || r.InjectedErrors["offset→no element"]+r.InjectedErrors["offset→other element"] == 0 {
		t.Errorf("400 px offsets counted %v: want them by where the points went", r.InjectedErrors)
	}
	if r.Unnamed > 0 {
		t.Errorf("%d sensitive actions without a named consent with points 400 px off", r.Unnamed)
	}
}
