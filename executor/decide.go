package executor

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// maxReasks is how often one step asks the decider again for a usable batch.
const maxReasks = 2

// maxBadDecides is how many steps in a row may end without a usable batch before the
// task fails.
const maxBadDecides = 3

// decide asks the Action Decider for a batch and checks it against the screen.
func (r *run) decide(ctx context.Context) (State, error) {
	mem := r.cfg.Memory
	tips := r.tricks(ctx, trickAction, r.subgoal) // once a step, not once an attempt
	for attempt := 0; ; attempt++ {
		d := prompts.DeciderData{
			Instruction: r.a.Instruction, Task: r.a.Task, Instructions: mem.Instructions(), Now: r.phoneNow(ctx), AnswerFormat: r.answerFormat(),
			Plan: r.plan, Subgoal: r.subgoal,
			History: history(mem.LastFrames(6)), Screen: r.screen.Text(), Keyboard: r.screen.Keyboard, Secure: r.secure,
			Visual: r.images() != nil, Context: mem.KeyContext(), Shell: r.cfg.Shell, Notes: r.decNote,
			Tricks: tips,
		}
		if r.cfg.Shortcuts != nil {
			d.Hint = r.hint(ctx, r.subgoal)
			d.Navigate = d.Hint != ""
		}
		var ans prompts.DeciderAnswer
		var unread []prompts.Note // what could not be read of a coordinate answer
		if r.family().Coordinates() {
			d.Hint, d.Navigate = "", false
			r.served(string(llm.RoleDecider), d.Tricks, "")
			var err error
			if ans, unread, err = r.decideInCoordinates(ctx, d); err != nil {
				return stateError, err
			}
		} else {
			r.served(string(llm.RoleDecider), d.Tricks, d.Hint)
			p, err := r.cfg.Prompts.Decide(d)
			if err != nil {
				return stateError, err
			}
			if err := call(ctx, r.cfg.Model, llm.RoleDecider, p, r.images(), &ans); err != nil {
				return stateError, err
			}
		}
		r.decNote = nil
		batch, problems := r.screenCheck(ans.Actions)
		if len(unread) > 0 {
			batch, problems = nil, unread
		}
		if len(problems) == 0 && len(batch) > 0 {
			r.badDecides = 0
		}
		if n := len(batch); len(problems) == 0 && n > 0 && batch[n-1].Type == event.Navigate {
			steps, why := r.shortcut(ctx, batch)
			if why == nil {
				r.publish(event.ActionsDecided{Step: r.step, Thought: ans.Thought, Actions: batch, Expect: ans.Expect})
				r.expect = ans.Expect
				return r.navigate(ctx, batch[n-1].Target, steps)
			}
			reason, err := r.cfg.Prompts.NoteText(why)
			if err != nil {
				return stateError, err
			}
			r.publish(event.ActionRejected{Step: r.step, Action: withheld(batch[n-1]), Reason: reason})
			problems = []prompts.Note{why}
		}
		if len(problems) == 0 && len(batch) > 0 {
			r.publish(event.ActionsDecided{Step: r.step, Thought: ans.Thought, Actions: r.masked(batch), Expect: ans.Expect})
			r.expect = ans.Expect
			return r.route(batch)
		}
		if len(problems) == 0 {
			problems = []prompts.Note{prompts.NoteNoAction{}}
		}
		if attempt >= maxReasks {
			r.badDecides++
			if r.badDecides >= maxBadDecides {
				// The re-planner's new sub-goals did not help either: more steps would only
				// spend model calls until the step limit hides why.
				said, err := r.cfg.Prompts.NoteText(problems...)
				if err != nil {
					return stateError, err
				}
				return r.fail(fmt.Sprintf("the Action Decider gave no usable action in %d steps in a row: %s", r.badDecides, said))
			}
			// Nothing usable: let the planner see it and try again next step.
			r.planNote = append(r.planNote, prompts.NoteNoUsableAction{Problems: problems})
			r.reuse, r.noActs, r.lastActs = true, true, nil
			return statePerceive, nil
		}
		r.decNote = problems
	}
}

