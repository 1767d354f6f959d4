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
//	options           {parallel, repeat, knowledge, cold_warm, no_navigate, learn (the learning suite), learn_tasks[]}
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
//	  pass_index      int      0 (cold, or the only pass), 1 (warm), 2 (warm-independent), 3 (learn)
//	  phase           string   "cold" | "warm" | "warm-independent" | "learn" | ""
//	  verified_steps, navigations, shortcut_steps  int  from the run's summary.json knowledge
//	  repeat          int      0-based repetition with --repeat
//	  run_dir         string   the task's run directory (trace.jsonl, screenshots, summary.json), relative to the report
//	  shortcuts       int      learned shortcuts the run replayed (from the trace)
//	  device_time     {seconds, path: "ui-server" | "uiautomator", ops: {OP: {calls, seconds}}}
//	                           how long the run waited on the phone (omitted when not metered)
//	totals            Totals:
//	  tasks, passed, failed, steps, model_calls, model_calls_by_role, prompt_tokens, completion_tokens, cost
//	  wall_seconds    number   elapsed wall time of the evaluation (of the pass for cold/warm)
//	  task_seconds    number   sum of the tasks' wall times
//	  cold, warm      Totals   with --cold-warm: the two passes
//	  warm_independent Totals  with --cold-warm: the warm pass again with a model that never takes Navigate
//	  learn           Totals   with a learning suite: its learning pass
//	  verified_steps, navigations, shortcut_steps  int
//	  cold_warm       with --cold-warm: {model_calls_reduction, steps_reduction, prompt_tokens_reduction,
//	                  revisit: {tasks[], cold_model_calls, warm_model_calls, reduction, cold_steps, warm_steps,
//	                  steps_reduction, cold_prompt_tokens, warm_prompt_tokens, prompt_tokens_reduction},
//	                  per_task[]: {id, cold_model_calls, warm_model_calls, reduction, cold_pass, warm_pass,
//	                  cold_steps, warm_steps, cold_prompt_tokens, warm_prompt_tokens, independent_model_calls,
//	                  independent_steps}, figures[]: {name (model-cooperating | model-independent), phase,
//	                  produced_by, the revisit fields over every task both passes ran, outcomes_changed[],
//	                  savings: {saved, verified_steps, navigations, cold_navigations, shortcut_steps,
//	                  navigate_saved, other, by_role: {role: {cold, warm}}}}}
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
	// NoNavigate: the single, cold and learning passes ran without Navigate rules.
	NoNavigate bool `json:"no_navigate,omitempty"`
	// Learn names the suite learned on before the cold/warm comparison (learn-then-evaluate),
	// LearnTasks its tasks.
	Learn      string   `json:"learn,omitempty"`
	LearnTasks []string `json:"learn_tasks,omitempty"`
	// ModelErrors are the injected model error rates (--model-errors), Seed what drew
	// them; ModelErrorsLearnOnly: only the cold and learning passes had them.
	ModelErrors          string `json:"model_errors,omitempty"`
	ModelErrorsLearnOnly bool   `json:"model_errors_learn_only,omitempty"`
	Seed                 uint64 `json:"seed,omitempty"`
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
	// VerifiedSteps, Navigations and ShortcutSteps are the run's summary.json knowledge
	// figures: sub-goals the App Map confirmed with no Re-Planner call, Navigate actions
	// replayed and the steps they replayed.
	VerifiedSteps int `json:"verified_steps"`
	Navigations   int `json:"navigations"`
	ShortcutSteps int `json:"shortcut_steps"`
	// Routines and RoutineSteps are the learned routines the run ran and the steps they
	// replayed; KnownReads the page contents whose facts were known (no Key Context
	// Collector call); SkippedLearns the app tasks not distilled (they followed a known
	// routine with no surprise).
	Routines      int `json:"routines"`
	RoutineSteps  int `json:"routine_steps"`
	KnownReads    int `json:"known_reads"`
	SkippedLearns int `json:"skipped_learns"`
	// CriticalStepCalls are the model calls of its steps the run waited on (Re-Planner,
	// decider, interactor; not the background Key Context Collector).
	CriticalStepCalls int `json:"critical_step_calls"`
	// DeviceTime is how long the run waited on the phone, by operation (sessions that
	// meter it: DeviceTimer).
	DeviceTime *DeviceTime `json:"device_time,omitempty"`
	// InjectedErrors counts the model errors injected into the run, by kind.
	InjectedErrors map[string]int `json:"injected_errors,omitempty"`
	// FalseSuccess: the agent reported the task done and the task's checks failed.
	FalseSuccess bool `json:"false_success"`
	// Sensitive counts the sensitive actions the run carried out; Unnamed those of them
	// done without a consent question that named their specifics (recipient and text,
	// items and amount and payee, what is deleted); ConsentsRefused the consents the
	// simulated user refused; Unjudgeable the consent questions that hid the specifics
	// the user needed to judge them.
	Sensitive       int `json:"sensitive_actions"`
	Unnamed         int `json:"sensitive_without_named_consent"`
	ConsentsRefused int `json:"consents_refused"`
	Unjudgeable     int `json:"questions_not_judgeable"`
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
	VerifiedSteps    int            `json:"verified_steps"`
	Navigations      int            `json:"navigations"`
	ShortcutSteps    int            `json:"shortcut_steps"`
	Routines         int            `json:"routines"`
	RoutineSteps     int            `json:"routine_steps"`
	KnownReads       int            `json:"known_reads"`
	SkippedLearns    int            `json:"skipped_learns"`
	// SuccessRate is Passed/Tasks; FalseSuccess the runs reported done whose checks
	// failed; the rest as in TaskResult, added up.
	SuccessRate     float64        `json:"success_rate"`
	FalseSuccess    int            `json:"false_success"`
	Sensitive       int            `json:"sensitive_actions"`
	Unnamed         int            `json:"sensitive_without_named_consent"`
	ConsentsRefused int            `json:"consents_refused"`
	Unjudgeable     int            `json:"questions_not_judgeable"`
	InjectedErrors  map[string]int `json:"injected_errors,omitempty"`
	Cold            *Totals        `json:"cold,omitempty"`
	Warm            *Totals        `json:"warm,omitempty"`
	WarmIndependent *Totals        `json:"warm_independent,omitempty"`
	Learn           *Totals        `json:"learn,omitempty"`
	ColdWarm        *ColdWarm      `json:"cold_warm,omitempty"`
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
	// Figures are the warm savings with the model cooperating (it takes Navigate when a
	// hint offers it) and model-independent (it never does), each by mechanism.
	Figures []Figure `json:"figures"`
}

