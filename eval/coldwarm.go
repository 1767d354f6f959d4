package eval

import (
	"fmt"
)

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

// revisitTag marks tasks that revisit pages an earlier task of the suite learned.
const revisitTag = "revisit"

// coldWarm adds the passes' totals to t and compares the warm passes with the cold one:
// per task, over the tasks tagged revisit, and by mechanism (the figures).
func (r *Report) coldWarm(t *Totals, passWall []float64, revisit map[string]bool) {
	byPhase := map[string]*Totals{}
	// per[phase][id] adds up one task's runs of a pass.
	per := map[string]map[string]*TaskResult{}
	var order []string
	seen := map[string]bool{}
	for _, x := range r.Tasks {
		ph := x.Phase
		if ph == "" {
			ph = []string{phaseCold, phaseWarm}[min(x.PassIndex, 1)]
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
	cold, warm := byPhase[phaseCold], byPhase[phaseWarm]
	if cold == nil {
		cold = &Totals{ModelCallsByRole: map[string]int{}}
	}
	if warm == nil {
		warm = &Totals{ModelCallsByRole: map[string]int{}}
	}
	cw := &ColdWarm{ModelCallsReduction: reduction(cold.ModelCalls, warm.ModelCalls), StepsReduction: reduction(cold.Steps, warm.Steps),
		PromptTokensReduction: reduction(cold.PromptTokens, warm.PromptTokens), Revisit: CallComparison{Tasks: []string{}}, PerTask: []TaskComparison{}, Figures: []Figure{}}
	for _, id := range order {
		c, w := per[phaseCold][id], per[phaseWarm][id]
		if c == nil || w == nil {
			continue // only tasks both passes finished compare
		}
		tc := TaskComparison{ID: id, ColdModelCalls: c.ModelCalls, WarmModelCalls: w.ModelCalls,
			Reduction: reduction(c.ModelCalls, w.ModelCalls), ColdPass: c.Pass, WarmPass: w.Pass,
			ColdSteps: c.Steps, WarmSteps: w.Steps, ColdPromptTokens: c.PromptTokens, WarmPromptTokens: w.PromptTokens}
		if in := per[phaseIndependent][id]; in != nil {
			tc.IndependentModelCalls, tc.IndependentSteps = in.ModelCalls, in.Steps
		}
		cw.PerTask = append(cw.PerTask, tc)
		if revisit[id] {
			cw.Revisit.add(id, c, w)
		}
	}
	cw.Revisit.reduce()
	learned := "what the cold pass learned (its runs' knowledge merged)"
	switch {
	case r.Options.Learned != "":
		learned = "the knowledge learned before in " + r.Options.Learned
	case r.Options.Learn != "":
		learned = fmt.Sprintf("what the %d tasks of %s learned into one file", len(r.Options.LearnTasks), r.Options.Learn)
	}
	for _, f := range []Figure{
		{Name: FigureCooperating, Phase: phaseWarm, ProducedBy: "warm pass with " + learned +
			"; the scripted model answers Navigate where a walk step says navigate: and the decider's prompt offers a replayable hint"},
		{Name: FigureIndependent, Phase: phaseIndependent, ProducedBy: "warm pass again with " + learned +
			"; the scripted rules compiled without Navigate, so the model acts step by step: only what the executor saves by itself"},
	} {
		if per[f.Phase] == nil {
			continue
		}
		cw.Figures = append(cw.Figures, figure(f, order, per[phaseCold], per[f.Phase], cold, byPhase[f.Phase]))
	}
	t.Cold, t.Warm, t.WarmIndependent, t.Learn, t.ColdWarm = cold, warm, byPhase[phaseIndependent], byPhase[PhaseLearn], cw
	t.AsItGoes = byPhase[phaseAsItGoes]
}

func reduction(cold, warm int) float64 {
	if cold == 0 {
		return 0
	}
	return 1 - float64(warm)/float64(cold)
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
