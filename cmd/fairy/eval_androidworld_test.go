package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// TestEvalAndroidWorld runs androidworld:sim from the command line on a virtual phone with
// the scripted model: two instances of two families pass, and the benchmark-style summary
// (by app, by difficulty, steps against the budget, questions) is printed and written.
func TestEvalAndroidWorld(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs androidworld:sim end to end (TestEvalOwnVirtualSuite runs the eval command in the fast tier)")
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
		"**Mean success rate: 1.000**", "Success: 4/4 (100%) over 2 families from 1 apps", "| medium | 4/4 (100%) |", "| Messages | 4/4 (100%) |",
		"of AndroidWorld's 116 families", "this run ran 2.", "False successes (the agent said done, the checks failed): 0.",
		"The simulated person judged each consent by what the task asks for: 0 refused", "Questions asked: "} {
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
	for _, bad := range [][]string{{"--family", "Nothing*"}, {"--instances", "0"}, {"--seeds", "1,x"}} {
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append([]string{"eval", "androidworld:sim", "--out", t.TempDir(), "--runs", t.TempDir()}, bad...))
		var ee *exitError
		if err := root.ExecuteContext(t.Context()); !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%v: %v, want exit 2", bad, err)
		}
	}
}

// TestEvalAndroidWorldSeeds: --seeds runs androidworld:sim once per seed, each into its
// own directory, and the summary pools them with the spread over seeds; --approve-all
// makes the person approve every consent, and is refused on another suite.
func TestEvalAndroidWorldSeeds(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs androidworld:sim on two seeds end to end (awreport tests the spread)")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--seeds", "5,6", "--family", "SimpleSmsReply", "--approve-all", "--out", out, "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"seed 5: passed 1 of 1 run", "seed 6: passed 1 of 1 run", "## androidworld:sim — seeds 5, 6",
		"Over 2 seeds: mean 1.000, min 1.000, max 1.000.", "approved every consent (--approve-all"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, f := range []string{"seed-5/report.json", "seed-6/report.json", "androidworld.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "androidworld.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tasks      int     `json:"tasks"`
		Seeds      []int64 `json:"seeds"`
		ApproveAll bool    `json:"approve_all"`
		Spread     struct {
			Seeds []struct{ Seed int64 } `json:"seeds"`
		} `json:"spread"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Tasks != 2 || len(s.Seeds) != 2 || !s.ApproveAll || len(s.Spread.Seeds) != 2 || s.Spread.Seeds[1].Seed != 6 {
		t.Errorf("androidworld.json: %+v %v", s, err)
	}
	root = newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "builtin:sim", "--approve-all", "--out", t.TempDir(), "--runs", t.TempDir()})
	var ee *exitError
	if err := root.ExecuteContext(t.Context()); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "--approve-all is for androidworld:sim") {
		t.Errorf("--approve-all on builtin:sim: %v, want exit 2 saying it is for androidworld:sim", err)
	}
}
