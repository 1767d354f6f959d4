package rundir

import (
	"maps"
	"sync"
	"time"

	"github.com/fairy-go/fairy/event"
)

// SummarySchema is the version of summary.json's schema.
const SummarySchema = 1

// Summary is summary.json: a stable schema that scripts read. Fields are only ever added.
//
//	schema                   int     SummarySchema
//	run_id, instruction      string
//	outcome                  string  done | failed | refused | stopped
//	reason                   string  why it ended (empty when done without remark)
//	answer                   string  the agent's answer for the person, if any
//	steps                    int     executor steps over all app tasks
//	actions                  int     actions sent to the device over all app tasks (a step may
//	                                 send several; one that failed on the device counts)
//	model_calls              int     all model calls
//	model_calls_by_role      object  role → calls (planner, replanner, decider, interactor, extractor, checker)
//	critical_calls           int     calls on a step's critical path (all but the extractor)
//	critical_calls_per_step  number  critical calls made inside steps, per step
//	prompt_tokens, completion_tokens int
//	cost                     number  USD
//	wall_seconds             number
//	interactions             int     interaction loops with the person
//	questions                []string every question asked, in order
//	tasks                    []{index, app, task, outcome, reason, steps}
//	knowledge                object  long-term knowledge used and learned: used (bool), tricks and
//	                                 hints (put into prompts), described_apps, navigations,
//	                                 shortcut_steps (replayed with no model call), verified_steps
//	                                 (confirmed by the App Map with no Re-Planner call), fallbacks,
//	                                 learned_tasks, learned_tricks, learn_errors
//	injected_errors          object  kind → model errors injected on purpose (fairy eval --model-errors)
//	started, finished        RFC 3339 times
type Summary struct {
	Schema               int            `json:"schema"`
	RunID                string         `json:"run_id"`
	Instruction          string         `json:"instruction"`
	Outcome              event.Outcome  `json:"outcome"`
	Reason               string         `json:"reason"`
	Answer               string         `json:"answer,omitempty"`
	Steps                int            `json:"steps"`
	Actions              int            `json:"actions"`
	ModelCalls           int            `json:"model_calls"`
	ModelCallsByRole     map[string]int `json:"model_calls_by_role"`
	CriticalCalls        int            `json:"critical_calls"`
	CriticalCallsPerStep float64        `json:"critical_calls_per_step"`
	PromptTokens         int            `json:"prompt_tokens"`
	CompletionTokens     int            `json:"completion_tokens"`
	Cost                 float64        `json:"cost"`
	WallSeconds          float64        `json:"wall_seconds"`
	Interactions         int            `json:"interactions"`
	Questions            []string       `json:"questions"`
	Tasks                []TaskSummary  `json:"tasks"`
	Knowledge            KnowledgeUse   `json:"knowledge"`
	// InjectedErrors counts the model errors an evaluation injected, by kind.
	InjectedErrors map[string]int `json:"injected_errors,omitempty"`
	Started        time.Time      `json:"started"`
	Finished       time.Time      `json:"finished"`
}

// TaskSummary is one app task in summary.json.
type TaskSummary struct {
	Index   int           `json:"index"`
	App     string        `json:"app"`
	Task    string        `json:"task"`
	Outcome event.Outcome `json:"outcome"`
	Reason  string        `json:"reason,omitempty"`
	Steps   int           `json:"steps"`
}

// tally adds up a run's events into a Summary, the one the Recorder writes; safe for
// concurrent use.
type tally struct {
	mu          sync.Mutex
	s           Summary
	inStep      bool
	stepCalls   int
	started     bool
	lastStarted event.AppTaskStarted
}

// newTally returns an empty tally.
func newTally() *tally {
	return &tally{s: Summary{Schema: SummarySchema, ModelCallsByRole: map[string]int{}, Questions: []string{},
		Tasks: []TaskSummary{}}}
}

// Handle counts one event.
func (t *tally) Handle(r event.Record) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := &t.s
	switch e := r.Event.(type) {
	case event.RunStarted:
		s.RunID, s.Instruction, s.Started = e.RunID, e.Instruction, r.Time
		t.started = true
	case event.AppTaskStarted:
		t.lastStarted = e
		if !t.started {
			s.Started, t.started = r.Time, true
			if s.Instruction == "" {
				s.Instruction = e.Instruction
			}
		}
	case event.StepStarted:
		s.Steps++
		t.inStep = true
	case event.ActionExecuted:
		s.Actions++
	case event.ModelCalled:
		s.ModelCalls++
		s.ModelCallsByRole[e.Role]++
		s.PromptTokens += e.PromptTokens
		s.CompletionTokens += e.CompletionTokens
		s.Cost += e.Cost
		if e.Critical {
			s.CriticalCalls++
			if t.inStep && e.Role != "planner" {
				t.stepCalls++
			}
		}
	case event.KnowledgeServed, event.Navigated, event.Learned, event.Reflected, event.RoutineRan, event.ContextRead:
		s.Knowledge.add(e)
	case event.ModelErrorInjected:
		if s.InjectedErrors == nil {
			s.InjectedErrors = map[string]int{}
		}
		s.InjectedErrors[e.Error]++
	case event.InteractionAsked:
		s.Questions = append(s.Questions, e.Question)
	case event.InteractionEnded:
		s.Interactions++
	case event.TaskFinished:
		t.inStep = false
		s.Tasks = append(s.Tasks, TaskSummary{Index: e.Index, App: e.App, Task: t.lastStarted.Task.Task, Outcome: e.Outcome,
			Reason: e.Reason, Steps: e.Steps})
		// A lone app task run without a Global Task Manager ends the run with it.
		s.Outcome, s.Reason, s.Answer, s.Finished = e.Outcome, e.Reason, e.Answer, r.Time
	case event.RunFinished:
		s.Outcome, s.Reason, s.Finished = e.Outcome, e.Reason, r.Time
		if e.Answer != "" {
			s.Answer = e.Answer
		}
	}
	if !s.Finished.IsZero() && !s.Started.IsZero() {
		s.WallSeconds = s.Finished.Sub(s.Started).Seconds()
	}
	if s.Steps > 0 {
		s.CriticalCallsPerStep = float64(t.stepCalls) / float64(s.Steps)
	}
}

