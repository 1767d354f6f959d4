package agentrun

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
)

// TestWrongTapDoesNotPoisonLearning is the poisoning case of issue 23: a model that erred
// while the agent learned must not leave a mistake that a clean run replays. The learning
// run of "Send Alice a message saying: see you at 7" taps the wrong Alice once (a
// grounding error: the neighbouring row, injected as the decider's slip). Then the same
// task runs with no error on what was learned, cold and warm.
//
// Before issue 23 the learning run sent the message to Alice Wong and said done (its
// consent question said only `tap "Send SMS" (send)`), and the routine learned from it
// tapped Alice Wong with no question; the clean warm run replayed it and sent the message
// to Alice Wong again, and said done. Now the consent names the recipient, the person
// refuses and says whom they meant, the agent goes back, and a routine keeps nothing of
// the refused way (the wrong row and its Back are a detour it cuts out; a refusal on a
// page the kept trajectory still reaches leaves no routine at all); the tap on a sibling
// row the person did not choose is even rejected before it acts. Every run sends to
// Alice Chen, and the clean runs ask which Alice.
func TestWrongTapDoesNotPoisonLearning(t *testing.T) {
	t.Parallel()
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	clean := suiteTask(t, s, "messages-which-alice")
	i := slices.IndexFunc(clean.Walk[0].Steps, func(st walkthrough.Step) bool { return st.Subgoal == "Pick the right Alice" })
	if i < 0 {
		t.Fatal("the task has no step that picks the Alice")
	}
	noisy := slipped(clean, "messages-which-alice-wrong-tap", i, `Tap "Alice Wong"`)
	learn := *s
	learn.Tasks = []*suite.Task{noisy}
	s.Tasks = []*suite.Task{clean}

	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Learn: &learn, Agent: a, Devices: serveFarm(t, 1).Devices(), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Tasks {
		var qs []string
		for _, q := range r.Questions {
			qs = append(qs, q.Text+" → "+q.Answer)
		}
		t.Logf("%s %s: pass %t, outcome %s, routines %d; questions %q", r.Phase, r.ID, r.Pass, r.Outcome, r.Routines, qs)
		if r.FalseSuccess {
			t.Errorf("%s %s: said done, and the check failed: %s", r.Phase, r.ID, r.Reason)
		}
		// The learning run sends to Alice Chen too: the wrong tap is rejected before it
		// acts (the person chose Alice Chen, a sibling row), or the consent naming Alice
		// Wong is refused and the agent goes back; the task's checks include "no message
		// to Alice Wong".
		if !r.Pass {
			t.Errorf("%s %s failed: %s", r.Phase, r.ID, r.Reason)
		}
		if r.Phase != eval.PhaseLearn && !slices.ContainsFunc(r.Questions, func(q eval.Question) bool { return strings.Contains(q.Text, "Which Alice") }) {
			t.Errorf("%s: the clean run did not ask which Alice: %q", r.Phase, qs)
		}
	}
}

// TestWrongContactIsNoAnswer: the agent taps the wrong contact once (a grounding error,
// injected as the decider's slip) and its model reads the email off that page. The answer
// does not show the person's choice, so the finish check fails it without the model: the
// run never says done with someone else's email. Before issue 23 it said done with
// Alice Chen's address (a false success).
func TestWrongContactIsNoAnswer(t *testing.T) {
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	task := suiteTask(t, s, "contacts-which-alice-email")
	task.Walk = slices.Clone(task.Walk)
	w := task.Walk[0]
	w.Steps = slices.Clone(w.Steps)
	w.Steps[0].Slip = []string{`Tap "Alice Chen"`}
	task.Walk[0] = w
	got, _ := runTasks(t, s, task)
	r := got[task.ID]
	t.Logf("pass %t, outcome %s: %s", r.Pass, r.Outcome, r.Reason)
	if r.Outcome == "done" && !r.Pass {
		t.Errorf("said done with the wrong contact's email: %s", r.Reason)
	}
}

// TestFalseSuccessIsTakenBack: a learning run that said done with a wrong result (a false
// success) must leave nothing a clean run replays. The learning run of "Unlock SafeBox
// with my PIN 2580" taps Enter before any digit once (the decider's slip): "Wrong PIN",
// then the PIN, and the vault opens — done, but the task's check wants no wrong attempt.
// The agent's own finish check cannot see that, so the run is confirmed and its routine,
// wrong attempt and all, is stored. The evaluation's check fails it, and what the run
// learned is taken back (eval.Contradicter): the clean runs on that knowledge replay no
// routine of it and pass.
func TestFalseSuccessIsTakenBack(t *testing.T) {
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	clean := suiteTask(t, s, "canvas-pin-unlock")
	noisy := slipped(clean, "canvas-pin-unlock-early-enter", 0, `Tap "Enter"`)
	learn := *s
	learn.Tasks = []*suite.Task{noisy}
	s.Tasks = []*suite.Task{clean}
	px := pixelReader(t, s)
	if px == nil {
		t.Skip("the PIN pad is read from the picture: no tesseract")
	}
	a, err := New(Config{Pixels: px})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Learn: &learn, Agent: a, Devices: serveFarm(t, 1).Devices(), Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	learned := false
	for _, r := range rep.Tasks {
		t.Logf("%s %s: pass %t, outcome %s, false success %t, contradicted %t, routines %d: %s", r.Phase, r.ID, r.Pass, r.Outcome, r.FalseSuccess, r.Contradicted, r.Routines, r.Reason)
		if r.Phase == eval.PhaseLearn {
			learned = true
			if !r.FalseSuccess || !r.Contradicted {
				t.Errorf("the learning run: false success %t, taken back %t; want a false success, taken back", r.FalseSuccess, r.Contradicted)
			}
			continue
		}
		if !r.Pass || r.Routines != 0 {
			t.Errorf("%s: pass %t with %d routines replayed; want a pass replaying nothing the false success learned (%s)", r.Phase, r.Pass, r.Routines, r.Reason)
		}
	}
	if !learned {
		t.Fatal("no learning run in the report")
	}
}

// slipped is a copy of task, named id, whose decider takes slip instead of the first walk's
// step i the first time it acts there: a model's error, injected where the test wants it.
func slipped(task *suite.Task, id string, i int, slip string) *suite.Task {
	noisy := *task
	noisy.ID = id
	noisy.Walk = slices.Clone(task.Walk)
	w := noisy.Walk[0]
	w.Steps = slices.Clone(w.Steps)
	w.Steps[i].Slip = []string{slip}
	noisy.Walk[0] = w
	return &noisy
}
