package eval

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
	AsItGoes        *Totals        `json:"as_it_goes,omitempty"`
	ColdWarm        *ColdWarm      `json:"cold_warm,omitempty"`
}

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

// total computes the report's totals; passWall are the wall seconds of each pass, by
// pass index.
func (r *Report) total(passWall []float64, revisit map[string]bool) {
	t := Totals{ModelCallsByRole: map[string]int{}}
	for _, x := range r.Tasks {
		addTo(&t, x)
	}
	t.WallSeconds = r.Finished.Sub(r.Started).Seconds()
	if r.Options.ColdWarm {
		r.coldWarm(&t, passWall, revisit)
	}
	r.Totals = t
}
