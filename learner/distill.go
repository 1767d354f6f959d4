package learner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// maxDescriptionBytes bounds a learned app description.
const maxDescriptionBytes = 300

// Report says what one Learn call did.
type Report struct {
	Tasks   int               // app tasks learned from
	Uses    int               // trick uses counted (RecordUse)
	Added   []knowledge.Trick // new tricks
	Merged  []knowledge.Trick // existing tricks a new one was folded into
	Demoted []knowledge.Trick // tricks the model said were wrong in a failed or corrected run
	Apps    []string          // apps whose description was learned
	Skipped []string          // answer entries not stored, and why
	// Routines counts the app tasks whose trajectory was stored as a routine; Unsurprised
	// those not distilled because they followed a known routine with no surprise.
	Routines, Unsurprised int
}

// Learn distils tricks from every app task of the run that has finished and was not learned
// yet: one model call per task. Before the call it counts the uses of the tricks the task was
// given (success when the task was done, failure when it failed; a stopped or refused task
// counts nothing), in its own transaction. The answer's tricks are merged with the stored
// ones (near-duplicates fold into one), tricks it calls wrong are demoted, and the app's
// description is learned, all in one transaction.
//
// A failed learning call never fails the task: Learn returns an error (ErrModel,
// errBadAnswer, ErrStore) for the caller to report, what was stored before stays stored, and
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
	s.mu.Lock()
	done, surprised, routined := t.outcome == event.OutcomeDone, t.surprised(), t.routined
	// Sub-goal credits are filed only from a trajectory the run confirmed: done, its
	// finish check passed, and nothing the person contradicted. A routine is learned from a
	// done run whose finish check passed; routineOf refuses one whose refused consents the
	// trajectory did not undo.
	routinable := done && !t.checkFailed
	confirmed := routinable && !t.contradicted()
	goals := t.goals
	t.goals = nil
	s.mu.Unlock()
	if confirmed && s.storeGoals(goals) {
		s.mu.Lock()
		t.filed = append(t.filed, goals...)
		s.mu.Unlock()
	}
	// A task the person took the phone for (a sign-in) is no routine: what they did by
	// hand is theirs, and a replay would skip it.
	if routinable && !routined && !t.handedOver {
		known, err := s.learnRoutine(t)
		if err != nil {
			return err
		}
		s.mu.Lock()
		t.routined = true
		s.mu.Unlock()
		rep.Routines++
		if known && !surprised {
			// It followed a known routine to a good end: nothing new to distil.
			s.mu.Lock()
			t.learned = true
			s.mu.Unlock()
			rep.Unsurprised++
			return nil
		}
	}
	if s.l.cfg.Model == nil {
		s.mu.Lock()
		t.learned = true
		s.mu.Unlock()
		rep.Tasks++
		return nil
	}
	s.mu.Lock()
	empty := len(t.steps) == 0 && t.outcome == event.OutcomeStopped
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

// storeGoals writes the sub-goals a confirmed task's transitions completed into the map,
// the evidence Predict needs to let a later step confirm such a sub-goal without the
// Re-Planner. What the file refuses is logged; ok reports that the goals were written.
func (s *Session) storeGoals(goals []servedGoal) (ok bool) {
	if len(goals) == 0 {
		return false
	}
	err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		for _, g := range goals {
			if err := tx.TransitionServed(g.app, g.t, g.goal); err != nil && !errors.Is(err, knowledge.ErrNotFound) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		s.l.log.Warn("sub-goals not filed on their transitions", logErr, err)
	}
	return err == nil
}

// countUses records one use of each trick the task was given.
func (s *Session) countUses(t *taskTrace, served []knowledge.Trick) (int, error) {
	var success bool
	switch t.outcome {
	case event.OutcomeDone:
		success = true
	case event.OutcomeFailed:
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
		return 0, fmt.Errorf("%w: count trick uses: %w", errStore, err)
	}
	return n, nil
}

