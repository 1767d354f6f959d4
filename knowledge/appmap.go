package knowledge

import (
	"cmp"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dominikbraun/graph"
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sync/errgroup"
)

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
	ActionKey       ActionKind = "key"
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

// AppSummary is one line of `fairy map list`.
type AppSummary struct {
	Package     string `json:"package"`
	Label       string `json:"label,omitempty"`
	Pages       int    `json:"pages"`
	Transitions int    `json:"transitions"`
	Tricks      int    `json:"tricks"`
}

// ---- the in-memory model ----

// appMap is one app's map in memory: a dominikbraun/graph directed graph
// whose vertices are *Page and whose edges carry an *edgeBundle (all
// transitions between two pages), plus a cached adjacency index for path
// finding, rebuilt after changes.
type appMap struct {
	app   string
	g     graph.Graph[string, *Page]
	pages map[string]*Page
	trans map[string]*Transition // by Transition.key()
	index *pathIndex             // nil when stale
}

type edgeBundle struct{ trans []*Transition }

func newAppMap(app string) *appMap {
	return &appMap{
		app:   app,
		g:     graph.New(func(p *Page) string { return p.Key }, graph.Directed(), graph.Weighted()),
		pages: map[string]*Page{},
		trans: map[string]*Transition{},
	}
}

func (m *appMap) putPage(p Page) {
	if old, ok := m.pages[p.Key]; ok {
		*old = p
		return
	}
	np := &p
	m.pages[p.Key] = np
	_ = m.g.AddVertex(np) // cannot fail: key is new
	m.index = nil
}

func (m *appMap) putTransition(t Transition) {
	k := t.key()
	if old, ok := m.trans[k]; ok {
		*old = t
		if e, err := m.g.Edge(t.From, t.To); err == nil {
			b := e.Properties.Data.(*edgeBundle)
			_ = m.g.UpdateEdge(t.From, t.To, graph.EdgeData(b), graph.EdgeWeight(b.graphWeight()))
		}
		m.index = nil // reliability changed
		return
	}
	nt := &t
	m.trans[k] = nt
	if e, err := m.g.Edge(t.From, t.To); err == nil {
		b := e.Properties.Data.(*edgeBundle)
		b.trans = append(b.trans, nt)
		_ = m.g.UpdateEdge(t.From, t.To, graph.EdgeData(b), graph.EdgeWeight(b.graphWeight()))
	} else {
		b := &edgeBundle{trans: []*Transition{nt}}
		_ = m.g.AddEdge(t.From, t.To, graph.EdgeData(b), graph.EdgeWeight(b.graphWeight()))
	}
	m.index = nil
}

func (m *appMap) snapshot() *Map {
	out := &Map{App: m.app, Pages: make([]Page, 0, len(m.pages)), Transitions: make([]Transition, 0, len(m.trans))}
	for _, p := range m.pages {
		cp := *p
		cp.Elements = slices.Clone(p.Elements)
		out.Pages = append(out.Pages, cp)
	}
	for _, t := range m.trans {
		cp := *t
		cp.Action.Args = maps.Clone(t.Action.Args)
		out.Transitions = append(out.Transitions, cp)
	}
	sortMap(out)
	return out
}

