package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// TestMapListLearnedApps: `fairy map list` lists the apps something was learned of and
// says how many it left out (every app the phone showed is known by name, most with
// nothing learned); --all lists them all, as table and as JSON.
func TestMapListLearnedApps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"com.android.contacts", "com.android.camera", "com.fairy.notes"} {
		if _, err := s.PutApp(knowledge.App{Package: pkg, Label: pkg[strings.LastIndex(pkg, ".")+1:]}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PutApp(knowledge.App{Package: "com.tea", Label: "Tea"}); err != nil {
		t.Fatal(err)
	}
	tr := knowledge.Transition{From: ".Home#a", To: ".Menu#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Menu"}}}
	if _, err := s.RecordTransition("com.tea", tr, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTrick(knowledge.Trick{App: "com.tips", Kind: knowledge.KindAction, Text: "Search first."}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	code, out, stderr := execRoot(t, nil, "", "map", "list", "--knowledge", path)
	if code != 0 {
		t.Fatalf("map list: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"com.tea", "com.tips", "3 more apps the phone showed, with nothing learned yet: 'fairy map list --all' lists them."} {
		if !strings.Contains(out, want) {
			t.Errorf("map list lacks %q:\n%s", want, out)
		}
	}
	for _, hidden := range []string{"com.android.contacts", "com.android.camera", "com.fairy.notes"} {
		if strings.Contains(out, hidden) {
			t.Errorf("map list shows %s, which nothing was learned of:\n%s", hidden, out)
		}
	}
	code, out, _ = execRoot(t, nil, "", "map", "list", "--all", "--knowledge", path)
	if code != 0 || strings.Count(out, "\ncom.") != 5 || strings.Contains(out, "--all") {
		t.Errorf("map list --all: exit %d, want all 5 apps and no note:\n%s", code, out)
	}
	var rows []mapAppJSON
	_, out, _ = execRoot(t, nil, "", "map", "list", "--format", "json", "--knowledge", path)
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Errorf("map list --format json: %v, %d rows, want the 2 learned apps:\n%s", err, len(rows), out)
	}
	_, out, _ = execRoot(t, nil, "", "map", "list", "--all", "--format", "json", "--knowledge", path)
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 5 {
		t.Errorf("map list --all --format json: %v, %d rows, want 5:\n%s", err, len(rows), out)
	}
}

// TestMapShowFitsATerminal: `fairy map show` aligns its pages and its transitions as two
// tables, so a long action does not widen the pages' VISITS column.
func TestMapShowFitsATerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := "Display size and text, font, bold text and high-contrast text"
	tr := knowledge.Transition{From: ".Home#a", To: ".Display#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: long}}}
	if _, err := s.RecordTransition("com.tea", tr, true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	code, out, stderr := execRoot(t, nil, "", "map", "show", "com.tea", "--knowledge", path)
	if code != 0 || !strings.Contains(out, long) {
		t.Fatalf("map show: exit %d: %s\n%s", code, stderr, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "PAGE") {
			// "VISITS" and two spaces: the column is as wide as its header.
			if i, j := strings.Index(line, "VISITS"), strings.Index(line, "LAST SEEN"); j-i > len("VISITS")+2 {
				t.Errorf("the VISITS column is %d wide:\n%s", j-i, out)
			}
		}
		if w := table.Width(line); w > 160 {
			t.Errorf("a line is %d columns wide:\n%s", w, line)
		}
	}
}

// TestListingsAlone: `fairy routines` and `fairy runs` alone list, as their `list` does,
// not print their help; a stray word is still an unknown command.
func TestListingsAlone(t *testing.T) {
	dir := t.TempDir()
	kpath, runs := filepath.Join(dir, "knowledge.db"), filepath.Join(dir, "runs")
	writeKilledRun(t, filepath.Join(runs, "20260101-120000-1"), 0)
	for _, c := range []struct{ alone, list []string }{
		{[]string{"routines", "--knowledge", kpath}, []string{"routines", "list", "--knowledge", kpath}},
		{[]string{"runs", "--runs", runs}, []string{"runs", "list", "--runs", runs}},
		{[]string{"runs", "--runs", runs, "--format", "json"}, []string{"runs", "list", "--runs", runs, "--format", "json"}},
	} {
		code, out, stderr := execRoot(t, nil, "", c.alone...)
		_, want, _ := execRoot(t, nil, "", c.list...)
		if code != 0 || out != want || strings.Contains(out, "Usage:") {
			t.Errorf("fairy %s: exit %d, stderr %q\n%s\nwant what list writes:\n%s", strings.Join(c.alone, " "), code, stderr, out, want)
		}
	}
	if code, _, stderr := execRoot(t, nil, "", "runs", "lsit", "--runs", runs); code != 2 || !strings.Contains(stderr, `unknown command "lsit"`) {
		t.Errorf("fairy runs lsit: exit %d, %q; want an unknown command", code, stderr)
	}
}

// writeKilledRun writes the run directory of a run killed after steps steps: the trace
// written as it went, and no summary.json (Close writes it; a killed run never gets there).
func writeKilledRun(t *testing.T, dir string, steps int) {
	t.Helper()
	rec, err := rundir.NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	evs := []event.Event{event.RunStarted{RunID: filepath.Base(dir), Instruction: "turn on dark theme"},
		event.AppTaskStarted{Instruction: "turn on dark theme", Task: event.AppTask{App: "com.android.settings", Task: "turn on dark theme"}}}
	for i := 1; i <= steps; i++ {
		evs = append(evs, event.StepStarted{Step: i, App: "com.android.settings"})
	}
	for i, e := range evs {
		rec.Handle(event.Record{Seq: int64(i + 1), Time: at.Add(time.Duration(i) * time.Second), Event: e})
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, rundir.SummaryFile)); err != nil {
		t.Fatal(err)
	}
}

// TestRunsCountsAKilledRunsSteps: a run killed before it wrote summary.json lists with the
// steps its trace holds, not 0, in `runs list` (table and JSON) and `runs show`.
func TestRunsCountsAKilledRunsSteps(t *testing.T) {
	runs := t.TempDir()
	writeKilledRun(t, filepath.Join(runs, "20260101-120000-1"), 3)
	code, out, stderr := execRoot(t, nil, "", "runs", "list", "--runs", runs)
	if code != 0 {
		t.Fatalf("runs list: exit %d: %s", code, stderr)
	}
	var row []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "20260101-120000-1") {
			row = strings.Fields(line)
		}
	}
	// RUN, STARTED (date, time), OUTCOME, STEPS, INSTRUCTION…
	if len(row) < 5 || row[3] != "unfinished" || row[4] != "3" {
		t.Errorf("runs list shows the killed run as %q, want unfinished with 3 steps:\n%s", row, out)
	}
	var rows []runJSON
	_, out, _ = execRoot(t, nil, "", "runs", "list", "--runs", runs, "--format", "json")
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].Steps != 3 {
		t.Errorf("runs list --format json: %v: %+v, want 3 steps", err, rows)
	}
	_, out, _ = execRoot(t, nil, "", "runs", "show", "--runs", runs)
	if !strings.Contains(out, "Steps:") || !strings.Contains(out, "3 (counted from the trace)") {
		t.Errorf("runs show lacks the steps counted from the trace:\n%s", out)
	}
}

