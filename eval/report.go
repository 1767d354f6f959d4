package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
)

// reportSchema is the version of report.json's schema. Fields are only ever added.
const reportSchema = 1

// Report is report.json. The schema (stable; fields are only added):
//
//	schema            int      reportSchema (1)
//	suite, source     string   suite name and where it was read from
//	started, finished RFC 3339 times
//	interrupted       bool     the evaluation was stopped (Ctrl-C) before every task ran
//	options           {parallel, repeat, knowledge, cold_warm, no_navigate, learn (the learning suite), learn_tasks[], model_errors, model_errors_learn_only, seed, learned (a knowledge file learned before), as_it_goes}
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
//	  pass_index      int      0 (cold, or the only pass), 1 (warm), 2 (warm-independent), 3 (learn), 4 (as-it-goes)
//	  phase           string   "cold" | "warm" | "warm-independent" | "learn" | "as-it-goes" | ""
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
//	  as_it_goes      Totals   with a pass that learned as it goes (one file that started empty, tasks in order)
//	misled[]          the "knowledge that misled" table: {task, phase, repeat, run_dir, loss ("lost" | "false success"
//	                  | both), outcome, reason, in_play[]: {step, kind (routine | routine-end | routine-declined |
//	                  navigate | verified-step | tips | known-reading), id, name, learned_from, bindings[], did, stopped},
//	                  culprit (one of in_play, or none), wrong (a sentence), explained (bool), model_errors}
//	learning_curves[] {phase, points[]: {instance, runs, passed, success_rate, model_calls, mean_model_calls}}
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
	// Misled is the "knowledge that misled" table: every run that lost a task the cold
	// pass won, and every false success, with the knowledge in play and what went wrong.
	Misled []misledRow `json:"misled"`
	// Curves are the learning curves of the passes that shared one knowledge file over
	// several instances of each family.
	Curves []curve `json:"learning_curves,omitempty"`
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
	// Learned is the knowledge file learned before that the warm passes used;
	// AsItGoes: a pass learned as it goes, over one file that started empty.
	Learned  string `json:"learned,omitempty"`
	AsItGoes bool   `json:"as_it_goes,omitempty"`
}

// TaskResult is one task run in the report.
type TaskResult struct {
	ID          string   `json:"id"`
	Instruction string   `json:"instruction"`
	Tags        []string `json:"tags,omitempty"`
	Pass        bool     `json:"pass"`
	Outcome     string   `json:"outcome"`
	Reason      string   `json:"reason"`
	Steps       int      `json:"steps"`
	// Actions are the atomic actions the run carried out (a step may take several; the
	// benchmark's agents take one a step).
	Actions          int                 `json:"actions"`
	ModelCalls       int                 `json:"model_calls"`
	ModelCallsByRole map[string]int      `json:"model_calls_by_role"`
	PromptTokens     int                 `json:"prompt_tokens"`
	CompletionTokens int                 `json:"completion_tokens"`
	Cost             float64             `json:"cost"`
	WallSeconds      float64             `json:"wall_seconds"`
	Questions        []Question          `json:"questions"`
	Checks           []suite.CheckResult `json:"checks"`
	Device           string              `json:"device"`
	PassIndex        int                 `json:"pass_index"`
	Phase            string              `json:"phase,omitempty"`
	Repeat           int                 `json:"repeat"`
	RunDir           string              `json:"run_dir"`
	Shortcuts        int                 `json:"shortcuts"`
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
	// Contradicted: after a false success, what the run learned was taken back and what
	// it replayed demoted (Contradicter).
	Contradicted bool `json:"contradicted,omitempty"`
	// Sensitive counts the sensitive actions the run carried out; Unnamed those of them
	// done without a consent question that named their specifics (recipient and text,
	// items and amount and payee, what is deleted); ConsentsRefused the consents the
	// simulated user refused; Unjudgeable the consent questions that hid the specifics
	// the user needed to judge them.
	Sensitive       int `json:"sensitive_actions"`
	Unnamed         int `json:"sensitive_without_named_consent"`
	ConsentsRefused int `json:"consents_refused"`
	Unjudgeable     int `json:"questions_not_judgeable"`
	// Collateral are the collateral changes the run made (the evidence of the failed
	// collateral checks): changes beyond what the task's scoring checks look at.
	Collateral []string `json:"collateral,omitempty"`
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
	reportMD   = "report.md"
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
	if err := os.WriteFile(filepath.Join(dir, reportMD), []byte(r.Markdown()), 0o644); err != nil {
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
