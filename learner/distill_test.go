package learner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/memory"
)

// learnRules answer the learning call of a successful settings task.
const learnRules = `
rules:
  - name: learn from success
    role: learner
    match: ['(?s)Instruction: Turn on the dark theme.*Outcome: done', 'Dark theme']
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
	settingsRun(t, s, memory.OutcomeDone)

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
	settingsRun(t, s, memory.OutcomeDone)
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
	r.finish(memory.OutcomeFailed, "no dark theme under Sound")

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
		{name: "prose answer", rules: "rules: [{role: learner, answer: 'I think the run went well!'}]\n", want: learner.ErrModel},
		{name: "no rule (endpoint error)", rules: "rules: [{role: planner, answer: '{}'}]\n", want: learner.ErrModel},
		{name: "nonsense answer", rules: `
rules:
  - role: learner
    times: 1
    answer: '{"tricks": "many good ones", "wrong": [], "app_description": ""}'
  - role: learner
    answer: '{"tricks": [{"kind": "action", "app": "com.example.settings", "text": "Display holds the Dark theme switch."}], "wrong": [], "app_description": ""}'
`, want: learner.ErrBadAnswer, retried: true},
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
			settingsRun(t, s, memory.OutcomeDone)
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
	settingsRun(t, s, memory.OutcomeDone)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := s.Learn(t.Context())
	if !errors.Is(err, learner.ErrStore) {
		t.Errorf("Learn on a closed store = %v, want ErrStore", err)
	}
	if srv.Calls() != 0 {
		t.Errorf("model calls = %d, want none: nothing could be stored", srv.Calls())
	}
}
