package learner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// learnRules answer the learning call of a successful settings task.
const learnRules = `
rules:
  - name: learn from success
    role: learner
    match: ['(?s)<<<INSTRUCTION\nTurn on the dark theme\n.*\nOutcome: done', 'Dark theme']
    answer: |
      {"tricks": [
        {"kind": "action", "app": "com.example.settings", "text": "The Dark theme switch is on the Display page, reached from the Display item of the main Settings list."},
        {"kind": "planning", "app": "common", "text": "Open the page named after the setting's group before looking for the switch."},
        {"kind": "sideways", "app": "x", "text": "not a kind"}
      ], "wrong": [], "app_description": "System settings: display, sound and search."}
`

func TestLearnStoresTricksWithProvenance(t *testing.T) {
	st, _ := tempStore(t)
	model, srv := scriptedModel(t, learnRules)
	l := newLearner(t, st, model)
	s := l.Start("", "")
	settingsRun(t, s, event.OutcomeDone)

	rep, err := s.Learn(t.Context())
	if err != nil {
		t.Fatalf("Learn: %v", err)
	}
	if srv.Calls() != 1 {
		t.Errorf("model calls = %d, want 1", srv.Calls())
	}
	if rep.Tasks != 1 || len(rep.Added) != 2 || len(rep.Merged) != 0 || len(rep.Skipped) != 1 {
		t.Fatalf("report = %+v", rep)
	}
	tricks, err := st.Tricks("", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tricks) != 2 {
		t.Fatalf("stored tricks = %+v", tricks)
	}
	apps := map[string]knowledge.Kind{}
	for _, tr := range tricks {
		apps[tr.App] = tr.Kind
		want := knowledge.Provenance{Instruction: "Turn on the dark theme", RunID: "run-1", Outcome: "success", Time: epoch}
		if !tr.Provenance.Time.Equal(want.Time) {
			t.Errorf("trick %s provenance time %v, want %v", tr.ID, tr.Provenance.Time, want.Time)
		}
		tr.Provenance.Time = want.Time
		if tr.Provenance != want {
			t.Errorf("trick %s provenance = %+v, want %+v", tr.ID, tr.Provenance, want)
		}
	}
	if apps[settingsApp] != knowledge.KindAction || apps[knowledge.Common] != knowledge.KindPlanning {
		t.Errorf("tricks by app = %v", apps)
	}
	a, err := st.GetApp(settingsApp)
	if err != nil || a.Description != "System settings: display, sound and search." {
		t.Errorf("app = %+v, %v", a, err)
	}

	// Learning again finds nothing new to learn.
	rep, err = s.Learn(t.Context())
	if err != nil || rep.Tasks != 0 || srv.Calls() != 1 {
		t.Errorf("second Learn = %+v, %v (calls %d)", rep, err, srv.Calls())
	}

	// The next run retrieves them, in English.
	got, err := l.Start("", "").Tricks(t.Context(), settingsApp, "action", "turn on dark theme", 3)
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "Dark theme switch") {
		t.Errorf("Tricks = %q, %v", got, err)
	}
}

func TestLearnMergesNearDuplicates(t *testing.T) {
	st, _ := tempStore(t)
	old, err := st.AddTrick(knowledge.Trick{App: settingsApp, Kind: knowledge.KindAction,
		Text: "The Dark theme switch is on the Display page, reached from the Display item of the Settings list."})
	if err != nil {
		t.Fatal(err)
	}
	model, _ := scriptedModel(t, learnRules)
	l := newLearner(t, st, model)
	s := l.Start("", "")
	settingsRun(t, s, event.OutcomeDone)
	rep, err := s.Learn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Merged) != 1 || rep.Merged[0].ID != old.ID || len(rep.Added) != 1 {
		t.Fatalf("report = %+v", rep)
	}
	tricks, err := st.Tricks(settingsApp, knowledge.KindAction)
	if err != nil {
		t.Fatal(err)
	}
	if len(tricks) != 1 || tricks[0].Merges != 1 {
		t.Errorf("action tricks = %+v, want the one trick with one merge", tricks)
	}
}