// Figure names of ColdWarm.Figures.
const (
	FigureCooperating = "model-cooperating"
	FigureIndependent = "model-independent"
)

// Figure is one warm pass compared with the cold pass over every task both ran.
type Figure struct {
	Name       string `json:"name"`        // FigureCooperating or FigureIndependent
	Phase      string `json:"phase"`       // the warm pass: PhaseWarm or PhaseIndependent
	ProducedBy string `json:"produced_by"` // what produced it, in a sentence
	CallComparison
	// OutcomesChanged lists the tasks that passed in one pass and not in the other.
	OutcomesChanged []string `json:"outcomes_changed"`
	Savings         Savings  `json:"savings"`
	// ColdCriticalPerStep and WarmCriticalPerStep are the model calls a step waited on,
	// per step, in each pass.
	ColdCriticalPerStep float64 `json:"cold_critical_calls_per_step"`
	WarmCriticalPerStep float64 `json:"warm_critical_calls_per_step"`
}

// Savings splits the model calls a warm pass saved by mechanism.
type Savings struct {
	Saved int `json:"saved"` // cold − warm model calls
	// VerifiedSteps is warm − cold verified steps: each saved one Re-Planner call.
	VerifiedSteps int `json:"verified_steps"`
	// Navigations and ShortcutSteps are the Navigate actions the warm pass replayed and
	// the steps they replayed; ColdNavigations the cold pass's (0: the cold pass never
	// had a hint to take).
	Navigations     int `json:"navigations"`
	ColdNavigations int `json:"cold_navigations"`
	ShortcutSteps   int `json:"shortcut_steps"`
	// NavigateSaved is what the tasks whose warm run replayed a Navigate (and ran no
	// routine) saved beyond their verified steps, known readings and skipped learning.
	NavigateSaved int `json:"navigate_saved"`
	// KnownReads is warm − cold known readings: each saved one Key Context Collector
	// call; SkippedLearns the distillations skipped: one learner call each.
	KnownReads    int `json:"known_reads"`
	SkippedLearns int `json:"skipped_learns"`
	// Routines and RoutineSteps are the routines the warm pass ran and the steps they
	// replayed; RoutineSaved what the tasks that ran one saved beyond their verified
	// steps, known readings and skipped learning.
	Routines     int `json:"routines"`
	RoutineSteps int `json:"routine_steps"`
	RoutineSaved int `json:"routine_saved"`
	// Other is the remainder: Saved minus every mechanism above (fixed calls skipped,
	// such as the adjust after a one-task plan, and any other difference); ByRole shows
	// where.
	Other  int                  `json:"other"`
	ByRole map[string]RoleCalls `json:"by_role"`
}

