package learner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/replay"
)

// Step is one learned step the executor replays, a replay.Step: the action as the App Map
// keeps it and, embedded, the step as it is replayed (the page it expects and the element
// to find there). A shortcut's step is a transition, with its pages, effect and
// reliability; a routine's step has none of those (see Steps).
type Step struct {
	From, To    string // page keys
	Action      knowledge.Action
	Effect      knowledge.Effect
	Reliability float64
	replay.Learned
}

// String is a short human form: on .Main#a1b2: tap id=settings "Settings".
func (s Step) String() string { return fmt.Sprintf("on %s: %s", s.From, s.Action) }

// Route is a known way from the current page to a page that serves a sub-goal.
type Route struct {
	App      string
	From, To knowledge.Page
	Steps    []Step
	// Match is how well the target page matches the sub-goal (0..1).
	Match float64
	// Replay is how many leading steps Navigate replays: all of them, or those before the
	// first step that taps one row of a list (an item-specific step: the map knows taps on
	// different rows leading to the same page) and the sub-goal names no row of it — the
	// model picks the row there. Stop is the page the replay ends on (To when Replay is
	// len(Steps)).
	Replay int
	Stop   knowledge.Page
	// Replayable is true when Navigate can replay the first Replay steps (Replay > 0): each
	// transition at least Config.MinReliability reliable and of a kind the executor can
	// replay (no typing).
	Replayable bool
	// Open marks the steps that tap a list row the sub-goal does not name.
	Open []bool
}

// maxCandidates bounds the pages Route tries to reach, best matches first.
const maxCandidates = 8

// minMatch is the least share of the sub-goal's map-known terms (weighted) a target page
// must match.
const minMatch = 0.3

