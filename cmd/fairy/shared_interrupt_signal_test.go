package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// signalRig is `fairy run` of the demo task in a child process (the test binary running
// fairy's main, with its real signal handling) against a virtual phone served by the test
// on the adb host protocol and the scripted model behind an HTTP server the test watches.
type signalRig struct {
	phone *sim.Phone
	cmd   *exec.Cmd
	exit  chan error
	kpath string
	errb  *syncBuffer
	out   *syncBuffer

	mu       sync.Mutex
	signaled bool     // the first SIGINT was sent
	after    []string // roles of the model requests that arrived after it
	deciders int
	// extractors counts the Key Context Collector's requests: it runs beside the step, so
	// one sent before the child saw the Ctrl-C may still be on its way (see settle).
	extractors int
}

// settle waits, up to 5 s, until the Key Context Collector's request of every step the
// decider reached has arrived: a request the child sent before it was interrupted is no
// request after the Ctrl-C, however late a loaded machine delivers it.
func (rig *signalRig) settle() {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rig.mu.Lock()
		done := rig.extractors >= rig.deciders
		rig.mu.Unlock()
		if done {
			return
		}
	}
}

// modelHold holds model requests instead of answering them from the script: the second
// decider request, the Self-Learner's requests (nil: answered).
type modelHold struct {
	decider2, learner func(r *http.Request)
}

// startSignalRig starts the phone, the model server and the child. The requests hold
// names are held; any request that arrives once the first SIGINT is sent is recorded
// and never answered.
func startSignalRig(t *testing.T, hold modelHold) *signalRig {
	t.Helper()
	rig := &signalRig{exit: make(chan error, 1), errb: &syncBuffer{}, out: &syncBuffer{}}
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rig.phone = phone
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	sctx, scancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(sctx) }()
	_, port, _ := net.SplitHostPort(hs.Addr().String())

	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{}) // closed at the end: hung requests return
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		role := "?"
		if i := bytes.Index(body, []byte(`"name":"`)); i >= 0 {
			role, _, _ = strings.Cut(string(body[i+8:]), `"`)
		}
		rig.mu.Lock()
		signaled := rig.signaled
		if signaled {
			rig.after = append(rig.after, role)
		}
		n := 0
		if role == "decider" {
			rig.deciders++
			n = rig.deciders
		}
		if role == "extractor" {
			rig.extractors++
		}
		rig.mu.Unlock()
		switch {
		case signaled:
			<-release // a model that does not answer, whatever the client does
			return
		case n == 2 && hold.decider2 != nil:
			hold.decider2(r)
			return
		case role == "learner" && hold.learner != nil:
			hold.learner(r)
			return
		}
		script.ServeHTTP(w, r)
	}))

	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rig.kpath = filepath.Join(dir, "knowledge.db")
	rig.cmd = exec.Command(os.Args[0], "run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", rig.kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--text-only", demoInstruction)
	rig.cmd.Env = append(os.Environ(), runMainEnv+"=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir,
		"OPENAI_BASE_URL="+model.URL+"/v1", "OPENAI_API_KEY=sk-test", "FAIRY_MODEL_DEFAULT=", "CI=")
	rig.cmd.Stdin = strings.NewReader("18:00\nyes\nyes\n")
	rig.cmd.Stdout, rig.cmd.Stderr = rig.out, rig.errb
	if err := rig.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { rig.exit <- rig.cmd.Wait() }()
	t.Cleanup(func() {
		if rig.cmd.ProcessState == nil {
			_ = rig.cmd.Process.Kill()
			<-rig.exit
		}
		close(release)
		model.Close()
		scancel()
		hs.Close()
		<-served
	})
	return rig
}

// interrupt sends SIGINT to the child; the first marks every later model request.
func (rig *signalRig) interrupt(t *testing.T) {
	t.Helper()
	rig.mu.Lock()
	first := !rig.signaled
	rig.mu.Unlock()
	if first {
		rig.settle()
	}
	rig.mu.Lock()
	rig.signaled = true
	rig.mu.Unlock()
	if err := rig.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
}

// wait waits up to d for the child to exit and returns its exit status (-1: still running).
func (rig *signalRig) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-rig.exit:
		return rig.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// TestRunCtrlCStopsModelCalls: after the first Ctrl-C, `fairy run` makes no model request