func sortMap(m *Map) {
	slices.SortFunc(m.Pages, func(a, b Page) int {
		if c := compareIDs(a.ID, b.ID); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	order := make(map[string]int, len(m.Pages))
	for i, p := range m.Pages {
		order[p.Key] = i
	}
	slices.SortFunc(m.Transitions, func(a, b Transition) int {
		if c := cmp.Compare(order[a.From], order[b.From]); c != 0 {
			return c
		}
		if c := cmp.Compare(order[a.To], order[b.To]); c != 0 {
			return c
		}
		return cmp.Compare(a.Action.key(), b.Action.key())
	})
}

// loadMap reads one app's map from the file.
func loadMap(tx *bolt.Tx, app string) (*appMap, error) {
	m := newAppMap(app)
	ab := appBucket(tx, app)
	if ab == nil {
		return m, nil
	}
	if err := eachJSON(ab.Bucket(bucketPages), "page", func(_ []byte, p Page) error { m.putPage(p); return nil }); err != nil {
		return nil, fmt.Errorf("load map %s: %w", app, err)
	}
	if err := eachJSON(ab.Bucket(bucketTrans), "transition", func(k []byte, t Transition) error {
		if m.pages[t.From] == nil || m.pages[t.To] == nil {
			return fmt.Errorf("transition %q refers to a missing page: %w", k, ErrInvalid)
		}
		m.putTransition(t)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("load map %s: %w", app, err)
	}
	return m, nil
}

func appBucket(tx *bolt.Tx, app string) *bolt.Bucket {
	maps := tx.Bucket(bucketMaps)
	if maps == nil {
		return nil
	}
	return maps.Bucket([]byte(app))
}

// appMapLocked returns the cached map of app, loading it; s.mu must be held
// for writing.
func (s *Store) appMapLocked(app string) (*appMap, error) {
	// Even a cached map opens the file: its transaction number says whether another
	// process wrote since the map was read (syncCache).
	db, err := s.acquire()
	if err != nil {
		return nil, err
	}
	defer s.release()
	var m *appMap
	if err := s.guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			s.syncCache(uint64(tx.ID()))
			if c, ok := s.maps[app]; ok {
				m = c
				return nil
			}
			var err error
			m, err = loadMap(tx, app)
			return err
		})
	}); err != nil {
		return nil, err
	}
	s.maps[app] = m
	return m, nil
}

// withMap runs f on the loaded map of app under the store lock.
func (s *Store) withMap(app string, f func(*appMap) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	m, err := s.appMapLocked(app)
	if err != nil {
		return err
	}
	return f(m)
}

