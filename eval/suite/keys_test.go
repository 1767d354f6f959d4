package suite

import (
	"errors"
	"strings"
	"testing"
)

// TestSuiteUnknownKeys: an unknown key is named with the suite file, its line and the key
// meant, at every level of the format, and no Go type reaches the message ("field taks not
// found in type suite.Suite"); a value of the wrong kind says what is wanted, in words.
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
			_, err := Parse([]byte(tt.doc), "suite.yaml")
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

// TestPlainTypeError: what yaml.v3 says in Go's terms is said in the suite's.
func TestPlainTypeError(t *testing.T) {
	for msg, want := range map[string]string{
		"line 2: field taks not found in type suite.Suite":         `s.yaml line 2: unknown key "taks"`,
		"line 7: cannot unmarshal !!str `soon` into time.Duration": `s.yaml line 7: "soon" is not a duration (write it like 90s, 2m or 1h30m)`,
		"line 3: cannot unmarshal !!map into []*eval.Task":         `s.yaml line 3: a section (key: value) is not a list`,
		"line 4: cannot unmarshal !!seq into eval.Phone":           `s.yaml line 4: a list is not a section (key: value)`,
		"line 5: cannot unmarshal !!str `yes please` into bool":    `s.yaml line 5: "yes please" is not true or false`,
		"line 6: cannot unmarshal !!str `x` into float64":          `s.yaml line 6: "x" is not a number`,
		"line 8: something else":                                   `s.yaml line 8: something else`,
	} {
		if got := plainTypeError("s.yaml", msg); got != want {
			t.Errorf("%q:\n got %q\nwant %q", msg, got, want)
		}
	}
}
