package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/tmpfstest"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// fillDisk takes every free byte of the file system holding dir.
func fillDisk(dir string) error {
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		return err
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for err == nil {
		_, err = f.Write(chunk)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	for n := len(chunk) / 2; n > 0; n /= 2 { // the last partly used page
		_, _ = f.Write(chunk[:n])
	}
	return nil
}

// fillingPhone is the virtual phone, and the disk of the runs directory filling up while
// it works: once armed, its next screenshot fills the disk before it answers. It keeps
// every command line it receives, and where the disk filled.
type fillingPhone struct {
	*sim.Phone
	disk   string
	mu     sync.Mutex
	armed  bool
	filled int // commands received when the disk filled; -1 before
	err    error
	lines  []string
}

func (p *fillingPhone) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	p.mu.Lock()
	if p.armed && p.filled < 0 && strings.HasPrefix(cmdline, "screencap") {
		p.err = fillDisk(p.disk)
		p.filled = len(p.lines)
	}
	p.lines = append(p.lines, cmdline)
	p.mu.Unlock()
	return p.Phone.Shell(ctx, cmdline, w)
}

func (p *fillingPhone) arm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = true
}

// person answers at the terminal, one line for each question; before answers the n-th
// (from 0) before the answer is given.
type person struct {
	answers []string
	n       int
	before  func(n int)
}

func (p *person) Read(b []byte) (int, error) {
	if p.n >= len(p.answers) {
		return 0, io.EOF
	}
	if p.before != nil {
		p.before(p.n)
	}
	k := copy(b, p.answers[p.n]+"\n")
	p.n++
	return k, nil
}

// isAction reports whether a command line acts on the phone (rather than reading it).
func isAction(cmdline string) bool {
	for _, p := range []string{"input ", "am start", "am broadcast", "monkey "} {
		if strings.HasPrefix(cmdline, p) {
			return true
		}
	}
	return false
}

// TestRunStopsWhenTheDiskFills: `fairy run` on the demo task (order and pay a bubble tea,
// then the calendar), its runs directory on a real file system that fills up after the
// person has chosen the delivery time — before the order is placed and paid. The run
// stops at the first write that fails: no action reaches the phone after it, no order;
// it fails with the failed write as its reason, never prints "✓", writes no summary
// (nor a 0-byte one) and exits 1 saying what to do; the trace holds whole lines.
func TestRunStopsWhenTheDiskFills(t *testing.T) {
	disk := tmpfstest.Mount(t, "64m")
	p, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	phone := &fillingPhone{Phone: p, disk: disk, filled: -1}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(context.WithoutCancel(t.Context())) }()
	t.Cleanup(func() { hs.Close(); <-served })
	_, port, _ := net.SplitHostPort(hs.Addr().String())
	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	model := httptest.NewServer(script)
	defer model.Close()

	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The first question is the delivery time: the disk fills as the person answers it.
	stdin := &person{answers: []string{"18:00", "yes", "yes"}, before: func(n int) {
		if n == 0 {
			phone.arm()
		}
	}}
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": model.URL + "/v1", "OPENAI_API_KEY": "sk-test-secret-123"})
	root := newRootCmd(stdin, &out, &errOut, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(disk, "runs"), "--knowledge", filepath.Join(dir, "knowledge.db"),
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", p.Serial(), demoInstruction})
	ctx, stop := context.WithTimeout(t.Context(), 20*time.Second)
	defer stop()
	err = root.ExecuteContext(ctx)
	if ctx.Err() != nil {
		t.Fatalf("the run did not end: %v\n%s", err, out.String())
	}

	phone.mu.Lock()
	filled, fillErr, cmds := phone.filled, phone.err, phone.lines
	phone.mu.Unlock()
	if filled < 0 || fillErr != nil {
		t.Fatalf("the disk did not fill (%v); the run went:\n%s", fillErr, out.String())
	}
	for _, c := range cmds[filled:] {
		if isAction(c) {
			t.Errorf("action after the disk filled: %q", c)
		}
	}
	if orders := p.Orders(); len(orders) != 0 {
		t.Errorf("orders: %+v, want none", orders)
	}
	var stderr bytes.Buffer
	if code := exitStatus(t.Context(), err, &stderr); code != 1 {
		t.Errorf("exit status %d, want 1 (err %v)", code, err)
	}
	if s := stderr.String(); !strings.Contains(s, "cannot record the run: write ") || !strings.Contains(s, "no space left on device") ||
		!strings.Contains(s, "--runs") {
		t.Errorf("stderr %q does not say the run could not be recorded and what to do", s)
	}
	if o := out.String(); strings.Contains(o, "✓") || !strings.Contains(o, "✗ failed: cannot record the run: write ") ||
		!strings.Contains(o, "summary: not written") {
		t.Errorf("output:\n%s", o)
	}

	m := runDirRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no run directory in the output:\n%s", out.String())
	}
	ents, err := os.ReadDir(m[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if n := e.Name(); n != rundir.TraceFile && !strings.HasPrefix(n, "step-") {
			t.Errorf("%s in the run directory (no summary, no temporary file expected)", n)
		}
	}
	lines := checkTrace(t, m[1])
	if len(lines) == 0 || lines[len(lines)-1].Kind == "RunFinished" {
		t.Errorf("the trace holds %d lines and goes on after the disk filled", len(lines))
	}
}

