package eval

import (
	"testing"
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
	s, err := parseSuite([]byte(doc), "reasons.yaml")
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