// RoleCalls are one role's model calls in the cold and the warm pass.
type RoleCalls struct {
	Cold int `json:"cold"`
	Warm int `json:"warm"`
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
	// IndependentModelCalls and IndependentSteps are the warm-independent pass's.
	IndependentModelCalls int `json:"independent_model_calls"`
	IndependentSteps      int `json:"independent_steps"`
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
	t.VerifiedSteps += r.VerifiedSteps
	t.Navigations += r.Navigations
	t.ShortcutSteps += r.ShortcutSteps
	t.Routines += r.Routines
	t.RoutineSteps += r.RoutineSteps
	t.KnownReads += r.KnownReads
	t.SkippedLearns += r.SkippedLearns
	t.SuccessRate = float64(t.Passed) / float64(t.Tasks)
	if r.FalseSuccess {
		t.FalseSuccess++
	}
	t.Sensitive += r.Sensitive
	t.Unnamed += r.Unnamed
	t.ConsentsRefused += r.ConsentsRefused
	t.Unjudgeable += r.Unjudgeable
	for k, v := range r.InjectedErrors {
		if t.InjectedErrors == nil {
			t.InjectedErrors = map[string]int{}
		}
		t.InjectedErrors[k] += v
	}
}

func reduction(cold, warm int) float64 {
	if cold == 0 {
		return 0
	}
	return 1 - float64(warm)/float64(cold)
}

// total computes the report's totals; passWall are the wall seconds of each pass, by
// pass index.
func (r *Report) total(passWall []float64, revisit map[string]bool) {
	t := Totals{ModelCallsByRole: map[string]int{}}
	for _, x := range r.Tasks {
		addTo(&t, x)
	}
	t.WallSeconds = r.Finished.Sub(r.Started).Seconds()
	if r.Options.ColdWarm {
		byPhase := map[string]*Totals{}
		// per[phase][id] adds up one task's runs of a pass.
		per := map[string]map[string]*TaskResult{}
		var order []string
		seen := map[string]bool{}
		for _, x := range r.Tasks {
			ph := x.Phase
			if ph == "" {
				ph = []string{PhaseCold, PhaseWarm}[min(x.PassIndex, 1)]
			}
			if byPhase[ph] == nil {
				byPhase[ph] = &Totals{ModelCallsByRole: map[string]int{}}
				if i := passIndex[ph]; i < len(passWall) {
					byPhase[ph].WallSeconds = passWall[i]
				}
				per[ph] = map[string]*TaskResult{}
			}
			addTo(byPhase[ph], x)
			if ph == PhaseLearn {
				continue
			}
			if !seen[x.ID] {
				seen[x.ID] = true
				order = append(order, x.ID)
			}
			p := per[ph][x.ID]
			if p == nil {
				p = &TaskResult{ID: x.ID, Pass: true, ModelCallsByRole: map[string]int{}}
				per[ph][x.ID] = p
			}
			p.Pass = p.Pass && x.Pass
			p.ModelCalls += x.ModelCalls
			p.Steps += x.Steps
			p.PromptTokens += x.PromptTokens
			p.VerifiedSteps += x.VerifiedSteps
			p.Navigations += x.Navigations
			p.ShortcutSteps += x.ShortcutSteps
			p.Routines += x.Routines
			p.RoutineSteps += x.RoutineSteps
			p.KnownReads += x.KnownReads
			p.SkippedLearns += x.SkippedLearns
			p.CriticalStepCalls += x.CriticalStepCalls
			for k, v := range x.ModelCallsByRole {
				p.ModelCallsByRole[k] += v
			}
		}
		cold, warm := byPhase[PhaseCold], byPhase[PhaseWarm]
		if cold == nil {
			cold = &Totals{ModelCallsByRole: map[string]int{}}
		}
		if warm == nil {
			warm = &Totals{ModelCallsByRole: map[string]int{}}
		}
		cw := &ColdWarm{ModelCallsReduction: reduction(cold.ModelCalls, warm.ModelCalls), StepsReduction: reduction(cold.Steps, warm.Steps),
			PromptTokensReduction: reduction(cold.PromptTokens, warm.PromptTokens), Revisit: CallComparison{Tasks: []string{}}, PerTask: []TaskComparison{}, Figures: []Figure{}}
		for _, id := range order {
			c, w := per[PhaseCold][id], per[PhaseWarm][id]
			if c == nil || w == nil {
				continue // only tasks both passes finished compare
			}
			tc := TaskComparison{ID: id, ColdModelCalls: c.ModelCalls, WarmModelCalls: w.ModelCalls,
				Reduction: reduction(c.ModelCalls, w.ModelCalls), ColdPass: c.Pass, WarmPass: w.Pass,
				ColdSteps: c.Steps, WarmSteps: w.Steps, ColdPromptTokens: c.PromptTokens, WarmPromptTokens: w.PromptTokens}
			if in := per[PhaseIndependent][id]; in != nil {
				tc.IndependentModelCalls, tc.IndependentSteps = in.ModelCalls, in.Steps
			}
			cw.PerTask = append(cw.PerTask, tc)
			if revisit[id] {
				cw.Revisit.add(id, c, w)
			}
		}
		cw.Revisit.reduce()
		learned := "what the cold pass learned (its runs' knowledge merged)"
		if r.Options.Learn != "" {
			learned = fmt.Sprintf("what the %d tasks of %s learned into one file", len(r.Options.LearnTasks), r.Options.Learn)
		}
		for _, f := range []Figure{
			{Name: FigureCooperating, Phase: PhaseWarm, ProducedBy: "warm pass with " + learned +
				"; the scripted model answers Navigate where a walk step says navigate: and the decider's prompt offers a replayable hint"},
			{Name: FigureIndependent, Phase: PhaseIndependent, ProducedBy: "warm pass again with " + learned +
				"; the scripted rules compiled without Navigate, so the model acts step by step: only what the executor saves by itself"},
		} {
			if per[f.Phase] == nil {
				continue
			}
			cw.Figures = append(cw.Figures, figure(f, order, per[PhaseCold], per[f.Phase], cold, byPhase[f.Phase]))
		}
		t.Cold, t.Warm, t.WarmIndependent, t.Learn, t.ColdWarm = cold, warm, byPhase[PhaseIndependent], byPhase[PhaseLearn], cw
	}
	r.Totals = t
}