// runDirRE finds the run directory in a command's output.
var runDirRE = regexp.MustCompile(`(?m)^run directory: (.+)$`)

// traceEvent is what the tests read of a trace line.
type traceEvent struct {
	Seq   int64
	Kind  string
	Image string
}

// checkTrace reads dir's trace: whole lines only, each an event, numbered from 1 without
// a gap, and every screenshot a line names is on disk.
func checkTrace(t *testing.T, dir string) []traceEvent {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rundir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Errorf("the trace ends in a cut line: …%q", b[max(0, len(b)-60):])
	}
	var out []traceEvent
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e traceEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Kind == "" {
			t.Fatalf("trace line %d is not an event: %v: %.120s", len(out)+1, err, sc.Text())
		}
		if e.Seq != int64(len(out)+1) {
			t.Errorf("trace line %d has seq %d", len(out)+1, e.Seq)
		}
		if e.Image != "" {
			if st, err := os.Stat(filepath.Join(dir, e.Image)); err != nil || st.Size() == 0 {
				t.Errorf("trace line %d names %s: %v", len(out)+1, e.Image, err)
			}
		}
		out = append(out, e)
	}
	return out
}

// killChildEnv is the runs directory of the `fairy demo` that TestDemoChild runs.
const killChildEnv = "FAIRY_TEST_KILLED_DEMO_RUNS"

// TestDemoChild is `fairy demo` in a child process, for TestKilledRunLeavesWholeLines.
func TestDemoChild(t *testing.T) {
	runs := os.Getenv(killChildEnv)
	if runs == "" {
		t.Skip("helper process for TestKilledRunLeavesWholeLines")
	}
	root := newRootCmd(strings.NewReader(""), io.Discard, os.Stderr, envMap(map[string]string{"HOME": runs}))
	root.SetArgs([]string{"demo", "--runs", runs, "--knowledge", filepath.Join(runs, "knowledge.db")})
	os.Exit(exitStatus(context.Background(), root.ExecuteContext(context.Background()), os.Stderr))
}

// TestKilledRunLeavesWholeLines: `fairy demo` in a child process, killed with SIGKILL at
// several moments of its run (as soon as its trace holds n lines, or a screenshot
// appears); each time every line of trace.jsonl is a whole event, none is missing before
// the last, and every screenshot the trace names is on disk. Under -short it kills at three
// of the seven moments.
func TestKilledRunLeavesWholeLines(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	moments := []struct {
		lines int // kill once the trace holds this many lines
		shot  int // or once this many screenshots are there
	}{{lines: 1}, {lines: 12}, {lines: 37}, {lines: 80}, {lines: 125}, {shot: 3}, {shot: 9}}
	if testing.Short() {
		// Each moment is a demo in a child process; the fast tier kills at one moment
		// early in the trace, one mid-way and one among the screenshots, the full tier at all.
		moments = []struct{ lines, shot int }{{lines: 1}, {lines: 37}, {shot: 3}}
	}
	for _, m := range moments {
		t.Run(fmt.Sprintf("lines=%d,shots=%d", m.lines, m.shot), func(t *testing.T) {
			t.Parallel()
			runs := t.TempDir()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestDemoChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), killChildEnv+"="+runs)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var dir string
			seen := 0
		watch:
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Microsecond) {
				select {
				case err := <-exited:
					t.Fatalf("the demo ended (%v) before the kill, at %d lines: %s", err, seen, stderr.String())
				default:
				}
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatal("the demo did not get there in time")
				}
				if dir == "" {
					traces, _ := filepath.Glob(filepath.Join(runs, "*", rundir.TraceFile))
					if len(traces) == 0 {
						continue
					}
					dir = filepath.Dir(traces[0])
				}
				switch {
				case m.lines > 0:
					b, _ := os.ReadFile(filepath.Join(dir, rundir.TraceFile))
					if seen = bytes.Count(b, []byte("\n")); seen >= m.lines {
						break watch
					}
				default:
					shots, _ := filepath.Glob(filepath.Join(dir, "step-*"))
					if len(shots) >= m.shot {
						break watch
					}
				}
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			err := <-exited
			var ee *exec.ExitError
			if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
				t.Fatalf("the demo was not killed: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, rundir.SummaryFile)); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the demo had finished its run before the kill: %v", err)
			}
			lines := checkTrace(t, dir)
			if len(lines) < seen {
				t.Errorf("the trace holds %d lines after the kill, %d before", len(lines), seen)
			}
			t.Logf("killed at %d trace lines", len(lines))
		})
	}
}
