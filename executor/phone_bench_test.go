package executor_test

import (
	"context"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// benchRules keep typing a new draft into the Messages compose field: every step changes
// the screen and no two actions are alike, so the loop breaker stays out of the way.
const benchRules = `
rules:
  - role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Type drafts"],"subgoal":"Type drafts","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - role: decider
    answer: '{"thought":"","actions":[{"type":"Input","index":{{index "compose_message_text"}},"text":"draft {{.Times}}"}],"expect":""}'
  - role: extractor
    answer: '{"facts":[{"key":"draft","value":"seen"}]}'
`

// BenchmarkStepOnPhone measures full steps (perceive, reflect, decide, guard, act, settle)
// on the virtual phone reached through its adb host face and the device layer, with the
// scripted model over HTTP behind the OpenAI adapter (it answers in well under a
// millisecond). overhead-ms/step is the step time minus the critical model calls' latency.
// visual+ocr adds the Tesseract pixel reader: on this screen, which the tree covers, it
// must add nothing (no OCR call; the figure matches visual's).
func BenchmarkStepOnPhone(b *testing.B) {
	for _, mode := range []struct {
		name          string
		textOnly, ocr bool
	}{{"text", true, false}, {"visual", false, false}, {"visual+ocr", false, true}} {
		b.Run(mode.name, func(b *testing.B) { benchStepOnPhone(b, mode.textOnly, mode.ocr) })
	}
}

func benchStepOnPhone(b *testing.B, textOnly, withOCR bool) {
	ctx := context.Background()
	phone, err := sim.New(sim.Config{Seed: 1})
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
	// Open the thread with Alice.
	if err := dev.Launch(ctx, "com.google.android.apps.messaging"); err != nil {
		b.Fatal(err)
	}
	xml, err := dev.Dump(ctx)
	if err != nil {
		b.Fatal(err)
	}
	s, err := perception.Parse(xml)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range s.Elements {
		if e.Label == "Alice Chen" {
			if err := dev.Tap(ctx, e.Center.X, e.Center.Y); err != nil {
				b.Fatal(err)
			}
		}
	}

	rules, err := scripted.ParseRules([]byte(benchRules))
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
	bus := event.NewBus(time.Now)
	mem := memory.NewStacks()
	mem.Attach(bus)
	var mu sync.Mutex
	var steps, critical int
	var modelMS float64
	bus.Subscribe(func(r event.Record) {
		mu.Lock()
		defer mu.Unlock()
		switch e := r.Event.(type) {
		case event.StepStarted:
			steps++
		case event.ModelCalled:
			if e.Critical {
				critical++
				modelMS += e.LatencyMS
			}
		}
	})
	meter := &llm.Meter{}
	model := executor.Metered{Model: client, Meter: meter, Bus: bus}
	user, _ := interaction.NewCanned(nil, "")
	it, err := interaction.New(interaction.Config{Model: model, Dialoger: user, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		b.Fatal(err)
	}
	cfg := executor.Config{Device: dev, Model: model, Interactor: it, Memory: mem, Prompts: ps, Bus: bus, Meter: meter,
		TextOnly: textOnly, Limits: executor.Limits{MaxSteps: b.N}}
	if !textOnly {
		m, err := perception.NewMarker(perception.MarkOptions{})
		if err != nil {
			b.Fatal(err)
		}
		cfg.Mark = m.Render
	}
	var reader *perception.PixelReader
	if withOCR {
		tess, err := ocr.New(ctx, ocr.Config{})
		if err != nil {
			testenv.Missing(b, "%v", err)
		}
		if reader, err = perception.NewPixelReader(tess); err != nil {
			b.Fatal(err)
		}
		cfg.Pixels = reader
	}
	ex, err := executor.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	task := event.AppTask{App: "com.google.android.apps.messaging", Task: "Type drafts to Alice"}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	res, err := ex.Run(ctx, executor.Assignment{Instruction: task.Task, Task: task})
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil || !strings.Contains(res.Reason, "step limit") {
		b.Fatalf("run: %v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if steps != b.N {
		b.Fatalf("ran %d steps, want %d", steps, b.N)
	}
	stepMS := float64(elapsed.Microseconds()) / 1000 / float64(steps)
	perStep := float64(critical) / float64(steps)
	b.ReportMetric(stepMS, "ms/step")
	b.ReportMetric(stepMS-modelMS/float64(steps), "overhead-ms/step")
	b.ReportMetric(perStep, "critical-calls/step")
	if perStep > 2 {
		b.Errorf("%.2f model calls per step on the critical path, want ≤ 2", perStep)
	}
	if reader != nil && reader.Calls() != 0 {
		b.Errorf("OCR ran %d times on a screen the tree covers", reader.Calls())
	}
	if !strings.HasPrefix(phone.Var("com.google.android.apps.messaging", "draft"), "draft ") {
		b.Errorf("the drafts were not typed: %q", phone.Var("com.google.android.apps.messaging", "draft"))
	}
}
