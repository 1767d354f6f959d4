package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ReportSchema is the version of report.json's schema. Fields are only ever added.
const ReportSchema = 1

// Report is report.json. The schema (stable; fields are only added):
//
//	schema            int      ReportSchema
//	suite, source     string   suite name and where it was read from
//	started, finished RFC 3339 times
//	interrupted       bool     the evaluation was stopped (Ctrl-C) before every task ran
//	options           {parallel, repeat, knowledge, cold_warm}
//	devices           []string the serials the workers used
//	tasks[]           one entry per task run (TaskResult):
//	  id, instruction, tags
//	  pass            bool     every check and question assertion held and the run did not crash
//	  outcome         string   done | failed | refused | stopped | crashed | error | skipped
//	  reason          string   why it ended; for a failed check, which one
//	  steps, model_calls, model_calls_by_role, prompt_tokens, completion_tokens, cost, wall_seconds
//	  questions[]     {time, type, kind, text, options, answer, by}
//	  checks[]        {name, kind, pass, evidence}  (success checks, then question assertions)
//	  device          string   serial of the phone it ran on
//	  pass_index      int      0 (cold, or the only pass), 1 (warm) with --cold-warm
//	  phase           string   "cold" | "warm" | ""
//	  repeat          int      0-based repetition with --repeat
//	  run_dir         string   the task's run directory (trace.jsonl, screenshots, summary.json), relative to the report
//	  shortcuts       int      learned shortcuts the run replayed (from the trace)
//	totals            Totals:
//	  tasks, passed, failed, steps, model_calls, model_calls_by_role, prompt_tokens, completion_tokens, cost
//	  wall_seconds    number   elapsed wall time of the evaluation (of the pass for cold/warm)
//	  task_seconds    number   sum of the tasks' wall times
//	  cold, warm      Totals   with --cold-warm: the two passes
//	  cold_warm       with --cold-warm: {model_calls_reduction, steps_reduction, prompt_tokens_reduction,
//	                  revisit: {tasks[], cold_model_calls, warm_model_calls, reduction, cold_steps, warm_steps,
//	                  steps_reduction, cold_prompt_tokens, warm_prompt_tokens, prompt_tokens_reduction},
//	                  per_task[]: {id, cold_model_calls, warm_model_calls, reduction, cold_pass, warm_pass,
//	                  cold_steps, warm_steps, cold_prompt_tokens, warm_prompt_tokens}}
type Report struct {
	Schema      int          `json:"schema"`
	Suite       string       `json:"suite"`
	Source      string       `json:"source"`
	Started     time.Time    `json:"started"`
	Finished    time.Time    `json:"finished"`
	Interrupted bool         `json:"interrupted"`
	Options     RunOptions   `json:"options"`
	Devices     []string     `json:"devices"`
	Tasks       []TaskResult `json:"tasks"`
	Totals      Totals       `json:"totals"`
}

// RunOptions are the options an evaluation ran with.
type RunOptions struct {
	Parallel  int    `json:"parallel"`
	Repeat    int    `json:"repeat"`
	Knowledge string `json:"knowledge"`
	ColdWarm  bool   `json:"cold_warm"`
}

// TaskResult is one task run in the report.
type TaskResult struct {
	ID               string         `json:"id"`
	Instruction      string         `json:"instruction"`
	Tags             []string       `json:"tags,omitempty"`
	Pass             bool           `json:"pass"`
	Outcome          string         `json:"outcome"`
	Reason           string         `json:"reason"`
	Steps            int            `json:"steps"`
	ModelCalls       int            `json:"model_calls"`
	ModelCallsByRole map[string]int `json:"model_calls_by_role"`
	PromptTokens     int            `json:"prompt_tokens"`
	CompletionTokens int            `json:"completion_tokens"`
	Cost             float64        `json:"cost"`
	WallSeconds      float64        `json:"wall_seconds"`
	Questions        []Question     `json:"questions"`
	Checks           []CheckResult  `json:"checks"`
	Device           string         `json:"device"`
	PassIndex        int            `json:"pass_index"`
	Phase            string         `json:"phase,omitempty"`
	Repeat           int            `json:"repeat"`
	RunDir           string         `json:"run_dir"`
	Shortcuts        int            `json:"shortcuts"`
}

