package executor_test

import (
	"context"
	"net"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// pageRules turn off Maps' notifications in Settings one page at a time (four taps on
// known rows, then the switch), with a sub-goal per page as a model would write it. The
// model never takes a hint: what a warm run saves, the executor saves by itself.
const pageRules = `
rules:
  - role: replanner
    match: ['switch "All Maps notifications" id=switch_bar']
    not: ['switch "All Maps notifications" id=switch_bar checked']
    answer: '{"result":"A","reflection":"","progress":"done","plan":["Turn off All Maps notifications"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: replanner
    match: ['switch "All Maps notifications" id=switch_bar checked']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Turn off All Maps notifications"],"subgoal":"Turn off All Maps notifications","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: replanner
    match: ['\[\d+\] item "Network & internet"']
    answer: '{"result":"","reflection":"","progress":"","plan":["Open Apps","Open See all apps","Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Apps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: replanner
    match: ['\[\d+\] item "See all apps"']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Open See all apps","Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open See all apps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: replanner
    match: ['(?m)^- "All apps"$']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Open Maps","Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Maps","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: replanner
    match: ['\[\d+\] item "Storage & cache"']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Open Notifications","Turn off All Maps notifications"],"subgoal":"Open Notifications","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: decider
    match: ['Current sub-goal: Open ([^\n]+)']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index (match 1)}}}],"expect":""}'
  - role: decider
    match: ['Current sub-goal: Turn off']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "All Maps notifications"}}}],"expect":""}'
  - role: extractor
    answer: '{"facts":[]}'
  - role: checker
    answer: '{"passed":true,"reason":"off"}'
`

// BenchmarkStepOnPhoneWarm runs a whole app task (Settings → Apps → See all apps → Maps →
// Notifications → the switch) per iteration on a fresh virtual phone, with the App Map of
// one cold run of the same task behind the executor's Predictions: known taps that land
// on the predicted page confirm their sub-goal without the Re-Planner (on a page where the
// person was ever asked something the Re-Planner judges). It reports the
// critical-path model calls per step of the warm runs, and of the cold run for reference.
func BenchmarkStepOnPhoneWarm(b *testing.B) {
	ctx := context.Background()
	rules, err := scripted.ParseRules([]byte(pageRules))
	if err != nil {
		b.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		b.Fatal(err)
	}
	hsrv := httptest.NewServer(script)
	defer hsrv.Close()
	client, err := openai.New(openai.Config{BaseURL: hsrv.URL + "/v1", DefaultModel: scripted.ModelName, MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	ps, err := prompts.Load()
	if err != nil {
		b.Fatal(err)
	}
	store, err := knowledge.Open(filepath.Join(b.TempDir(), "k.db"), knowledge.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	l, err := learner.New(learner.Config{Store: store})
	if err != nil {
		b.Fatal(err)
	}
	cold := settingsTask(ctx, b, client, ps, l)
	b.ResetTimer()
	var warm taskCount
	for range b.N {
		warm.add(settingsTask(ctx, b, client, ps, l))
	}
	b.StopTimer()
	b.ReportMetric(cold.perStep(), "cold-critical-calls/step")
	b.ReportMetric(warm.perStep(), "critical-calls/step")
	b.ReportMetric(float64(warm.replanner)/float64(b.N), "replanner-calls/task")
	b.ReportMetric(float64(warm.verified)/float64(b.N), "verified-steps/task")
	if warm.steps != cold.steps*b.N {
		b.Errorf("warm runs took %d steps, want %d a run as cold", warm.steps/b.N, cold.steps)
	}
	if warm.perStep() >= cold.perStep() {
		b.Errorf("%.2f critical calls per step on warm runs, %.2f cold: nothing saved", warm.perStep(), cold.perStep())
	}
}

// taskCount is what one or more task runs cost.
type taskCount struct{ steps, critical, replanner, verified int }

func (c *taskCount) add(d taskCount) {
	c.steps += d.steps
	c.critical += d.critical
	c.replanner += d.replanner
	c.verified += d.verified
}

func (c taskCount) perStep() float64 {
	if c.steps == 0 {
		return 0
	}
	return float64(c.critical) / float64(c.steps)
}

// settingsTask runs the Maps notification task once on a fresh virtual phone (set up
// outside the timer), with a learner session on the bus as the Predictions.
func settingsTask(ctx context.Context, b *testing.B, model executor.Model, ps *prompts.Set, l *learner.Learner) taskCount {
	b.StopTimer()
	const app = "com.android.settings"
	phone, err := sim.New(sim.Config{Seed: 7})
	if err != nil {
		b.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}})
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx) }()
	defer func() { hs.Close(); <-served }()
	host, port, _ := net.SplitHostPort(hs.Addr().String())
	n, _ := strconv.Atoi(port)
	dev, err := adb.Open(ctx, adb.Config{Host: host, Port: n, SettleInterval: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer dev.Close(ctx)
	if err := dev.Launch(ctx, app); err != nil {
		b.Fatal(err)
	}
	bus := event.NewBus(time.Now)
	mem := memory.NewStacks()
	mem.Attach(bus)
	sess := l.Start("bench", "Turn off all notifications from Maps")
	defer sess.Attach(bus)()
	var mu sync.Mutex
	var c taskCount
	bus.Subscribe(func(r event.Record) {
		mu.Lock()
		defer mu.Unlock()
		switch e := r.Event.(type) {
		case event.StepStarted:
			c.steps++
		case event.ModelCalled:
			if e.Critical {
				c.critical++
			}
			if e.Role == string(llm.RoleReplanner) {
				c.replanner++
			}
		case event.Reflected:
			if e.Verified {
				c.verified++
			}
		}
	})
	metered := executor.Metered{Model: model, Meter: &llm.Meter{}, Bus: bus}
	user, _ := interaction.NewCanned(nil, "")
	it, err := interaction.New(interaction.Config{Model: metered, Dialoger: user, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		b.Fatal(err)
	}
	ex, err := executor.New(executor.Config{Device: dev, Model: metered, Interactor: it, Memory: mem, Prompts: ps, Bus: bus,
		TextOnly: true, Predictions: sess, NoFinishCheck: true})
	if err != nil {
		b.Fatal(err)
	}
	task := event.AppTask{App: app, Task: "Turn off all notifications from Maps"}
	b.StartTimer()
	res, err := ex.Run(ctx, executor.Assignment{Instruction: task.Task, Task: task})
	b.StopTimer()
	if err != nil || res.Outcome != event.OutcomeDone || phone.Setting("secure/notif_off_com.fairy.maps") != "1" {
		b.Fatalf("run: %v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	return c
}
