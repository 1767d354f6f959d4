package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// shellLog is a virtual phone that keeps every command line its shell receives.
type shellLog struct {
	*sim.Phone
	mu    sync.Mutex
	lines []string
}

func (p *shellLog) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	p.mu.Lock()
	p.lines = append(p.lines, cmdline)
	p.mu.Unlock()
	return p.Phone.Shell(ctx, cmdline, w)
}

func (p *shellLog) commands() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// TestRunThatCannotRecordDoesNotAct: the calendar task, once with a run directory that
// records and once with a trace that cannot be written — trace.jsonl is /dev/full, a real
// device that answers every write with "no space left on device". The first run saves the
// event; the second fails at its first event, before it touches the phone, with the failed
// write as its reason, says so in summary.json, and never shows "✓".
func TestRunThatCannotRecordDoesNotAct(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		testenv.Missing(t, "needs /dev/full: %v", err)
	}
	rules, err := os.ReadFile(filepath.Join("..", "global", "testdata", "calendar.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		full  bool
		saved bool
	}{
		{"recorded", false, true},
		{"trace on a full device", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			p, err := sim.New(sim.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			phone := &shellLog{Phone: p}
			hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}, Addr: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			served := make(chan error, 1)
			go func() { served <- hs.Serve(context.WithoutCancel(ctx)) }()
			t.Cleanup(func() { hs.Close(); <-served })
			host, port, _ := net.SplitHostPort(hs.Addr().String())
			n, _ := strconv.Atoi(port)
			dev, err := OpenDevice(ctx, DeviceConfig{Host: host, Port: n, Serial: p.Serial(), Virtual: true})
			if err != nil {
				t.Fatal(err)
			}
			defer dev.Close(context.WithoutCancel(ctx))
			script, err := scripted.ParseRules(rules)
			if err != nil {
				t.Fatal(err)
			}
			model, err := ServeScriptedModel(script, openai.Config{MaxRetries: -1, RepairRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer model.Close()
			person, err := interaction.NewCanned(nil, "")
			if err != nil {
				t.Fatal(err)
			}
			ag, err := New(Config{TextOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "run")
			if tc.full {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("/dev/full", filepath.Join(dir, rundir.TraceFile)); err != nil {
					t.Fatal(err)
				}
			}
			var progress strings.Builder
			res, err := ag.Run(ctx, Run{Instruction: "Add an event Dinner at 19:00 to my calendar", Dir: dir, Device: dev,
				Model: model.Model, Dialoger: person, Progress: &progress})
			if err != nil {
				t.Fatal(err)
			}
			saved := false
			for _, e := range phone.Events() {
				saved = saved || e.Title == "Dinner" && e.Time == "19:00"
			}
			if saved != tc.saved {
				t.Errorf("event saved: %v, want %v", saved, tc.saved)
			}
			if !res.SummaryWritten {
				t.Fatal("no summary.json")
			}
			var sum rundir.Summary
			if b, err := os.ReadFile(filepath.Join(dir, rundir.SummaryFile)); err != nil || json.Unmarshal(b, &sum) != nil {
				t.Fatalf("summary.json: %v: %s", err, b)
			}
			if !tc.full {
				if res.Outcome != event.OutcomeDone || res.Err != nil || sum.Outcome != event.OutcomeDone || !strings.Contains(progress.String(), "✓ done") {
					t.Fatalf("recorded run: %s %q (%v)\n%s", res.Outcome, res.Reason, res.Err, progress.String())
				}
				return
			}
			var rerr *rundir.RecordError
			if !errors.As(res.Err, &rerr) || rerr.File != rundir.TraceFile || !errors.Is(rerr, syscall.ENOSPC) {
				t.Errorf("err = %v, want the failed trace write", res.Err)
			}
			if res.Outcome != event.OutcomeFailed || !strings.HasPrefix(res.Reason, "cannot record the run: write ") ||
				!strings.HasSuffix(res.Reason, "no space left on device") {
				t.Errorf("outcome %s, reason %q", res.Outcome, res.Reason)
			}
			if sum.Outcome != event.OutcomeFailed || sum.Reason != res.Reason || res.Summary.Reason != res.Reason {
				t.Errorf("summary.json says %s %q, Result.Summary %q", sum.Outcome, sum.Reason, res.Summary.Reason)
			}
			if cmds := phone.commands(); len(cmds) > 0 {
				t.Errorf("the phone received %d commands, the first %q", len(cmds), cmds[0])
			}
			if out := progress.String(); strings.Contains(out, "✓") || !strings.Contains(out, "✗ failed: cannot record the run: write ") {
				t.Errorf("progress view:\n%s", out)
			}
		})
	}
}