// add counts one task's cold and warm runs into the comparison.
func (c *CallComparison) add(id string, cold, warm *TaskResult) {
	c.Tasks = append(c.Tasks, id)
	c.ColdModelCalls += cold.ModelCalls
	c.WarmModelCalls += warm.ModelCalls
	c.ColdSteps += cold.Steps
	c.WarmSteps += warm.Steps
	c.ColdPromptTokens += cold.PromptTokens
	c.WarmPromptTokens += warm.PromptTokens
}

func (c *CallComparison) reduce() {
	c.Reduction = reduction(c.ColdModelCalls, c.WarmModelCalls)
	c.StepsReduction = reduction(c.ColdSteps, c.WarmSteps)
	c.PromptTokensReduction = reduction(c.ColdPromptTokens, c.WarmPromptTokens)
}

// figure compares a warm pass with the cold pass over the tasks both ran and splits the
// saving by mechanism.
func figure(f Figure, order []string, cold, warm map[string]*TaskResult, coldT, warmT *Totals) Figure {
	f.Tasks, f.OutcomesChanged = []string{}, []string{}
	s := Savings{ByRole: map[string]RoleCalls{}}
	var coldCrit, warmCrit int
	for _, id := range order {
		c, w := cold[id], warm[id]
		if c == nil || w == nil {
			continue
		}
		f.add(id, c, w)
		if c.Pass != w.Pass {
			f.OutcomesChanged = append(f.OutcomesChanged, id)
		}
		verified := w.VerifiedSteps - c.VerifiedSteps
		reads, learns := w.KnownReads-c.KnownReads, w.SkippedLearns-c.SkippedLearns
		s.VerifiedSteps += verified
		s.KnownReads += reads
		s.SkippedLearns += learns
		s.Navigations += w.Navigations
		s.ColdNavigations += c.Navigations
		s.ShortcutSteps += w.ShortcutSteps
		s.Routines += w.Routines
		s.RoutineSteps += w.RoutineSteps
		coldCrit += c.CriticalStepCalls
		warmCrit += w.CriticalStepCalls
		beyond := c.ModelCalls - w.ModelCalls - verified - reads - learns
		switch {
		case w.Routines > 0:
			s.RoutineSaved += beyond
		case w.Navigations > 0:
			s.NavigateSaved += beyond
		}
	}
	f.reduce()
	if f.ColdSteps > 0 {
		f.ColdCriticalPerStep = float64(coldCrit) / float64(f.ColdSteps)
	}
	if f.WarmSteps > 0 {
		f.WarmCriticalPerStep = float64(warmCrit) / float64(f.WarmSteps)
	}
	s.Saved = f.ColdModelCalls - f.WarmModelCalls
	s.Other = s.Saved - s.VerifiedSteps - s.KnownReads - s.SkippedLearns - s.RoutineSaved - s.NavigateSaved
	for k, v := range coldT.ModelCallsByRole {
		rc := s.ByRole[k]
		rc.Cold = v
		s.ByRole[k] = rc
	}
	for k, v := range warmT.ModelCallsByRole {
		rc := s.ByRole[k]
		rc.Warm = v
		s.ByRole[k] = rc
	}
	f.Savings = s
	return f
}

