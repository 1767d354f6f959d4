package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestColdWarmReportsStepsAndTokens: with --cold-warm, report.json, report.md and
// report.html give steps and prompt tokens next to model calls, cold and warm, over all
// tasks, over the revisit tasks and per task; the older fields keep their meaning.
func TestColdWarmReportsStepsAndTokens(t *testing.T) {
	task := func(id string, pass, steps, calls, tokens int) TaskResult {
		phase := []string{"cold", "warm"}[pass]
		return TaskResult{ID: id, Pass: true, Outcome: "done", Steps: steps, ModelCalls: calls, PromptTokens: tokens, PassIndex: pass, Phase: phase}
	}
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &Report{Schema: reportSchema, Suite: "s", Started: start, Finished: start.Add(time.Minute), Options: RunOptions{ColdWarm: true},
		Tasks: []TaskResult{
			task("learn", 0, 6, 20, 6000), task("again", 0, 4, 10, 4000),
			task("learn", 1, 6, 16, 5000), task("again", 1, 2, 4, 1000),
		}}
	r.total([]float64{30, 20}, map[string]bool{"again": true})

	dir := t.TempDir()
	if err := r.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Totals struct {
			ColdWarm map[string]any `json:"cold_warm"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	cw := got.Totals.ColdWarm
	want := map[string]float64{"model_calls_reduction": 1.0 / 3, "steps_reduction": 0.2, "prompt_tokens_reduction": 0.4}
	for k, v := range want {
		if f, _ := cw[k].(float64); f < v-1e-9 || f > v+1e-9 {
			t.Errorf("cold_warm.%s = %v, want %v", k, cw[k], v)
		}
	}
	rv, _ := cw["revisit"].(map[string]any)
	for k, v := range map[string]float64{"cold_model_calls": 10, "warm_model_calls": 4, "reduction": 0.6, "cold_steps": 4, "warm_steps": 2,
		"steps_reduction": 0.5, "cold_prompt_tokens": 4000, "warm_prompt_tokens": 1000, "prompt_tokens_reduction": 0.75} {
		if f, _ := rv[k].(float64); f < v-1e-9 || f > v+1e-9 {
			t.Errorf("cold_warm.revisit.%s = %v, want %v", k, rv[k], v)
		}
	}
	per, _ := cw["per_task"].([]any)
	if len(per) != 2 {
		t.Fatalf("per_task = %v", cw["per_task"])
	}
	if p := per[1].(map[string]any); p["id"] != "again" || p["cold_steps"] != 4.0 || p["warm_steps"] != 2.0 ||
		p["cold_prompt_tokens"] != 4000.0 || p["warm_prompt_tokens"] != 1000.0 || p["cold_model_calls"] != 10.0 {
		t.Errorf("per_task[1] = %v", p)
	}

	md, err := os.ReadFile(filepath.Join(dir, reportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"| model calls, all tasks | 30 | 20 | 33% |", "| steps, all tasks | 10 | 8 | 20% |", "| prompt tokens, all tasks | 10000 | 6000 | 40% |",
		"| steps, 1 tasks tagged revisit | 4 | 2 | 50% |", "| prompt tokens, 1 tasks tagged revisit | 4000 | 1000 | 75% |",
		"| again | 10 → 4 | 4 → 2 | 4000 → 1000 |",
	} {
		if !strings.Contains(string(md), w) {
			t.Errorf("report.md lacks %q:\n%s", w, md)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, ReportHTML))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`id="coldwarm"`, "<th>steps, all tasks</th><td class=\"n\">10</td><td class=\"n\">8</td><td class=\"n\">20%</td>",
		"<th>prompt tokens, 1 tasks tagged revisit</th><td class=\"n\">4000</td><td class=\"n\">1000</td><td class=\"n\">75%</td>",
		`<td>again</td><td class="n">10 → 4</td><td class="n">4 → 2</td><td class="n">4000 → 1000</td>`} {
		if !strings.Contains(string(page), w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
}
