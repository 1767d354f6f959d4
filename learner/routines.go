package learner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

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
	type kept struct {
		st    knowledge.RoutineStep
		typed string
		act   int // its index in t.acts
	}
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

// Offer lists app's routines that can run from the page with this signature and whose
// name shares at least half its terms with task, best first; each with its arguments when
// the task's words give them (the name matched against the task).
func (l *Learner) Offer(ctx context.Context, app, signature, task string, answers, labels []string) []replay.Offer {
	if ctx.Err() != nil || signature == "" {
		return nil
	}
	rs, err := l.cfg.Store.Routines(app)
	if err != nil {
		l.log.Warn("routines load failed", logApp, app, logErr, err)
		return nil
	}
	m, err := l.cfg.Store.Map(app)
	if err != nil {
		l.log.Warn("map load failed", logApp, app, logErr, err)
		return nil
	}
	q := terms(task)
	type cand struct {
		o     replay.Offer
		score float64
		runs  int
	}
	var cands []cand
	for _, r := range rs {
		from := slices.IndexFunc(r.Steps, func(s knowledge.RoutineStep) bool { return s.Signature == signature })
		if from < 0 || r.Runs < 1 || (!r.Trusted() && len(r.Reruns) == 0 && (len(r.Bindings) == 0 || !sealed(r))) {
			continue // not confirmed yet on enough instances, or demoted since
		}
		// The name that fits the task best: one whose template the task's words fill,
		// else the one sharing most terms.
		var name string
		var args []string
		score := -1.0
		for _, n := range r.Names() {
			nt := terms(replay.Bare(n))
			if len(nt) == 0 {
				continue
			}
			hit := 0
			for t := range nt {
				if q[t] {
					hit++
				}
			}
			sc := float64(hit) / float64(len(nt))
			a := replay.Fit(n, task, chosen(r.Params), answers, labels)
			if a != nil && (!statesRead(r, a) || !rowsKnown(m, r, a, signature, labels) || blankAt(r, a, from) == from) {
				a = nil // a row it does not know, or the person's choice is needed first
			}
			if (a != nil && args == nil) || ((a != nil) == (args != nil) && sc > score) {
				name, args, score = n, a, sc
			}
		}
		if !r.Trusted() && !rerun(r, task, args) && (args == nil || !sealed(r) || !slices.Contains(r.Bindings, bindingKey(args))) {
			continue // not trusted: only the very task, or binding, a clean run confirmed
		}
		if args == nil && score < minRoutineMatch {
			continue
		}
		if args == nil && !fillable(r) {
			continue // its rows are the task's words, and these words name none of them
		}
		o := replay.Offer{ID: r.ID, End: r.End, LearnedFrom: r.LearnedFrom, Name: name, Steps: len(r.Steps) - from, Fit: args}
		if r.Answers {
			o.End = "" // its task ends with an answer read from the screen: the Re-Planner reads it
		}
		for _, p := range r.Params {
			d := p.What
			if p.Example != "" {
				d += fmt.Sprintf(" (learned with %q)", p.Example)
			}
			o.Params = append(o.Params, d)
		}
		cands = append(cands, cand{o, score, r.Runs})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if fi, fj := cands[i].o.Fit != nil, cands[j].o.Fit != nil; fi != fj {
			return fi // one that fits the task first
		}
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].runs > cands[j].runs
	})
	out := make([]replay.Offer, len(cands))
	for i, c := range cands {
		out[i] = c.o
	}
	return out
}

// chosen lists which of params are rows the person chose.
func chosen(params []knowledge.RoutineParam) []bool {
	out := make([]bool, len(params))
	for i, p := range params {
		out[i] = p.Chosen
	}
	return out
}

// blankAt is the index of the first step at or after from whose target needs a blank
// argument, or -1.
func blankAt(r knowledge.Routine, args []string, from int) int {
	for j := from; j < len(r.Steps); j++ {
		if replay.Blank(r.Steps[j].Action.Target.Text, r.Steps[j].Text, args) {
			return j
		}
	}
	return -1
}