// screenCheck truncates a batch after the first action that changes the screen and rejects actions
// the screen cannot take; it returns the usable batch or the problems to tell the decider.
func (r *run) screenCheck(actions []event.Action) ([]event.Action, []prompts.Note) {
	var batch []event.Action
	var problems []prompts.Note
	for i, a := range actions {
		a.Type = normalizeType(a.Type)
		if err := a.Validate(); err != nil {
			shown := withheld(a)
			problems = append(problems, prompts.NoteInvalidAction{Action: shown, Err: err})
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: err.Error()})
			continue
		}
		if el := r.element(a.Index); el != nil && (a.Type == event.Input || a.Type == event.Clear) && !el.Editable {
			// Focusing it would tap it: typing into a button is pressing the button.
			shown := withheld(a)
			why := fmt.Sprintf("[%d] is a %s, not a text field", a.Index, el.Role)
			problems = append(problems, prompts.NoteNotTextField{Action: shown, Why: why})
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: why})
			continue
		}
		if el := r.element(a.Index); el != nil && a.Type == event.Input && el.Password {
			// A secret is the person's to type (see handover.go): the agent never types one.
			shown := withheld(a)
			why := fmt.Sprintf("[%d] is a password field: the person types it themselves", a.Index)
			problems = append(problems, prompts.NotePasswordField{Action: shown, Why: why})
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: why})
			continue
		}
		if (a.Targeted() || (a.Type == event.Swipe && a.Index > 0)) && r.element(a.Index) == nil {
			shown := withheld(a)
			why := fmt.Sprintf("index %d is not on the current screen (it has elements 1–%d)", a.Index, len(r.screen.Elements))
			problems = append(problems, prompts.NoteIndexOff{Action: shown, Why: why})
			r.publish(event.ActionRejected{Step: r.step, Action: shown, Reason: why})
			continue
		}
		if why := r.againstChoice(a); why != "" {
			problems = append(problems, prompts.NoteRejected{Action: a.String(), Why: why})
			r.publish(event.ActionRejected{Step: r.step, Action: a, Reason: why})
			continue
		}
		batch = append(batch, a)
		if a.EndsBatch() {
			break // the screen changes under anything after it
		}
		if i < len(actions)-1 && a.Type == event.Tap && submitKey(r.element(a.Index)) {
			// A key that submits what is on the screen, with more to do after it: the batch
			// is at odds with itself (a PIN's Enter before its digits, one wrong key that
			// costs a wrong attempt), and neither half can be trusted to run alone.
			why := fmt.Sprintf("[%d] %q submits what is on the screen, and %d more action(s) follow it on a screen that will be gone", a.Index, r.element(a.Index).Name(), len(actions)-1-i)
			problems = append(problems, prompts.NoteSubmitEarly{Why: why})
			r.publish(event.ActionRejected{Step: r.step, Action: a, Reason: why})
			break
		}
	}
	if why := r.keypadMismatch(batch); why != "" && len(problems) == 0 {
		problems = append(problems, prompts.NoteKeypadMiss{Why: why})
		r.publish(event.ActionRejected{Step: r.step, Action: batch[0], Reason: why})
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return batch, nil
}

// keypadMismatch checks what a batch's taps on single-digit keys spell (a PIN or a number
// on a keypad: "8580" for taps on 8, 5, 8, 0 and Enter; a tap on anything else types
// nothing) against the numbers the task was given: in the instruction, the person's
// answers and the key context. One wrong key in a PIN is a wrong attempt the app counts —
// on some phones a lockout — so a batch that spells a near miss of a given number (at most
// half of its digits wrong, missing or extra) is rejected before any key is pressed. A
// batch that spells a given number, or one unlike all of them (a code read from the
// screen), passes.
func (r *run) keypadMismatch(batch []event.Action) string {
	var spelled strings.Builder
	for _, a := range batch {
		el := r.element(a.Index)
		if a.Type != event.Tap || el == nil {
			continue
		}
		if l := []rune(strings.TrimSpace(el.Name())); len(l) == 1 && unicode.IsDigit(l[0]) {
			spelled.WriteRune(l[0])
		}
	}
	typed := spelled.String()
	if utf8.RuneCountInString(typed) < 3 {
		return ""
	}
	given := []string{r.a.Instruction, r.a.Task.Task}
	given = append(given, r.choices...)
	if r.cfg.Memory != nil {
		for _, f := range r.cfg.Memory.KeyContext() {
			given = append(given, f.Value)
		}
	}
	near := ""
	for _, g := range given {
		for _, n := range digitRuns.FindAllString(g, -1) {
			if n == typed {
				return ""
			}
			if d := levenshtein.ComputeDistance(n, typed); d*2 <= utf8.RuneCountInString(n) {
				near = n
			}
		}
	}
	if near == "" {
		return ""
	}
	return fmt.Sprintf("the keys tapped spell %q, and the task gave %q: a wrong key is a wrong attempt the app counts", typed, near)
}

