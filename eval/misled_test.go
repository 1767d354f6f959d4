package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/rundir"
)

// writeTrace records events as a run's trace.jsonl in dir/rel through the run recorder.
func writeTrace(t *testing.T, dir, rel string, evs ...event.Event) {
	t.Helper()
	rec, err := rundir.NewRecorder(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(time.Now)
	bus.Subscribe(rec.Handle)
	for _, e := range evs {
		bus.Publish(e)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMisledTable: the report's "knowledge that misled" table lists every task a warm pass
// lost against cold and every false success, names the knowledge the run went wrong after
// from the run's trace (a routine's End shortcut with its source run and bindings, a
// verified step), says "the model's" where no knowledge was in play, and shows a run it
// cannot explain as such — in report.json, report.md and report.html.
func TestMisledTable(t *testing.T) {
	dir := t.TempDir()
	failed := []suite.CheckResult{{Name: "wifi on", Pass: false, Evidence: "wifi_on → 0"}}
	res := func(id, phase string, pass, done bool) TaskResult {
		x := TaskResult{ID: id, Phase: phase, PassIndex: passIndex[phase], Pass: pass, Outcome: "failed", RunDir: filepath.Join("runs", phase, id)}
		if done {
			x.Outcome = "done"
		}
		if !pass {
			x.Checks = failed
			x.FalseSuccess = done
		}
		return x
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &Report{Schema: reportSchema, Suite: "s", Started: start, Finished: start.Add(time.Minute), Options: RunOptions{ColdWarm: true}, Tasks: []TaskResult{
		res("wifi", phaseCold, true, true), res("plain", phaseCold, true, true), res("tips", phaseCold, true, true), res("map", phaseCold, true, true),
		res("stillwrong", phaseCold, false, true), res("bothfail", phaseCold, false, false),
		res("wifi", phaseWarm, false, true), res("plain", phaseWarm, false, false), res("tips", phaseWarm, false, false), res("map", phaseIndependent, false, false),
		res("stillwrong", phaseWarm, false, false), res("bothfail", phaseWarm, false, false),
		res("rows", phaseCold, true, true), res("rows", phaseWarm, false, true),
	}}
	r.Tasks[6].Instruction = "Turn wifi on."
	r.Tasks[13].Instruction = "Delete the expense Rent."
	r.Tasks[9].InjectedErrors = map[string]int{"grounding": 2}
	r.Tasks[7].InjectedErrors = map[string]int{"grounding": 1}
	writeTrace(t, dir, "runs/warm/wifi",
		event.RunStarted{RunID: "wifi", Instruction: "Turn wifi on."},
		event.StepStarted{Step: 1, App: "settings"},
		event.Planned{Step: 1, Plan: []string{"run it"}, Subgoal: "Run the learned routine"},
		event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 2}, Element: &event.ElementRef{Label: "Network & internet"}},
		event.RoutineRan{Step: 1, App: "settings", ID: "e452", Name: "Turn wifi {1}.", Planned: 1, Replayed: 1, LearnedFrom: "SystemWifiTurnOnVerify-0",
			Params: []string{`state (learned with "on")`}, Args: []string{"on"}},
		event.StepStarted{Step: 2, App: "settings"},
		event.Reflected{Step: 2, Result: "A", Reflection: "verified: the routine reached the page its task was done on", Verified: true,
			VerifiedBy: event.VerifiedByRoutineEnd, Routine: "e452", Page: "26fb"},
		event.TaskFinished{App: "settings", Outcome: event.OutcomeDone},
		event.RunFinished{Outcome: event.OutcomeDone})
	writeTrace(t, dir, "runs/warm/rows",
		event.RunStarted{RunID: "rows", Instruction: "Delete the expense Rent."},
		event.StepStarted{Step: 1, App: "expenses"},
		event.Planned{Step: 1, Plan: []string{"run it"}, Subgoal: "Run the learned routine"},
		event.ActionExecuted{Step: 1, Action: event.Action{Type: event.LongPress, Index: 4}, Element: &event.ElementRef{Label: "Groceries"}},
		event.ActionExecuted{Step: 2, Action: event.Action{Type: event.Tap, Index: 1}, Element: &event.ElementRef{Label: "Delete"}},
		event.RoutineRan{Step: 1, App: "expenses", ID: "d1", Name: "Delete the expense {1}.", Planned: 2, Replayed: 2, LearnedFrom: "ExpenseDeleteSingle-0",
			Params: []string{`row of page Expenses (learned with "Groceries")`}, Args: []string{"Groceries"}},
		event.RunFinished{Outcome: event.OutcomeDone})
	writeTrace(t, dir, "runs/warm/plain",
		event.RunStarted{RunID: "plain", Instruction: "x"},
		event.StepStarted{Step: 1, App: "a"},
		event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}},
		event.RunFinished{Outcome: event.OutcomeFailed})
	writeTrace(t, dir, "runs/warm/tips",
		event.RunStarted{RunID: "tips", Instruction: "x"},
		event.StepStarted{Step: 1, App: "a"},
		event.KnowledgeServed{Step: 1, Role: "decider", Tricks: 1, TrickTexts: []string{"Tap the row's switch, not the row."}},
		event.RunFinished{Outcome: event.OutcomeFailed})
	writeTrace(t, dir, "runs/warm-independent/map",
		event.RunStarted{RunID: "map", Instruction: "x"},
		event.StepStarted{Step: 2, App: "a"},
		event.Reflected{Step: 2, Result: "A", Reflection: "verified: the App Map predicted this page", Verified: true,
			VerifiedBy: event.VerifiedByMap, Action: `Tap(2) on item "Network & internet"`, Page: "26fb"},
		event.StepStarted{Step: 3, App: "a"},
		event.Reflected{Step: 3, Result: "C", Reflection: "wrong page"},
		event.StepStarted{Step: 5, App: "a"},
		event.Reflected{Step: 5, Result: "A", Reflection: "verified: the App Map predicted this page", Verified: true,
			VerifiedBy: event.VerifiedByMap, Action: `Tap(2) on item "Network & internet"`, Page: "26fb"},
		event.RunFinished{Outcome: event.OutcomeFailed})
	writeTrace(t, dir, "runs/cold/stillwrong", event.RunStarted{RunID: "stillwrong"}, event.RunFinished{Outcome: event.OutcomeDone})
	writeTrace(t, dir, "runs/warm/stillwrong", event.RunStarted{RunID: "stillwrong"}, event.RunFinished{Outcome: event.OutcomeFailed})
	r.total(nil, nil)
	r.Misled = r.misled(dir)

	byKey := map[string]misledRow{}
	for _, m := range r.Misled {
		byKey[m.Task+"/"+m.Phase] = m
	}
	if len(r.Misled) != 6 {
		t.Errorf("misled rows = %d, want 6 (wifi, plain, tips, rows lost warm; map lost warm-independent; stillwrong's false success cold): %+v", len(r.Misled), r.Misled)
	}
	if p := byKey["rows/warm"]; p.Culprit == nil || p.Culprit.Kind != useRoutine || p.Culprit.LearnedFrom != "ExpenseDeleteSingle-0" ||
		!strings.Contains(p.Wrong, `LongPress "Groceries", Tap "Delete"`) || !strings.Contains(p.Wrong, `bound to "Groceries", which the task does not name`) {
		t.Errorf("rows/warm = %+v, want the routine that deleted a row the task did not name", p)
	}
	w := byKey["wifi/warm"]
	if c := w.Culprit; c == nil || c.Kind != useRoutineEnd || c.ID != "e452" || c.Name != "Turn wifi {1}." || c.LearnedFrom != "SystemWifiTurnOnVerify-0" ||
		len(c.Bindings) != 1 || !strings.Contains(c.Bindings[0], `= "on"`) {
		t.Errorf("wifi/warm culprit = %+v, want the routine's End shortcut with its source run and bindings", w.Culprit)
	}
	if w.Loss != "lost; false success" || !w.Explained || !strings.Contains(w.Wrong, "wifi_on → 0") || len(w.InPlay) != 2 ||
		!strings.Contains(w.InPlay[0].Did, `Tap "Network & internet"`) {
		t.Errorf("wifi/warm = %+v", w)
	}
	if p := byKey["plain/warm"]; p.Culprit != nil || !p.Explained || !strings.HasPrefix(p.Wrong, "no knowledge in play: the loss is the model's") ||
		!strings.Contains(p.Wrong, "grounding×1") {
		t.Errorf("plain/warm = %+v, want the model's loss", p)
	}
	if p := byKey["tips/warm"]; p.Culprit != nil || p.Explained || !strings.HasPrefix(p.Wrong, "unexplained") {
		t.Errorf("tips/warm = %+v, want an unexplained row", p)
	}
	if p := byKey["map/warm-independent"]; p.Culprit == nil || p.Culprit.Kind != useVerified || p.Culprit.Step != 2 || !strings.Contains(p.Wrong, "Network & internet") {
		t.Errorf("map/warm-independent = %+v, want the verified step of step 2 (the first after which the run met a wrong page)", p)
	}
	if strings.Contains(w.Wrong, "which the task does not name") {
		t.Errorf("wifi/warm: the routine's argument is in the task, yet the row says it is not: %s", w.Wrong)
	}
	if p := byKey["stillwrong/cold"]; p.Loss != "false success" {
		t.Errorf("stillwrong/cold = %+v, want a false success row", p)
	}
	if _, ok := byKey["bothfail/warm"]; ok {
		t.Error("a task the cold pass failed too is listed as lost")
	}

	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ReportJSON))
	var got struct {
		Misled []struct {
			Task    string `json:"task"`
			Culprit *struct {
				Kind        string `json:"kind"`
				LearnedFrom string `json:"learned_from"`
			} `json:"culprit"`
		} `json:"misled"`
	}
	if err := json.Unmarshal(b, &got); err != nil || len(got.Misled) != 6 || got.Misled[1].Task != "wifi" || got.Misled[1].Culprit == nil ||
		got.Misled[1].Culprit.LearnedFrom != "SystemWifiTurnOnVerify-0" {
		t.Errorf("report.json misled = %+v %v", got.Misled, err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, reportMD))
	for _, want := range []string{"## Knowledge that misled", "1 of 6 unexplained",
		`| wifi | warm | lost; false success | routine ×1, routine-end ×1 | routine-end "Turn wifi {1}." (step 2) | SystemWifiTurnOnVerify-0 |`,
		"| tips | warm | lost | tips ×1 | none |  |  | **unexplained"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, ReportHTML))
	if !strings.Contains(string(page), `id="misled"`) || !strings.Contains(string(page), "SystemWifiTurnOnVerify-0") {
		t.Error("report.html lacks the misled table")
	}
}

