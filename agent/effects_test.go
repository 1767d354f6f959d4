package agent

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
)

// tidyEN and tidyDE are one test-only app in English and in German: its "Go" ("Los")
// deletes the first row of its list, its "Refresh" ("Aktualisieren") does nothing that
// lasts, and neither says so in words the guard knows.
var (
	//go:embed testdata/tidy-en.yaml
	tidyEN []byte
	//go:embed testdata/tidy-de.yaml
	tidyDE []byte
)

// tidyRules tap each of labels, one a step, then finish.
func tidyRules(labels ...string) string {
	rules := `rules:
  - name: plan
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"com.fairy.tidy","task":"Tidy up","produces":""}],"next":0,"progress":"","reason":""}'
  - name: adjust done
    role: planner
    match: ['Phase: adjust', '— done']
    answer: '{"thought":"","status":"done","tasks":[],"next":-1,"progress":"done","reason":"tidied"}'
  - name: adjust otherwise
    role: planner
    match: ['Phase: adjust']
    answer: '{"thought":"","status":"impossible","tasks":[],"next":-1,"progress":"","reason":"not tidied"}'
  - name: no facts
    role: extractor
    answer: '{"facts":[]}'
  - name: check
    role: checker
    answer: '{"passed":true,"reason":"done"}'
  - name: learn nothing
    role: learner
    answer: '{"tricks":[]}'
  - name: replan
    role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Press the buttons"],"subgoal":"Press the buttons","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
`
	for i, l := range labels {
		rules += fmt.Sprintf(`  - name: tap %d
    role: decider
    times: 1
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index %q}}}],"expect":""}'
`, i, l)
	}
	return rules + `  - name: finish
    role: decider
    answer: '{"thought":"","actions":[{"type":"Finish","text":"tidied"}],"expect":""}'
  - name: consent given
    role: interactor
    match: ['Interaction type: [12]', '(?m)^Person: (?i:y|yes)']
    answer: '{"status":"A","question":"","options":[],"summary":"agreed","consent":"granted"}'
  - name: consent refused
    role: interactor
    match: ['Interaction type: [12]', '(?m)^Person: (?i:n|no)']
    answer: '{"status":"A","question":"","options":[],"summary":"refused","consent":"refused"}'
  - name: ask consent
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)']
    answer: '{"status":"B","question":{{json (printf "May I %s?" (match 1))}},"options":[],"summary":"","consent":""}'
`
}

// tidyRun is what one run in the tidy app left: the questions the person was asked, the
// guard's holds (category:target) and the rows the list kept.
type tidyRun struct {
	asked []interaction.Asked
	held  []string
	rows  int
}

// runTidy runs one task in the tidy app (spec) on a fresh virtual phone, through the
// adb protocol, learning into store: the model taps labels one a step; the person answers
// answer to every question.
func runTidy(t *testing.T, store *knowledge.Store, spec []byte, answer string, labels ...string) tidyRun {
	t.Helper()
	ctx := t.Context()
	app, err := sim.ParseApp(spec)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }
	phone, err := sim.New(sim.Config{Seed: 3, Clock: clock, Apps: append(apps, app)})
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
	defer dev.Close(context.WithoutCancel(ctx))
	rules, err := scripted.ParseRules([]byte(tidyRules(labels...)))
	if err != nil {
		t.Fatal(err)
	}
	model, err := ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	person, err := interaction.NewCanned(nil, answer)
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(Config{TextOnly: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	res, err := ag.Run(ctx, Run{Instruction: "Tidy up", Dir: dir, Device: dev, Model: model.Model, Dialoger: person, Knowledge: store})
	if err != nil {
		t.Fatal(err)
	}
	if res.KnowledgeErr != nil {
		t.Errorf("learning failed: %v", res.KnowledgeErr)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := tidyRun{asked: person.Asked()}
	for _, e := range traceLines(t, trace) {
		if ev, _ := e["event"].(map[string]any); e["kind"] == "ActionGuarded" {
			out.held = append(out.held, ev["category"].(string)+":"+ev["target"].(string))
		}
	}
	recs, err := phone.Records("com.fairy.tidy:items")
	if err != nil {
		t.Fatal(err)
	}
	out.rows = len(recs)
	return out
}

// TestLearnedEffectHoldsLater: an agent taps the English app's "Go" and its "Sweep" icon,
// which no word says delete, and sees a row go each time; the deeds are recorded on the
// App Map's transitions. A second agent, sharing the knowledge file, taps the German app's
// "Los" (the same element by its resource id) and a third its "Fegen" icon (no id: the
// same element by its place): the guard holds each as a delete and the question names
// what it did last time; the person says no and the rows stay. "Refresh"/"Aktualisieren",
// which changed nothing, is held neither time.
func TestLearnedEffectHoldsLater(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	first, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := knowledge.Open(path, knowledge.Options{}) // the other agents', open all along
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()

	en := runTidy(t, first, tidyEN, "yes", "Refresh", "Go", "Sweep")
	if len(en.held) != 0 || en.rows != 1 {
		t.Fatalf("first run: held %q, %d rows left; want nothing held and the rows of Go and Sweep gone (nothing has taught the guard yet)", en.held, en.rows)
	}
	deeds, err := second.Deeds("com.fairy.tidy")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range deeds {
		got[d.Target.Text] = d.Category
	}
	for _, d := range deeds {
		if d.Target.Text == "Sweep" && d.Target.ResourceID != "" {
			t.Fatalf("the Sweep icon has the resource id %q: no test of an element known by its place", d.Target.ResourceID)
		}
	}
	if len(deeds) != 2 || got["Go"] != "delete" || got["Sweep"] != "delete" {
		t.Fatalf("the shared knowledge holds deeds %+v; want the deletes of Go and Sweep only", deeds)
	}

	for _, tc := range []struct{ labels []string }{{[]string{"Aktualisieren", "Los"}}, {[]string{"Aktualisieren", "Fegen"}}} {
		de := runTidy(t, second, tidyDE, "no", tc.labels...)
		want := "delete:" + tc.labels[1]
		if len(de.held) != 1 || de.held[0] != want {
			t.Errorf("German, tapping %q: held %q; want %s only (Aktualisieren changed nothing)", tc.labels, de.held, want)
		}
		if de.rows != 3 {
			t.Errorf("German, tapping %q: %d rows left after the person said no; want all 3", tc.labels, de.rows)
		}
		said := false
		for _, a := range de.asked {
			said = said || strings.Contains(a.Question.Text+a.Question.Reason+a.Question.Covers, "deleted a row")
		}
		if !said {
			t.Errorf("German, tapping %q: the questions %+v do not say what it did last time (deleted a row)", tc.labels, de.asked)
		}
	}
}
