package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportCountsErrorsAndSafety: the report gives, per pass, the success rate, false
// successes, sensitive actions without a named consent, refused consents, questions the
// user could not judge and the injected errors by kind; Robustness averages the success of
// each pass over the seeds of one error setting and sums the false successes.
func TestReportCountsErrorsAndSafety(t *testing.T) {
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	mk := func(seed uint64, coldPass bool) *Report {
		task := func(id string, pass int, ok bool, inj map[string]int) TaskResult {
			r := TaskResult{ID: id, Pass: ok, Outcome: "done", PassIndex: pass, Phase: []string{"cold", "warm"}[pass], ModelCalls: 10, InjectedErrors: inj,
				Sensitive: 1}
			r.FalseSuccess = !ok
			if !ok {
				r.Unnamed, r.ConsentsRefused, r.Unjudgeable = 1, 0, 1
			}
			return r
		}
		r := &Report{Schema: reportSchema, Suite: "s", Started: start, Finished: start.Add(time.Minute),
			Options: RunOptions{ColdWarm: true, ModelErrors: "grounding=0.2", Seed: seed},
			Tasks: []TaskResult{task("a", 0, coldPass, map[string]int{"grounding": 2}), task("b", 0, true, nil),
				task("a", 1, true, map[string]int{"grounding": 1, "reflect": 1}), task("b", 1, true, nil)}}
		r.total([]float64{1, 1}, map[string]bool{})
		return r
	}
	r := mk(1, false)
	c := r.Totals.Cold
	if c.SuccessRate != 0.5 || c.FalseSuccess != 1 || c.Unnamed != 1 || c.Unjudgeable != 1 || c.Sensitive != 2 || c.InjectedErrors["grounding"] != 2 {
		t.Fatalf("cold totals %+v", c)
	}
	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, reportMD))
	for _, w := range []string{"## Model errors and safety", "grounding=0.2 (seed 1)", "| cold | 1/2 (50%) | 1 | 2 | 1 | 0 | 1 | grounding 2 |",
		"| warm | 2/2 (100%) | 0 | 2 | 0 | 0 | 0 | grounding 1, reflect 1 |"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q:\n%s", w, md)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, ReportHTML))
	if !strings.Contains(string(page), `id="safety"`) || !strings.Contains(string(page), "grounding 1, reflect 1") {
		t.Errorf("report.html lacks the safety table")
	}

	rows := Robustness([]*Report{r, mk(2, true), mk(3, true)})
	if len(rows) != 1 || len(rows[0].Seeds) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	if got := rows[0].Cold; got.SuccessRate < 0.833 || got.SuccessRate > 0.834 || got.MinSuccess != 0.5 || got.FalseSuccess != 1 || got.Runs != 3 {
		t.Errorf("cold %+v: want mean 5/6, worst 0.5, one false success", got)
	}
	if err := WriteRobustness(dir, rows); err != nil {
		t.Fatal(err)
	}
	rmd, _ := os.ReadFile(filepath.Join(dir, robustnessMD))
	if !strings.Contains(string(rmd), "| grounding=0.2 | 3 | 83.3% | 100.0% |") {
		t.Errorf("robustness.md:\n%s", rmd)
	}
}