// ask makes the learning call and decodes its answer.
func (s *Session) ask(ctx context.Context, t *taskTrace, instruction string, served []knowledge.Trick) (prompts.LearnerAnswer, error) {
	s.mu.Lock()
	data := s.learnerData(t, instruction, served)
	s.mu.Unlock()
	p, err := s.fit(data)
	if err != nil {
		return prompts.LearnerAnswer{}, fmt.Errorf("learning prompt: %w", err)
	}
	temp := float32(0)
	req := llm.Request{Role: llm.RoleLearner, System: p.System, Temperature: &temp, Schema: &p.Schema,
		Messages: []llm.Message{{Role: "user", Text: p.User}}}
	resp, err := s.l.cfg.Model.Generate(ctx, req)
	if errors.Is(err, llm.ErrNoJSON) || errors.Is(err, llm.ErrSchema) {
		// The adapter checked the answer (and asked for a repair) already.
		return prompts.LearnerAnswer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	if err != nil {
		return prompts.LearnerAnswer{}, fmt.Errorf("%w: %w", errModel, err)
	}
	text, err := llm.ExtractJSON(resp.Text)
	if err != nil {
		return prompts.LearnerAnswer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	var ans prompts.LearnerAnswer
	if err := json.Unmarshal([]byte(text), &ans); err != nil {
		return prompts.LearnerAnswer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
	}
	return ans, nil
}

// store merges the answer into the knowledge in one transaction.
func (s *Session) store(t *taskTrace, runID, instruction string, served []knowledge.Trick, ans prompts.LearnerAnswer, rep *Report) error {
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
		return fmt.Errorf("%w: store tricks: %w", errStore, err)
	}
	rep.Added = append(rep.Added, added...)
	s.mu.Lock()
	for _, a := range added {
		t.tricks = append(t.tricks, a.ID)
	}
	s.mu.Unlock()
	rep.Merged = append(rep.Merged, merged...)
	rep.Demoted = append(rep.Demoted, demoted...)
	rep.Skipped = append(rep.Skipped, skipped...)
	if desc != "" {
		rep.Apps = append(rep.Apps, t.app)
	}
	return nil
}

// outcomeName is the provenance name of a task outcome.
func outcomeName(o event.Outcome) string {
	switch o {
	case event.OutcomeDone:
		return "success"
	case event.OutcomeFailed:
		return "failure"
	}
	return string(o)
}

// learnerData is a finished task as the learning prompt shows it, every step included.
// The caller holds s.mu.
func (s *Session) learnerData(t *taskTrace, instruction string, served []knowledge.Trick) prompts.LearnerData {
	if instruction == "" {
		instruction = t.instruction
	}
	d := prompts.LearnerData{Instruction: instruction, Task: event.AppTask{App: t.app, Task: t.task},
		Outcome: t.outcome, Reason: t.reason, Steps: t.nsteps,
		Interactions: slices.Clone(t.interactions), Recoveries: slices.Clone(t.recoveries)}
	for _, tr := range served {
		d.Tricks = append(d.Tricks, prompts.GivenTrick{ID: tr.ID, Kind: string(tr.Kind), Text: tr.Text})
	}
	for _, st := range t.steps {
		d.Trajectory = append(d.Trajectory, prompts.TrajectoryStep{Step: st.step, Page: st.page, Plan: slices.Clone(st.plan),
			Subgoal: st.subgoal, Actions: slices.Clone(st.actions), Result: st.result, Reflection: st.reflection})
	}
	return d
}

// fit renders the learning prompt within Config.MaxTrajectory bytes of user text by
// leaving out the earliest steps (the latest hold the outcome and the recoveries); when
// even no step fits, it sends none.
func (s *Session) fit(d prompts.LearnerData) (prompts.Prompt, error) {
	steps := d.Trajectory
	render := func(first int) (prompts.Prompt, error) {
		d.Trajectory, d.Omitted = steps[first:], first
		return s.l.prompts.Learn(d)
	}
	p, err := render(0)
	if err != nil || len(p.User) <= s.l.cfg.MaxTrajectory {
		return p, err
	}
	// The smallest first that fits: the prompt shrinks as first grows.
	lo, hi := 1, len(steps)
	for lo < hi {
		mid := (lo + hi) / 2
		q, err := render(mid)
		if err != nil {
			return q, err
		}
		if len(q.User) <= s.l.cfg.MaxTrajectory {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return render(lo)
}
