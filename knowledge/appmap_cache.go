package knowledge

import (
	"cmp"
	"fmt"
	"maps"
	"runtime"
	"slices"

	"github.com/dominikbraun/graph"
	bolt "go.etcd.io/bbolt"
	"golang.org/x/sync/errgroup"
)

// The in-memory model of the App Maps: one graph per app, loaded from bbolt on first use
// (or all at once by preload) and kept in the Store, changed only after a commit.

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
