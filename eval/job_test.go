package eval

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
)

// TestFailedCheckReason: a failing check's reason names the check, what it expected and
// what it saw, then how the run ended as context — not "check failed: setting … = 0;
// outcome is done.", which reads as if the outcome were the failure.
func TestFailedCheckReason(t *testing.T) {
	const doc = `
name: reasons
defaults:
  phone: {sim: {}}
  user: {scripted: {rules: [{pattern: "pay", reply: refuse}], consent: approve}}
tasks:
  - id: setting-only
    instruction: settings put global zen_mode 1
    checks:
      - setting: {name: global/zen_mode, equals: "2"}
  - id: setting-and-outcome
    instruction: "ask: Pay ¥15?; settings put global zen_mode 1"
    checks:
      - setting: {name: global/zen_mode, equals: "1"}
`
	s, err := suite.Parse([]byte(doc), "reasons.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(rep)
	for id, want := range map[string]string{
		"setting-only": "check failed — expected setting global/zen_mode = 2, saw global/zen_mode = 1. The run ended done.",
		"setting-and-outcome": "2 checks failed — expected setting global/zen_mode = 1, saw global/zen_mode = 0; expected outcome done, saw refused. " +
			"The run ended refused: the person said no.",
	} {
		if r := got[id]; r.Pass || r.Reason != want {
			t.Errorf("%s: pass %t, reason\n %q\nwant\n %q", id, r.Pass, r.Reason, want)
		}
	}
}

// settingsHeld is a check over the virtual phone's settings ("global/x" → value): as a
// CreditCheck it scores the fraction that hold; with collateral set it is a
// CollateralCheck (a change beyond what the task asks).
type settingsHeld struct {
	want       map[string]string
	collateral bool
}

func (c settingsHeld) Kind() string     { return "settings" }
func (c settingsHeld) Describe() string { return fmt.Sprintf("settings %v", c.want) }
func (c settingsHeld) Virtual() bool    { return true }
func (c settingsHeld) Collateral() bool { return c.collateral }

func (c settingsHeld) EvaluateCredit(_ context.Context, p suite.Probe) (float64, string, error) {
	held := 0
	var saw []string
	for _, k := range slices.Sorted(maps.Keys(c.want)) {
		v := p.Phone.Setting(k)
		if v == c.want[k] {
			held++
		}
		saw = append(saw, k+" = "+v)
	}
	return float64(held) / float64(len(c.want)), strings.Join(saw, ", "), nil
}

func (c settingsHeld) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	credit, ev, err := c.EvaluateCredit(ctx, p)
	return credit == 1, ev, err
}

// collateralOnly hides the credit of settingsHeld: a plain pass/fail collateral check.
type collateralOnly struct{ settingsHeld }

func (c collateralOnly) EvaluateCredit() {}

// TestCollateralCreditActions: a failed collateral check does not fail the task (no false
// success either) and its evidence is the run's collateral change, in report.md and
// report.html too; a
// credit check gives its fraction (a half-done composite fails with credit 0.5); the
// actions the run carried out are counted.
func TestCollateralCreditActions(t *testing.T) {
	const doc = `
name: collateral
defaults:
  phone: {sim: {}}
tasks:
  - id: collateral
    instruction: settings put global zen_mode 1
    checks:
      - setting: {name: global/zen_mode, equals: "1"}
  - id: credit
    instruction: settings put global zen_mode 1
    checks:
      - outcome: done
`
	s, err := suite.Parse([]byte(doc), "collateral.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The task asked for zen mode only; Wi-Fi is left on, so "Wi-Fi off" fails as a
	// collateral check (the task still passes) and half a credit check.
	s.Tasks[0].Checks = append(s.Tasks[0].Checks, suite.Check{Custom: collateralOnly{settingsHeld{want: map[string]string{"global/zen_mode": "1", "global/wifi_on": "0"}, collateral: true}}})
	s.Tasks[1].Checks = []suite.Check{{Custom: settingsHeld{want: map[string]string{"global/zen_mode": "1", "global/wifi_on": "0"}}}}
	out := t.TempDir()
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 1), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(rep)
	c := got["collateral"]
	if !c.Pass || c.FalseSuccess || len(c.Collateral) != 1 || !strings.Contains(c.Collateral[0], "global/wifi_on = 1") {
		t.Errorf("collateral: pass %t, false success %t, collateral %q (%s); want a pass with the Wi-Fi change reported", c.Pass, c.FalseSuccess, c.Collateral, c.Reason)
	}
	if c.Actions != 1 || c.Steps != 1 {
		t.Errorf("collateral: %d steps, %d actions; want 1 and 1 (the fake agent's one tap)", c.Steps, c.Actions)
	}
	if n := slices.IndexFunc(c.Checks, func(r suite.CheckResult) bool { return r.Collateral }); n < 0 || c.Checks[n].Pass || c.Checks[n].Credit != nil {
		t.Errorf("collateral: the collateral check's result is not marked collateral: %+v", c.Checks)
	}
	cr := got["credit"]
	if cr.Pass || !cr.FalseSuccess || cr.Checks[0].Credit == nil || *cr.Checks[0].Credit != 0.5 || len(cr.Collateral) != 0 {
		t.Errorf("credit: pass %t, false success %t, checks %+v; want a failure with credit 0.5", cr.Pass, cr.FalseSuccess, cr.Checks)
	}
	md, err := os.ReadFile(filepath.Join(out, reportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Collateral changes", "- collateral (", "global/wifi_on = 1", "| actions |", "❌ credit 0.50"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if page, err := os.ReadFile(filepath.Join(out, ReportHTML)); err != nil || !strings.Contains(string(page), "collateral change</td>") {
		t.Errorf("report.html does not mark the collateral check (%v)", err)
	}
}
