package learner

// The routines a run may replay: which are offered on a page, and the steps of one.

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/replay"
)

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
		if s.Seek != nil {
			sk := learned(s.Activity, s.Signature, *s.Seek, false)
			st.Seek = &sk
		}
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
