package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/llm/scripted"
)

// TestRunWarningsGoToTheRunLog: the warnings of a run (here: a model that cannot read key
// context, so every collection fails) go to run.log in the run directory, not between the
// transcript's lines on stdout or stderr; the transcript ends with one line that counts
// them and says where they are.
func TestRunWarningsGoToTheRunLog(t *testing.T) {
	p, port := hostServedSim(t)
	// The demo's rules without the Key Context Collector's: each extractor call fails.
	text := string(demoRules)
	from := strings.Index(text, "  # ---------------------------------------------------------------- Key Context Collector")
	to := strings.Index(text, "  # ---------------------------------------------------------------- Finish check")
	if from < 0 || to < from {
		t.Fatal("the demo's rules have no Key Context Collector section")
	}
	rules, err := scripted.ParseRules([]byte(text[:from] + text[to:]))
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
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": model.URL + "/v1", "OPENAI_API_KEY": "sk-test"})
	root := newRootCmd(strings.NewReader("18:00\nyes\nyes\n"), &out, &errOut, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", filepath.Join(dir, "k.db"),
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", p.Serial(), demoInstruction})
	ctx, stop := context.WithTimeout(t.Context(), 30*time.Second)
	defer stop()
	_ = root.ExecuteContext(ctx) // done or not: the log is what is judged
	if ctx.Err() != nil {
		t.Fatalf("the run did not end:\n%s", out.String())
	}
	for name, s := range map[string]string{"stdout": out.String(), "stderr": errOut.String()} {
		if strings.Contains(s, "level=WARN") {
			t.Errorf("a warning is on %s:\n%s", name, s)
		}
	}
	m := regexp.MustCompile(`(?m)^log: (\d+) warnings? \(the first: "key context collection failed"\) in (\S+)$`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("the transcript does not end with the log's line:\n%s", out.String())
	}
	_, rundir := readSummary(t, out.String())
	if m[2] != filepath.Join(rundir, runLogFile) {
		t.Errorf("the log line names %s, want run.log in the run directory %s", m[2], rundir)
	}
	log, err := os.ReadFile(m[2])
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(log), "level=WARN"); got == 0 || m[1] != strconv.Itoa(got) {
		t.Errorf("the line counts %s warnings, run.log holds %d:\n%s", m[1], got, log)
	}
	if !strings.Contains(string(log), "key context collection failed") {
		t.Errorf("run.log:\n%s", log)
	}
}

// TestRunLogHeldUntilARunDirectory: records held for a run directory that never came (the
// run could not start) reach stderr when the command ends; nothing is lost.
func TestRunLogHeldUntilARunDirectory(t *testing.T) {
	var stderr bytes.Buffer
	l := newRunLog(&stderr)
	l.hold()
	l.logger(0).Warn("adb server away")
	if stderr.Len() != 0 {
		t.Fatalf("a held record reached stderr before the end: %s", stderr.String())
	}
	l.close()
	if !strings.Contains(stderr.String(), `msg="adb server away"`) || l.summary() != "" {
		t.Errorf("stderr %q, summary %q", stderr.String(), l.summary())
	}
}