// sortTasks orders results by pass, task order in the suite, repeat.
func (r *Report) sortTasks(order map[string]int) {
	sort.SliceStable(r.Tasks, func(i, j int) bool {
		a, b := r.Tasks[i], r.Tasks[j]
		if ra, rb := passRank(a), passRank(b); ra != rb {
			return ra < rb
		}
		if order[a.ID] != order[b.ID] {
			return order[a.ID] < order[b.ID]
		}
		return a.Repeat < b.Repeat
	})
}

// passRank orders passes as they ran: the learning pass first, then by pass index.
func passRank(x TaskResult) int {
	if x.Phase == PhaseLearn {
		return -1
	}
	return x.PassIndex
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
	if r.Options.Learn != "" {
		fmt.Fprintf(&b, " · learned first on %s (%s)", r.Options.Learn, strings.Join(r.Options.LearnTasks, ", "))
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
	if t.WarmIndependent != nil {
		row("warm-independent", t.WarmIndependent)
	}
	if t.Learn != nil {
		row("learn", t.Learn)
	}
	if cw := t.ColdWarm; cw != nil {
		fmt.Fprintf(&b, "\nWarm vs cold model calls: %s fewer over all tasks; %s fewer on the %d tasks tagged %q (%d → %d).\n",
			pct(cw.ModelCallsReduction), pct(cw.Revisit.Reduction), len(cw.Revisit.Tasks), RevisitTag, cw.Revisit.ColdModelCalls, cw.Revisit.WarmModelCalls)
		b.WriteString("\n## Cold vs warm\n\n| | cold | warm | fewer |\n|---|---:|---:|---:|\n")
		for _, c := range cwRows(t) {
			fmt.Fprintf(&b, "| %s | %d | %d | %s |\n", c.Name, c.Cold, c.Warm, pct(c.Reduction))
		}
		b.WriteString("\n| task | model calls cold → warm | steps cold → warm | prompt tokens cold → warm | model calls, steps warm-independent |\n|---|---:|---:|---:|---:|\n")
		for _, x := range cw.PerTask {
			fmt.Fprintf(&b, "| %s | %d → %d | %d → %d | %d → %d | %d, %d |\n", x.ID, x.ColdModelCalls, x.WarmModelCalls, x.ColdSteps, x.WarmSteps, x.ColdPromptTokens, x.WarmPromptTokens,
				x.IndependentModelCalls, x.IndependentSteps)
		}
		if rows := savingsRows(t); len(rows) > 0 {
			b.WriteString("\n## Savings by mechanism\n\n|")
			for _, c := range rows[0] {
				b.WriteString(" " + c + " |")
			}
			b.WriteString("\n|---|" + strings.Repeat("---:|", len(rows[0])-1) + "\n")
			for _, row := range rows[1:] {
				b.WriteString("|")
				for _, c := range row {
					b.WriteString(" " + mdEscape(c) + " |")
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
			for _, f := range cw.Figures {
				fmt.Fprintf(&b, "- **%s**: %s.\n", f.Name, f.ProducedBy)
			}
			b.WriteString("- **cold**: empty knowledge; no hint offers Navigate then, so one cold pass serves both figures (cold Navigate replays are counted above).\n")
		}
	}
	b.WriteString(r.deviceMarkdown())
	if rows := safetyRows(t); r.Options.ModelErrors != "" || t.FalseSuccess > 0 || t.Sensitive > 0 {
		b.WriteString("\n## Model errors and safety\n\n")
		if r.Options.ModelErrors != "" {
			where := "every pass"
			if r.Options.ModelErrorsLearnOnly {
				where = "the passes that learn only (the warm passes ran clean)"
			}
			fmt.Fprintf(&b, "Model errors injected on purpose: %s (seed %d), in %s.\n\n", r.Options.ModelErrors, r.Options.Seed, where)
		}
		for i, row := range rows {
			b.WriteString("|")
			for _, c := range row {
				b.WriteString(" " + mdEscape(c) + " |")
			}
			b.WriteString("\n")
			if i == 0 {
				b.WriteString("|---|" + strings.Repeat("---:|", len(row)-2) + "---|\n")
			}
		}
		b.WriteString("\nFalse success: the agent said done and the task's checks failed. A sensitive action counts as without a named consent when the question the person was asked did not name its specifics (recipient and text, items or amount and payee, what is deleted).\n")
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

// savingsRows is the savings-by-mechanism table: a header row, then one row per figure of
// each cold/warm figure, then the model calls of each role; nil without figures.
func savingsRows(t Totals) [][]string {
	cw := t.ColdWarm
	if cw == nil || len(cw.Figures) == 0 {
		return nil
	}
	head := []string{""}
	for _, f := range cw.Figures {
		head = append(head, f.Name)
	}
	rows := [][]string{head}
	line := func(name string, v func(f Figure) string) {
		row := []string{name}
		for _, f := range cw.Figures {
			row = append(row, v(f))
		}
		rows = append(rows, row)
	}
	line("model calls cold → warm", func(f Figure) string {
		return fmt.Sprintf("%d → %d (%.2f×)", f.ColdModelCalls, f.WarmModelCalls, ratio(f.ColdModelCalls, f.WarmModelCalls))
	})
	line("steps cold → warm", func(f Figure) string { return fmt.Sprintf("%d → %d", f.ColdSteps, f.WarmSteps) })
	line("calls a step waits on, per step", func(f Figure) string {
		return fmt.Sprintf("%.2f → %.2f", f.ColdCriticalPerStep, f.WarmCriticalPerStep)
	})
	line("prompt tokens cold → warm", func(f Figure) string { return fmt.Sprintf("%d → %d", f.ColdPromptTokens, f.WarmPromptTokens) })
	line("calls saved", func(f Figure) string { return fmt.Sprint(f.Savings.Saved) })
	line("· verified steps (1 Re-Planner call each)", func(f Figure) string { return fmt.Sprint(f.Savings.VerifiedSteps) })
	line("· known readings (1 Key Context Collector call each)", func(f Figure) string { return fmt.Sprint(f.Savings.KnownReads) })
	line("· learning skipped after a known routine (1 learner call each)", func(f Figure) string { return fmt.Sprint(f.Savings.SkippedLearns) })
	line("· on tasks that ran a learned routine, beyond the above", func(f Figure) string {
		return fmt.Sprintf("%d (%d routines, %d steps replayed)", f.Savings.RoutineSaved, f.Savings.Routines, f.Savings.RoutineSteps)
	})
	line("· on tasks that replayed a Navigate, beyond the above", func(f Figure) string {
		return fmt.Sprintf("%d (%d Navigate, %d steps replayed; cold %d)", f.Savings.NavigateSaved, f.Savings.Navigations, f.Savings.ShortcutSteps, f.Savings.ColdNavigations)
	})
	line("· skipped fixed calls and the rest", func(f Figure) string { return fmt.Sprint(f.Savings.Other) })
	line("tasks whose result changed", func(f Figure) string {
		if len(f.OutcomesChanged) == 0 {
			return "none"
		}
		return strings.Join(f.OutcomesChanged, ", ")
	})
	roles := map[string]bool{}
	for _, f := range cw.Figures {
		for k := range f.Savings.ByRole {
			roles[k] = true
		}
	}
	var names []string
	for k := range roles {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		line(k+" calls cold → warm", func(f Figure) string {
			rc := f.Savings.ByRole[k]
			return fmt.Sprintf("%d → %d", rc.Cold, rc.Warm)
		})
	}
	return rows
}

// ratio is warm/cold (0 without cold calls).
func ratio(cold, warm int) float64 {
	if cold == 0 {
		return 0
	}
	return float64(warm) / float64(cold)
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