func TestLearnDemotesContradictedTrick(t *testing.T) {
	st, _ := tempStore(t)
	bad, err := st.AddTrick(knowledge.Trick{App: settingsApp, Kind: knowledge.KindAction,
		Text: "The dark theme switch is under Sound."})
	if err != nil {
		t.Fatal(err)
	}
	good, err := st.AddTrick(knowledge.Trick{App: settingsApp, Kind: knowledge.KindPlanning,
		Text: "Search the settings for the theme when the list is long."})
	if err != nil {
		t.Fatal(err)
	}
	rules := `
rules:
  - role: learner
    match: ['(?s)Outcome: failed.*\[` + bad.ID + `\] \(action\) The dark theme switch is under Sound']
    answer: |
      {"tricks": [{"kind": "error-recovery", "app": "com.example.settings",
                   "text": "If the dark theme is not under Sound, go back and open Display."}],
       "wrong": ["` + bad.ID + `", "t999"], "app_description": ""}
`
	model, _ := scriptedModel(t, rules)
	l := newLearner(t, st, model)
	s := l.Start("", "")
	r := startRun(t, s, "run-9", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	for _, q := range []struct{ kind, query string }{{"action", "dark theme switch"}, {"planning", "theme settings"}} {
		got, err := s.Tricks(t.Context(), settingsApp, q.kind, q.query, 3)
		if err != nil || len(got) != 1 {
			t.Fatalf("Tricks(%s) = %q, %v", q.kind, got, err)
		}
	}
	r.see(mainPage, "", "Open Sound")
	r.do("s-main", tap(2, "Sound", settingsApp+":id/sound", "android.widget.LinearLayout"))
	r.see(screen{settingsApp, ".Sound", "s-sound", `- "Sound"`}, "C", "Go back")
	r.finish(event.OutcomeFailed, "no dark theme under Sound")

	rep, err := s.Learn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Demoted) != 1 || rep.Demoted[0].ID != bad.ID || rep.Uses != 2 || len(rep.Added) != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], "t999") {
		t.Errorf("skipped = %q, want the unknown id", rep.Skipped)
	}
	b, _ := st.Trick(bad.ID)
	g, _ := st.Trick(good.ID)
	if b.Demotions != 1 || b.Uses != 1 || b.Successes != 0 {
		t.Errorf("contradicted trick = %+v", b)
	}
	if g.Demotions != 0 || g.Uses != 1 || g.Successes != 0 {
		t.Errorf("other trick used in the failed run = %+v", g)
	}
	if b.Score >= g.Score {
		t.Errorf("demoted score %.3f not below %.3f", b.Score, g.Score)
	}
	hits, err := st.Search(settingsApp, "", "dark theme", 5)
	if err != nil || len(hits) < 2 || hits[0].Trick.ID == bad.ID {
		t.Errorf("search after demotion ranks the contradicted trick first: %+v, %v", hits, err)
	}
}

func TestLearnFailureKeepsKnowledge(t *testing.T) {
	tests := []struct {
		name    string
		rules   string
		want    error
		retried bool // a second Learn succeeds
	}{
		{name: "prose answer", rules: "rules: [{role: learner, answer: 'I think the run went well!'}]\n", want: errModel},
		{name: "no rule (endpoint error)", rules: "rules: [{role: planner, answer: '{}'}]\n", want: errModel},
		{name: "nonsense answer", rules: `
rules:
  - role: learner
    times: 1
    answer: '{"tricks": "many good ones", "wrong": [], "app_description": ""}'
  - role: learner
    answer: '{"tricks": [{"kind": "action", "app": "com.example.settings", "text": "Display holds the Dark theme switch."}], "wrong": [], "app_description": ""}'
`, want: errBadAnswer, retried: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := tempStore(t)
			kept, err := st.AddTrick(knowledge.Trick{App: settingsApp, Kind: knowledge.KindAction, Text: "Display is the first item."})
			if err != nil {
				t.Fatal(err)
			}
			model, _ := scriptedModel(t, tc.rules)
			l := newLearner(t, st, model)
			s := l.Start("", "")
			if _, err := s.Tricks(t.Context(), settingsApp, "action", "display", 3); err != nil {
				t.Fatal(err)
			}
			settingsRun(t, s, event.OutcomeDone)
			rep, err := s.Learn(t.Context())
			if !errors.Is(err, tc.want) {
				t.Fatalf("Learn error = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), settingsApp) {
				t.Errorf("error %q does not name the app", err)
			}
			if rep.Uses != 1 {
				t.Errorf("uses counted = %d, want 1 (before the model call)", rep.Uses)
			}
			m, _ := st.Map(settingsApp)
			if len(m.Pages) != 3 || len(m.Transitions) != 7 {
				t.Errorf("map lost: %d pages %d transitions", len(m.Pages), len(m.Transitions))
			}
			if tr, err := st.Trick(kept.ID); err != nil || tr.Uses != 1 {
				t.Errorf("stored trick = %+v, %v", tr, err)
			}
			rep, err = s.Learn(t.Context())
			if tc.retried {
				if err != nil || rep.Tasks != 1 || rep.Uses != 0 || len(rep.Added) != 1 {
					t.Errorf("retry = %+v, %v; want the task learned, uses not counted twice", rep, err)
				}
			} else if !errors.Is(err, tc.want) {
				t.Errorf("retry error = %v", err)
			}
			if tr, _ := st.Trick(kept.ID); tr.Uses != 1 {
				t.Errorf("uses after retry = %d, want 1", tr.Uses)
			}
		})
	}
}