// TestPerceiveSaysWhatItWrote: `perceive --som` says on stderr which file it wrote (and
// leaves stdout to the screen's text).
func TestPerceiveSaysWhatItWrote(t *testing.T) {
	dump := filepath.Join("..", "..", "perception", "testdata", "corpus", "gmail-inbox-1080x2400-drawing-order.xml")
	dir := t.TempDir()
	shot, som := filepath.Join(dir, "shot.png"), filepath.Join(dir, "marked.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1080, 2400))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := newPerceiveCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs([]string{dump, "--png", shot, "--som", som})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(som); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "wrote the set-of-mark image "+som) || strings.Contains(out.String(), som) {
		t.Errorf("perceive --som: stderr %q, stdout %.200q; want stderr to name %s", errOut.String(), out.String(), som)
	}
}

// TestStoppedSaidOnce: an interrupted run says "stopped" once: the outcome says it, and
// its reason does not repeat it ("stopped: stopped: context canceled").
func TestStoppedSaidOnce(t *testing.T) {
	ctx, cancelCause := context.WithCancelCause(t.Context())
	cancel := func() { cancelCause(errInterrupt) } // as the first Ctrl-C cancels
	defer cancel()
	var out bytes.Buffer
	runs := t.TempDir()
	_, err := runDemo(ctx, demoOptions{RunsDir: runs, Interactive: true, TextOnly: true,
		Stdin: ctrlCReader{ctx, cancel}, Out: &out, Knowledge: filepath.Join(t.TempDir(), "knowledge.db")})
	if err == nil {
		t.Fatalf("the interrupted demo succeeded:\n%s", out.String())
	}
	text := out.String() + err.Error()
	if strings.Contains(text, "stopped: stopped") {
		t.Errorf("the stop is said twice:\n%s\n%v", out.String(), err)
	}
	if !strings.Contains(out.String(), "stopped: interrupted (Ctrl-C)") || strings.Contains(out.String(), "context canceled") {
		t.Errorf("the output does not say the run stopped at the person's Ctrl-C, in their words:\n%s", out.String())
	}
	sum, _ := readSummary(t, out.String())
	if sum.Outcome != event.OutcomeStopped || strings.HasPrefix(sum.Reason, "stopped") {
		t.Errorf("summary outcome %s, reason %q: want stopped, and a reason that does not repeat it", sum.Outcome, sum.Reason)
	}
	for _, task := range sum.Tasks {
		if strings.HasPrefix(task.Reason, "stopped") {
			t.Errorf("task %d's reason %q repeats its outcome %s", task.Index+1, task.Reason, task.Outcome)
		}
	}
}