func (s *Store) preload() error {
	// Open holds the file through preloading, so every view below reads one state.
	var apps []string
	var txid uint64
	if err := s.view(func(tx *bolt.Tx) error {
		txid = uint64(tx.ID())
		if b := tx.Bucket(bucketMaps); b != nil {
			return b.ForEachBucket(func(k []byte) error { apps = append(apps, string(k)); return nil })
		}
		return nil
	}); err != nil {
		return fmt.Errorf("preload maps: %w", err)
	}
	// Decoding dominates; load apps in parallel, each in its own read transaction.
	loaded := make([]*appMap, len(apps))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, app := range apps {
		g.Go(func() error {
			return s.view(func(tx *bolt.Tx) error { var err error; loaded[i], err = loadMap(tx, app); return err })
		})
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("preload maps: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.syncCache(txid)
	for i, app := range apps {
		s.maps[app] = loaded[i]
	}
	return nil
}

// ---- public API ----

// RecordPage records a visit to a page of app: the first visit creates it
// (with a short ID), later ones bump Visits and LastSeen and replace the
// description and elements when given. Key defaults to PageKey(Activity,
// Signature).
func (s *Store) RecordPage(app string, p Page) (Page, error) {
	err := s.Update(func(tx *Tx) error { var err error; p, err = tx.RecordPage(app, p); return err })
	return p, err
}

// RecordTransition records that action t.Action on page t.From led to
// t.To with t.Effect, counting a success or a failure (the action did not do
// what the map expected). Missing pages are created bare. An empty Effect is
// inferred as EffectNewPage when From ≠ To.
func (s *Store) RecordTransition(app string, t Transition, success bool) (Transition, error) {
	err := s.Update(func(tx *Tx) error { var err error; t, err = tx.RecordTransition(app, t, success); return err })
	return t, err
}

// Map returns a snapshot of app's map (empty, not an error, for an unknown app).
func (s *Store) Map(app string) (*Map, error) {
	var out *Map
	err := s.withMap(app, func(m *appMap) error { out = m.snapshot(); return nil })
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", app, err)
	}
	return out, nil
}

// Page resolves a page of app by key, short ID or unique key prefix.
func (s *Store) Page(app, ref string) (Page, error) {
	var out Page
	err := s.withMap(app, func(m *appMap) error {
		if p, ok := m.pages[ref]; ok {
			out = *p
			return nil
		}
		var found []*Page
		for _, p := range m.pages {
			if p.ID == ref {
				out = *p
				return nil
			}
			if ref != "" && strings.HasPrefix(p.Key, ref) {
				found = append(found, p)
			}
		}
		switch len(found) {
		case 0:
			return fmt.Errorf("page %q in %s: %w", ref, app, ErrNotFound)
		case 1:
			out = *found[0]
			return nil
		}
		return fmt.Errorf("page %q in %s matches %d pages; use its ID: %w", ref, app, len(found), ErrAmbiguous)
	})
	return out, err
}

// Apps summarises every app known to the store (metadata, map or tricks):
// page, transition and trick counts, sorted by package.
func (s *Store) Apps() ([]AppSummary, error) {
	byPkg := map[string]*AppSummary{}
	get := func(pkg string) *AppSummary {
		if a, ok := byPkg[pkg]; ok {
			return a
		}
		a := &AppSummary{Package: pkg}
		byPkg[pkg] = a
		return a
	}
	err := s.view(func(tx *bolt.Tx) error {
		if err := eachJSON(tx.Bucket(bucketApps), "app", func(k []byte, a App) error {
			get(string(k)).Label = a.Label
			return nil
		}); err != nil {
			return err
		}
		if b := tx.Bucket(bucketMaps); b != nil {
			if err := b.ForEachBucket(func(k []byte) error {
				ab := b.Bucket(k)
				a := get(string(k))
				if p := ab.Bucket(bucketPages); p != nil {
					a.Pages = p.Stats().KeyN
				}
				if t := ab.Bucket(bucketTrans); t != nil {
					a.Transitions = t.Stats().KeyN
				}
				return nil
			}); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketTricks); b != nil {
			return b.ForEachBucket(func(k []byte) error {
				get(string(k)).Tricks = b.Bucket(k).Stats().KeyN
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list apps: %w", err)
	}
	out := make([]AppSummary, 0, len(byPkg))
	for _, a := range byPkg {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b AppSummary) int { return cmp.Compare(a.Package, b.Package) })
	return out, nil
}

// ---- transaction-level writes ----

func (tx *Tx) mapBuckets(app string) (pages, trans *bolt.Bucket, err error) {
	if tx.s.opts.ReadOnly {
		return nil, nil, ErrReadOnly
	}
	maps, err := root(tx.tx, bucketMaps)
	if err != nil {
		return nil, nil, err
	}
	ab, err := maps.CreateBucketIfNotExists([]byte(app))
	if err != nil {
		return nil, nil, err
	}
	if pages, err = ab.CreateBucketIfNotExists(bucketPages); err != nil {
		return nil, nil, err
	}
	if trans, err = ab.CreateBucketIfNotExists(bucketTrans); err != nil {
		return nil, nil, err
	}
	return pages, trans, nil
}

// RecordPage records a page visit in this transaction (see Store.RecordPage).
func (tx *Tx) RecordPage(app string, p Page) (Page, error) {
	if strings.TrimSpace(app) == "" {
		return Page{}, fmt.Errorf("record page: empty app: %w", ErrInvalid)
	}
	if p.Key == "" {
		if p.Activity == "" && p.Signature == "" {
			return Page{}, fmt.Errorf("record page in %s: no key, activity or signature: %w", app, ErrInvalid)
		}
		p.Key = PageKey(p.Activity, p.Signature)
	}
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	now := tx.s.now()
	stored, found, err := getPage(pages, p.Key)
	if err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	if !found {
		stored = Page{Key: p.Key, Activity: p.Activity, Signature: p.Signature, FirstSeen: now}
		if stored.ID, err = newPageID(pages); err != nil {
			return Page{}, fmt.Errorf("record page in %s: %w", app, err)
		}
	}
	if p.Description != "" {
		stored.Description = p.Description
	}
	if len(p.Elements) > 0 {
		stored.Elements = slices.Clone(p.Elements)
	}
	if stored.Activity == "" {
		stored.Activity = p.Activity
	}
	if stored.Signature == "" {
		stored.Signature = p.Signature
	}
	stored.Visits++
	stored.LastSeen = now
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return Page{}, fmt.Errorf("record page in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return stored, nil
}

// PageAsked counts a question to the person on page key of app (see Page.Asked).
func (tx *Tx) PageAsked(app, key string) error {
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	stored, found, err := getPage(pages, key)
	if err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	if !found {
		return fmt.Errorf("page asked in %s: page %s: %w", app, key, ErrNotFound)
	}
	stored.Asked++
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return fmt.Errorf("page asked in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return nil
}

// PageExplored counts a visit of the model-free crawler on page key of app (see
// Page.Explored); the page must be recorded first.
func (tx *Tx) PageExplored(app, key string) error {
	pages, _, err := tx.mapBuckets(app)
	if err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	stored, found, err := getPage(pages, key)
	if err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	if !found {
		return fmt.Errorf("page explored in %s: page %s: %w", app, key, ErrNotFound)
	}
	stored.Explored++
	if err := putJSON(pages, stored.Key, stored); err != nil {
		return fmt.Errorf("page explored in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(stored) })
	return nil
}

func newPageID(pages *bolt.Bucket) (string, error) {
	n, err := pages.NextSequence()
	if err != nil {
		return "", err
	}
	return "p" + strconv.FormatUint(n, 10), nil
}

func getPage(pages *bolt.Bucket, key string) (Page, bool, error) {
	v := pages.Get([]byte(key))
	if v == nil {
		return Page{}, false, nil
	}
	var p Page
	if err := decode("page", []byte(key), v, &p); err != nil {
		return Page{}, false, err
	}
	return p, true, nil
}

// ensurePage creates a bare page if it does not exist.
func (tx *Tx) ensurePage(app string, pages *bolt.Bucket, key string, now time.Time) error {
	if pages.Get([]byte(key)) != nil {
		return nil
	}
	p := Page{Key: key, FirstSeen: now, LastSeen: now}
	if act, sig, ok := strings.Cut(key, "#"); ok {
		p.Activity, p.Signature = act, sig
	}
	var err error
	if p.ID, err = newPageID(pages); err != nil {
		return err
	}
	if err := putJSON(pages, key, p); err != nil {
		return err
	}
	tx.afterMap(app, func(m *appMap) { m.putPage(p) })
	return nil
}

// RecordTransition records a transition in this transaction (see
// Store.RecordTransition).
func (tx *Tx) RecordTransition(app string, t Transition, success bool) (Transition, error) {
	if strings.TrimSpace(app) == "" {
		return Transition{}, fmt.Errorf("record transition: empty app: %w", ErrInvalid)
	}
	if t.From == "" || t.To == "" || t.Action.Kind == "" {
		return Transition{}, fmt.Errorf("record transition in %s: need from, to and action kind: %w", app, ErrInvalid)
	}
	switch t.Effect {
	case "":
		if t.From == t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect required on a same-page transition: %w", app, ErrInvalid)
		}
		t.Effect = EffectNewPage
	case EffectNewPage:
		if t.From == t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect %s but from = to: %w", app, t.Effect, ErrInvalid)
		}
	case EffectSamePage, EffectNoChange:
		if t.From != t.To {
			return Transition{}, fmt.Errorf("record transition in %s: effect %s but from ≠ to: %w", app, t.Effect, ErrInvalid)
		}
	default:
		return Transition{}, fmt.Errorf("record transition in %s: unknown effect %q: %w", app, t.Effect, ErrInvalid)
	}
	pages, trans, err := tx.mapBuckets(app)
	if err != nil {
		return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
	}
	now := tx.s.now()
	for _, key := range []string{t.From, t.To} {
		if err := tx.ensurePage(app, pages, key, now); err != nil {
			return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
		}
	}
	k := t.key()
	stored := Transition{From: t.From, To: t.To, Action: t.Action, FirstSeen: now}
	stored.Action.Args = maps.Clone(t.Action.Args)
	if v := trans.Get([]byte(k)); v != nil {
		if err := decode("transition", []byte(k), v, &stored); err != nil {
			return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
		}
	}
	stored.Effect = t.Effect
	if success {
		stored.Successes++
	} else {
		stored.Failures++
	}
	stored.LastSeen = now
	if err := putJSON(trans, k, stored); err != nil {
		return Transition{}, fmt.Errorf("record transition in %s: %w", app, err)
	}
	tx.afterMap(app, func(m *appMap) { m.putTransition(stored) })
	return stored, nil
}

// afterMap schedules a cache update for app, applied after commit if the
// app's map is loaded (an unloaded map is read fresh from the file later).
func (tx *Tx) afterMap(app string, f func(*appMap)) {
	tx.after = append(tx.after, func() {
		if m, ok := tx.s.maps[app]; ok {
			f(m)
		}
	})
}
