package learner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

// Step is one step of a shortcut: the page the device must be on (its activity and
// signature) and the action to replay there.
type Step struct {
	From, To    string // page keys
	Activity    string // expected activity before the step ("" when unknown)
	Signature   string // expected page signature before the step
	Action      knowledge.Action
	Effect      knowledge.Effect
	Reliability float64
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
	// Replayable is true when every step can run as a shortcut: each transition at least
	// Config.MinReliability reliable and of a kind the executor can replay (no typing).
	Replayable bool
}

// maxCandidates bounds the pages Route tries to reach, best matches first.
const maxCandidates = 8

// minMatch is the least share of the sub-goal's map-known terms (weighted) a target page
// must match.
const minMatch = 0.3

// Route finds the page of app that best serves subgoal (its description, element labels
// and the labels of the elements that lead to it, matched in English or Chinese) among
// the pages the App Map can reach from the page with the given signature. ok is false when
// the map knows no such page, or the current page is already the best.
func (l *Learner) Route(ctx context.Context, app, signature, subgoal string) (Route, bool, error) {
	m, err := l.cfg.Store.Map(app)
	if err != nil {
		return Route{}, false, fmt.Errorf("%w: map of %s: %w", ErrStore, app, err)
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
			return Route{}, false, fmt.Errorf("%w: path in %s: %w", ErrStore, app, err)
		}
		if found && len(path) >= len(best.Steps) {
			continue
		}
		steps, replayable := l.steps(m, path)
		best = Route{App: app, From: from, To: c.p, Steps: steps, Match: c.score, Replayable: replayable}
		found = true
	}
	return best, found, nil
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
		fmt.Fprintf(&b, " %d. %s;", i+1, s.Action)
	}
	s := strings.TrimSuffix(b.String(), ";") + "."
	if r.Replayable {
		s += fmt.Sprintf(" It is reliable: Navigate(%q) replays it without deciding each step.", r.To.ID)
	}
	return s
}

// Shortcut returns the steps of the known reliable path of app from page from to page
// target (each a page key, short ID, unique key prefix, or a page signature), with the
// expected page before each step, so the executor can replay it with no model call: before
// each step it checks the screen (Step.Resolve) and falls back to normal steps at the first
// mismatch. ok is false when there is no such path, a transition on it is less reliable
// than Config.MinReliability, or a step cannot be replayed (typing needs the model).
func (l *Learner) Shortcut(ctx context.Context, app, from, target string) ([]Step, bool) {
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
	steps, ok := l.steps(m, path)
	if !ok {
		return nil, false
	}
	return steps, true
}

// steps turns a path into shortcut steps and says whether all can be replayed.
func (l *Learner) steps(m *knowledge.Map, path []knowledge.Transition) ([]Step, bool) {
	pages := make(map[string]knowledge.Page, len(m.Pages))
	for _, p := range m.Pages {
		pages[p.Key] = p
	}
	out := make([]Step, 0, len(path))
	ok := true
	for _, t := range path {
		p := pages[t.From]
		s := Step{From: t.From, To: t.To, Activity: p.Activity, Signature: p.Signature, Action: t.Action,
			Effect: t.Effect, Reliability: t.Reliability()}
		if s.Reliability < l.cfg.MinReliability || s.Signature == "" || !replayable(t.Action) {
			ok = false
		}
		out = append(out, s)
	}
	return out, ok
}

