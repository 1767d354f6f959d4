package agentrun

import (
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// TestUIServerDiesMidRun: on a phone whose resident UI server dies again and again mid-task
// (the uiserverdie fault), the device restarts it, then bypasses it for uiautomator dump,
// and the tasks pass as on a phone without it, with the same steps and model calls.
func TestUIServerDiesMidRun(t *testing.T) {
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	run := func(uiServer int, faults string) (eval.TaskResult, *sim.Phone) {
		t.Helper()
		task := suiteTask(t, s, "contacts-add-nina")
		ph := *task.Phone.Sim
		ph.Faults = faults
		task.Phone.Sim = &ph
		one := *s
		one.Tasks = []*suite.Task{task}
		a, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := ServeFarm(sim.FarmConfig{Phones: 1, UIServer: uiServer, Base: sim.Config{Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		rep, err := eval.Run(t.Context(), eval.Config{Suite: &one, Agent: a, Devices: f.Devices(), Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Tasks[0], f.farm.Phones()[0]
	}
	base, _ := run(0, "")
	if !base.Pass {
		t.Fatalf("without the server: %s — %s", base.Outcome, base.Reason)
	}
	steady, p := run(1, "")
	if starts, _ := p.UIServerStarts(); !steady.Pass || starts != 1 || steady.DeviceTime == nil || steady.DeviceTime.Path != eval.PathUIServer {
		t.Fatalf("with the server: pass %v (%s), %d starts, device time %+v", steady.Pass, steady.Reason, starts, steady.DeviceTime)
	}
	dying, p := run(1, "uiserverdie=6")
	starts, _ := p.UIServerStarts()
	if !dying.Pass {
		t.Errorf("with a server that keeps dying: %s — %s", dying.Outcome, dying.Reason)
	}
	if starts < 2 {
		t.Errorf("the server was started %d times: not restarted after it died", starts)
	}
	t.Logf("server started %d times; device operations %+v", starts, dying.DeviceTime.Ops)
	if ops := dying.DeviceTime.Ops; ops["dump"].Calls == 0 || ops["source"].Calls == 0 {
		t.Errorf("want reads through the server and, once it was given up, uiautomator dumps: %+v", ops)
	}
	for _, r := range []eval.TaskResult{steady, dying} {
		if r.Steps != base.Steps || r.ModelCalls != base.ModelCalls {
			t.Errorf("steps %d, model calls %d; without the server %d, %d", r.Steps, r.ModelCalls, base.Steps, base.ModelCalls)
		}
	}
}
