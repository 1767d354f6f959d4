package eval

import (
	"errors"
	"strings"
	"testing"
)

// TestSuiteUnknownKeys: an unknown key is named with the suite file, its line and the key
// meant, at every level of the format, and no Go type reaches the message ("field taks not
// found in type eval.Suite"); a value of the wrong kind says what is wanted, in words.
func TestSuiteUnknownKeys(t *testing.T) {
	const task = "  - id: a\n    instruction: x\n    phone: {sim: {}}\n    checks: [{outcome: done}]\n"
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"top level", "name: x\ntaks:\n" + task, []string{`suite.yaml line 2: unknown key "taks" (did you mean "tasks"?)`}},
		{"task", "tasks:\n" + task + "    instrucion: y\n", []string{`suite.yaml line 6: unknown key "instrucion" (did you mean "instruction"?)`}},
		{"check", "tasks:\n  - id: a\n    instruction: x\n    phone: {sim: {}}\n    checks:\n      - settting: {name: wifi_on, equals: '0'}\n",
			[]string{`suite.yaml line 6: unknown key "settting" (did you mean "setting"?)`}},
		{"defaults and sim phone", "defaults:\n  phone: {sim: {clok: '2023-10-15T15:34:00Z'}}\n  limit: {steps: 3}\ntasks:\n" + task,
			[]string{`suite.yaml line 2: unknown key "clok" (did you mean "clock"?)`, `suite.yaml line 3: unknown key "limit" (did you mean "limits"?)`}},
		{"walkthrough step", "tasks:\n" + task + "    walk:\n      - app: p\n        steps: [{screen: s, subgoal: g, doo: [Back]}]\n",
			[]string{`suite.yaml line 8: unknown key "doo" (did you mean "do"?)`}},
		{"scripted rule", "model:\n  - {role: decider, anser: '{}'}\ntasks:\n" + task, []string{`suite.yaml line 2: unknown key "anser" (did you mean "answer"?)`}},
		{"far from any key", "tasks:\n" + task + "    colour: red\n", []string{`suite.yaml line 6: unknown key "colour" (known keys here: checks, id, instruction,`}},
		{"wrong kind of value", "tasks:\n" + task + "    limits: {time: soon, steps: many}\n",
			[]string{`suite.yaml line 6: "soon" is not a duration (write it like 90s, 2m or 1h30m)`, `suite.yaml line 6: "many" is not a whole number`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseSuite([]byte(tt.doc), "suite.yaml")
			if !errors.Is(err, ErrSuite) {
				t.Fatalf("err = %v, want ErrSuite", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v\nwant it to say %s", err, w)
				}
			}
			for _, goType := range []string{"not found in type", "eval.", "time.Duration", "cannot unmarshal"} {
				if strings.Contains(err.Error(), goType) {
					t.Errorf("err = %v: names a Go type (%q)", err, goType)
				}
			}
		})
	}
}