// statesRead reports whether every on/off argument of args reads as on or off.
func statesRead(r knowledge.Routine, args []string) bool {
	for i, p := range r.Params {
		if _, ok := replay.StateOf(args[i]); p.State && !ok {
			return false
		}
	}
	return true
}

// fillable reports a routine whose every row parameter the person chooses: the model
// may fill it from the conversation (a typed text, a chosen row) even when the task's
// words do not.
func fillable(r knowledge.Routine) bool {
	for _, p := range r.Params {
		if !p.Typed && !p.Chosen {
			return false
		}
	}
	return true
}

// rowsKnown checks a fit's row arguments against what the App Map knows of the page
// where each is tapped: the label is on that page (its elements, the taps learned from
// it, or the current screen when it is that page), or the page's list is longer than the
// map keeps and the app knows the label somewhere. A routine learned for Wi-Fi is no way
// to a switch its page does not have.
func rowsKnown(m *knowledge.Map, r knowledge.Routine, args []string, current string, screen []string) bool {
	for i, p := range r.Params {
		if p.Typed || p.Chosen || p.State {
			continue
		}
		ph := replay.Placeholder(i + 1)
		j := slices.IndexFunc(r.Steps, func(s knowledge.RoutineStep) bool { return strings.Contains(s.Action.Target.Text, ph) })
		if j < 0 {
			continue
		}
		st := r.Steps[j]
		want := strings.ReplaceAll(st.Action.Target.Text, ph, args[i])
		if st.Signature == current {
			if !slices.ContainsFunc(screen, func(l string) bool { return replay.FuzzyMatch(l, want) }) {
				return false
			}
			continue
		}
		if !labelOnPage(m, st, want) {
			return false
		}
	}
	return true
}

// labelOnPage reports whether the map knows label on the page of step st, or the page
// holds more rows of the step's kind than the map keeps and the app knows the label.
func labelOnPage(m *knowledge.Map, st knowledge.RoutineStep, label string) bool {
	key := knowledge.PageKey(st.Activity, st.Signature)
	rows := 0
	for _, p := range m.Pages {
		if p.Key != key {
			continue
		}
		for _, e := range p.Elements {
			if e.Text == label {
				return true
			}
			if e.ResourceID != "" && replay.SameID(e.ResourceID, st.Action.Target.ResourceID) {
				rows++
			}
		}
	}
	anywhere := false
	for _, t := range m.Transitions {
		if t.Action.Target.Text != label {
			continue
		}
		if t.From == key {
			return true
		}
		anywhere = true
	}
	if rows < maxRowsPerID {
		return false
	}
	for _, p := range m.Pages {
		for _, e := range p.Elements {
			anywhere = anywhere || e.Text == label
		}
	}
	return anywhere
}

