package knowledge

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dominikbraun/graph"
)

// The App Map's types: its pages, the transitions between them, and the elements and
// actions that make a transition's identity. The Store keeps them (appmap_store.go,
// appmap_tx.go) and a model of each map in memory (appmap_cache.go).

// Element identifies an element robustly across visits: by resource-id,
// text, content description and class — never by its index on one screen.
type Element struct {
	ResourceID string `json:"resource_id,omitempty"`
	Text       string `json:"text,omitempty"`
	Desc       string `json:"desc,omitempty"`
	Class      string `json:"class,omitempty"`
}

// IsZero reports whether the element identifies nothing.
func (e Element) IsZero() bool { return e == Element{} }

// String is a short human form: id=send_btn "Send" (Button).
func (e Element) String() string {
	var parts []string
	if e.ResourceID != "" {
		id := e.ResourceID
		if i := strings.LastIndex(id, ":id/"); i >= 0 {
			id = id[i+4:]
		}
		parts = append(parts, "id="+id)
	}
	switch {
	case e.Text != "":
		parts = append(parts, strconv.QuoteToGraphic(e.Text))
	case e.Desc != "":
		parts = append(parts, "desc="+strconv.QuoteToGraphic(e.Desc))
	}
	if len(parts) == 0 && e.Class != "" {
		c := e.Class
		if i := strings.LastIndex(c, "."); i >= 0 {
			c = c[i+1:]
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, " ")
}

// ActionKind names an atomic action.
type ActionKind string

// Action kinds.
const (
	ActionTap       ActionKind = "tap"
	ActionLongPress ActionKind = "long-press"
	ActionSwipe     ActionKind = "swipe"
	ActionInput     ActionKind = "input"
	ActionClear     ActionKind = "clear"
	ActionBack      ActionKind = "back"
	ActionHome      ActionKind = "home"
	ActionEnter     ActionKind = "enter"
	actionKey       ActionKind = "key"
	ActionOpenApp   ActionKind = "open-app"
	ActionWait      ActionKind = "wait"
)

// Action is what a transition does: a kind, the element it acts on (zero for
// back/home/key…), and arguments such as {"direction": "up"} or {"key": "enter"}.
// Args are part of the transition's identity: do not put secrets (typed
// passwords) in them.
type Action struct {
	Kind   ActionKind        `json:"kind"`
	Target Element           `json:"target,omitzero"`
	Args   map[string]string `json:"args,omitempty"`
}

// String is a short human form: tap id=send_btn "Send".
func (a Action) String() string {
	s := string(a.Kind)
	if t := a.Target.String(); t != "" {
		s += " " + t
	}
	for _, k := range slices.Sorted(maps.Keys(a.Args)) {
		s += " " + k + "=" + strconv.QuoteToGraphic(a.Args[k])
	}
	return s
}

// key is the action's canonical identity.
func (a Action) key() string {
	var b strings.Builder
	b.WriteString(string(a.Kind))
	for _, f := range []string{a.Target.ResourceID, a.Target.Text, a.Target.Desc, a.Target.Class} {
		b.WriteByte(0x1f)
		b.WriteString(f)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Args)) {
		b.WriteByte(0x1f)
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(a.Args[k])
	}
	return b.String()
}

// ArgSideEffect, set on a transition's action, marks an action that changed the app's
// state ("加入购物车" adds to the cart and returns to the menu; a switch toggled, a message
// sent, a counter moved on the page); its value says how the learner saw it (returns,
// toggles, sensitive, changes), or "unknown" for a tap taken where the learner could not
// tell (a run that started inside the app). The map records it, but no path goes through
// it — it is an effect, never a way to reach a page.
const ArgSideEffect = "side-effect"

// Effect is what an action did to the screen.
type Effect string

// Effects.
const (
	EffectNewPage  Effect = "new-page"          // moved to another page
	EffectSamePage Effect = "same-page-changed" // same page, content changed
	EffectNoChange Effect = "no-change"         // nothing happened
)

// PageKey is a page's identity: its activity and the perception page signature.
func PageKey(activity, signature string) string { return activity + "#" + signature }

