package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
)

// ctrlCReader is a terminal at which the person presses Ctrl-C instead of answering: the
// first read cancels the command's context (as the signal does) and waits for it to end.
type ctrlCReader struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func (r ctrlCReader) Read([]byte) (int, error) {
	r.cancel()
	<-r.ctx.Done()
	return 0, io.EOF
}

// checkInterrupted checks what an interrupted run leaves: exit status 130 from main's
// mapping, summary.json with outcome stopped, a complete trace of valid JSON lines that
// ends with the run's end, and a knowledge file that is closed (it opens at once).
func checkInterrupted(t *testing.T, ctx context.Context, err error, out, kpath string) {
	t.Helper()
	var stderr bytes.Buffer
	if code := exitStatus(ctx, err, &stderr); code != 130 {
		t.Errorf("exit status %d (err %v), want 130", code, err)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr %q does not say the run was interrupted", stderr.String())
	}
	sum, dir := readSummary(t, out)
	if sum.Outcome != event.OutcomeStopped || !strings.Contains(sum.Reason, "canceled") {
		t.Errorf("summary outcome %s (%q), want stopped", sum.Outcome, sum.Reason)
	}
	trace, rerr := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if len(trace) == 0 || trace[len(trace)-1] != '\n' {
		t.Fatalf("the trace is empty or cut: %q", trace[max(0, len(trace)-80):])
	}
	var last string
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var line struct{ Kind string }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Kind == "" {
			t.Fatalf("trace line %d is not an event: %v: %.200s", n, err, sc.Text())
		}
		last = line.Kind
	}
	if last != "RunFinished" {
		t.Errorf("the trace ends with %s, want RunFinished", last)
	}
	store, oerr := knowledge.Open(kpath, knowledge.Options{Timeout: 200 * time.Millisecond})
	if oerr != nil {
		t.Fatalf("the knowledge file is not closed: %v", oerr)
	}
	if err := store.Close(); err != nil {
		t.Error(err)
	}
}

// TestDemoCtrlCWhileAsking: Ctrl-C while the person is being asked (the delivery time)
// stops the demo with exit status 130, everything flushed and closed.
func TestDemoCtrlCWhileAsking(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out bytes.Buffer
	kpath := filepath.Join(t.TempDir(), "knowledge.db")
	res, err := runDemo(ctx, demoOptions{RunsDir: t.TempDir(), Interactive: true, TextOnly: true,
		Stdin: ctrlCReader{ctx, cancel}, Out: &out, Knowledge: kpath})
	if err == nil {
		t.Fatalf("the interrupted demo succeeded:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "When should the bubble tea arrive?") {
		t.Errorf("not interrupted while asking:\n%s", out.String())
	}
	checkInterrupted(t, ctx, err, out.String(), kpath)
	if res.Phone == nil || len(res.Phone.Orders()) != 0 {
		t.Errorf("orders after the interrupt: %+v", res.Phone.Orders())
	}
}

// TestRunCtrlCMidStep: Ctrl-C while the decider's request is in flight (the run is in the
// middle of a step) ends `fairy run` with exit status 130, the trace flushed, the summary
// written and the knowledge file closed. The phone is the virtual one on its adb host
// face; the model the scripted one over HTTP behind the configured adapter.
func TestRunCtrlCMidStep(t *testing.T) {
	phone, port := hostServedSim(t)

	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var mu sync.Mutex
	deciders := 0
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"name":"decider"`)) {
			mu.Lock()
			deciders++
			n := deciders
			mu.Unlock()
			if n == 2 {
				cancel() // Ctrl-C, while the model thinks
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
				return
			}
		}
		script.ServeHTTP(w, r)
	}))
	defer model.Close()

	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	kpath := filepath.Join(dir, "knowledge.db")
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": model.URL + "/v1", "OPENAI_API_KEY": "sk-test-secret-123"})
	root := newRootCmd(strings.NewReader("18:00\nyes\nyes\n"), &out, &errOut, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--text-only", demoInstruction})
	runCtx, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	err = root.ExecuteContext(runCtx)
	if errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		t.Fatalf("the run did not stop at Ctrl-C: %v\n%s", err, out.String())
	}
	checkInterrupted(t, ctx, err, out.String(), kpath)
	if deciders != 2 {
		t.Errorf("%d decider requests, want the run to stop at the second", deciders)
	}
	var sum rundir.Summary
	if sum, _ = readSummary(t, out.String()); sum.Steps < 2 {
		t.Errorf("stopped after %d steps, want mid-run", sum.Steps)
	}
}

// TestExitStatus: main's mapping; an interrupt is 130 whatever error the command returns
// on its way out — also a usage error, as opening the device cut short by Ctrl-C is.
func TestExitStatus(t *testing.T) {
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"done", t.Context(), nil, 0},
		{"done before the interrupt landed", cancelled, nil, 0},
		{"failed", t.Context(), withExit(1, errors.New("task failed")), 1},
		{"usage", t.Context(), withExit(2, errors.New("no model")), 2},
		{"plain error", t.Context(), errors.New("unknown flag"), 2},
		{"interrupted", cancelled, context.Canceled, 130},
		{"interrupted while opening the device", cancelled, withExit(2, errors.New("open device: context canceled")), 130},
		{"interrupted run reported failed", cancelled, withExit(1, errors.New("task stopped")), 130},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := exitStatus(tc.ctx, tc.err, &stderr); got != tc.want {
				t.Errorf("exit status %d, want %d (stderr %q)", got, tc.want, stderr.String())
			}
			if (tc.err != nil) != (stderr.Len() > 0) {
				t.Errorf("stderr %q for error %v", stderr.String(), tc.err)
			}
		})
	}
}

// TestRunCtrlCBeforeTheDevice: Ctrl-C before the phone is open is 130 too, not the usage
// error the failed open would be.
func TestRunCtrlCBeforeTheDevice(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "FAIRY_MODEL_DEFAULT": "m", "HOME": dir})
	root := newRootCmd(strings.NewReader(""), &out, &errOut, env)
	root.SetArgs([]string{"run", "--runs", dir, "--knowledge", filepath.Join(dir, "k.db"), "--adb-port", "1", "do something"})
	err := root.ExecuteContext(ctx)
	var stderr bytes.Buffer
	if code := exitStatus(ctx, err, &stderr); code != 130 {
		t.Errorf("exit status %d (err %v), want 130", code, err)
	}
}