// route finds the page of app that best serves subgoal (its description, element labels
// and the labels of the elements that lead to it, matched in English or Chinese) among
// the pages the App Map can reach from the page with the given signature. ok is false when
// the map knows no such page, or the current page is already the best.
func (l *Learner) Route(ctx context.Context, app, signature, subgoal string) (Route, bool, error) {
	m, err := l.cfg.Store.Map(app)
	if err != nil {
		return Route{}, false, fmt.Errorf("%w: map of %s: %w", errStore, app, err)
	}
	from, ok := findPage(m, signature)
	if !ok {
		return Route{}, false, nil
	}
	q := terms(subgoal)
	if len(q) == 0 {
		return Route{}, false, nil
	}
	type cand struct {
		p     knowledge.Page
		score float64
	}
	scores := pageScores(m, q)
	var cands []cand
	for _, p := range m.Pages {
		if sc := scores[p.Key]; sc >= minMatch {
			cands = append(cands, cand{p, sc})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	if len(cands) == 0 || cands[0].p.Key == from.Key {
		return Route{}, false, nil
	}
	var best Route
	found := false
	for i, c := range cands {
		if i >= maxCandidates || (found && c.score < best.Match) {
			break
		}
		if c.p.Key == from.Key {
			break // the current page matches better than anything left
		}
		if err := ctx.Err(); err != nil {
			return Route{}, false, err
		}
		path, err := l.cfg.Store.Path(app, from.Key, c.p.Key)
		if errors.Is(err, knowledge.ErrNoPath) || errors.Is(err, knowledge.ErrNotFound) {
			continue
		}
		if err != nil {
			return Route{}, false, fmt.Errorf("%w: path in %s: %w", errStore, app, err)
		}
		if found && len(path) >= len(best.Steps) {
			continue
		}
		best = l.route(m, from, c.p, path, q)
		best.Match = c.score
		found = true
	}
	return best, found, nil
}

// route makes a Route of a path: item-specific steps re-picked for the query q, and the
// replay cut before the first one the query does not settle or that cannot be replayed.
func (l *Learner) route(m *knowledge.Map, from, to knowledge.Page, path []knowledge.Transition, q map[string]bool) Route {
	fit, open := fitRows(m, path, q)
	steps, _ := l.pathSteps(m, fit)
	r := Route{App: m.App, From: from, To: to, Steps: steps, Open: open, Replay: len(steps)}
	for i, st := range steps {
		if open[i] || !l.replayableStep(st) {
			r.Replay = i
			break
		}
	}
	r.Replayable = r.Replay > 0
	r.Stop = to
	if r.Replay < len(steps) {
		if p, err := m.Page(steps[r.Replay].From); err == nil {
			r.Stop = p
		}
	}
	return r
}

// fitRows re-picks each item-specific step of path — a tap on one row of a list, where
// the map knows taps on different rows leading to the same page, or where the page shows
// several elements with the row's resource-id — as the row whose label the query q names
// (English words or Chinese bigrams; the best match, unique, covering at least a third of
// the label). open[i] is true where no row is named: replaying the row the map happened to
// learn would open the wrong item (抹茶拿铁 for a task that wants 珍珠奶茶).
func fitRows(m *knowledge.Map, path []knowledge.Transition, q map[string]bool) ([]knowledge.Transition, []bool) {
	out := slices.Clone(path)
	open := make([]bool, len(path))
	ix := newRows(m)
	for i, t := range path {
		if !ix.specific(t) {
			continue
		}
		if row, ok := pickRow(parallel(m, t), q); ok {
			out[i] = row
		} else {
			open[i] = true
		}
	}
	return out, open
}

// rowLabel is the label a tap's target shows.
func rowLabel(e knowledge.Element) string {
	if e.Text != "" {
		return e.Text
	}
	return e.Desc
}

// parallel returns t and the map's other taps from t's page to t's page on other labels.
func parallel(m *knowledge.Map, t knowledge.Transition) []knowledge.Transition {
	out := []knowledge.Transition{t}
	for _, u := range m.Transitions {
		if u.From == t.From && u.To == t.To && u.Action.Kind == t.Action.Kind && rowLabel(u.Action.Target) != rowLabel(t.Action.Target) {
			out = append(out, u)
		}
	}
	return out
}

// rows indexes a map's list rows: the labels tapped between two pages, and each page's
// elements by resource-id.
type rows struct {
	labels map[[3]string]map[string]bool // from, to, kind → labels tapped
	pages  map[string]knowledge.Page
}

func newRows(m *knowledge.Map) rows {
	r := rows{labels: map[[3]string]map[string]bool{}, pages: make(map[string]knowledge.Page, len(m.Pages))}
	for _, p := range m.Pages {
		r.pages[p.Key] = p
	}
	for _, t := range m.Transitions {
		k := [3]string{t.From, t.To, string(t.Action.Kind)}
		if r.labels[k] == nil {
			r.labels[k] = map[string]bool{}
		}
		r.labels[k][rowLabel(t.Action.Target)] = true
	}
	return r
}

// specific reports a tap on one row of a list of like items (see fitRows).
func (r rows) specific(t knowledge.Transition) bool {
	if t.From == t.To || (t.Action.Kind != knowledge.ActionTap && t.Action.Kind != knowledge.ActionLongPress) || rowLabel(t.Action.Target) == "" {
		return false
	}
	if id := t.Action.Target.ResourceID; id != "" {
		labels := map[string]bool{}
		for _, e := range r.pages[t.From].Elements {
			if e.ResourceID != "" && replay.SameID(e.ResourceID, id) {
				labels[rowLabel(e)] = true
			}
		}
		switch {
		case len(labels) > 1:
			return true // rows of a list share their resource-id
		case len(labels) == 1:
			return false // one element whose text changes (a cart button with its count)
		}
	}
	return len(r.labels[[3]string{t.From, t.To, string(t.Action.Kind)}]) > 1
}

// minRowMatch is the least share of a row label's terms the query must name.
const minRowMatch = 1.0 / 3

// pickRow picks the transition whose row label the query names best; ok is false when
// none does, or two do equally well.
func pickRow(alts []knowledge.Transition, q map[string]bool) (knowledge.Transition, bool) {
	best, second := -1.0, -1.0
	var pick knowledge.Transition
	for _, t := range alts {
		lt := terms(rowLabel(t.Action.Target))
		if len(lt) == 0 {
			continue
		}
		n := 0
		for w := range lt {
			if q[w] {
				n++
			}
		}
		sc := float64(n) / float64(len(lt))
		switch {
		case sc > best:
			second, best, pick = best, sc, t
		case sc > second:
			second = sc
		}
	}
	if best < minRowMatch || best == second {
		return knowledge.Transition{}, false
	}
	return pick, true
}

// replayableStep reports a step Navigate can replay.
func (l *Learner) replayableStep(s Step) bool {
	return s.Reliability >= l.cfg.MinReliability && s.Signature != "" && replayable(s.Action)
}

// Hint writes a navigation hint for the Re-Planner: the known path from the page with this
// signature to the page that serves subgoal, or "" when the map knows none. It satisfies
// the executor's Hints port.
func (l *Learner) Hint(ctx context.Context, app, signature, subgoal string) (string, error) {
	r, ok, err := l.Route(ctx, app, signature, subgoal)
	if err != nil || !ok {
		return "", err
	}
	return r.Hint(), nil
}

// Hint formats the route for a prompt.
func (r Route) Hint() string {
	var b strings.Builder
	n := len(r.Steps)
	fmt.Fprintf(&b, "The App Map knows a path from this page (%s %q) to page %s %q in %d step", r.From.ID, r.From.Name(), r.To.ID, r.To.Name(), n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(":")
	for i, s := range r.Steps {
		fmt.Fprintf(&b, " %d. %s", i+1, s.Action)
		if i < len(r.Open) && r.Open[i] {
			b.WriteString(" (one row of a list: the learned row, pick the one the task needs)")
		}
		b.WriteString(";")
	}
	s := strings.TrimSuffix(b.String(), ";") + "."
	switch {
	case !r.Replayable:
	case r.Replay == n:
		s += fmt.Sprintf(" It is reliable: the Action Decider's Navigate(%q) replays it without deciding each step.", r.To.ID)
	default:
		s += fmt.Sprintf(" Its first %d step", r.Replay)
		if r.Replay != 1 {
			s += "s"
		}
		s += fmt.Sprintf(" are reliable: the Action Decider's Navigate(%q) replays them without deciding each step, up to page %s %q; go on from there step by step.", r.Stop.ID, r.Stop.ID, r.Stop.Name())
	}
	return s
}

// Shortcut is ShortcutFor with no sub-goal: it never guesses a list row, so the steps end
// before the first item-specific step of the path.
func (l *Learner) Shortcut(ctx context.Context, app, from, target string) ([]Step, bool) {
	return l.ShortcutFor(ctx, app, from, target, "")
}

// ShortcutFor returns the steps of the known reliable path of app from page from to page
// target (each a page key, short ID, unique key prefix, or a page signature), with the
// expected page before each, so the executor can replay them with no model call: before
// each step it checks the screen (Step.Resolve) and falls back to normal steps at the
// first mismatch. Where the map knows several rows of a list leading on (item-specific
// steps), the row is the one query names (the sub-goal or instruction, English or
// Chinese); the steps end before an item-specific step query does not settle. ok is false
// when there is no such path, a transition before that end is less reliable than
// Config.MinReliability or cannot be replayed (typing needs the model), or nothing is
// left to replay.
func (l *Learner) ShortcutFor(ctx context.Context, app, from, target, query string) ([]Step, bool) {
	m, err := l.cfg.Store.Map(app)
	if err != nil {
		l.log.Warn("shortcut: map load failed", logApp, app, logErr, err)
		return nil, false
	}
	f, ok1 := findPage(m, from)
	t, ok2 := findPage(m, target)
	if !ok1 || !ok2 || f.Key == t.Key || ctx.Err() != nil {
		return nil, false
	}
	path, err := l.cfg.Store.Path(app, f.Key, t.Key)
	if err != nil || len(path) == 0 {
		return nil, false
	}
	r := l.route(m, f, t, path, terms(query))
	if r.Replay < len(r.Steps) {
		// A step before the end cannot be replayed: only a cut at an unnamed list row
		// leaves something to replay.
		if !r.Open[r.Replay] || !r.Replayable {
			return nil, false
		}
	}
	return r.Steps[:r.Replay], true
}

// pathSteps turns a path into shortcut steps and says whether all can be replayed.
func (l *Learner) pathSteps(m *knowledge.Map, path []knowledge.Transition) ([]Step, bool) {
	ix := newRows(m)
	out := make([]Step, 0, len(path))
	ok := true
	for _, t := range path {
		p := ix.pages[t.From]
		s := Step{From: t.From, To: t.To, Action: t.Action, Effect: t.Effect, Reliability: t.Reliability(),
			Learned: learned(p.Activity, p.Signature, t.Action, ix.specific(t))}
		if s.Reliability < l.cfg.MinReliability || s.Signature == "" || !replayable(t.Action) {
			ok = false
		}
		out = append(out, s)
	}
	return out, ok
}

// learned is action a, learned on the page with this activity and signature, as the
// executor replays it; row marks a tap on one row of a list (see fitRows).
func learned(activity, signature string, a knowledge.Action, row bool) replay.Learned {
	t := a.Target
	return replay.Learned{Activity: activity, Signature: signature, Kind: string(a.Kind),
		Target:    replay.Target{ResourceID: t.ResourceID, Text: t.Text, Desc: t.Desc, Class: t.Class},
		Direction: a.Args["direction"], Package: a.Args["package"], Row: row}
}

// replayable reports an action the executor can replay without the model.
func replayable(a knowledge.Action) bool {
	if a.Args[argAfter] == afterInput || a.Args[knowledge.ArgSideEffect] != "" {
		return false
	}
	switch a.Kind {
	case knowledge.ActionTap, knowledge.ActionLongPress:
		return !a.Target.IsZero()
	case knowledge.ActionSwipe:
		return a.Args["direction"] != ""
	case knowledge.ActionBack, knowledge.ActionHome, knowledge.ActionEnter, knowledge.ActionWait:
		return true
	case knowledge.ActionOpenApp:
		return a.Args["package"] != ""
	}
	return false
}

// findPage resolves a page by signature (the most visited page with it) or by key, short
// ID or unique key prefix.
func findPage(m *knowledge.Map, ref string) (knowledge.Page, bool) {
	if ref == "" {
		return knowledge.Page{}, false
	}
	var best knowledge.Page
	found := false
	for _, p := range m.Pages {
		if p.Signature == ref && (!found || p.Visits > best.Visits) {
			best, found = p, true
		}
	}
	if found {
		return best, true
	}
	p, err := m.Page(ref)
	return p, err == nil
}

// pageScores rates every page against the sub-goal's terms: a term found in the page's
// title (its description up to ": ") or in the label of an element that leads to the page
// (not a list row: see fitRows) weighs 2, in one of its elements 1 (not a list row, whose
// label names an item rather than the page); rarer terms weigh more (idf). Terms no page has are
// left out, so a sub-goal's other words (or stray CJK bigrams) do not dilute the match.
// Scores are normalised to 0..1.
func pageScores(m *knowledge.Map, q map[string]bool) map[string]float64 {
	incoming := map[string][]string{}
	ix := newRows(m)
	for _, t := range m.Transitions {
		// A list row's label names the item, not the page it opens (every row opens it).
		if t.To != t.From && !t.Action.Target.IsZero() && !ix.specific(t) {
			incoming[t.To] = append(incoming[t.To], t.Action.Target.Text, t.Action.Target.Desc, t.Action.Target.ResourceID)
		}
	}
	weights := map[string]map[string]float64{} // page → term → weight
	df := map[string]int{}
	for _, p := range m.Pages {
		w := map[string]float64{}
		add := func(text string, weight float64) {
			for t := range terms(text) {
				if q[t] && w[t] < weight {
					w[t] = weight
				}
			}
		}
		rowIDs := map[string]map[string]bool{} // resource-id → labels: rows share an id
		for _, e := range p.Elements {
			if e.ResourceID != "" {
				if rowIDs[e.ResourceID] == nil {
					rowIDs[e.ResourceID] = map[string]bool{}
				}
				rowIDs[e.ResourceID][rowLabel(e)] = true
			}
		}
		for _, e := range p.Elements {
			if len(rowIDs[e.ResourceID]) > 1 {
				// A list row names an item of the list, not the page: "the notifications of
				// Maps" is about the notifications page, not the app list that shows Maps.
				continue
			}
			add(e.Text+" "+e.Desc+" "+e.ResourceID, 1)
		}
		// A description made from the screen is "title: first labels"; the labels
		// are elements, so only the title weighs as the page's name.
		title, _, _ := strings.Cut(p.Description, ": ")
		add(title, 2)
		add(strings.Join(incoming[p.Key], " "), 2)
		for t := range w {
			df[t]++
		}
		weights[p.Key] = w
	}
	n := float64(len(m.Pages))
	var total float64
	idf := map[string]float64{}
	for t := range q {
		if df[t] == 0 {
			continue // a word the map does not know tells no page from another
		}
		idf[t] = math.Log(1 + n/float64(df[t]))
		total += 2 * idf[t]
	}
	out := make(map[string]float64, len(weights))
	for key, w := range weights {
		var s float64
		for t, x := range w {
			s += x * idf[t]
		}
		if total > 0 {
			out[key] = s / total
		}
	}
	return out
}
