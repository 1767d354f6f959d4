package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
)

// readSummary reads summary.json of the run directory the command printed.
func readSummary(t *testing.T, out string) (rundir.Summary, string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^run directory: (.+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no run directory in the output:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(m[1], "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s rundir.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s, m[1]
}

// TestDemo runs `fairy demo` as a person would, through the root command.
func TestDemo(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(nil))
	root.SetArgs([]string{"demo", "--runs", runs})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy demo: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	text := out.String()
	for _, want := range []string{"SIMULATED", "not a real model", "virtual Android phone", "✓ done",
		"When should the bubble tea arrive?", "↳ answer: 18:00", "payment needs your consent", "order needs your consent",
		"paid, delivery 18:00", `calendar: "Bubble tea delivery"`} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	sum, dir := readSummary(t, text)
	if !strings.HasPrefix(dir, runs) {
		t.Errorf("run directory %s is not under --runs %s", dir, runs)
	}
	if sum.Outcome != event.OutcomeDone || sum.Interactions != 3 || len(sum.Tasks) != 2 {
		t.Errorf("summary: outcome %s, %d interactions, %d tasks; want done, 3, 2", sum.Outcome, sum.Interactions, len(sum.Tasks))
	}
	if _, err := os.Stat(filepath.Join(dir, "trace.jsonl")); err != nil {
		t.Error(err)
	}
	t.Logf("demo: %d steps, %d model calls (%.2f critical per step), %.2fs", sum.Steps, sum.ModelCalls, sum.CriticalCallsPerStep, sum.WallSeconds)
}

// TestDemoState checks the virtual phone's state after the demo and that every rule of
// the script fired (a rule that never fires is dead script).
func TestDemoState(t *testing.T) {
	var out bytes.Buffer
	res, err := runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), TextOnly: true, Out: &out,
		Knowledge: filepath.Join(t.TempDir(), "knowledge.db")})
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	orders := res.Phone.Orders()
	if len(orders) != 1 || !orders[0].Paid || orders[0].DeliveryTime != "18:00" || len(orders[0].Items) != 1 || orders[0].Items[0].Name != "珍珠奶茶" {
		t.Errorf("orders = %+v, want one paid 珍珠奶茶 delivered at 18:00", orders)
	}
	found := false
	for _, e := range res.Phone.Events() {
		found = found || (e.Title == "Bubble tea delivery" && e.Time == "18:00")
	}
	if !found {
		t.Errorf("no 'Bubble tea delivery' event at 18:00 in %+v", res.Phone.Events())
	}
	if len(res.Asked) != 3 {
		t.Errorf("asked %d questions, want 3: %+v", len(res.Asked), res.Asked)
	}
	// Rules for unhappy paths are allowed to stay unused, and the routine rule fires only
	// on a run after the first (TestDemoLearnsAcrossRuns).
	spare := map[string]bool{"run the learned routine that fits": true, "adjust after a failed task": true, "consent unclear": true, "ask consent": true, "check failed": true, "learn nothing": true,
		"no rule for this instruction": true}
	for _, name := range res.Unused {
		if !spare[name] {
			t.Errorf("scripted rule %q never fired", name)
		}
	}
}

// TestDemoInteractive answers on stdin as a person at the terminal would, and says no to
// paying: the order stays unpaid and the run is refused.
func TestDemoInteractive(t *testing.T) {
	var out bytes.Buffer
	res, err := runDemo(t.Context(), demoOptions{RunsDir: t.TempDir(), Interactive: true, TextOnly: true,
		Stdin: strings.NewReader("3\nyes\nno\n"), Out: &out})
	var ee *exitError
	if err == nil || !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit status 1 (refused)\n%s", err, out.String())
	}
	if res.Summary.Outcome != event.OutcomeRefused {
		t.Errorf("outcome %s, want refused", res.Summary.Outcome)
	}
	orders := res.Phone.Orders()
	if len(orders) != 1 || orders[0].Paid || orders[0].DeliveryTime != "18:00" {
		t.Errorf("orders = %+v, want one unpaid order for 18:00 (option 3)", orders)
	}
	if !strings.Contains(out.String(), "Pay ¥15 from your balance") {
		t.Errorf("the payment question was not shown:\n%s", out.String())
	}
}

func TestDemoRulesParse(t *testing.T) {
	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scripted.NewServer(rules, scripted.Options{}); err != nil {
		t.Fatal(err)
	}
}