// at all — the decider's call in flight is cut off and the Self-Learner makes none — says
// so on stderr, exits 130, and keeps what it learned so far (the App Map of the pages it
// saw). Before, the learner's call (billed) went out after the interrupt.
func TestRunCtrlCStopsModelCalls(t *testing.T) {
	held := make(chan struct{})
	rig := startSignalRig(t, modelHold{decider2: func(r *http.Request) {
		close(held)
		select { // the model thinks until the client gives up
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}})
	select {
	case <-held:
	case err := <-rig.exit:
		t.Fatalf("the run ended before its second decider request: %v\n%s\n%s", err, rig.out, rig.errb)
	case <-time.After(30 * time.Second):
		t.Fatalf("no second decider request:\n%s\n%s", rig.out, rig.errb)
	}
	rig.interrupt(t)
	code := rig.wait(t, 20*time.Second)
	rig.mu.Lock()
	after := rig.after
	rig.mu.Unlock()
	if code != exitInterrupted {
		t.Fatalf("exit status %d, want %d (-1: still running 20s after Ctrl-C); model requests after Ctrl-C: %v\n%s\n%s", code, exitInterrupted, after, rig.out, rig.errb)
	}
	if len(after) > 0 {
		t.Errorf("model requests after Ctrl-C (roles %v), want none", after)
	}
	if !strings.Contains(rig.errb.String(), msgInterrupted) {
		t.Errorf("stderr does not say what the first Ctrl-C does:\n%s", rig.errb)
	}
	store, err := knowledge.Open(rig.kpath, knowledge.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m, err := store.Map("com.fairy.shop")
	if err != nil || len(m.Pages) == 0 {
		t.Errorf("the App Map learned before Ctrl-C is lost: %v, %+v", err, m)
	}
}

// TestRunSecondCtrlCQuits: the second Ctrl-C ends fairy at once, also while a model call
// hangs. The first Ctrl-C lands while the Self-Learner's call after the shop task is in
// flight and the model does not answer it: fairy makes no new call (the calendar task does
// not start), waits for the call under way and says how to stop waiting; the second quits.
// Before, the second Ctrl-C did nothing.
func TestRunSecondCtrlCQuits(t *testing.T) {
	learning := make(chan struct{})
	var once sync.Once
	rig := startSignalRig(t, modelHold{learner: func(r *http.Request) {
		once.Do(func() { close(learning) })
		select { // a model that does not answer
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}})
	select {
	case <-learning:
	case err := <-rig.exit:
		t.Fatalf("the run ended before the Self-Learner's request: %v\n%s\n%s", err, rig.out, rig.errb)
	case <-time.After(30 * time.Second):
		t.Fatalf("no Self-Learner request:\n%s\n%s", rig.out, rig.errb)
	}
	rig.interrupt(t)
	if code := rig.wait(t, time.Second); code != -1 {
		t.Fatalf("fairy ended (status %d) at the first Ctrl-C, with the learning call under way\n%s\n%s", code, rig.out, rig.errb)
	}
	if err := rig.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code := rig.wait(t, 10*time.Second)
	if code != exitInterrupted {
		t.Fatalf("exit status %d, want %d (-1: still running 10s after the second Ctrl-C)\n%s\n%s", code, exitInterrupted, rig.out, rig.errb)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("fairy took %v to quit after the second Ctrl-C", d)
	}
	for _, want := range []string{msgInterrupted, msgInterruptedAgain} {
		if !strings.Contains(rig.errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, rig.errb)
		}
	}
	rig.mu.Lock()
	after := rig.after
	rig.mu.Unlock()
	if len(after) > 0 {
		t.Errorf("model requests after the first Ctrl-C (roles %v), want none", after)
	}
}

// TestWatchInterrupts: the first signal cancels the context and says so, the second says
// so and quits, whatever the command is still doing; stop ends the watch without quitting.
func TestWatchInterrupts(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	var errb syncBuffer
	quit := make(chan struct{})
	ctx, stop := watchInterrupts(sigs, &errb, func() { close(quit) })
	defer stop()
	sigs <- syscall.SIGINT
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first interrupt did not cancel the context")
	}
	// A run stopped by it says why in a person's words ("stopped: interrupted (Ctrl-C)", not
	// "context canceled"), and what tells a cancel apart still sees one.
	if cause := context.Cause(ctx); cause == nil || cause.Error() != "interrupted (Ctrl-C)" || !errors.Is(cause, context.Canceled) {
		t.Errorf("the first interrupt's cause is %v, want \"interrupted (Ctrl-C)\" that is context.Canceled", cause)
	}
	select {
	case <-quit:
		t.Fatal("the first interrupt quit")
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- syscall.SIGINT
	select {
	case <-quit:
	case <-time.After(5 * time.Second):
		t.Fatal("the second interrupt did not quit")
	}
	if got, want := errb.String(), msgInterrupted+"\n"+msgInterruptedAgain+"\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}

	ctx2, stop2 := watchInterrupts(make(chan os.Signal), io.Discard, func() { t.Error("quit without a signal") })
	stop2()
	if ctx2.Err() == nil {
		t.Error("stop left the context running")
	}
}
