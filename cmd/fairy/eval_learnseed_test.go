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

// TestEvalLearnSeed: `fairy eval androidworld:sim --learn-seed 11 --seeds 12` learns on
// seed 11's instances into one file, then runs seed 12 cold, learning as it goes, warm
// with what seed 11 taught and warm model-independent, and writes the table of the four
// (with the means over the seeds) into report.md/json. The case is a real one on the
// virtual phone: on seed 11 Wi-Fi is already off, so the routine learned for "Turn off
// WiFi, then enable bluetooth" only turns Bluetooth on; replayed on seed 12, where Wi-Fi
// is on, it ends on its End page with Wi-Fi still on. The knowledge-that-misled table
// names that routine and the run it was learned from.
func TestEvalLearnSeed(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs androidworld:sim four ways on two seeds end to end (the eval package tests each pass)")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--learn-seed", "11", "--seeds", "12", "--cold-warm", "--family", "TurnOffWifiAndTurnOnBluetooth",
		"--out", out, "--runs", t.TempDir()})
	var ee *exitError
	if err := root.ExecuteContext(t.Context()); err != nil && (!errors.As(err, &ee) || ee.code != 1) {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"learn seed 11 → ", "seed 12 → ", "| 12 | cold, fresh knowledge | ", "| 12 | one shared empty knowledge file, learning as it goes | ",
		"| 12 | warm, knowledge learned before (model-cooperating) | ", "| 12 | warm, model-independent (never takes a routine or Navigate) | ",
		"| mean | cold, fresh knowledge | ", "## Knowledge that misled"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	for _, f := range []string{"report.md", "learn-seed-11/report.json", "learn-seed-11/knowledge.db", "seed-12/report.json", "seed-12/as-it-goes.db", "androidworld.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		LearnSeed uint64 `json:"learn_seed"`
		Learn     struct{ Tasks int }
		Passes    []struct {
			Seed  uint64
			Pass  string
			Tasks int
		}
		Means []struct{ Pass string }
		Seeds []struct {
			Seed   uint64
			Misled []struct {
				Task, Phase, Loss string
				Culprit           *struct {
					Kind, Name  string
					LearnedFrom string `json:"learned_from"`
				}
			}
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.LearnSeed != 11 || rep.Learn.Tasks != 1 || len(rep.Passes) != 4 || len(rep.Means) != 4 || len(rep.Seeds) != 1 ||
		rep.Passes[0].Seed != 12 || rep.Passes[1].Pass != "as-it-goes" || rep.Passes[3].Pass != "warm-independent" || rep.Passes[2].Tasks != 1 {
		t.Fatalf("report.json: %+v", rep)
	}
	seedRep, err := os.ReadFile(filepath.Join(out, "seed-12", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var warm struct {
		Tasks []struct {
			Phase        string
			Pass         bool
			FalseSuccess bool `json:"false_success"`
		}
	}
	if err := json.Unmarshal(seedRep, &warm); err != nil {
		t.Fatal(err)
	}
	lost := false
	for _, x := range warm.Tasks {
		if x.Phase == "warm" && !x.Pass {
			lost = true
		}
	}
	var row *struct {
		Task, Phase, Loss string
		Culprit           *struct {
			Kind, Name  string
			LearnedFrom string `json:"learned_from"`
		}
	}
	for i, m := range rep.Seeds[0].Misled {
		if m.Task == "TurnOffWifiAndTurnOnBluetooth-0" && m.Phase == "warm" {
			row = &rep.Seeds[0].Misled[i]
		}
	}
	switch {
	case lost && row == nil:
		t.Errorf("the warm pass lost the task and the table has no row for it: %+v", rep.Seeds[0].Misled)
	case lost && (row.Culprit == nil || (row.Culprit.Kind != "routine-end" && row.Culprit.Kind != "routine") ||
		row.Culprit.Name != "Turn off WiFi, then enable bluetooth" || row.Culprit.LearnedFrom != "TurnOffWifiAndTurnOnBluetooth-0"):
		t.Errorf("misled row %+v, want the routine learned from seed 11's TurnOffWifiAndTurnOnBluetooth-0", row)
	case !lost && row != nil:
		t.Errorf("the warm pass passed and the table lists it: %+v", row)
	case !lost:
		t.Log("the warm pass did not lose the task: the routine carries its precondition now; only the table's shape is checked")
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "# Learned on seed 11, evaluated on 1 other seed(s)") || !strings.Contains(string(md), "# Seed 12 (seed-12)") {
		t.Errorf("report.md:\n%s", md)
	}
	for _, bad := range [][]string{{"androidworld:sim", "--learn-seed", "12", "--seeds", "12"}, {"builtin:sim", "--learn-seed", "1"},
		{"androidworld:sim", "--learn-seed", "1", "--knowledge", "shared"}} {
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append([]string{"eval", bad[0], "--out", t.TempDir(), "--runs", t.TempDir()}, bad[1:]...))
		if err := root.ExecuteContext(t.Context()); !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "--learn-seed") {
			t.Errorf("%v: %v, want exit 2 naming --learn-seed", bad, err)
		}
	}
}

// TestEvalLearnSeedErrorsInLearn: with --model-errors-in learn, only the learning run on
// the learn seed errs; every pass of the evaluation seeds runs clean (knowledge learned at
// one error mix, evaluated clean).
func TestEvalLearnSeedErrorsInLearn(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs androidworld:sim four ways with errors in the learn pass end to end")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--learn-seed", "3", "--seed", "4", "--family", "SystemBrightnessMax",
		"--model-errors", "grounding=0.5", "--model-errors-in", "learn", "--out", out, "--runs", t.TempDir()})
	var ee *exitError
	if err := root.ExecuteContext(t.Context()); err != nil && (!errors.As(err, &ee) || ee.code != 1) {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var opts struct {
		Options struct {
			ModelErrors string `json:"model_errors"`
		}
		Tasks []struct {
			Phase          string
			InjectedErrors map[string]int `json:"injected_errors"`
		}
	}
	read := func(rel string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		opts.Options.ModelErrors, opts.Tasks = "", nil
		if err := json.Unmarshal(b, &opts); err != nil {
			t.Fatal(err)
		}
	}
	read("learn-seed-3/report.json")
	if opts.Options.ModelErrors != "grounding=0.5" {
		t.Errorf("the learning run's model errors = %q, want grounding=0.5", opts.Options.ModelErrors)
	}
	read("seed-4/report.json")
	if opts.Options.ModelErrors != "" || len(opts.Tasks) != 4 {
		t.Errorf("the evaluation seed's model errors = %q over %d runs, want none over 4", opts.Options.ModelErrors, len(opts.Tasks))
	}
	for _, x := range opts.Tasks {
		if len(x.InjectedErrors) > 0 {
			t.Errorf("%s pass had injected errors %v", x.Phase, x.InjectedErrors)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(md), "in the learning run on seed 3 only (every pass of the evaluation seeds ran clean)") {
		t.Errorf("report.md does not say where the errors were:\n%s", md)
	}
}