// Totals add up task results.
type Totals struct {
	Tasks            int            `json:"tasks"`
	Passed           int            `json:"passed"`
	Failed           int            `json:"failed"`
	Steps            int            `json:"steps"`
	ModelCalls       int            `json:"model_calls"`
	ModelCallsByRole map[string]int `json:"model_calls_by_role"`
	PromptTokens     int            `json:"prompt_tokens"`
	CompletionTokens int            `json:"completion_tokens"`
	Cost             float64        `json:"cost"`
	WallSeconds      float64        `json:"wall_seconds"`
	TaskSeconds      float64        `json:"task_seconds"`
	Cold             *Totals        `json:"cold,omitempty"`
	Warm             *Totals        `json:"warm,omitempty"`
	ColdWarm         *ColdWarm      `json:"cold_warm,omitempty"`
}

// ColdWarm compares the cold pass (empty knowledge) with the warm pass (what the cold pass
// learned).
type ColdWarm struct {
	// ModelCallsReduction is 1 − warm/cold model calls over all tasks.
	ModelCallsReduction float64 `json:"model_calls_reduction"`
	// StepsReduction and PromptTokensReduction are 1 − warm/cold steps and prompt tokens.
	StepsReduction        float64 `json:"steps_reduction"`
	PromptTokensReduction float64 `json:"prompt_tokens_reduction"`
	// Revisit compares the tasks tagged "revisit": tasks whose pages the cold pass learned.
	Revisit CallComparison   `json:"revisit"`
	PerTask []TaskComparison `json:"per_task"`
}

// CallComparison compares model calls (Reduction), steps and prompt tokens of a group of
// tasks.
type CallComparison struct {
	Tasks                 []string `json:"tasks"`
	ColdModelCalls        int      `json:"cold_model_calls"`
	WarmModelCalls        int      `json:"warm_model_calls"`
	Reduction             float64  `json:"reduction"`
	ColdSteps             int      `json:"cold_steps"`
	WarmSteps             int      `json:"warm_steps"`
	StepsReduction        float64  `json:"steps_reduction"`
	ColdPromptTokens      int      `json:"cold_prompt_tokens"`
	WarmPromptTokens      int      `json:"warm_prompt_tokens"`
	PromptTokensReduction float64  `json:"prompt_tokens_reduction"`
}

// TaskComparison compares one task's passes.
type TaskComparison struct {
	ID               string  `json:"id"`
	ColdModelCalls   int     `json:"cold_model_calls"`
	WarmModelCalls   int     `json:"warm_model_calls"`
	Reduction        float64 `json:"reduction"`
	ColdPass         bool    `json:"cold_pass"`
	WarmPass         bool    `json:"warm_pass"`
	ColdSteps        int     `json:"cold_steps"`
	WarmSteps        int     `json:"warm_steps"`
	ColdPromptTokens int     `json:"cold_prompt_tokens"`
	WarmPromptTokens int     `json:"warm_prompt_tokens"`
}

// RevisitTag marks tasks that revisit pages an earlier task of the suite learned.
const RevisitTag = "revisit"

func addTo(t *Totals, r TaskResult) {
	t.Tasks++
	if r.Pass {
		t.Passed++
	} else {
		t.Failed++
	}
	t.Steps += r.Steps
	t.ModelCalls += r.ModelCalls
	if t.ModelCallsByRole == nil {
		t.ModelCallsByRole = map[string]int{}
	}
	for k, v := range r.ModelCallsByRole {
		t.ModelCallsByRole[k] += v
	}
	t.PromptTokens += r.PromptTokens
	t.CompletionTokens += r.CompletionTokens
	t.Cost += r.Cost
	t.TaskSeconds += r.WallSeconds
}

func reduction(cold, warm int) float64 {
	if cold == 0 {
		return 0
	}
	return 1 - float64(warm)/float64(cold)
}

