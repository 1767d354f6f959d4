package executor_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// keyboardRules tap the compose field of the thread with Alice, then press Enter in it;
// the person, asked, says no.
const keyboardRules = `
rules:
  - role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Write to Alice"],"subgoal":"Write to Alice","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: decider
    times: 1
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "compose_message_text"}}}],"expect":"the keyboard"}'
  - role: decider
    answer: '{"thought":"","actions":[{"type":"Enter"}],"expect":""}'
  - role: interactor
    not: 'Person:'
    answer: '{"status":"B","question":"Pressing Enter may send the message. May I?","options":[],"summary":"","consent":""}'
  - role: interactor
    answer: '{"status":"A","question":"","options":[],"summary":"The person does not allow sending.","consent":"denied"}'
  - role: extractor
    answer: '{"facts":[]}'
`

// TestKeyboardOnClassicDumps: on the virtual phone through the real adb server, the classic
// dump holds the active window only (no keyboard window, as on real phones), yet the
// executor's perceived screen says the keyboard is up once a text field has the focus —
// the device layer asks the input method — and Enter in the compose field is held as
// sending until the person agrees.
func TestKeyboardOnClassicDumps(t *testing.T) {
	ctx := t.Context()
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: phone})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- face.Serve(context.Background()) }()
	t.Cleanup(func() { face.Close(); <-served })
	srv := adbtest.Start(t)
	serial := srv.Connect(t, face.Addr().String())
	dev, err := adb.Open(ctx, adb.Config{Port: srv.Port, Serial: serial, SettleInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })

	const app = "com.google.android.apps.messaging"
	if err := dev.Launch(ctx, app); err != nil {
		t.Fatal(err)
	}
	xml, err := dev.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := perception.Parse(xml)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Elements {
		if e.Label == "Alice Chen" {
			if err := dev.Tap(ctx, e.Center.X, e.Center.Y); err != nil {
				t.Fatal(err)
			}
		}
	}

	rules, err := scripted.ParseRules([]byte(keyboardRules))
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hsrv := httptest.NewServer(script)
	t.Cleanup(hsrv.Close)
	client, err := openai.New(openai.Config{BaseURL: hsrv.URL + "/v1", DefaultModel: scripted.ModelName, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(time.Now)
	mem := memory.NewStacks()
	mem.Attach(bus)
	var mu sync.Mutex
	var events []any
	bus.Subscribe(func(r event.Record) { mu.Lock(); events = append(events, r.Event); mu.Unlock() })
	meter := &llm.Meter{}
	model := executor.Metered{Model: client, Meter: meter, Bus: bus}
	person, err := interaction.NewCanned([]interaction.Rule{{Pattern: ".", Reply: "no"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	it, err := interaction.New(interaction.Config{Model: model, Dialoger: person, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	ex, err := executor.New(executor.Config{Device: dev, Model: model, Interactor: it, Memory: mem, Prompts: ps, Bus: bus,
		Meter: meter, TextOnly: true, Limits: executor.Limits{MaxSteps: 4}})
	if err != nil {
		t.Fatal(err)
	}
	task := event.AppTask{App: app, Task: "Write to Alice"}
	res, err := ex.Run(ctx, executor.Assignment{Instruction: task.Task, Task: task})
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}

	// The dump itself cannot tell: it holds the messaging window only.
	xml, err = dev.Dump(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(xml), "com.google.android.inputmethod.latin") {
		t.Fatal("the classic dump holds the keyboard window; this test wants the active window only")
	}
	if s, err := perception.Parse(xml); err != nil || s.Keyboard {
		t.Fatalf("a dump of the active window reports a keyboard (%v): nothing to test", err)
	}

	mu.Lock()
	defer mu.Unlock()
	keyboard := map[int]bool{}
	var held []event.ActionGuarded
	for _, e := range events {
		switch e := e.(type) {
		case event.ScreenPerceived:
			keyboard[e.Step] = e.Keyboard
		case event.ActionGuarded:
			held = append(held, e)
		}
	}
	if keyboard[1] || !keyboard[2] {
		t.Errorf("keyboard perceived per step = %v, want step 1 false (nothing focused), step 2 true (the compose field focused)", keyboard)
	}
	if len(held) != 1 || held[0].Action.Type != event.Enter || held[0].Category != "send" {
		t.Fatalf("guard holds = %+v, want Enter held as sending", held)
	}
	if res.Outcome != event.OutcomeRefused {
		t.Errorf("outcome %s (%s), want refused: the person said no", res.Outcome, res.Reason)
	}
}