// Page is a node of an App Map.
type Page struct {
	Key         string    `json:"key"` // PageKey(Activity, Signature)
	ID          string    `json:"id"`  // short per-app alias: p1, p2, …
	Activity    string    `json:"activity,omitempty"`
	Signature   string    `json:"signature,omitempty"`
	Description string    `json:"description,omitempty"`
	Elements    []Element `json:"elements,omitempty"` // representative elements
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`
	Visits      int       `json:"visits"`
	// Asked counts the times the person was asked something on this page (a choice, a
	// consent): a page that needs a judgement is never confirmed from the map alone.
	Asked int `json:"asked,omitempty"`
	// Secure says the page was seen with FLAG_SECURE (its picture black): a page the map
	// never confirms a step on, so the step takes the picture that tells it is secure.
	Secure bool `json:"secure,omitempty"`
	// Explored counts the visits of the model-free crawler (`fairy explore`): the page
	// was learned before any task needed it. The executor uses it like any learned page.
	Explored int `json:"explored,omitempty"`
}

// Name is the page's short label: its description, or its activity's last part.
func (p Page) Name() string {
	if p.Description != "" {
		return p.Description
	}
	a := p.Activity
	if i := strings.LastIndex(a, "."); i >= 0 {
		a = a[i+1:]
	}
	if a == "" {
		return p.Key
	}
	return a
}

// Transition is an edge of an App Map: an action on a page and where it led.
type Transition struct {
	From      string    `json:"from"` // page key
	To        string    `json:"to"`   // page key
	Action    Action    `json:"action"`
	Effect    Effect    `json:"effect"`
	Successes int       `json:"successes"`
	Failures  int       `json:"failures"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// Goals are the sub-goals this action completed in runs that were confirmed (done,
	// finish check passed, nothing the person contradicted), in the form of GoalKey, the
	// latest MaxGoals of them: the evidence that taking it serves such a sub-goal again.
	Goals []string `json:"goals,omitempty"`
	// Deed is what the action did that cannot be taken back, as the screens showed it
	// (deeds.go); zero when it did nothing of the kind, or was never seen to.
	Deed Deed `json:"deed,omitzero"`
}

// MaxGoals is how many sub-goals a transition remembers.
const MaxGoals = 8

// GoalKey is the form a sub-goal is remembered and compared in: lower case, one space
// between words.
func GoalKey(goal string) string { return strings.ToLower(strings.Join(strings.Fields(goal), " ")) }

// withGoal is goals with goal (in GoalKey form) added once, the latest MaxGoals kept.
func withGoal(goals []string, goal string) []string {
	if goal == "" || slices.Contains(goals, goal) {
		return goals
	}
	goals = append(goals, goal)
	if n := len(goals); n > MaxGoals {
		goals = slices.Clone(goals[n-MaxGoals:])
	}
	return goals
}

// Served reports whether the transition completed sub-goal goal in a confirmed run.
func (t Transition) Served(goal string) bool {
	k := GoalKey(goal)
	return k != "" && slices.Contains(t.Goals, k)
}

// Reliability estimates how often the transition works: (s+1)/(s+f+2).
func (t Transition) Reliability() float64 {
	return float64(t.Successes+1) / float64(t.Successes+t.Failures+2)
}

func (t Transition) key() string { return t.From + "\x1e" + t.Action.key() + "\x1e" + t.To }

// Map is a snapshot of one app's map: pages by ID order, transitions by
// source page then action.
type Map struct {
	App         string       `json:"app"`
	Pages       []Page       `json:"pages"`
	Transitions []Transition `json:"transitions"`
}

// Page resolves a page reference: a full key, a short ID (p3), or a unique
// prefix of a key.
func (m *Map) Page(ref string) (Page, error) {
	var found []Page
	for _, p := range m.Pages {
		if p.Key == ref || p.ID == ref {
			return p, nil
		}
		if ref != "" && strings.HasPrefix(p.Key, ref) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return Page{}, fmt.Errorf("page %q in %s: %w", ref, m.App, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return Page{}, fmt.Errorf("page %q in %s matches %d pages; use its ID: %w", ref, m.App, len(found), ErrAmbiguous)
}

// Graph builds the snapshot as a dominikbraun/graph directed graph keyed by
// page key; each edge's Data is the []Transition between its two pages and
// its weight is the cost of the most reliable one in thousandths
// (1000/reliability), the weight Path minimises.
func (m *Map) Graph() (graph.Graph[string, Page], error) {
	g := graph.New(func(p Page) string { return p.Key }, graph.Directed(), graph.Weighted())
	for _, p := range m.Pages {
		if err := g.AddVertex(p); err != nil {
			return nil, fmt.Errorf("map %s graph: %w", m.App, err)
		}
	}
	by := map[[2]string][]Transition{}
	for _, t := range m.Transitions {
		k := [2]string{t.From, t.To}
		by[k] = append(by[k], t)
	}
	for k, ts := range by {
		b := &edgeBundle{}
		for i := range ts {
			b.trans = append(b.trans, &ts[i])
		}
		if err := g.AddEdge(k[0], k[1], graph.EdgeData(ts), graph.EdgeWeight(b.graphWeight())); err != nil {
			return nil, fmt.Errorf("map %s graph: %w", m.App, err)
		}
	}
	return g, nil
}