// total computes the report's totals; passWall are the wall seconds of each pass.
func (r *Report) total(passWall []float64, revisit map[string]bool) {
	t := Totals{ModelCallsByRole: map[string]int{}}
	for _, x := range r.Tasks {
		addTo(&t, x)
	}
	t.WallSeconds = r.Finished.Sub(r.Started).Seconds()
	if r.Options.ColdWarm {
		cold, warm := &Totals{ModelCallsByRole: map[string]int{}}, &Totals{ModelCallsByRole: map[string]int{}}
		type pair struct {
			cold, warm             int
			coldSteps, warmSteps   int
			coldTokens, warmTokens int
			coldPass, warmPass     bool
			coldN, warmN           int
		}
		per := map[string]*pair{}
		var order []string
		for _, x := range r.Tasks {
			p := per[x.ID]
			if p == nil {
				p = &pair{coldPass: true, warmPass: true}
				per[x.ID] = p
				order = append(order, x.ID)
			}
			if x.PassIndex == 0 {
				addTo(cold, x)
				p.cold += x.ModelCalls
				p.coldSteps += x.Steps
				p.coldTokens += x.PromptTokens
				p.coldPass = p.coldPass && x.Pass
				p.coldN++
			} else {
				addTo(warm, x)
				p.warm += x.ModelCalls
				p.warmSteps += x.Steps
				p.warmTokens += x.PromptTokens
				p.warmPass = p.warmPass && x.Pass
				p.warmN++
			}
		}
		if len(passWall) > 0 {
			cold.WallSeconds = passWall[0]
		}
		if len(passWall) > 1 {
			warm.WallSeconds = passWall[1]
		}
		cw := &ColdWarm{ModelCallsReduction: reduction(cold.ModelCalls, warm.ModelCalls), StepsReduction: reduction(cold.Steps, warm.Steps),
			PromptTokensReduction: reduction(cold.PromptTokens, warm.PromptTokens), Revisit: CallComparison{Tasks: []string{}}, PerTask: []TaskComparison{}}
		for _, id := range order {
			p := per[id]
			if p.coldN == 0 || p.warmN == 0 {
				continue // only tasks both passes finished compare
			}
			cw.PerTask = append(cw.PerTask, TaskComparison{ID: id, ColdModelCalls: p.cold, WarmModelCalls: p.warm,
				Reduction: reduction(p.cold, p.warm), ColdPass: p.coldPass, WarmPass: p.warmPass,
				ColdSteps: p.coldSteps, WarmSteps: p.warmSteps, ColdPromptTokens: p.coldTokens, WarmPromptTokens: p.warmTokens})
			if revisit[id] {
				rv := &cw.Revisit
				rv.Tasks = append(rv.Tasks, id)
				rv.ColdModelCalls += p.cold
				rv.WarmModelCalls += p.warm
				rv.ColdSteps += p.coldSteps
				rv.WarmSteps += p.warmSteps
				rv.ColdPromptTokens += p.coldTokens
				rv.WarmPromptTokens += p.warmTokens
			}
		}
		rv := &cw.Revisit
		rv.Reduction = reduction(rv.ColdModelCalls, rv.WarmModelCalls)
		rv.StepsReduction = reduction(rv.ColdSteps, rv.WarmSteps)
		rv.PromptTokensReduction = reduction(rv.ColdPromptTokens, rv.WarmPromptTokens)
		t.Cold, t.Warm, t.ColdWarm = cold, warm, cw
	}
	r.Totals = t
}

// sortTasks orders results by pass, task order in the suite, repeat.
func (r *Report) sortTasks(order map[string]int) {
	sort.SliceStable(r.Tasks, func(i, j int) bool {
		a, b := r.Tasks[i], r.Tasks[j]
		if a.PassIndex != b.PassIndex {
			return a.PassIndex < b.PassIndex
		}
		if order[a.ID] != order[b.ID] {
			return order[a.ID] < order[b.ID]
		}
		return a.Repeat < b.Repeat
	})
}

// Report file names in the output directory.
const (
	ReportJSON = "report.json"
	ReportMD   = "report.md"
	ReportHTML = "report.html"
)

// WriteFiles writes report.json, report.md and report.html into dir; the run directories
// named by the tasks are read (relative to dir) for the HTML trajectories.
func (r *Report) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("eval: write report: %w", err)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("eval: encode report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportJSON), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("eval: write report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportMD), []byte(r.Markdown()), 0o644); err != nil {
		return fmt.Errorf("eval: write report: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, ReportHTML))
	if err != nil {
		return fmt.Errorf("eval: write report: %w", err)
	}
	if err := r.HTML(f, dir); err != nil {
		f.Close()
		return fmt.Errorf("eval: write html report: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("eval: write html report: %w", err)
	}
	return nil
}

// ReadReport reads a report.json.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("eval: read report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("eval: read report %s: %w", path, err)
	}
	return &r, nil
}

func pct(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) }

