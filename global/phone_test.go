package global_test

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// phoneApps gives the planner the device's apps, labelled from their package names as
// cmd/fairy does (the virtual phone exposes no labels through adb).
type phoneApps struct{ *adb.Device }

func (p phoneApps) Apps(ctx context.Context) ([]event.App, error) {
	list, err := p.Device.Apps(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]event.App, len(list))
	for i, a := range list {
		last := []rune(a.Package[strings.LastIndex(a.Package, ".")+1:])
		last[0] = unicode.ToUpper(last[0])
		out[i] = event.App{Package: a.Package, Label: string(last)}
	}
	return out, nil
}

// scenario is one agent run on a virtual phone through the real path: the sim's adb host
// face, the device layer over gadb, the scripted model over HTTP behind the OpenAI adapter.
type scenario struct {
	rules  string          // file under testdata
	script string          // the rules themselves, when rules is ""
	extra  []scripted.Rule // tried before the file's rules
	user   []interaction.Rule
	limits executor.Limits
}

// outcome is what a scenario run produced.
type outcome struct {
	phone  *sim.Phone
	res    global.Result
	err    error
	sum    rundir.Summary
	asked  []interaction.Asked
	events []event.Record
	unused []string
}

func eventsOf[T event.Event](o outcome) []T {
	var out []T
	for _, r := range o.events {
		if e, ok := r.Event.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func (sc scenario) run(t *testing.T, instruction string) outcome {
	t.Helper()
	ctx := t.Context()
	phone, err := sim.New(sim.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(context.WithoutCancel(ctx)) }()
	t.Cleanup(func() { hs.Close(); <-served })
	host, port, _ := net.SplitHostPort(hs.Addr().String())
	n, _ := strconv.Atoi(port)
	dev, err := adb.Open(ctx, adb.Config{Host: host, Port: n, SettleInterval: 10 * time.Millisecond, DumpBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })

	data := []byte(sc.script)
	if sc.rules != "" {
		if data, err = os.ReadFile(filepath.Join("testdata", sc.rules)); err != nil {
			t.Fatal(err)
		}
	}
	rules, err := scripted.ParseRules(data)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(append(append([]scripted.Rule(nil), sc.extra...), rules...), scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hsrv := httptest.NewServer(script)
	t.Cleanup(hsrv.Close)
	client, err := openai.New(openai.Config{BaseURL: hsrv.URL + "/v1", DefaultModel: scripted.ModelName, MaxRetries: -1, RepairRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	user, err := interaction.NewCanned(sc.user, "")
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
	rec, err := rundir.NewRecorder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	bus.Subscribe(rec.Handle)
	var mu sync.Mutex
	var events []event.Record
	bus.Subscribe(func(r event.Record) { mu.Lock(); events = append(events, r); mu.Unlock() })
	meter := &llm.Meter{}
	model := executor.Metered{Model: client, Meter: meter, Bus: bus}
	it, err := interaction.New(interaction.Config{Model: model, Dialoger: user, Memory: mem, Prompts: ps, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	limits := sc.limits
	if limits.MaxSteps == 0 {
		limits.MaxSteps = 20
	}
	ex, err := executor.New(executor.Config{Device: dev, Model: model, Interactor: it, Memory: mem, Prompts: ps, Bus: bus,
		Meter: meter, TextOnly: true, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	gm, err := global.New(global.Config{Apps: phoneApps{dev}, Launcher: dev, Executor: ex, Model: model, Prompts: ps,
		Memory: mem, Bus: bus, RunID: t.Name(), TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := gm.Run(ctx, instruction)
	mu.Lock()
	defer mu.Unlock()
	return outcome{phone: phone, res: res, err: err, sum: rec.Summary(), asked: user.Asked(),
		events: append([]event.Record(nil), events...), unused: script.Unused()}
}
