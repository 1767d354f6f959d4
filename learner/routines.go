package learner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// kept is a step of the routine being built from a task's actions.
type kept struct {
	st    knowledge.RoutineStep
	typed string
	act   int // its index in t.acts
}

// routineAct is one action of an app task, as a routine may replay it.
type routineAct struct {
	step                int
	signature, activity string
	action              event.Action // Input text is kept in memory only, never stored
	el                  *event.ElementRef
	checked             *bool  // the tapped element's checked state before the tap, when it shows one
	consent             string // the consent's category it ran under: a deed no way back undoes
	// toward: the page it opened asks to confirm an action of the same category (the
	// dialog "Delete note" opens; event.ConfirmationOpened): it was a step toward the deed,
	// which a way back out of that page leaves undone.
	toward bool
}

// minRoutineMatch is the least share of a routine name's terms the task must have for the
// routine to be offered.
const minRoutineMatch = 0.5

// routineOf makes a routine of a finished task's trajectory: its actions in order, with
// the detours it undid cut out (an action whose Back returned to a page the trajectory
// had left), parameterised where it tapped a row or typed a text the task's words (or the
// person's answers) gave. ok is false when there is nothing to replay or a step cannot be
// replayed without the model (a shell command, an element it cannot name again), when a
// way back would cut out a deed done under consent (paid, sent or deleted: going back does
// not undo it), and when the person refused a consent that the trajectory did not undo.
//
// A refusal is undone when the forward action that opened the page it was asked on lies in
// a detour the trajectory cut out: the person said no to what a wrong row (a grounding
// error) led to, the agent went back, and nothing of that way is replayed. A refusal on a
// page the kept trajectory still reaches the same way says the trajectory itself was not
// what the person wanted — unless, with nothing done since, the person granted another
// kind of action on that page (they refused a wrong tap on Call while sending, not the
// conversation).
func routineOf(t *taskTrace) (knowledge.Routine, bool) {
	var steps []kept
	// What the task was about: its words and its sub-goals'. A switch it flipped that none
	// of them names was a slip (the model tapped the row beside the one it meant): the
	// run may still have reached a good end, but a replay must not flip it again.
	about := terms(t.task)
	for _, st := range t.steps {
		for w := range terms(st.subgoal) {
			about[w] = true
		}
	}
	// cutFrom cuts a detour out, steps[j:]; it fails when the detour holds a deed done
	// under consent, which no way back undoes.
	cutFrom := func(j int) bool {
		for _, cut := range steps[j:] {
			if a := t.acts[cut.act]; a.consent != "" && !a.toward {
				return false
			}
		}
		steps = steps[:j]
		return true
	}
	// The steps whose action the Re-Planner judged to have led to a wrong page (C).
	wrong := map[int]bool{}
	for _, st := range t.steps {
		if st.result == "C" {
			wrong[st.step] = true
		}
	}
	for i, a := range t.acts {
		if a.action.Type == event.Shell {
			return knowledge.Routine{}, false
		}
		if a.checked != nil && a.el != nil && !sharesTerm(about, a.el.Label) {
			continue
		}
		k, ok := mapAction(a.action, a.el)
		if !ok {
			continue // Finish, NeedInteraction: no step
		}
		if i+1 < len(t.acts) {
			// A way back to a page the trajectory was on (Back, Navigate up, or the app
			// opened again after the phone left it) ends a detour: what was done since it
			// left that page. What was done on the page before it left (a typed text) stays;
			// a way back that stayed on its page is no step at all. Any action that returns
			// to a page the trajectory left by a step that led to a wrong page ends one too
			// (a wrong row; then "Add to cart" on the wrong item's page returns to the
			// cart): the task did not need that page.
			back := k.Kind == knowledge.ActionBack || k.Kind == knowledge.ActionOpenApp || isWayBack(a.el)
			to := t.acts[i+1].signature
			if back && to == a.signature {
				continue
			}
			if to != a.signature {
				if j := lastOn(steps, to, func(s kept) string { return s.st.Signature }); j >= 0 && (back || wrong[t.acts[steps[j].act].step]) {
					if !cutFrom(j) {
						return knowledge.Routine{}, false
					}
					continue
				}
			}
		}
		st := kept{st: knowledge.RoutineStep{Activity: a.activity, Signature: a.signature, Action: k, Checked: a.checked}, act: i}
		if k.Kind == knowledge.ActionInput {
			st.typed = a.action.Text
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 || len(steps) > knowledge.MaxRoutineSteps {
		return knowledge.Routine{}, false
	}
	for _, x := range t.refusals {
		if x.action {
			continue // the refused action never ran, and the page was right
		}
		opener := lastForward(t.acts[:x.acts])
		if opener < 0 || slices.ContainsFunc(steps, func(s kept) bool { return s.act == opener }) {
			return knowledge.Routine{}, false
		}
	}
	r := knowledge.Routine{App: t.app, Name: strings.TrimSpace(t.task)}
	var values []string // parameter values of rows, by parameter
	param := func(value string, p knowledge.RoutineParam) int {
		if i := slices.Index(values, value); i >= 0 && value != "" {
			return i + 1
		}
		values = append(values, value)
		r.Params = append(r.Params, p)
		return len(values)
	}
	var answers []string
	for _, x := range t.interactions {
		for _, turn := range x.Turns {
			if turn.Answer != "" {
				answers = append(answers, turn.Answer)
			}
		}
	}
	for i := range steps {
		st := &steps[i].st
		switch {
		case st.Action.Kind == knowledge.ActionInput:
			p := knowledge.RoutineParam{What: "text typed into " + fieldName(st.Action.Target), Typed: true}
			if v := steps[i].typed; v != "" && replay.HasWords(r.Name, v) {
				st.Text = param(v, p)
			} else {
				st.Text = param("", p)
			}
		case st.Action.Kind != knowledge.ActionTap && st.Action.Kind != knowledge.ActionLongPress:
		case st.Action.Target.Text == "" || utf8.RuneCountInString(st.Action.Target.Text) < 2:
		case !rowLike(st.Action.Target):
			// A button, a tab or a plain entry of a page: part of the way, whatever its
			// label says (a "Delete" button is no parameter of "Delete my note").
		case replay.HasWords(r.Name, st.Action.Target.Text):
			l := st.Action.Target.Text
			param(l, knowledge.RoutineParam{What: fmt.Sprintf("the row tapped on page %s", pageName(st.Activity)), Example: l})
		default:
			// A row the person chose: the label holds the answer, or the answer the label.
			l := st.Action.Target.Text
			if offeredNotChosen(t.interactions, l) {
				// The person was offered this row and chose another: the trajectory
				// did not do what they said, and it is no routine.
				return knowledge.Routine{}, false
			}
			for _, a := range answers {
				if a = strings.TrimSpace(a); replay.HasWords(a, l) || (utf8.RuneCountInString(a) >= 2 && replay.HasWords(l, a)) {
					param(l, knowledge.RoutineParam{What: fmt.Sprintf("the row the person chose on page %s (its whole label)", pageName(st.Activity)), Example: l, Chosen: true})
					break
				}
			}
		}
	}
	// The task's on/off words ("turn wifi on", "disable bluetooth") each say the state
	// one switch the trajectory tapped must be left in, in order. A word with no switch
	// tapped for it means the run found that switch already as asked: the trajectory
	// holds no step for it, and another instance (the switch the other way) would replay
	// nothing — no routine. Each word becomes a parameter bound to its switch's step, so
	// the replay reads the switch against the state its own task names, never the last
	// run's.
	var toggles []int
	for i, st := range steps {
		if st.st.Checked != nil {
			toggles = append(toggles, i)
		}
	}
	words := replay.StateWords(r.Name)
	if len(words) > 0 && len(words) != len(toggles) {
		return knowledge.Routine{}, false
	}
	rowValues := append([]string(nil), values...) // the values templated as words
	for k, w := range words {
		st := &steps[toggles[k]].st
		if *st.Checked == w.On {
			return knowledge.Routine{}, false // the switch was tapped away from the state the task names
		}
		n := param(w.Word, knowledge.RoutineParam{What: fmt.Sprintf("on or off: the state the switch %q is left in", st.Action.Target.Text), Example: w.Word, State: true})
		st.Want = n
		if n == len(values) {
			rowValues = append(rowValues, "")
		}
	}
	if len(r.Params) > knowledge.MaxRoutineParams {
		return knowledge.Routine{}, false
	}
	// Templating: each row value becomes {n} in the name and in every label that holds it;
	// each on/off word becomes its parameter where it stands in the name.
	r.Name = replay.Template(r.Name, rowValues)
	if len(words) > 0 {
		tw := replay.StateWords(r.Name)
		if len(tw) != len(words) {
			return knowledge.Routine{}, false
		}
		for k := len(tw) - 1; k >= 0; k-- {
			r.Name = r.Name[:tw[k].Start] + replay.Placeholder(steps[toggles[k]].st.Want) + r.Name[tw[k].End:]
		}
	}
	for j := range steps {
		if t := &steps[j].st.Action.Target; t.Text != "" {
			t.Text = replay.Template(t.Text, rowValues)
		}
	}
	steps = seekRows(steps)
	if strings.TrimSpace(t.answer) == "" {
		// Swipes after the last step that did something only looked: the task's result
		// was already on the phone, and how far the run scrolled to see it is its own.
		for len(steps) > 1 && steps[len(steps)-1].st.Action.Kind == knowledge.ActionSwipe {
			steps = steps[:len(steps)-1]
		}
	}
	// A step that deletes (it ran under the person's consent to delete) deletes the row
	// tapped before it: that row must be an argument — the task's words or the person's
	// choice — never the row the last run happened to delete.
	// A row the task's words name without being an argument ("Dentist appointment" for
	// "Delete the dentist appointment") may be deleted too, but only on a rerun of these
	// very words: such a routine is never trusted for other arguments.
	literal := false
	for j, st := range steps {
		if t.acts[st.act].consent != "delete" {
			continue
		}
		for i := j; i >= 0; i-- {
			a := steps[i].st.Action
			if (a.Kind == knowledge.ActionTap || a.Kind == knowledge.ActionLongPress) && rowLike(a.Target) && a.Target.Text != "" {
				if !strings.Contains(a.Target.Text, "{") {
					if !taskNames(t.task, a.Target.Text) {
						return knowledge.Routine{}, false
					}
					literal = true
				}
				break
			}
		}
	}
	for _, s := range steps {
		r.Steps = append(r.Steps, s.st)
	}
	r.End = t.end
	r.Answers = strings.TrimSpace(t.answer) != ""
	r.EndState = endState(t.endText, values)
	r.ID = knowledge.RoutineID(r.App, r.Steps)
	r.Instances = []string{instanceKey(values, r.Steps)}
	r.Bindings = []string{bindingKey(values)}
	if k, ok := rerunKey(t.task, r.Params, values); ok {
		r.Reruns = []string{k}
	}
	if literal {
		r.Instances, r.Bindings = nil, nil // it deletes a row of its own words: reruns only
	}
	return r, true
}

// seekRows makes every tap on a row an argument names (its label holds a {n}) seek its
// row: the swipes on the same page just before it are dropped, the first of them kept as
// the way to scroll (a swipe up the screen when there was none). Where a row lies in its
// list is the instance's, not the routine's: another instance's row may need more swipes,
// fewer or none, and the routine is the same.
func seekRows(steps []kept) []kept {
	var out []kept
	for _, st := range steps {
		a := st.st.Action
		if (a.Kind == knowledge.ActionTap || a.Kind == knowledge.ActionLongPress) && rowLike(a.Target) && strings.Contains(a.Target.Text, "{") {
			seek := knowledge.Action{Kind: knowledge.ActionSwipe, Args: map[string]string{"direction": "up"}}
			first := len(out)
			for first > 0 && out[first-1].st.Action.Kind == knowledge.ActionSwipe && out[first-1].st.Signature == st.st.Signature {
				first--
			}
			if first < len(out) {
				seek = out[first].st.Action
				out = out[:first]
			}
			st.st.Seek = &seek
		}
		out = append(out, st)
	}
	return out
}

// rerunKey is the key of a task a routine is offered for: its words (case and spaces
// ignored) and the arguments of params those words give (its rows and on/off words); the
// texts typed and the rows the person chose each run gives anew, and are left out. ok is
// false when args do not give every such argument.
func rerunKey(task string, params []knowledge.RoutineParam, args []string) (string, bool) {
	h := sha256.New()
	fmt.Fprintf(h, "t%q\n", strings.Join(strings.Fields(strings.ToLower(task)), " "))
	for i, p := range params {
		if p.Typed || p.Chosen {
			continue
		}
		if i >= len(args) || strings.TrimSpace(args[i]) == "" {
			return "", false
		}
		fmt.Fprintf(h, "v%q\n", strings.ToLower(strings.TrimSpace(args[i])))
	}
	return hex.EncodeToString(h.Sum(nil)[:6]), true
}

// rerun reports a task that is a rerun of one a clean run confirmed routine r on: the
// same words, and the same arguments from them; and every row r taps that no argument
// names, the task's words name (most of its label's terms are the task's): a row the
// task asked for, never one that run tapped because its screen had it there (the list's
// first entry, the oldest note), which a rerun in the same words may find elsewhere.
func rerun(r knowledge.Routine, task string, args []string) bool {
	k, ok := rerunKey(task, r.Params, args)
	if !ok || !slices.Contains(r.Reruns, k) {
		return false
	}
	for _, st := range r.Steps {
		a := st.Action
		if (a.Kind == knowledge.ActionTap || a.Kind == knowledge.ActionLongPress) && rowLike(a.Target) && st.Checked == nil && !strings.Contains(a.Target.Text, "{") && !taskNames(task, a.Target.Text) {
			return false
		}
	}
	return true
}

// priceRE finds a price in a label ("¥15", "$ 3.50").
var priceRE = regexp.MustCompile(`[¥$€£₩]\s*\d[\d.,]*`)

// taskNames reports a row label the task's words name: every term of the label in one of
// its scripts is a term of the task ("珍珠奶茶 Bubble tea ¥15" for "Order a bubble tea",
// its price aside; "Dentist appointment" for "Delete the dentist appointment"), never
// a row the task does not name ("Green tea ¥12", "Calendar" for "the first app").
func taskNames(task, label string) bool {
	q := terms(task)
	var wide, narrow []string
	for w := range terms(priceRE.ReplaceAllString(label, " ")) {
		if strings.IndexFunc(w, func(r rune) bool { return r > unicode.MaxLatin1 && unicode.IsLetter(r) }) >= 0 {
			wide = append(wide, w)
		} else {
			narrow = append(narrow, w)
		}
	}
	all := func(ws []string) bool {
		return len(ws) > 0 && !slices.ContainsFunc(ws, func(w string) bool { return !q[w] })
	}
	return all(wide) || all(narrow)
}

// bindingKey is the key of a routine's argument values (a short hash, case and outer
// spaces ignored: typed texts are not kept).
func bindingKey(args []string) string {
	h := sha256.New()
	for _, v := range args {
		fmt.Fprintf(h, "v%q\n", strings.ToLower(strings.TrimSpace(v)))
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// sealed reports a routine whose every tapped row is an argument: it holds no value of
// the run it was learned from (a row tapped because that run's screen had it), so a
// replay with the same arguments does what that clean run did.
func sealed(r knowledge.Routine) bool {
	for _, st := range r.Steps {
		a := st.Action
		if (a.Kind == knowledge.ActionTap || a.Kind == knowledge.ActionLongPress) && rowLike(a.Target) && st.Checked == nil && !strings.Contains(a.Target.Text, "{") {
			return false
		}
	}
	return true
}

// instanceKey is the binding a run confirmed a routine on: its parameters' values and
// the states its switches started in (a short hash: typed texts are not kept).
func instanceKey(values []string, steps []knowledge.RoutineStep) string {
	h := sha256.New()
	for _, v := range values {
		fmt.Fprintf(h, "v%q\n", strings.ToLower(strings.TrimSpace(v)))
	}
	for _, st := range steps {
		if st.Checked != nil {
			fmt.Fprintf(h, "c%v\n", *st.Checked)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// sharesTerm reports whether label has a term of about.
func sharesTerm(about map[string]bool, label string) bool {
	for w := range terms(label) {
		if about[w] {
			return true
		}
	}
	return false
}

// rowLike reports an element that may be one row among others: it has a resource-id
// (rows of a list, of a settings page, share one) and is no button.
func rowLike(e knowledge.Element) bool {
	if e.ResourceID == "" {
		return false
	}
	c := shortClass(e.Class)
	return !strings.Contains(c, "Button") && c != "Chip"
}

// fieldName names a text field for a parameter's description.
func fieldName(e knowledge.Element) string {
	switch {
	case e.Desc != "":
		return strconv.Quote(e.Desc)
	case e.ResourceID != "":
		return "the field " + replay.ShortID(e.ResourceID)
	}
	return "a text field"
}

// pageName is a page's short name for a description.
func pageName(activity string) string {
	if n := lastPart(activity); n != "" {
		return strconv.Quote(n)
	}
	return "of the routine"
}

// LearnRoutine stores the routine of a finished task, when it has one; known is true
// when that very routine was stored before, from an earlier run.
func (s *Session) learnRoutine(t *taskTrace) (known bool, err error) {
	s.mu.Lock()
	r, ok := routineOf(t)
	demoted := slices.Contains(t.demoted, r.ID)
	s.mu.Unlock()
	if !ok {
		return false, nil
	}
	r.Runs, r.LearnedFrom = 1, s.runID
	if demoted {
		r.Instances, r.Bindings, r.Reruns = nil, nil, nil // demoted in this very task: its run confirms nothing
	}
	var id string
	err = s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		stored, err := tx.PutRoutine(r)
		known, id = stored.Runs > 1, stored.ID
		return err
	})
	if err != nil {
		return false, fmt.Errorf("%w: routine of %s: %w", errStore, t.app, err)
	}
	s.mu.Lock()
	t.routine = id
	s.mu.Unlock()
	return known, nil
}

// offeredNotChosen reports whether label was an option of a question whose answer
// named another option.
func offeredNotChosen(xs []prompts.Interaction, label string) bool {
	for _, x := range xs {
		for _, turn := range x.Turns {
			a := strings.TrimSpace(turn.Answer)
			if a == "" || !slices.ContainsFunc(turn.Options, func(o string) bool { return replay.HasWords(label, o) || replay.HasWords(o, label) }) {
				continue
			}
			if !replay.HasWords(a, label) && !replay.HasWords(label, a) {
				return true
			}
		}
	}
	return false
}

// lastOn is the index of the last of steps on page sig, -1 when none is.
func lastOn[T any](steps []T, sig string, page func(T) string) int {
	for i := len(steps) - 1; i >= 0; i-- {
		if page(steps[i]) == sig {
			return i
		}
	}
	return -1
}

// lastForward is the index of the last of acts that went forward (a step a routine could
// replay that is no way back), or -1.
func lastForward(acts []routineAct) int {
	for i := len(acts) - 1; i >= 0; i-- {
		k, ok := mapAction(acts[i].action, acts[i].el)
		if ok && k.Kind != knowledge.ActionBack && k.Kind != knowledge.ActionOpenApp && !isWayBack(acts[i].el) {
			return i
		}
	}
	return -1
}

// contradicted reports whether the person refused a consent in the task: what the
// trajectory did is not what they wanted, and it is no routine.
func (t *taskTrace) contradicted() bool {
	for _, x := range t.interactions {
		if x.Consent == prompts.ConsentRefused {
			return true
		}
	}
	return false
}

// surprised reports a task whose run met something its routine would not know: a
// recovery (a loop broken, a failed finish check) or a wrong or idle result.
func (t *taskTrace) surprised() bool {
	if len(t.recoveries) > 0 {
		return true
	}
	for _, st := range t.steps {
		if st.result == "C" || st.result == "D" {
			return true
		}
	}
	return false
}