// replayable reports an action the executor can replay without the model.
func replayable(a knowledge.Action) bool {
	if a.Args[ArgAfter] == AfterInput {
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
// weighs 2, in one of its elements 1; rarer terms weigh more (idf). Terms no page has are
// left out, so a sub-goal's other words (or stray CJK bigrams) do not dilute the match.
// Scores are normalised to 0..1.
func pageScores(m *knowledge.Map, q map[string]bool) map[string]float64 {
	incoming := map[string][]string{}
	for _, t := range m.Transitions {
		if t.To != t.From && !t.Action.Target.IsZero() {
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
		for _, e := range p.Elements {
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

// Resolve turns the step into the action to run on screen, checking first that the screen
// is the page the step expects and that its element is there, once. Any mismatch returns
// ErrMismatch: stop the replay and go back to normal steps.
func (s Step) Resolve(screen *perception.Screen) (memory.Action, error) {
	if screen == nil {
		return memory.Action{}, fmt.Errorf("%w: no screen", ErrMismatch)
	}
	if screen.Signature != s.Signature {
		return memory.Action{}, fmt.Errorf("%w: page %s expected, screen signature is %s", ErrMismatch, s.Signature, screen.Signature)
	}
	if s.Activity != "" && screen.Activity != "" && screen.Activity != s.Activity {
		return memory.Action{}, fmt.Errorf("%w: activity %s expected, screen shows %s", ErrMismatch, s.Activity, screen.Activity)
	}
	index := func() (int, error) {
		e, err := Locate(screen, s.Action.Target)
		if err != nil {
			return 0, err
		}
		return e.Index, nil
	}
	switch s.Action.Kind {
	case knowledge.ActionTap, knowledge.ActionLongPress:
		i, err := index()
		if err != nil {
			return memory.Action{}, err
		}
		if s.Action.Kind == knowledge.ActionTap {
			return memory.Action{Type: memory.Tap, Index: i}, nil
		}
		return memory.Action{Type: memory.LongPress, Index: i}, nil
	case knowledge.ActionSwipe:
		a := memory.Action{Type: memory.Swipe, Direction: s.Action.Args["direction"]}
		if !s.Action.Target.IsZero() {
			i, err := index()
			if err != nil {
				return memory.Action{}, err
			}
			a.Index = i
		}
		return a, a.Validate()
	case knowledge.ActionBack:
		return memory.Action{Type: memory.Back}, nil
	case knowledge.ActionHome:
		return memory.Action{Type: memory.Home}, nil
	case knowledge.ActionEnter:
		return memory.Action{Type: memory.Enter}, nil
	case knowledge.ActionWait:
		return memory.Action{Type: memory.Wait, Seconds: 1}, nil
	case knowledge.ActionOpenApp:
		a := memory.Action{Type: memory.OpenApp, Package: s.Action.Args["package"]}
		return a, a.Validate()
	}
	return memory.Action{}, fmt.Errorf("%w: %s cannot be replayed without the model", ErrMismatch, s.Action.Kind)
}

// Locate finds the one element of screen that el identifies: its resource-id (full or
// the part after ":id/"), its label (text, content description or perception label) and
// its class must all agree where el gives them. None or several give ErrMismatch.
func Locate(screen *perception.Screen, el knowledge.Element) (perception.Element, error) {
	if el.IsZero() {
		return perception.Element{}, fmt.Errorf("%w: no element to look for", ErrMismatch)
	}
	var hits []perception.Element
	for _, e := range screen.Elements {
		if el.ResourceID != "" && !sameID(e.ResourceID, el.ResourceID) {
			continue
		}
		if el.Text != "" && e.Label != el.Text && e.Text != el.Text && e.Desc != el.Text {
			continue
		}
		if el.Desc != "" && e.Desc != el.Desc && e.Label != el.Desc {
			continue
		}
		if el.Class != "" && e.Class != el.Class {
			continue
		}
		hits = append(hits, e)
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return perception.Element{}, fmt.Errorf("%w: no element %s on the screen", ErrMismatch, el)
	}
	return perception.Element{}, fmt.Errorf("%w: %d elements match %s", ErrMismatch, len(hits), el)
}

// sameID compares resource-ids, full ("com.x:id/send") or short ("send").
func sameID(a, b string) bool {
	if a == b {
		return true
	}
	return shortID(a) == shortID(b)
}

func shortID(id string) string {
	if i := strings.LastIndex(id, ":id/"); i >= 0 {
		return id[i+4:]
	}
	return id
}