// digitRuns finds the numbers in a text.
var digitRuns = regexp.MustCompile(`\d+`)

// submitKey reports whether el is a key or button that submits what a form or a keypad
// holds. The list is short on purpose: it only decides whether a batch contradicts itself
// (see screenCheck); what is sensitive is the guard's to judge, in every language.
func submitKey(el *perception.Element) bool {
	if el == nil {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(el.Name())) {
	case "enter", "ok", "done", "go", "submit", "↵", "⏎", "确定", "完成":
		return true
	}
	return false
}

// normalizeType maps a type in any letter case to its canonical name.
func normalizeType(t event.ActionType) event.ActionType {
	for _, k := range event.ActionTypes() {
		if strings.EqualFold(string(k), string(t)) {
			return k
		}
	}
	return t
}

// route sends a checked batch on: to the planner (NeedInteraction), the finish check
// (Finish alone) or the guard.
func (r *run) route(batch []event.Action) (State, error) {
	last := batch[len(batch)-1]
	if last.Type == event.NeedInteraction {
		r.forced = last.Reason
		if r.forced == "" {
			r.forced = "the Action Decider says the person must decide before going on"
		}
		r.planNote = append(r.planNote, prompts.NoteDeciderAsks{Why: r.forced})
		r.reuse, r.noActs, r.lastActs = true, true, nil
		return statePerceive, nil
	}
	r.finishAfter = false
	if last.Type == event.Finish {
		r.answer = last.Text
		if len(batch) == 1 {
			return stateCheck, nil
		}
		batch = batch[:len(batch)-1]
		r.finishAfter = true
	}
	r.batch = batch
	return stateGuard, nil
}

// maskedText replaces text that may be a password wherever an action is shown.
const maskedText = "••••••"

// masked returns the batch with text typed into password fields hidden.
func (r *run) masked(batch []event.Action) []event.Action {
	out := append([]event.Action(nil), batch...)
	for i, a := range out {
		if a.Type == event.Input {
			if el := r.element(a.Index); el != nil && el.Password {
				out[i].Text = maskedText
			}
		}
	}
	return out
}

// withheld is a rejected action as events and prompts show it. Its target is unknown or
// unchecked, so its text may have been meant for a password field: the text is always
// hidden (an Input's, or one an action of an unknown type carries); the reason still tells
// the decider what was wrong.
func withheld(a event.Action) event.Action {
	if a.Text != "" {
		a.Text = maskedText
	}
	return a
}

// history is the earlier steps for the decider: what ran (and what failed, with why),
// what the decider expected, and the Re-Planner's judgement of it.
func history(frames []memory.Frame) []prompts.StepRecord {
	var out []prompts.StepRecord
	for _, f := range frames {
		if len(f.Executed) == 0 && f.Result == "" {
			continue // a step that only asked or planned
		}
		rec := prompts.StepRecord{Step: f.Step, Subgoal: f.Subgoal, Expect: f.Expect, Result: f.Result, Reflection: f.Reflection}
		for _, e := range f.Executed {
			s := e.Action.String()
			if e.Element != nil && e.Element.Label != "" {
				s += fmt.Sprintf(" on %q", e.Element.Label)
			}
			if e.Err != "" {
				s += ": failed: " + llm.Head(e.Err, 200)
			}
			rec.Actions = append(rec.Actions, s)
		}
		out = append(out, rec)
	}
	return out
}