// TestLearningCurve: a pass that shared one knowledge file over several instances of each
// family gets a curve of success and model calls by instance number (families counted by
// their family: tag, or their ID without the instance number); a fresh pass gets none.
func TestLearningCurve(t *testing.T) {
	run := func(id, fam string, pass bool, calls int) TaskResult {
		x := TaskResult{ID: id, Pass: pass, ModelCalls: calls}
		if fam != "" {
			x.Tags = []string{"androidworld", familyTag + fam}
		}
		return x
	}
	r := &Report{Options: RunOptions{Knowledge: KnowledgeShared}, Tasks: []TaskResult{
		run("A-0", "Alpha", false, 20), run("A-1", "Alpha", true, 10), run("A-2", "Alpha", true, 6),
		run("Beta-0", "", true, 12), run("Beta-1", "", true, 8),
	}}
	cs := r.curves()
	if len(cs) != 1 || cs[0].Phase != "" || len(cs[0].Points) != 3 {
		t.Fatalf("curves = %+v, want one of 3 points", cs)
	}
	want := []curvePoint{
		{Instance: 1, Runs: 2, Passed: 1, SuccessRate: 0.5, ModelCalls: 32, MeanModelCalls: 16},
		{Instance: 2, Runs: 2, Passed: 2, SuccessRate: 1, ModelCalls: 18, MeanModelCalls: 9},
		{Instance: 3, Runs: 1, Passed: 1, SuccessRate: 1, ModelCalls: 6, MeanModelCalls: 6},
	}
	for i, p := range cs[0].Points {
		if p != want[i] {
			t.Errorf("point %d = %+v, want %+v", i+1, p, want[i])
		}
	}
	if md := curvesMarkdown(cs); !strings.Contains(md, "| 2 | 2 | 2 | 100% | 18 | 9.0 |") {
		t.Errorf("curve markdown:\n%s", md)
	}
	r.Options.Knowledge = KnowledgeFresh
	if cs := r.curves(); len(cs) != 0 {
		t.Errorf("a fresh pass has curves %+v", cs)
	}
	// In a cold/warm evaluation only the pass that learned as it goes shares a file.
	r.Options.Knowledge = KnowledgeFresh
	for i := range r.Tasks {
		r.Tasks[i].Phase = []string{phaseAsItGoes, phaseCold}[i/3]
	}
	if cs := r.curves(); len(cs) != 1 || cs[0].Phase != phaseAsItGoes {
		t.Errorf("curves = %+v, want the as-it-goes pass's only", cs)
	}
}