// Steps returns routine id of app from the page with this signature on, with args for its
// parameters, as the steps the executor replays.
// A blank argument for a row the person chooses ends the steps before the first step that
// needs it: the run's Pause says so ("" when the steps run to the routine's end).
//
// at, when it is an index of the routine's steps on this page, is where a replay that
// paused there goes on (a routine may pass one page twice); otherwise the steps start at
// the first step on this page. The run's From is the index of the first step returned.
func (l *Learner) Steps(ctx context.Context, app, id, signature string, args []string, at int) (replay.Run, error) {
	rs, err := l.cfg.Store.Routines(app)
	if err != nil {
		return replay.Run{}, fmt.Errorf("%w: routines of %s: %w", errStore, app, err)
	}
	i := slices.IndexFunc(rs, func(r knowledge.Routine) bool { return r.ID == id })
	if i < 0 {
		return replay.Run{}, fmt.Errorf("routine %s of %s: %w", id, app, knowledge.ErrNotFound)
	}
	r := rs[i]
	if len(args) != len(r.Params) {
		return replay.Run{}, fmt.Errorf("routine %q takes %d arguments, got %d", r.Name, len(r.Params), len(args))
	}
	for i, a := range args {
		if strings.TrimSpace(a) == "" && !r.Params[i].Chosen {
			return replay.Run{}, fmt.Errorf("routine %q: argument %d (%s) is empty", r.Name, i+1, r.Params[i].What)
		}
	}
	from := slices.IndexFunc(r.Steps, func(s knowledge.RoutineStep) bool { return s.Signature == signature })
	if at >= 0 && at < len(r.Steps) && r.Steps[at].Signature == signature {
		from = at
	}
	if from < 0 {
		return replay.Run{}, fmt.Errorf("routine %q does not pass through this screen", r.Name)
	}
	end, pause := len(r.Steps), ""
	if b := blankAt(r, args, from); b == from {
		return replay.Run{}, fmt.Errorf("routine %q: its next step needs the person's choice, which is not known yet: ask first", r.Name)
	} else if b > from {
		end = b
		pause = fmt.Sprintf("step %d of %d needs the person's choice", b-from+1, len(r.Steps)-from)
	}
	var out []replay.Step
	var endAt *replay.End
	if pause == "" {
		endAt = boundEnd(r, args)
	}
	for _, s := range r.Steps[from:end] {
		a := s.Action
		a.Target.Text = replay.Fill(a.Target.Text, args)
		st := Step{Action: a, Learned: learned(s.Activity, s.Signature, a, a.Target.Text != s.Action.Target.Text)}
		st.Checked = s.Checked
		if s.Want > 0 {
			on, ok := replay.StateOf(args[s.Want-1])
			if !ok {
				return replay.Run{}, fmt.Errorf("routine %q: argument %d is %q; it must say on or off", r.Name, s.Want, args[s.Want-1])
			}
			st.Want = &on
		}
		if s.Text > 0 {
			st.Text = args[s.Text-1]
		}
		out = append(out, st)
	}
	return replay.Run{Steps: out, From: from, Pause: pause, End: endAt}, nil
}

// endState is what the page a task was done on showed (its text form): its toggles, and
// for each parameter value whether it was on it. nil when the page is not known.
func endState(text string, values []string) *knowledge.RoutineEnd {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	e := &knowledge.RoutineEnd{}
	for l, on := range replay.Toggles(text) {
		if e.Toggles == nil {
			e.Toggles = map[string]bool{}
		}
		e.Toggles[replay.Template(l, values)] = on // "All {1} notifications"
	}
	for i, v := range values {
		if strings.TrimSpace(v) == "" {
			continue
		}
		if e.Shown == nil {
			e.Shown = map[int]bool{}
		}
		e.Shown[i+1] = replay.LabelShown(text, v)
	}
	return e
}

// boundEnd is r's end state with this replay's arguments in place of its parameters; nil
// when none was learned. A switch a step sets to an on/off argument must end in the state
// this replay's argument says, not the one its learning run left; an on/off word is no
// label to look for on the page.
func boundEnd(r knowledge.Routine, args []string) *replay.End {
	e := r.EndState
	if e == nil {
		return nil
	}
	out := &replay.End{Toggles: map[string]bool{}, Labels: map[string]bool{}}
	for l, on := range e.Toggles {
		out.Toggles[replay.Fill(l, args)] = on
	}
	for _, s := range r.Steps {
		if s.Want < 1 || s.Want > len(args) {
			continue
		}
		label := replay.Fill(s.Action.Target.Text, args)
		if _, ok := out.Toggles[label]; !ok {
			continue
		}
		if on, ok := replay.StateOf(args[s.Want-1]); ok {
			out.Toggles[label] = on
		}
	}
	for n, shown := range e.Shown {
		if n >= 1 && n <= len(args) && strings.TrimSpace(args[n-1]) != "" && !r.Params[n-1].State {
			out.Labels[args[n-1]] = shown
		}
	}
	return out
}

// Offer is Learner.Offer; with Steps it satisfies the executor's Routines port.
func (s *Session) Offer(ctx context.Context, app, signature, task string, answers, labels []string) []replay.Offer {
	return s.l.Offer(ctx, app, signature, task, answers, labels)
}

// Steps is Learner.Steps.
func (s *Session) Steps(ctx context.Context, app, id, signature string, args []string, at int) (replay.Run, error) {
	return s.l.Steps(ctx, app, id, signature, args, at)
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
