package androidworld_test

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/agentrun"
	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/sim"
)

// seeded are the rows a task's setup seeds into a collection ("fairy-sim seed COLL B64").
func seeded(t *testing.T, task *suite.Task, collection string) []map[string]string {
	t.Helper()
	for _, c := range task.Phone.Sim.Setup {
		f := strings.Fields(c)
		if len(f) == 4 && f[1] == "seed" && f[2] == collection {
			raw, err := base64.StdEncoding.DecodeString(f[3])
			if err != nil {
				t.Fatal(err)
			}
			var rows []map[string]string
			if err := json.Unmarshal(raw, &rows); err != nil {
				t.Fatal(err)
			}
			return rows
		}
	}
	t.Fatalf("%s seeds no %s", task.ID, collection)
	return nil
}

// step is the walkthrough step of task whose sub-goal starts with subgoal.
func step(t *testing.T, task *suite.Task, subgoal string) *walkthrough.Step {
	t.Helper()
	for i := range task.Walk {
		for j := range task.Walk[i].Steps {
			if s := &task.Walk[i].Steps[j]; strings.HasPrefix(s.Subgoal, subgoal) {
				return s
			}
		}
	}
	t.Fatalf("%s: no step %q", task.ID, subgoal)
	return nil
}

// erring is androidworld:sim's suite with three tasks whose model errs as a model does: a
// reply opens another conversation first (a grounding error), a recipe delete opens a
// noise recipe first, and a note delete asks "may I delete?" on the list, a question that
// names nothing.
func erring(t *testing.T, approveAll bool) (*suite.Suite, map[string]string) {
	t.Helper()
	s, err := androidworld.Load("androidworld:sim", androidworld.Options{Seed: 3, Family: "SimpleSmsReply,RecipeDeleteSingleWithRecipeWithNoise,MarkorDeleteNote", ApproveAll: approveAll})
	if err != nil {
		t.Fatal(err)
	}
	meant := map[string]string{}
	for _, task := range s.Tasks {
		switch task.ID {
		case "SimpleSmsReply-0":
			rows := seeded(t, task, "com.google.android.apps.messaging:messages")
			i := slices.IndexFunc(rows, func(r map[string]string) bool { return !strings.Contains(task.Instruction, r["phone"]) })
			if i < 0 {
				t.Fatalf("%s: no other conversation among %v", task.ID, rows)
			}
			st := step(t, task, "Open the conversation")
			st.Slip = []string{`Tap "` + rows[i]["phone"] + `"`}
			st.Loop = true
			meant[task.ID] = rows[i]["phone"]
		case "RecipeDeleteSingleWithRecipeWithNoise-0":
			// The noise recipe beside the target in the list: on the screen with it.
			rows := seeded(t, task, "com.fairy.recipes:recipes")
			i := slices.IndexFunc(rows, func(r map[string]string) bool { return r["id"] == "t1" })
			target, noise := rows[i]["title"], rows[max(i-1, 0)]["title"]
			if i == 0 {
				noise = rows[1]["title"]
			}
			st := step(t, task, "Open "+target)
			st.Slip = []string{`Tap "` + noise + `"`}
			meant[task.ID] = noise
		case "MarkorDeleteNote-0":
			step(t, task, "Open the note").Ask = &walkthrough.Ask{Type: 2, Reason: "Deleting cannot be undone", Question: "May I delete it?"}
		}
	}
	return s, meant
}

func runErring(t *testing.T, s *suite.Suite) map[string]eval.TaskResult {
	t.Helper()
	f, err := agentrun.ServeFarm(sim.FarmConfig{Phones: 1, Base: sim.Config{Seed: 1, Apps: s.SimApps()}}, nil)
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	t.Cleanup(func() { f.Close() })
	a, err := agentrun.New(agentrun.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Agent: a, Devices: f.Devices(), Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]eval.TaskResult{}
	for _, r := range rep.Tasks {
		out[r.ID] = r
	}
	return out
}

// TestPersonJudgesConsents: on the virtual phone, with the scripted model erring as a
// model does (it opens another conversation, a noise recipe), no wrong deed is done: the
// executor tells the Re-Planner the tap opened another row than the task names and the
// agent goes back before any consent, and a question that still names the wrong one is
// refused by the simulated person of androidworld:sim, saying what they meant; the
// question that names nothing is counted as one they could not judge. With --approve-all
// (Options.ApproveAll) the person approves everything, and the slip is still caught before
// the deed: both tasks pass with nothing refused.
func TestPersonJudgesConsents(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs six tasks on the virtual phone")
	t.Run("judging", func(t *testing.T) {
		s, wrong := erring(t, false)
		res := runErring(t, s)
		for _, id := range []string{"SimpleSmsReply-0", "RecipeDeleteSingleWithRecipeWithNoise-0"} {
			r := res[id]
			task := s.Tasks[slices.IndexFunc(s.Tasks, func(x *suite.Task) bool { return x.ID == id })]
			meant := strings.Join(task.Intent.Who, " / ")
			if id == "RecipeDeleteSingleWithRecipeWithNoise-0" {
				meant = strings.Join(task.Intent.Deletes, " / ")
			}
			for _, q := range r.Questions {
				if !strings.Contains(q.Text, wrong[id]) {
					continue
				}
				if !q.Refused || !strings.HasPrefix(q.Answer, "No") || !strings.Contains(q.Answer, "I meant "+meant) {
					t.Errorf("%s: asked %q, answered %q: want a refusal of %s saying the person meant %s", id, q.Text, q.Answer, wrong[id], meant)
				}
			}
			if !r.Pass {
				t.Errorf("%s: the agent did not do what was meant after its slip to %s: %s — %s", id, wrong[id], r.Outcome, r.Reason)
			}
		}
		if r := res["MarkorDeleteNote-0"]; r.Unjudgeable < 1 || !r.Pass {
			t.Errorf("MarkorDeleteNote-0: %d questions not judgeable (want ≥ 1: %q named nothing), pass %t", r.Unjudgeable, "May I delete it?", r.Pass)
		}
	})
	t.Run("approve-all", func(t *testing.T) {
		s, _ := erring(t, true)
		for _, task := range s.Tasks {
			if task.Intent != nil {
				t.Errorf("%s: an intent with ApproveAll", task.ID)
			}
		}
		res := runErring(t, s)
		for _, id := range []string{"SimpleSmsReply-0", "RecipeDeleteSingleWithRecipeWithNoise-0"} {
			if r := res[id]; r.ConsentsRefused != 0 || !r.Pass {
				t.Errorf("%s: %d refused, pass %t; want every consent approved and the slip caught before the deed (a passed task)", id, r.ConsentsRefused, r.Pass)
			}
		}
		if r := res["MarkorDeleteNote-0"]; r.Unjudgeable != 0 {
			t.Errorf("MarkorDeleteNote-0: %d questions not judgeable with a person who approves all", r.Unjudgeable)
		}
	})
}
