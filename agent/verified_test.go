package agent

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// pageByPage scripts "turn off Maps notifications" one page at a time, the same for both
// runs: the model never takes a navigation hint or a Navigate, so whatever the second run
// saves, the executor saved by itself.
const pageByPage = `
rules:
  - name: plan
    role: planner
    match: ['Phase: plan', '(?m)^- (com\.android\.settings) —']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"{{match 1}}","task":"Turn off all notifications from Maps","produces":""}],"next":0,"progress":"","reason":""}'
  - name: adjust done
    role: planner
    match: ['Phase: adjust', '— done']
    answer: '{"thought":"","status":"done","tasks":[],"next":-1,"progress":"done","reason":"Maps notifications are off"}'

  - name: switch is off
    role: replanner
    match: ['switch "All Maps notifications" id=switch_bar']
    not: ['switch "All Maps notifications" id=switch_bar checked']
    answer: '{"result":"A","reflection":"the switch is off","progress":"done","plan":["Turn off All Maps notifications"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: switch is on
    role: replanner
    match: ['switch "All Maps notifications" id=switch_bar checked']
    answer: '{"result":"A","reflection":"on the page","progress":"on the notifications page","plan":["Turn off All Maps notifications"],"subgoal":"Turn off All Maps notifications","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: main page
    role: replanner
    match: ['\[\d+\] item "Network & internet"']
    answer: '{"result":"","reflection":"","progress":"","plan":["Open Apps","Open See all apps","Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Apps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: apps page
    role: replanner
    match: ['\[\d+\] item "See all apps"']
    answer: '{"result":"A","reflection":"","progress":"in Apps","plan":["Open See all apps","Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open See all apps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: all apps page
    role: replanner
    match: ['(?m)^- "All apps"$']
    answer: '{"result":"A","reflection":"","progress":"in All apps","plan":["Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Maps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: app info page
    role: replanner
    match: ['\[\d+\] item "Storage & cache"']
    answer: '{"result":"A","reflection":"","progress":"in App info","plan":["Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Notifications","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'

  - name: open
    role: decider
    match: ['Current sub-goal: Open ([^\n]+)']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index (match 1)}}}],"expect":""}'
  - name: turn off
    role: decider
    match: ['Current sub-goal: Turn off']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "All Maps notifications"}}}],"expect":""}'

  - name: nothing to extract
    role: extractor
    answer: '{"facts":[]}'
  - name: check
    role: checker
    answer: '{"passed":true,"reason":"the switch is off"}'
  - name: learn
    role: learner
    answer: '{"tricks":[],"wrong":[],"app_description":"System settings."}'
`

// runPageByPage runs the task once on a fresh virtual phone against the knowledge file at
// path and returns the summary and whether Maps' notifications ended off.
func runPageByPage(t *testing.T, path, id string) (rundir.Summary, bool) {
	t.Helper()
	return runMapsTask(t, path, id, pageByPage, sim.Faults{})
}

// runMapsTask runs "Turn off all notifications from Maps" once with the scripted rules on
// a fresh virtual phone with faults, against the knowledge file at path.
func runMapsTask(t *testing.T, path, id, script string, faults sim.Faults) (rundir.Summary, bool) {
	t.Helper()
	return runNotificationsTask(t, path, id, script, faults, "Maps", "com.fairy.maps")
}

// runNotificationsTask is runMapsTask for the app labelled app (package pkg): the script's
// "Maps" read as app.
func runNotificationsTask(t *testing.T, path, id, script string, faults sim.Faults, app, pkg string) (rundir.Summary, bool) {
	t.Helper()
	script = strings.ReplaceAll(script, "Maps", app)
	ctx := t.Context()
	clock := func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }
	phone, err := sim.New(sim.Config{Seed: 7, Clock: clock, Faults: faults})
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
	rules, err := scripted.ParseRules([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	model, err := ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	store, err := knowledge.Open(path, knowledge.Options{Timeout: time.Second, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	person, err := interaction.NewCanned(nil, "yes")
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(Config{TextOnly: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ag.Run(ctx, Run{Instruction: "Turn off all notifications from " + app, Dir: filepath.Join(t.TempDir(), id), ID: id,
		Device: dev, Model: model.Model, Dialoger: person, Knowledge: store})
	if err != nil || res.Err != nil || res.KnowledgeErr != nil {
		t.Fatalf("run %s: %v, %v, %v", id, err, res.Err, res.KnowledgeErr)
	}
	return res.Summary, phone.Setting("secure/notif_off_"+pkg) == "1"
}

// TestVerifiedStepsOnSecondRun: the same task twice against one knowledge file, with a
// model that never takes a hint. The second run's known taps land on the pages the App
// Map predicts, so the executor confirms those sub-goals without the Re-Planner: fewer
// calls, the same steps and outcome.
func TestVerifiedStepsOnSecondRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	cold, coldOff := runPageByPage(t, path, "cold")
	warm, warmOff := runPageByPage(t, path, "warm")
	if cold.Outcome != event.OutcomeDone || warm.Outcome != event.OutcomeDone || !coldOff || !warmOff {
		t.Fatalf("outcomes %s (%s), %s (%s); notifications off: %v, %v", cold.Outcome, cold.Reason, warm.Outcome, warm.Reason, coldOff, warmOff)
	}
	c, w := cold.ModelCallsByRole["replanner"], warm.ModelCallsByRole["replanner"]
	t.Logf("replanner calls %d → %d, model calls %d → %d, steps %d → %d, critical calls/step %.2f → %.2f",
		c, w, cold.ModelCalls, warm.ModelCalls, cold.Steps, warm.Steps, cold.CriticalCallsPerStep, warm.CriticalCallsPerStep)
	// Four known taps, each landing on the page the map predicts, where no person was
	// ever asked anything (Maps' App info offers Force stop: the guard still holds it).
	if c-w != 4 {
		t.Errorf("replanner calls %d → %d, want 4 fewer on the warm run", c, w)
	}
	if cold.Knowledge.VerifiedSteps != 0 || warm.Knowledge.VerifiedSteps != 4 {
		t.Errorf("verified steps %d → %d, want 0 → 4", cold.Knowledge.VerifiedSteps, warm.Knowledge.VerifiedSteps)
	}
	if warm.Steps != cold.Steps {
		t.Errorf("steps %d → %d, want the same", cold.Steps, warm.Steps)
	}
}
