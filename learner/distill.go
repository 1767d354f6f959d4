package learner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
)

// maxDescriptionBytes bounds a learned app description.
const maxDescriptionBytes = 300

// Role is the model role (and schema name) of the learning call.
const Role llm.Role = "learner"

// Report says what one Learn call did.
type Report struct {
	Tasks   int               // app tasks learned from
	Uses    int               // trick uses counted (RecordUse)
	Added   []knowledge.Trick // new tricks
	Merged  []knowledge.Trick // existing tricks a new one was folded into
	Demoted []knowledge.Trick // tricks the model said were wrong in a failed or corrected run
	Apps    []string          // apps whose description was learned
	Skipped []string          // answer entries not stored, and why
}

// answer is the learning model's JSON answer.
type answer struct {
	Tricks []struct {
		Kind string `json:"kind"`
		App  string `json:"app"`
		Text string `json:"text"`
	} `json:"tricks"`
	Wrong          []string `json:"wrong"`
	AppDescription string   `json:"app_description"`
}

// schema is the learning answer's JSON schema.
const schema = `{
  "type": "object",
  "properties": {
    "tricks": {"type": "array", "items": {"type": "object", "properties": {
      "kind": {"type": "string", "enum": ["planning", "action", "error-recovery"]},
      "app": {"type": "string"},
      "text": {"type": "string"}
    }, "required": ["kind", "app", "text"], "additionalProperties": false}},
    "wrong": {"type": "array", "items": {"type": "string"}},
    "app_description": {"type": "string"}
  },
  "required": ["tricks", "wrong", "app_description"],
  "additionalProperties": false
}`

// system is the learning call's system prompt.
const system = `You are the Self-Learner of a mobile GUI agent that operates Android apps for a person.
You read the trajectory of one app task — instruction, plans, sub-goals, actions, results
(A done, B partial, C wrong, D no change), reflections, errors, recoveries and the outcome —
and write App Tricks: short tips that make the next task in this app shorter and safer.

Kinds of trick:
- "planning": how to break such a task into sub-goals in this app;
- "action": which element or gesture does what, on which page;
- "error-recovery": how a failure showed itself and how to get out of it.

Rules:
- Write only what the trajectory shows. Prefer what worked; for a failure, say what to avoid
  or how it was recovered. At most 5 tricks, each one sentence, general enough to reuse.
- Never copy personal data, typed text, passwords, codes or amounts into a trick.
- "app" is the app's package, or "common" for a tip that holds in every app.
- Write each trick in the language of the instruction.
- "wrong": the ids of the given tricks (listed with ids) that this run shows to be wrong or
  misleading; [] when none.
- "app_description": one short sentence saying what the app is for ("" if unclear).
Answer with one JSON object: {"tricks": [{"kind", "app", "text"}], "wrong": [], "app_description": ""}.`

// Learn distils tricks from every app task of the run that has finished and was not learned
// yet: one model call per task. Before the call it counts the uses of the tricks the task was
// given (success when the task was done, failure when it failed; a stopped or refused task
// counts nothing), in its own transaction. The answer's tricks are merged with the stored
// ones (near-duplicates fold into one), tricks it calls wrong are demoted, and the app's
// description is learned, all in one transaction.
//
// A failed learning call never fails the task: Learn returns an error (ErrModel,
// ErrBadAnswer, ErrStore) for the caller to report, what was stored before stays stored, and
// a task whose learning failed is tried again by the next Learn. Call it with a context that
// outlives a cancelled run (context.WithoutCancel plus a timeout).
func (s *Session) Learn(ctx context.Context) (Report, error) {
	s.mu.Lock()
	var todo []*taskTrace
	for _, t := range s.done {
		if !t.learned {
			todo = append(todo, t)
		}
	}
	runID, instruction := s.runID, s.instruction
	s.mu.Unlock()

	var rep Report
	var errs []error
	for _, t := range todo {
		if err := s.learnTask(ctx, t, runID, instruction, &rep); err != nil {
			errs = append(errs, fmt.Errorf("learn from task %d in %s: %w", t.index, t.app, err))
			s.l.log.Warn("learning failed", logApp, t.app, logRun, runID, logErr, err)
		}
	}
	return rep, errors.Join(errs...)
}

