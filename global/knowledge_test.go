package global_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/google/go-cmp/cmp"
)

// settingsDeep is a Settings app as deep as a real one: an app's notification switch is
// four pages away (Settings → Apps → See all apps → the app → Notifications).
//
//go:embed testdata/settings_deep.yaml
var settingsDeep []byte

// knowledgeRules script every role for "turn off Maps notifications". The same rules
// serve both runs: the re-planner and the decider go page by page, unless their prompt
// holds an App Map navigation hint that says the path can be replayed — then the
// re-planner aims at the target page and the decider answers Navigate.
const knowledgeRules = `
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
  - name: known way
    role: replanner
    match: ['Navigate\("(\w+)"\) replays it']
    answer: '{"result":"","reflection":"","progress":"","plan":["Go to the All Maps notifications switch","Turn off All Maps notifications"],"subgoal":"Go to the All Maps notifications switch","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
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

  - name: navigate
    role: decider
    match: ['Current sub-goal: Go to', 'Navigate\("(\w+)"\) replays it']
    answer: '{"thought":"the App Map knows the way","actions":[{"type":"Navigate","target":"{{match 1}}"}],"expect":""}'
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
    answer: '{"tricks":[{"kind":"action","app":"com.android.settings","text":"An app''s notification switch is under Apps, See all apps, the app, Notifications."}],"wrong":[],"app_description":"System settings: network, apps, notifications, display."}'
`

const knowledgeInstruction = "Turn off all notifications from Maps"

// knowledgeRun is what one run on a fresh virtual phone left.
type knowledgeRun struct {
	sum     rundir.Summary // read back from the run's summary.json
	res     global.Result
	phone   *sim.Phone
	settled *knowledge.Map // the Settings map as the run left it, before the file was closed
}

