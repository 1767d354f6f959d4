package suite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteLimits: a suite file over MaxSuiteBytes, with more than MaxSuiteTasks tasks, or
// a task listing more than maxTaskItems checks is refused whole, with an error naming the
// limit; a suite just under the limits loads.
func TestSuiteLimits(t *testing.T) {
	task := func(i int) string {
		return fmt.Sprintf("  - {id: t%d, instruction: x, phone: {sim: {}}, checks: [{outcome: done}]}\n", i)
	}
	suite := func(n int) string {
		var b strings.Builder
		b.WriteString("name: big\ntasks:\n")
		for i := range n {
			b.WriteString(task(i))
		}
		return b.String()
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	body := suite(1) + "# " + strings.Repeat("x", MaxSuiteBytes) + "\n"
	if err := os.WriteFile(big, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), "larger than 4 MiB, the most a suite file may be") {
		t.Errorf("a %d-byte suite: %v, want an ErrSuite naming the 4 MiB limit", len(body), err)
	}
	if _, err := Parse([]byte(suite(MaxSuiteTasks)), "ok.yaml"); err != nil {
		t.Errorf("%d tasks: %v", MaxSuiteTasks, err)
	}
	_, err := Parse([]byte(suite(MaxSuiteTasks+1)), "many.yaml")
	if want := fmt.Sprintf("%d tasks, more than the %d a suite may hold", MaxSuiteTasks+1, MaxSuiteTasks); !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), want) {
		t.Errorf("%d tasks: %v, want an ErrSuite with %q", MaxSuiteTasks+1, err, want)
	}
	checks := "name: c\ntasks:\n  - id: t\n    instruction: x\n    phone: {sim: {}}\n    checks:\n" + strings.Repeat("      - {outcome: done}\n", maxTaskItems+1)
	_, err = Parse([]byte(checks), "checks.yaml")
	if want := fmt.Sprintf(`task "t": %d checks, more than the %d a task may list`, maxTaskItems+1, maxTaskItems); !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), want) {
		t.Errorf("%d checks: %v, want an ErrSuite with %q", maxTaskItems+1, err, want)
	}
	rules := "name: r\nmodel:\n" + strings.Repeat("  - {answer: x}\n", MaxSuiteRules+1) + "tasks:\n" + task(0)
	_, err = Parse([]byte(rules), "rules.yaml")
	if want := fmt.Sprintf("%d scripted model rules and walkthrough steps, more than the %d", MaxSuiteRules+1, MaxSuiteRules); !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), want) {
		t.Errorf("%d rules: %v, want an ErrSuite with %q", MaxSuiteRules+1, err, want)
	}
}

// TestSuiteSecondDocument: a suite file with a second YAML document is refused with the
// line it starts on; it was dropped without a word, its tasks never run.
func TestSuiteSecondDocument(t *testing.T) {
	one := "name: one\ntasks:\n  - {id: a, instruction: x, phone: {sim: {}}, checks: [{outcome: done}]}\n"
	if _, err := Parse([]byte(one+"---\n"), "trailing.yaml"); err != nil {
		t.Errorf("a document and an empty one after ---: %v", err)
	}
	two := one + "---\nname: two\ntasks:\n  - {id: b, instruction: y, phone: {sim: {}}, checks: [{outcome: done}]}\n"
	_, err := Parse([]byte(two), "two.yaml")
	if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), "two.yaml line 5: a second YAML document") {
		t.Errorf("two documents: %v, want an ErrSuite naming line 5", err)
	}
}