func (s *Session) learnTask(ctx context.Context, t *taskTrace, runID, instruction string, rep *Report) error {
	s.mu.Lock()
	counted := t.usesCounted
	served := make([]knowledge.Trick, 0, len(t.servedOrder))
	for _, id := range t.servedOrder {
		served = append(served, t.served[id])
	}
	s.mu.Unlock()

	if !counted {
		n, err := s.countUses(t, served)
		if err != nil {
			return err
		}
		rep.Uses += n
		s.mu.Lock()
		t.usesCounted = true
		s.mu.Unlock()
	}
	if s.l.cfg.Model == nil {
		s.mu.Lock()
		t.learned = true
		s.mu.Unlock()
		rep.Tasks++
		return nil
	}
	s.mu.Lock()
	empty := len(t.steps) == 0 && t.outcome == memory.OutcomeStopped
	if empty {
		t.learned = true // nothing happened: nothing to learn
	}
	s.mu.Unlock()
	if empty {
		return nil
	}
	ans, err := s.ask(ctx, t, instruction, served)
	if err != nil {
		return err
	}
	if err := s.store(t, runID, instruction, served, ans, rep); err != nil {
		return err
	}
	s.mu.Lock()
	t.learned = true
	s.mu.Unlock()
	rep.Tasks++
	return nil
}

