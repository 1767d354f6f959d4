package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/internal/testenv"
)

func TestEvalModelErrorsUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--model-errors", "grounding"}, "KIND=RATE"},
		{[]string{"--model-errors", "ground=0.1"}, "unknown kind"},
		{[]string{"--model-errors", "grounding=1.5"}, "between 0 and 1"},
		{[]string{"--model-errors-in", "warm"}, "want all or learn"},
		{[]string{"--sweep", "grounding=0,0.1"}, "add --cold-warm"},
		{[]string{"--sweep", "grounding", "--cold-warm"}, "KIND=R1,R2"},
		{[]string{"--sweep", "grounding=0,x", "--cold-warm"}, "grounding"},
		{[]string{"--sweep", "grounding=0", "--cold-warm", "--seeds", "1,a"}, "--seeds"},
		{[]string{"--seeds", "1,2"}, "--seeds goes with --sweep"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append(append([]string{"eval", "builtin:sim", "--sim", "1"}, tt.args...), "--runs", t.TempDir(), "--out", t.TempDir()))
		err := root.ExecuteContext(t.Context())
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want exit 2 mentioning %q", tt.args, err, tt.want)
		}
	}
}

// TestEvalSweep: --sweep runs the cold/warm evaluation once per rate and seed, each in its
// own directory, and writes the robustness table; the injected errors are in the reports.
func TestEvalSweep(t *testing.T) {
	testenv.MustHaveFullTier(t, "four cold/warm evaluations (slow)")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "builtin:sim", "--sim", "1", "--cold-warm", "--tasks", "settings-wifi-off", "--sweep", "grounding=0,1",
		"--model-errors", "format=0.5", "--seeds", "4", "--out", out, "--runs", t.TempDir()})
	err := root.ExecuteContext(t.Context())
	text := stdout.String()
	t.Logf("%s", text)
	var ee *exitError
	if err != nil && (!errors.As(err, &ee) || ee.code != 1) {
		t.Fatalf("fairy eval --sweep: %v\n%s", err, stderr.String())
	}
	var rows []eval.RobustnessRow
	b, rerr := os.ReadFile(filepath.Join(out, eval.RobustnessJSON))
	if rerr != nil {
		t.Fatal(rerr)
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ModelErrors != "grounding=0,format=0.5" || rows[1].ModelErrors != "grounding=1,format=0.5" || rows[1].Seeds[0] != 4 {
		t.Fatalf("robustness rows %+v", rows)
	}
	if rows[1].Cold.Injected == 0 {
		t.Errorf("every tap misplaced, and no injected error counted: %+v", rows[1])
	}
	for _, w := range []string{"grounding=1,format=0.5 seed 4: cold ", "| model errors | seeds |", "robustness.html"} {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, d := range []string{"grounding-0-seed-4", "grounding-1-seed-4"} {
		if _, err := os.Stat(filepath.Join(out, d, eval.ReportJSON)); err != nil {
			t.Errorf("no report for %s: %v", d, err)
		}
	}
}
