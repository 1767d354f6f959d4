package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalAndroidWorld runs androidworld:sim from the command line on a virtual phone with
// the scripted model: two instances of two families pass, and the benchmark-style summary
// (by app, by difficulty, steps against the budget, questions) is printed and written.
func TestEvalAndroidWorld(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--seed", "5", "--instances", "2", "--family", "SimpleSmsSend,SimpleSmsResend", "--out", out, "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"model: the scripted model", "suite androidworld-sim: 4 tasks", "not AndroidWorld itself",
		"Success: 4/4 (100%) over 2 families from 1 apps", "| medium | 4/4 (100%) |", "| Messages | 4/4 (100%) |", "Questions asked: "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "androidworld.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Passed, Tasks, Budget, Steps int
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Passed != 4 || s.Budget != 48 || s.Steps == 0 || s.Steps > s.Budget {
		t.Errorf("androidworld.json: %+v %v", s, err)
	}
	for _, bad := range [][]string{{"--family", "Nothing*"}, {"--instances", "0"}} {
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append([]string{"eval", "androidworld:sim", "--out", t.TempDir(), "--runs", t.TempDir()}, bad...))
		var ee *exitError
		if err := root.ExecuteContext(t.Context()); !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%v: %v, want exit 2", bad, err)
		}
	}
}