// runWithKnowledge runs the instruction once on a fresh virtual phone (host face, the real
// device layer), with the scripted model behind the real OpenAI adapter and the Self-Learner
// attached to the knowledge file at path: assembled by package agent, as fairy run does.
func runWithKnowledge(t *testing.T, path, runID string) knowledgeRun {
	t.Helper()
	ctx := t.Context()
	clock := func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }

	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	deep, err := sim.ParseApp(settingsDeep)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range apps {
		if a.Package == deep.Package {
			apps[i] = deep
		}
	}
	phone, err := sim.New(sim.Config{Seed: 7, Apps: apps, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	phones, err := agent.ServePhones(nil, phone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := phones.Close(); err != nil {
			t.Errorf("host face: %v", err)
		}
	})
	dev, err := agent.OpenDevice(ctx, phones.Device(phone.Serial(), nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })

	rules, err := scripted.ParseRules([]byte(knowledgeRules))
	if err != nil {
		t.Fatal(err)
	}
	model, err := agent.ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	store, err := knowledge.Open(path, knowledge.Options{Timeout: time.Second, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			store.Close()
		}
	}()
	person, err := interaction.NewCanned(nil, "yes")
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{TextOnly: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(t.TempDir(), runID)
	res, err := ag.Run(ctx, agent.Run{Instruction: knowledgeInstruction, Dir: runDir, ID: runID, Device: dev, Model: model.Model,
		Dialoger: person, Knowledge: store})
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil {
		t.Fatalf("run %s: %v", runID, res.Err)
	}
	if res.KnowledgeErr != nil {
		t.Errorf("App Map writes of run %s: %v", runID, res.KnowledgeErr)
	}
	m, err := store.Map(deep.Package)
	if err != nil {
		t.Fatal(err)
	}
	closed = true
	if err := store.Close(); err != nil {
		t.Fatalf("close knowledge: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(runDir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum rundir.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return knowledgeRun{sum: sum, res: res.Result, phone: phone, settled: m}
}

// notificationsOff reports whether the run left Maps' notifications off.
func notificationsOff(r knowledgeRun) bool {
	return r.phone.Setting("secure/notif_off_com.fairy.maps") == "1"
}

func TestKnowledgeLearnedFromOneRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	r := runWithKnowledge(t, path, "run-1")
	if r.res.Outcome != event.OutcomeDone || !notificationsOff(r) {
		t.Fatalf("outcome %s (%s), notifications off: %v", r.res.Outcome, r.res.Reason, notificationsOff(r))
	}
	if r.sum.Knowledge.Used || r.sum.Knowledge.LearnedTasks != 1 || r.sum.Knowledge.LearnedTricks != 1 {
		t.Errorf("summary knowledge = %+v, want nothing used and one task learned", r.sum.Knowledge)
	}

	// Reopening the file gives the same graph.
	st, err := knowledge.Open(path, knowledge.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := st.Map("com.android.settings")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r.settled, m); d != "" {
		t.Errorf("map after reopening differs (-before +after):\n%s", d)
	}
	g, err := m.Graph()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := g.Order(); n != 5 {
		t.Errorf("graph has %d pages, want 5", n)
	}

	// The pages, and the transitions with their effects.
	page := map[string]string{} // key → activity's last part
	for _, p := range m.Pages {
		page[p.Key] = p.Activity[strings.LastIndexAny(p.Activity, ".$")+1:]
	}
	type edge struct{ from, target, to string }
	got := map[edge]knowledge.Effect{}
	for _, tr := range m.Transitions {
		if tr.Action.Kind != knowledge.ActionTap || tr.Successes != 1 || tr.Failures != 0 {
			t.Errorf("transition %+v: want one successful tap", tr)
		}
		got[edge{page[tr.From], tr.Action.Target.Text, page[tr.To]}] = tr.Effect
	}
	want := map[edge]knowledge.Effect{
		{"Settings", "Apps", "AppDashboardActivity"}:                                                     knowledge.EffectNewPage,
		{"AppDashboardActivity", "See all apps", "ManageApplicationsActivity"}:                           knowledge.EffectNewPage,
		{"ManageApplicationsActivity", "Maps", "AppInfoActivity"}:                                        knowledge.EffectNewPage,
		{"AppInfoActivity", "Notifications", "AppNotificationSettingsActivity"}:                          knowledge.EffectNewPage,
		{"AppNotificationSettingsActivity", "All Maps notifications", "AppNotificationSettingsActivity"}: knowledge.EffectSamePage,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("transitions (-want +got):\n%s", d)
	}

	// Tricks with their provenance; the app's description.
	tricks, err := st.Tricks("com.android.settings", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tricks) != 1 {
		t.Fatalf("tricks = %+v, want 1", tricks)
	}
	if p := tricks[0].Provenance; p.Instruction != knowledgeInstruction || p.RunID != "run-1" || p.Outcome != "success" || p.Time.IsZero() {
		t.Errorf("provenance = %+v", p)
	}
	if a, err := st.GetApp("com.android.settings"); err != nil || !strings.HasPrefix(a.Description, "System settings") {
		t.Errorf("app = %+v, %v", a, err)
	}
}

// TestKnowledgeSecondRunTakesShortcut runs the same task twice against one knowledge file
// with the same scripted rules: the second run is given the learned path and replays it.
func TestKnowledgeSecondRunTakesShortcut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	first := runWithKnowledge(t, path, "run-1")
	second := runWithKnowledge(t, path, "run-2")
	for i, r := range []knowledgeRun{first, second} {
		if r.sum.Outcome != event.OutcomeDone || !notificationsOff(r) {
			t.Fatalf("run %d: outcome %s (%s), notifications off: %v", i+1, r.sum.Outcome, r.sum.Reason, notificationsOff(r))
		}
	}
	n1, n2 := first.sum.ModelCalls, second.sum.ModelCalls
	saving := 1 - float64(n2)/float64(n1)
	t.Logf("model calls: first run %d %v, second run %d %v: %.0f%% fewer; second run knowledge: %+v",
		n1, first.sum.ModelCallsByRole, n2, second.sum.ModelCallsByRole, 100*saving, second.sum.Knowledge)
	if saving < 0.4 || math.IsNaN(saving) {
		t.Errorf("second run made %d model calls, first %d: %.0f%% fewer, want at least 40%%", n2, n1, 100*saving)
	}
	k := second.sum.Knowledge
	if !k.Used || k.Navigations != 1 || k.ShortcutSteps != 4 || k.Fallbacks != 0 || k.Hints == 0 || k.Tricks == 0 || k.DescribedApps == 0 {
		t.Errorf("second run's summary knowledge = %+v, want one 4-step shortcut, hints, tricks and app descriptions", k)
	}
	if first.sum.Knowledge.Used || first.sum.Knowledge.ShortcutSteps != 0 {
		t.Errorf("first run's summary knowledge = %+v, want none used", first.sum.Knowledge)
	}
	// The replayed steps went on teaching the map: each of the path's transitions now has
	// two successes.
	for _, tr := range second.settled.Transitions {
		if tr.Successes != 2 || tr.Failures != 0 {
			t.Errorf("transition %s → %s (%s): %d successes, %d failures, want 2, 0", tr.From, tr.To, tr.Action, tr.Successes, tr.Failures)
		}
	}
	if len(second.settled.Pages) != len(first.settled.Pages) {
		t.Errorf("second run added pages: %d → %d", len(first.settled.Pages), len(second.settled.Pages))
	}
}