// cancelAfter is explore's terminal: the person presses Ctrl-C once n pages were found.
type cancelAfter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Count(w.buf.String(), "+ page ") >= w.n {
		w.cancel()
	}
	return len(p), nil
}

func (w *cancelAfter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestExploreInterruptedSaysSo: an exploration stopped by Ctrl-C says it was interrupted,
// and does not advise a larger --budget (the budget did not run out). The phone is the
// virtual one on its adb host face.
func TestExploreInterruptedSaysSo(t *testing.T) {
	phone, port := hostServedSim(t)

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	out := &cancelAfter{n: 3, cancel: cancel}
	root := newRootCmd(strings.NewReader(""), out, &bytes.Buffer{}, envMap(nil))
	root.SetArgs([]string{"explore", "com.android.settings", "--budget", "200", "--knowledge", filepath.Join(t.TempDir(), "k.db"),
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--pictures=false"})
	err := root.ExecuteContext(ctx)
	text := out.String()
	if err == nil || !strings.Contains(text, "ended: interrupted") {
		t.Fatalf("explore was not interrupted: %v\n%s", err, text)
	}
	if strings.Contains(text, "--budget") {
		t.Errorf("an interrupted exploration advises a larger --budget:\n%s", text)
	}
	if !strings.Contains(text, "found but not explored: the exploration was interrupted") {
		t.Errorf("the unexplored pages are not said to be left by the interrupt:\n%s", text)
	}
}

// TestKnowledgeCheckSaysItOnce: `fairy knowledge check` lists a damaged file's problems on
// stdout, and its error on stderr says what to do without listing them again.
func TestKnowledgeCheckSaysItOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.db")
	writeDamagedKnowledge(t, path)
	code, stdout, stderr := execRoot(t, nil, "", "knowledge", "check", path)
	if code != 2 || !strings.Contains(stdout, path+" is damaged:\n  - ") {
		t.Fatalf("check: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if p, ok := strings.CutPrefix(line, "  - "); ok && strings.Contains(stderr, p) {
			t.Errorf("the problem %q is said twice:\nstdout:\n%s\nstderr:\n%s", p, stdout, stderr)
		}
	}
	if !strings.Contains(stderr, "fairy knowledge repair "+path+" --out NEW") || !strings.Contains(stderr, "listed above") {
		t.Errorf("stderr %q does not say what to do", stderr)
	}
}

// TestExploreSeeItNamesTheKnowledge: explore's closing hint names the knowledge file the
// exploration wrote when --knowledge named one ("see it: fairy map show APP" alone shows
// the default file, where the pages are not).
func TestExploreSeeItNamesTheKnowledge(t *testing.T) {
	phone, port := hostServedSim(t)
	kpath := filepath.Join(t.TempDir(), "my k.db")
	code, stdout, stderr := execRoot(t, nil, "", "explore", "com.android.settings", "--budget", "3", "--knowledge", kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--pictures=false")
	if code != 0 {
		t.Fatalf("explore: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if want := "see it: fairy map show com.android.settings --knowledge " + shellWord(kpath) + "\n"; !strings.Contains(stdout, want) {
		t.Errorf("the hint is not %q:\n%s", want, stdout)
	}
}

// hostServedSim is a virtual phone on an adb host face of its own, and the face's port.
func hostServedSim(t *testing.T) (*sim.Phone, string) {
	t.Helper()
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(context.WithoutCancel(t.Context())) }()
	t.Cleanup(func() { hs.Close(); <-served })
	_, port, _ := net.SplitHostPort(hs.Addr().String())
	return phone, port
}

// TestExploreKeepsTheLabel: an app explored into a new knowledge file lists with its label
// (`fairy map list` showed an empty LABEL: only a run told the file the phone's labels).
func TestExploreKeepsTheLabel(t *testing.T) {
	phone, port := hostServedSim(t)
	kpath := filepath.Join(t.TempDir(), "k.db")
	code, stdout, stderr := execRoot(t, nil, "", "explore", "com.android.settings", "--budget", "3", "--knowledge", kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--pictures=false")
	if code != 0 {
		t.Fatalf("explore: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = execRoot(t, nil, "", "map", "list", "--knowledge", kpath)
	if code != 0 {
		t.Fatalf("map list: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var row string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "com.android.settings ") {
			row = line
		}
	}
	if f := strings.Fields(row); len(f) < 2 || f[1] != "Settings" {
		t.Errorf("the explored app's row %q has no label Settings:\n%s", row, stdout)
	}
}

// TestKnowledgeCheckMissingFile: checking a file that is not there says so in a sentence
// with what to do (it printed Go's "stat …: no such file or directory").
func TestKnowledgeCheckMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	code, stdout, stderr := execRoot(t, nil, "", "knowledge", "check", path)
	if code != 2 || strings.Contains(stderr, "stat ") || !strings.Contains(stderr, "no knowledge file at "+path) {
		t.Errorf("check: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("check made %s", path)
	}
}