// Summary returns a copy of the summary so far.
func (t *tally) Summary() Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.s
	s.ModelCallsByRole = make(map[string]int, len(t.s.ModelCallsByRole))
	for k, v := range t.s.ModelCallsByRole {
		s.ModelCallsByRole[k] = v
	}
	s.InjectedErrors = maps.Clone(t.s.InjectedErrors)
	s.Questions = append([]string{}, t.s.Questions...)
	s.Tasks = append([]TaskSummary{}, t.s.Tasks...)
	return s
}

// KnowledgeUse is the "knowledge" object of summary.json: how much long-term knowledge
// (App Tricks, App Map, app descriptions) the run used, and what it learned.
type KnowledgeUse struct {
	Used          bool `json:"used"`                 // a trick, hint or description reached a prompt, or a shortcut ran
	Tricks        int  `json:"tricks"`               // trick lines put into prompts
	Hints         int  `json:"hints"`                // navigation hints put into prompts
	DescribedApps int  `json:"described_apps"`       // learned app descriptions given to the Global Planner
	Navigations   int  `json:"navigations"`          // Navigate actions replayed
	Recoveries    int  `json:"recoveries,omitempty"` // ways back to the last good page the executor took by the App Map
	ShortcutSteps int  `json:"shortcut_steps"`       // steps replayed from the App Map with no model call
	VerifiedSteps int  `json:"verified_steps"`       // sub-goals confirmed by an App Map prediction with no Re-Planner call
	Fallbacks     int  `json:"fallbacks"`            // replays that stopped before their target
	Routines      int  `json:"routines"`             // learned routines run
	RoutineSteps  int  `json:"routine_steps"`        // steps routines replayed with no model call
	KnownReads    int  `json:"known_reads"`          // page contents whose facts were known: no Key Context Collector call
	SkippedLearns int  `json:"skipped_learns"`       // app tasks not distilled: they followed a known routine
	LearnedTasks  int  `json:"learned_tasks"`        // app tasks the Self-Learner distilled
	LearnedTricks int  `json:"learned_tricks"`       // tricks it added or merged
	LearnErrors   int  `json:"learn_errors"`         // learning passes that failed (the task did not)
	// Off says why the run went without long-term knowledge although a knowledge file was
	// configured (it is damaged); empty otherwise. Set with Recorder.SetKnowledgeOff.
	Off string `json:"off,omitempty"`
}

// SetKnowledgeOff records in the summary that the run goes without its knowledge file,
// and why (knowledge.off).
func (r *Recorder) SetKnowledgeOff(reason string) {
	r.tally.mu.Lock()
	defer r.tally.mu.Unlock()
	r.tally.s.Knowledge.Off = reason
}

// add counts one knowledge event.
func (k *KnowledgeUse) add(e event.Event) {
	switch e := e.(type) {
	case event.KnowledgeServed:
		k.Tricks += e.Tricks
		k.DescribedApps = max(k.DescribedApps, e.Apps)
		if e.Hint {
			k.Hints++
		}
	case event.Navigated:
		if e.Recovery {
			k.Recoveries++
		} else {
			k.Navigations++
		}
		k.ShortcutSteps += e.Replayed
		if e.Stopped != "" {
			k.Fallbacks++
		}
	case event.RoutineRan:
		k.Routines++
		k.RoutineSteps += e.Replayed
		if e.Stopped != "" && !e.Held {
			k.Fallbacks++
		}
	case event.ContextRead:
		k.KnownReads++
	case event.Reflected:
		if e.Verified {
			k.VerifiedSteps++
		}
	case event.Learned:
		k.LearnedTasks += e.Tasks
		k.LearnedTricks += e.Added + e.Merged
		k.SkippedLearns += e.Skipped
		if e.Err != "" {
			k.LearnErrors++
		}
	}
	k.Used = k.Tricks > 0 || k.Hints > 0 || k.DescribedApps > 0 || k.ShortcutSteps > 0 || k.VerifiedSteps > 0 ||
		k.RoutineSteps > 0 || k.KnownReads > 0 || k.SkippedLearns > 0
}
