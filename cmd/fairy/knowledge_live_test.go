package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
)

// pausingReader is a terminal at which the person takes their time: the first read says
// so on asked and waits for resume before the answers come.
type pausingReader struct {
	asked, resume chan struct{}
	once          sync.Once
	answers       io.Reader
}

func (r *pausingReader) Read(p []byte) (int, error) {
	r.once.Do(func() {
		close(r.asked)
		<-r.resume
	})
	return r.answers.Read(p)
}

// TestKnowledgeUsableWhileRunAsks: while `fairy run` waits for the person's answer, `fairy
// map list`, `fairy tricks list`, `fairy knowledge export`, a write (`fairy tricks add`)
// and a whole second run (the demo) use the same knowledge file; the first run then
// finishes and learns, and nothing either wrote is lost.
func TestKnowledgeUsableWhileRunAsks(t *testing.T) {
	dir := t.TempDir()
	kpath := filepath.Join(dir, "knowledge.db")
	seed, err := knowledge.Open(kpath, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.RecordTransition("com.example.seed", knowledge.Transition{From: ".Main#a", To: ".Next#b",
		Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Next"}}}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.AddTrick(knowledge.Trick{App: "com.example.seed", Kind: knowledge.KindAction, Text: "The seed tip."}); err != nil {
		t.Fatal(err)
	}
	seed.Close()

	phone, port := hostServedSim(t)
	url := serveModel(t, demoRules)
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := envMap(map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test", "HOME": dir})

	person := &pausingReader{asked: make(chan struct{}), resume: make(chan struct{}), answers: strings.NewReader("18:00\nyes\nyes\n")}
	out := &syncBuffer{}
	root := newRootCmd(person, out, &syncBuffer{}, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--text-only", demoInstruction})
	runCtx, stop := context.WithTimeout(t.Context(), 60*time.Second)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(runCtx) }()
	select {
	case <-person.asked:
	case err := <-done:
		t.Fatalf("the run ended without asking: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "When should the bubble tea arrive?") {
		t.Fatalf("the run is not waiting on the delivery question:\n%s", out.String())
	}

	fairy := func(args ...string) string {
		t.Helper()
		var o, e bytes.Buffer
		r := newRootCmd(strings.NewReader(""), &o, &e, env)
		r.SetArgs(append(args, "--knowledge", kpath))
		if err := r.ExecuteContext(t.Context()); err != nil {
			close(person.resume)
			t.Fatalf("fairy %s while the run asks: %v\n%s%s", strings.Join(args, " "), err, o.String(), e.String())
		}
		return o.String()
	}
	if got := fairy("map", "list"); !strings.Contains(got, "com.example.seed") {
		t.Errorf("map list while the run asks:\n%s", got)
	}
	if got := fairy("tricks", "list"); !strings.Contains(got, "The seed tip.") {
		t.Errorf("tricks list while the run asks:\n%s", got)
	}
	if got := fairy("knowledge", "export", "-"); !strings.Contains(got, `"com.example.seed"`) {
		t.Errorf("knowledge export while the run asks:\n%.400s", got)
	}
	if got := fairy("tricks", "add", "--app", "common", "--kind", "planning", "Added while a run asked."); !strings.Contains(got, "Added trick") {
		t.Errorf("tricks add while the run asks:\n%s", got)
	}
	var demoOut bytes.Buffer
	second, err := runDemo(t.Context(), demoOptions{RunsDir: filepath.Join(dir, "runs2"), TextOnly: true, Out: &demoOut, Knowledge: kpath})
	if err != nil || second.Summary.Outcome != event.OutcomeDone {
		t.Errorf("a second run (the demo) while the first asks: %s, %v\n%s", second.Summary.Outcome, err, demoOut.String())
	}
	close(person.resume)

	if err := <-done; err != nil {
		t.Fatalf("fairy run: %v\n%s", err, out.String())
	}
	if sum, _ := readSummary(t, out.String()); sum.Outcome != event.OutcomeDone {
		t.Errorf("first run: %s", sum.Outcome)
	}
	st, err := knowledge.Open(kpath, knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(); err != nil {
		t.Fatalf("the file after two runs and a write at once: %v", err)
	}
	tricks, err := st.Tricks("common", knowledge.KindPlanning)
	if err != nil {
		t.Fatal(err)
	}
	var added bool
	for _, tr := range tricks {
		added = added || tr.Text == "Added while a run asked."
	}
	// Both runs took the same path through the shop: its first step is counted twice.
	m, err := st.Map("com.fairy.shop")
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, tr := range m.Transitions {
		most = max(most, tr.Successes)
	}
	if !added || most < 2 {
		t.Errorf("after both runs: trick added %v, most successes of a shop transition %d (want both runs counted: 2)", added, most)
	}
}

// TestMapListLinesUpWithChinese: `fairy map list` and `fairy tricks list` keep their
// columns in line when a label or a trick is Chinese (two terminal columns a character).
func TestMapListLinesUpWithChinese(t *testing.T) {
	kpath := filepath.Join(t.TempDir(), "knowledge.db")
	st, err := knowledge.Open(kpath, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []knowledge.App{{Package: "com.fairy.shop", Label: "美食外卖"}, {Package: "com.android.settings", Label: "Settings"}} {
		if _, err := st.PutApp(a); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddTrick(knowledge.Trick{App: a.Package, Kind: knowledge.KindAction, Text: a.Label + " opens from the launcher."}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	for _, args := range [][]string{{"map", "list"}, {"tricks", "list"}} {
		out, err := fairyIn(t, append(args, "--knowledge", kpath)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		// Every line's last column starts at the same terminal column.
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := func(line string) int {
			i := strings.LastIndex(strings.TrimRight(line, " "), "  ")
			return table.Width(line[:i+2])
		}
		for _, l := range lines[1:] {
			if last(l) != last(lines[0]) {
				t.Errorf("%v: columns out of line:\n%s", args, out)
				break
			}
		}
	}
}