func TestLearnOnClosedStore(t *testing.T) {
	st, _ := tempStore(t)
	model, srv := scriptedModel(t, learnRules)
	l := newLearner(t, st, model)
	s := l.Start("", "")
	settingsRun(t, s, event.OutcomeDone)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := s.Learn(t.Context())
	if !errors.Is(err, errStore) {
		t.Errorf("Learn on a closed store = %v, want ErrStore", err)
	}
	if srv.Calls() != 0 {
		t.Errorf("model calls = %d, want none: nothing could be stored", srv.Calls())
	}
}

// promptModel records the learning prompts and answers with no tricks.
type promptModel struct{ reqs []llm.Request }

func (m *promptModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.reqs = append(m.reqs, req)
	return llm.Response{Text: `{"tricks": [], "wrong": [], "app_description": ""}`}, nil
}

func TestLearnPromptShowsTheInteractions(t *testing.T) {
	st, _ := tempStore(t)
	m := &promptModel{}
	l := newLearner(t, st, m)
	s := l.Start("", "")
	r := startRun(t, s, "run-1", "Message Alice", "com.example.chat", "Message Alice")
	r.see(screen{"com.example.chat", ".Contacts", "c-list", `- [1] item "Alice Chen"` + "\n" + `- [2] item "Alice Wong"`}, "", "Pick the right Alice")
	r.bus.Publish(event.InteractionAsked{Step: 1, Type: 3, Question: "Which Alice?", Options: []string{"Alice Chen", "Alice Wong"}})
	r.bus.Publish(event.InteractionAnswered{Step: 1, Answer: "Alice Chen"})
	r.bus.Publish(event.InteractionEnded{Step: 1, Settled: true, Summary: "The person means Alice Chen.", Turns: 1, Subgoal: "Pick the right Alice"})
	r.do("c-list", tap(1, "Alice Chen", "", "android.widget.TextView"))
	r.see(screen{"com.example.chat", ".Chat", "c-chat", `- [1] button "Send"`}, "A", "Send")
	r.bus.Publish(event.InteractionAsked{Step: 2, Type: 2, Question: "Send the message to Alice Chen?"})
	r.bus.Publish(event.InteractionAnswered{Step: 2, Answer: "yes"})
	r.bus.Publish(event.InteractionEnded{Step: 2, Settled: true, Summary: "The person allows sending.", Turns: 1,
		Consent: &event.Consent{Granted: true, Category: "message"}})
	r.finish(event.OutcomeDone, "sent")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(m.reqs) != 1 {
		t.Fatalf("model calls = %d, want 1", len(m.reqs))
	}
	req := m.reqs[0]
	user := req.Messages[0].Text
	for _, want := range []string{
		"<<<CONVERSATION\nstep 1, type 3 (choice), sub-goal: Pick the right Alice\n" +
			prompts.MarkAgent + "Which Alice?\nOptions: Alice Chen | Alice Wong\n" + prompts.MarkPerson + "Alice Chen\nSettled: The person means Alice Chen.\n",
		"step 2, type 2 (irreversible)\n" + prompts.MarkAgent + "Send the message to Alice Chen?\n" + prompts.MarkPerson + "yes\nConsent granted (message): The person allows sending.\nCONVERSATION>>>",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, user)
		}
	}
	if strings.Contains(user, "()") {
		t.Errorf("prompt shows an empty category:\n%s", user)
	}
	if !strings.Contains(req.System, "never instructions to you") || req.Role != llm.RoleLearner || req.Schema == nil || req.Schema.Name != prompts.NameLearner {
		t.Errorf("request: role %q, schema %+v, system:\n%s", req.Role, req.Schema, req.System)
	}
}

func TestLearnPromptKeepsTheLatestSteps(t *testing.T) {
	st, _ := tempStore(t)
	m := &promptModel{}
	l, err := New(Config{Store: st, Model: m, Clock: clock, MaxTrajectory: 1500})
	if err != nil {
		t.Fatal(err)
	}
	s := l.Start("", "")
	r := startRun(t, s, "run-1", "Turn on the dark theme", settingsApp, "Turn on the dark theme")
	for i := range 30 {
		r.see(mainPage, "D", fmt.Sprintf("Try number %d", i+1))
		r.do("s-main", act{a: event.Action{Type: event.Swipe, Direction: "up"}})
	}
	r.finish(event.OutcomeFailed, "gave up")
	if _, err := s.Learn(t.Context()); err != nil {
		t.Fatal(err)
	}
	user := m.reqs[0].Messages[0].Text
	if len(user) > 1500 {
		t.Errorf("prompt is %d bytes, over the 1500 asked", len(user))
	}
	if !strings.Contains(user, "Try number 30\n") || strings.Contains(user, "Try number 1\n") {
		t.Errorf("prompt does not keep the latest steps:\n%s", user)
	}
	if !regexp.MustCompile(`Trajectory \(\d+ earlier steps left out\):`).MatchString(user) {
		t.Errorf("prompt does not say steps were left out:\n%s", user)
	}
}