// countUses records one use of each trick the task was given.
func (s *Session) countUses(t *taskTrace, served []knowledge.Trick) (int, error) {
	var success bool
	switch t.outcome {
	case memory.OutcomeDone:
		success = true
	case memory.OutcomeFailed:
	default:
		return 0, nil // stopped or refused: no evidence either way
	}
	n := 0
	err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		n = 0
		for _, tr := range served {
			if _, err := tx.RecordUse(tr.ID, success); errors.Is(err, knowledge.ErrNotFound) {
				continue // deleted since it was given
			} else if err != nil {
				return fmt.Errorf("trick %s: %w", tr.ID, err)
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("%w: count trick uses: %w", ErrStore, err)
	}
	return n, nil
}

// ask makes the learning call and decodes its answer.
func (s *Session) ask(ctx context.Context, t *taskTrace, instruction string, served []knowledge.Trick) (answer, error) {
	s.mu.Lock()
	prompt := s.trajectory(t, instruction, served)
	s.mu.Unlock()
	temp := float32(0)
	req := llm.Request{Role: Role, System: system, Temperature: &temp,
		Schema:   &llm.Schema{Name: string(Role), JSON: json.RawMessage(schema)},
		Messages: []llm.Message{{Role: "user", Text: prompt}}}
	resp, err := s.l.cfg.Model.Generate(ctx, req)
	if errors.Is(err, llm.ErrNoJSON) || errors.Is(err, llm.ErrSchema) {
		// The adapter checked the answer (and asked for a repair) already.
		return answer{}, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	if err != nil {
		return answer{}, fmt.Errorf("%w: %w", ErrModel, err)
	}
	text, err := llm.ExtractJSON(resp.Text)
	if err != nil {
		return answer{}, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	var ans answer
	if err := json.Unmarshal([]byte(text), &ans); err != nil {
		return answer{}, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return ans, nil
}

// store merges the answer into the knowledge in one transaction.
func (s *Session) store(t *taskTrace, runID, instruction string, served []knowledge.Trick, ans answer, rep *Report) error {
	if instruction == "" {
		instruction = t.instruction
	}
	prov := knowledge.Provenance{Instruction: instruction, RunID: runID, Outcome: outcomeName(t.outcome), Time: s.l.cfg.Clock().UTC()}
	given := map[string]bool{}
	for _, tr := range served {
		given[tr.ID] = true
	}
	var tricks []knowledge.Trick
	var skipped []string
	for i, a := range ans.Tricks {
		kind, err := knowledge.ParseKind(strings.TrimSpace(a.Kind))
		text := strings.TrimSpace(a.Text)
		app := strings.TrimSpace(a.App)
		switch {
		case err != nil:
			skipped = append(skipped, fmt.Sprintf("trick %d: kind %q is not planning, action or error-recovery", i+1, a.Kind))
			continue
		case text == "":
			skipped = append(skipped, fmt.Sprintf("trick %d: no text", i+1))
			continue
		case len(tricks) >= s.l.cfg.MaxTricks:
			skipped = append(skipped, fmt.Sprintf("trick %d: more than %d tricks", i+1, s.l.cfg.MaxTricks))
			continue
		}
		if app != knowledge.Common {
			app = t.app // a trick learned in this task is about this app
		}
		if len(text) > maxTrickText {
			text = clip(text, maxTrickText)
		}
		tricks = append(tricks, knowledge.Trick{App: app, Kind: kind, Text: text, Provenance: prov})
	}
	var wrong []string
	for _, id := range ans.Wrong {
		if given[id] {
			wrong = append(wrong, id)
		} else {
			skipped = append(skipped, fmt.Sprintf("wrong %q: not a trick this task was given", id))
		}
	}
	desc := strings.TrimSpace(ans.AppDescription)
	desc = clip(desc, maxDescriptionBytes)
	var added, merged, demoted []knowledge.Trick
	err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		added, merged, demoted = nil, nil, nil
		for _, tr := range tricks {
			got, m, err := tx.UpsertTrick(tr)
			if err != nil {
				return fmt.Errorf("trick %q: %w", clip(tr.Text, 40), err)
			}
			if m {
				merged = append(merged, got)
			} else {
				added = append(added, got)
			}
		}
		for _, id := range wrong {
			got, err := tx.Demote(id)
			if errors.Is(err, knowledge.ErrNotFound) {
				continue
			} else if err != nil {
				return fmt.Errorf("demote %s: %w", id, err)
			}
			demoted = append(demoted, got)
		}
		if desc != "" && t.app != "" {
			if _, err := tx.PutApp(knowledge.App{Package: t.app, Description: desc}); err != nil {
				return fmt.Errorf("app %s: %w", t.app, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: store tricks: %w", ErrStore, err)
	}
	rep.Added = append(rep.Added, added...)
	rep.Merged = append(rep.Merged, merged...)
	rep.Demoted = append(rep.Demoted, demoted...)
	rep.Skipped = append(rep.Skipped, skipped...)
	if desc != "" {
		rep.Apps = append(rep.Apps, t.app)
	}
	return nil
}

// outcomeName is the provenance name of a task outcome.
func outcomeName(o memory.Outcome) string {
	switch o {
	case memory.OutcomeDone:
		return "success"
	case memory.OutcomeFailed:
		return "failure"
	}
	return string(o)
}

// trajectory renders a task for the learning prompt, cut to Config.MaxTrajectory bytes
// (the latest steps are kept: they hold the outcome and the recoveries).
func (s *Session) trajectory(t *taskTrace, instruction string, served []knowledge.Trick) string {
	var head strings.Builder
	if instruction == "" {
		instruction = t.instruction
	}
	fmt.Fprintf(&head, "Instruction: %s\nApp: %s\nApp task: %s\n", instruction, t.app, t.task)
	fmt.Fprintf(&head, "Outcome: %s after %d steps", t.outcome, t.nsteps)
	if t.reason != "" {
		fmt.Fprintf(&head, " (%s)", t.reason)
	}
	head.WriteString("\n")
	if len(served) > 0 {
		head.WriteString("\nTricks the agent was given:\n")
		for _, tr := range served {
			fmt.Fprintf(&head, "- [%s] (%s) %s\n", tr.ID, tr.Kind, tr.Text)
		}
	}
	var tail strings.Builder
	if len(t.interactions) > 0 {
		tail.WriteString("\nInteractions with the person:\n")
		for _, x := range t.interactions {
			tail.WriteString("- " + x + "\n")
		}
	}
	if len(t.recoveries) > 0 {
		tail.WriteString("\nErrors and recoveries:\n")
		for _, x := range t.recoveries {
			tail.WriteString("- " + x + "\n")
		}
	}
	steps := make([]string, len(t.steps))
	for i, st := range t.steps {
		var b strings.Builder
		fmt.Fprintf(&b, "Step %d on page %q\n", st.step, st.page)
		if len(st.plan) > 0 {
			fmt.Fprintf(&b, "  plan: %s\n", strings.Join(st.plan, "; "))
		}
		if st.subgoal != "" {
			fmt.Fprintf(&b, "  sub-goal: %s\n", st.subgoal)
		}
		for _, a := range st.actions {
			fmt.Fprintf(&b, "  action: %s\n", a)
		}
		if st.result != "" {
			fmt.Fprintf(&b, "  result: %s", st.result)
			if st.reflection != "" {
				fmt.Fprintf(&b, " — %s", st.reflection)
			}
			b.WriteString("\n")
		}
		steps[i] = b.String()
	}
	budget := s.l.cfg.MaxTrajectory - head.Len() - tail.Len() - 64
	first := len(steps)
	used := 0
	for first > 0 && used+len(steps[first-1]) <= budget {
		first--
		used += len(steps[first])
	}
	var b strings.Builder
	b.WriteString(head.String())
	b.WriteString("\nTrajectory:\n")
	if first > 0 {
		fmt.Fprintf(&b, "(%d earlier steps left out)\n", first)
	}
	for _, st := range steps[first:] {
		b.WriteString(st)
	}
	b.WriteString(tail.String())
	return b.String()
}