// TestRunLearnedAsItGoes: with knowledge learned before (Config.Learned) and AsItGoes, an
// evaluation runs cold, then learning as it goes (every run on one file that started
// empty), then warm both ways from copies of the learned file, with no learning pass and
// no merge; the report has the four passes in its table.
func TestRunLearnedAsItGoes(t *testing.T) {
	s, err := suite.Parse([]byte(fakeSuite), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Tasks = s.Tasks[:2]
	out := t.TempDir()
	learned := filepath.Join(t.TempDir(), "learned.db")
	if err := os.WriteFile(learned, []byte("stand-in"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Something an earlier evaluation left: the pass starts from an empty file.
	if err := os.WriteFile(filepath.Join(out, asItGoesFile), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &jobAgent{}
	rep, err := Run(t.Context(), Config{Suite: s, Learned: learned, AsItGoes: true, Agent: a, Devices: newFarm(t, 1), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 8 || rep.Totals.AsItGoes == nil || rep.Totals.AsItGoes.Tasks != 2 || rep.Totals.Cold.Tasks != 2 || rep.Totals.Learn != nil ||
		!rep.Options.AsItGoes || rep.Options.Learned != learned {
		t.Fatalf("report %+v options %+v", rep.Totals, rep.Options)
	}
	var phases []string
	for _, j := range a.jobs {
		if len(phases) == 0 || phases[len(phases)-1] != j.Phase {
			phases = append(phases, j.Phase)
		}
		want := filepath.Join(j.RunDir, "knowledge.db")
		if j.Phase == phaseAsItGoes {
			want = filepath.Join(out, asItGoesFile)
		}
		if j.Knowledge != want {
			t.Errorf("%s %s: knowledge %q, want %q", j.Task.ID, j.Phase, j.Knowledge, want)
		}
		if j.Phase == phaseWarm {
			if b, err := os.ReadFile(want); err != nil || string(b) != "stand-in" {
				t.Errorf("%s warm: knowledge %q %v, want a copy of the learned file", j.Task.ID, b, err)
			}
		}
	}
	if strings.Join(phases, ",") != "cold,as-it-goes,warm,warm-independent" {
		t.Errorf("passes ran %v", phases)
	}
	if _, err := os.Stat(filepath.Join(out, asItGoesFile)); err == nil {
		if b, _ := os.ReadFile(filepath.Join(out, asItGoesFile)); string(b) == "old" {
			t.Error("the pass that learns as it goes started from an earlier evaluation's file")
		}
	}
	lines := rep.passLines()
	if len(lines) != 4 || lines[1].Pass != phaseAsItGoes || lines[1].Tasks != 2 {
		t.Errorf("pass lines %+v", lines)
	}
	md, _ := os.ReadFile(filepath.Join(out, reportMD))
	if !strings.Contains(string(md), "one shared empty knowledge file, learning as it goes") {
		t.Errorf("report.md lacks the passes table:\n%s", md)
	}
	if _, err := Run(t.Context(), Config{Suite: s, Learned: filepath.Join(out, "none.db"), Agent: a, Devices: newFarm(t, 1), Out: t.TempDir()}); err == nil {
		t.Error("a missing learned file was accepted")
	}
}

// TestMisledNamesTheModelsSlip: where knowledge was in play but an error injected into the
// model came between it and the trouble (a wrong tap, then a wrong page), the row names that
// error and its step, not the knowledge: tips the scripted model never reads, a verified step
// whose page was right. A verified step followed by trouble with no error between is still
// the culprit.
func TestMisledNamesTheModelsSlip(t *testing.T) {
	dir := t.TempDir()
	res := func(id, phase string, pass bool) TaskResult {
		x := TaskResult{ID: id, Phase: phase, PassIndex: passIndex[phase], Pass: pass, Outcome: "failed", RunDir: filepath.Join("runs", phase, id)}
		if !pass {
			x.Checks = []suite.CheckResult{{Name: "row", Pass: false, Evidence: "no such row"}}
		}
		return x
	}
	r := &Report{Schema: reportSchema, Suite: "s", Options: RunOptions{ColdWarm: true}, Tasks: []TaskResult{
		res("tips", phaseCold, true), res("tips", phaseWarm, false),
		res("verified", phaseCold, true), res("verified", phaseWarm, false),
		res("map", phaseCold, true), res("map", phaseWarm, false),
	}}
	verified := func(step int) event.Reflected {
		return event.Reflected{Step: step, Result: "A", Reflection: "verified: the App Map predicted this page", Verified: true,
			VerifiedBy: event.VerifiedByMap, Action: `Tap(7) on text "16:00"`, Page: "fbca"}
	}
	slip := event.ModelErrorInjected{Step: 3, Role: "decider", Error: "grounding", Change: `Tap(5 "OK") → Tap(4 "Cancel")`}
	writeTrace(t, dir, "runs/warm/tips",
		event.RunStarted{RunID: "tips"},
		event.KnowledgeServed{Step: 1, Role: "decider", Tricks: 1, TrickTexts: []string{"Pick the time in text mode."}},
		slip,
		event.Reflected{Step: 4, Result: "C", Reflection: "wrong page"},
		event.RunFinished{Outcome: event.OutcomeFailed})
	writeTrace(t, dir, "runs/warm/verified",
		event.RunStarted{RunID: "verified"},
		verified(2),
		slip,
		event.Reflected{Step: 4, Result: "C", Reflection: "wrong page"},
		event.RunFinished{Outcome: event.OutcomeFailed})
	writeTrace(t, dir, "runs/warm/map",
		event.RunStarted{RunID: "map"},
		verified(2),
		event.Reflected{Step: 3, Result: "C", Reflection: "wrong page"},
		event.ModelErrorInjected{Step: 5, Role: "decider", Error: "grounding", Change: "x"},
		event.RunFinished{Outcome: event.OutcomeFailed})
	r.total(nil, nil)
	r.Misled = r.misled(dir)
	byTask := map[string]misledRow{}
	for _, m := range r.Misled {
		byTask[m.Task] = m
	}
	for _, id := range []string{"tips", "verified"} {
		m := byTask[id]
		if !m.Explained || m.Culprit != nil || !strings.Contains(m.Wrong, "the model's own error: decider grounding at step 3") ||
			!strings.Contains(m.Wrong, "trouble at step 4") {
			t.Errorf("%s = %+v, want the injected error of step 3 named", id, m)
		}
	}
	if m := byTask["map"]; m.Culprit == nil || m.Culprit.Kind != useVerified || m.Culprit.Step != 2 {
		t.Errorf("map = %+v, want the verified step: the run met trouble before any error was injected", m)
	}
}
