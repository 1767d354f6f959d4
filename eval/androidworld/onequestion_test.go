package androidworld_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/internal/testenv"
)

// oneDeedFamilies are androidworld:sim's tasks whose one deed takes several steps: a new
// SMS (pick the number, write, send) and a note deleted through its dialog ("Delete
// note", then the dialog's Delete).
const oneDeedFamilies = "SimpleSmsSend,MarkorDeleteNote"

// consentQuestions are the yes/no questions of a task's run.
func consentQuestions(r eval.TaskResult) []eval.Question {
	var out []eval.Question
	for _, q := range r.Questions {
		if q.Type == 1 || q.Type == 2 {
			out = append(out, q)
		}
	}
	return out
}

// TestOneDeedOneQuestion: on the virtual phone, a new SMS and a note's deletion are each
// asked once, with the deed's specifics (the number and the text; the note), and done;
// picking the recipient asks nothing. When the person says no to that one question, the
// deed is not done (the scripted model tries again once, and is refused again).
func TestOneDeedOneQuestion(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs four tasks on the virtual phone")
	load := func() *suite.Suite {
		s, err := androidworld.Load("androidworld:sim", androidworld.Options{Seed: 3, Family: oneDeedFamilies})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Tasks) != 2 {
			t.Fatalf("%d tasks, want 2", len(s.Tasks))
		}
		return s
	}
	t.Run("yes", func(t *testing.T) {
		for id, r := range runErring(t, load()) {
			qs := consentQuestions(r)
			if len(qs) != 1 {
				var texts []string
				for _, q := range qs {
					texts = append(texts, q.Text)
				}
				t.Errorf("%s: %d consent questions, want 1:\n%s", id, len(qs), strings.Join(texts, "\n"))
			}
			if !r.Pass || r.Sensitive == 0 || r.Unnamed != 0 {
				t.Errorf("%s: pass %t, %d sensitive actions, %d without a named consent: %s", id, r.Pass, r.Sensitive, r.Unnamed, r.Reason)
			}
		}
	})
	t.Run("no", func(t *testing.T) {
		s := load()
		for _, task := range s.Tasks {
			task.Intent = &suite.Intent{} // the person asked for nothing sensitive: every consent is refused
		}
		for id, r := range runErring(t, s) {
			// The scripted model tries once more after a no; each try is asked and refused.
			qs := consentQuestions(r)
			if len(qs) == 0 || slices.ContainsFunc(qs, func(q eval.Question) bool { return !q.Refused }) {
				t.Errorf("%s: consent questions %+v, want each refused", id, qs)
			}
			if r.Sensitive != 0 || r.Pass {
				t.Errorf("%s: after the person's no, %d sensitive actions were done (pass %t)", id, r.Sensitive, r.Pass)
			}
		}
	})
}