// Markdown renders the report as report.md.
func (r *Report) Markdown() string {
	var b strings.Builder
	t := r.Totals
	fmt.Fprintf(&b, "# Evaluation of %s\n\n", r.Suite)
	fmt.Fprintf(&b, "%s · %d device(s): %s · parallel %d · repeat %d · knowledge %s",
		r.Started.Format(time.RFC3339), len(r.Devices), strings.Join(r.Devices, ", "), r.Options.Parallel, r.Options.Repeat, r.Options.Knowledge)
	if r.Options.ColdWarm {
		b.WriteString(" · cold/warm")
	}
	b.WriteString("\n\n")
	if r.Interrupted {
		b.WriteString("**Interrupted**: only the tasks that finished are reported.\n\n")
	}
	b.WriteString("| | tasks | passed | steps | model calls | prompt tokens | completion tokens | cost | wall s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, x *Totals) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | $%.4f | %.1f |\n", name, x.Tasks, x.Passed, x.Steps, x.ModelCalls, x.PromptTokens, x.CompletionTokens, x.Cost, x.WallSeconds)
	}
	row("total", &t)
	if t.Cold != nil {
		row("cold", t.Cold)
	}
	if t.Warm != nil {
		row("warm", t.Warm)
	}
	if cw := t.ColdWarm; cw != nil {
		fmt.Fprintf(&b, "\nWarm vs cold model calls: %s fewer over all tasks; %s fewer on the %d tasks tagged %q (%d → %d).\n",
			pct(cw.ModelCallsReduction), pct(cw.Revisit.Reduction), len(cw.Revisit.Tasks), RevisitTag, cw.Revisit.ColdModelCalls, cw.Revisit.WarmModelCalls)
		b.WriteString("\n## Cold vs warm\n\n| | cold | warm | fewer |\n|---|---:|---:|---:|\n")
		for _, c := range cwRows(t) {
			fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", c.Name, c.Cold, c.Warm, pct(c.Reduction))
		}
		b.WriteString("\n| task | model calls cold → warm | steps cold → warm | prompt tokens cold → warm |\n|---|---:|---:|---:|\n")
		for _, x := range cw.PerTask {
			fmt.Fprintf(&b, "| %s | %d → %d | %d → %d | %d → %d |\n", x.ID, x.ColdModelCalls, x.WarmModelCalls, x.ColdSteps, x.WarmSteps, x.ColdPromptTokens, x.WarmPromptTokens)
		}
	}
	b.WriteString("\n## Tasks\n\n| task | phase | device | pass | outcome | steps | model calls | questions | wall s | reason |\n|---|---|---|---|---|---:|---:|---:|---:|---|\n")
	for _, x := range r.Tasks {
		mark := "✅"
		if !x.Pass {
			mark = "❌"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %d | %d | %.1f | %s |\n", x.ID, phaseName(x), x.Device, mark, x.Outcome,
			x.Steps, x.ModelCalls, len(x.Questions), x.WallSeconds, mdEscape(clip(x.Reason, 120)))
	}
	var failed []TaskResult
	for _, x := range r.Tasks {
		if !x.Pass {
			failed = append(failed, x)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n## Failures\n")
		for _, x := range failed {
			fmt.Fprintf(&b, "\n### %s (%s)\n\n%s — %s\n\n", x.ID, phaseName(x), x.Outcome, x.Reason)
			for _, c := range x.Checks {
				mark := "✅"
				if !c.Pass {
					mark = "❌"
				}
				fmt.Fprintf(&b, "- %s %s: %s\n", mark, c.Name, mdEscape(clip(c.Evidence, 400)))
			}
			fmt.Fprintf(&b, "\nRun directory: `%s`\n", x.RunDir)
		}
	}
	return b.String()
}

// cwRow is one figure of the cold/warm comparison: its cold and warm value and the
// reduction.
type cwRow struct {
	Name       string
	Cold, Warm int
	Reduction  float64
}

// cwRows lists model calls, steps and prompt tokens, cold and warm, over all tasks (the
// pass totals) and over the tasks tagged revisit; nil without a cold/warm comparison.
func cwRows(t Totals) []cwRow {
	cw := t.ColdWarm
	if cw == nil {
		return nil
	}
	var rows []cwRow
	if t.Cold != nil && t.Warm != nil {
		rows = append(rows,
			cwRow{"model calls, all tasks", t.Cold.ModelCalls, t.Warm.ModelCalls, cw.ModelCallsReduction},
			cwRow{"steps, all tasks", t.Cold.Steps, t.Warm.Steps, cw.StepsReduction},
			cwRow{"prompt tokens, all tasks", t.Cold.PromptTokens, t.Warm.PromptTokens, cw.PromptTokensReduction})
	}
	rv := cw.Revisit
	tag := fmt.Sprintf("%d tasks tagged %s", len(rv.Tasks), RevisitTag)
	return append(rows,
		cwRow{"model calls, " + tag, rv.ColdModelCalls, rv.WarmModelCalls, rv.Reduction},
		cwRow{"steps, " + tag, rv.ColdSteps, rv.WarmSteps, rv.StepsReduction},
		cwRow{"prompt tokens, " + tag, rv.ColdPromptTokens, rv.WarmPromptTokens, rv.PromptTokensReduction})
}

func phaseName(x TaskResult) string {
	s := x.Phase
	if s == "" {
		s = "—"
	}
	if x.Repeat > 0 {
		s += fmt.Sprintf(" #%d", x.Repeat+1)
	}
	return s
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
