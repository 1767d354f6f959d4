package knowledge

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dominikbraun/graph"
)

// Path finding. The App Map's model is the dominikbraun/graph graph, but its
// ShortestPath copies the whole adjacency map into fresh Go maps on every call
// (milliseconds on a 10,000-page map). Path therefore runs Dijkstra over a
// compact adjacency index (CSR arrays) built from the graph on first use after
// a change, with scratch arrays reused between calls. BenchmarkShortestPath10k
// measures both.

// edgeCost is the cost of one hop: 1/reliability, so a fresh edge costs 2, a
// proven one ~1, a failing one much more — Path prefers reliable edges over
// merely short routes.
func edgeCost(t *Transition) float64 { return 1 / t.Reliability() }

// best picks the most reliable transition of a bundle.
func (b *edgeBundle) best() *Transition {
	var best *Transition
	for _, t := range b.trans {
		if best == nil || t.Reliability() > best.Reliability() ||
			(t.Reliability() == best.Reliability() && t.Successes > best.Successes) ||
			(t.Reliability() == best.Reliability() && t.Successes == best.Successes && t.key() < best.key()) {
			best = t
		}
	}
	return best
}

// bestWay picks the most reliable transition of a bundle that is a way to its page (not
// a side effect); nil when there is none.
func (b *edgeBundle) bestWay() *Transition {
	var best *Transition
	for _, t := range b.trans {
		if t.Action.Args[ArgSideEffect] != "" {
			continue
		}
		if best == nil || t.Reliability() > best.Reliability() ||
			(t.Reliability() == best.Reliability() && t.Successes > best.Successes) ||
			(t.Reliability() == best.Reliability() && t.Successes == best.Successes && t.key() < best.key()) {
			best = t
		}
	}
	return best
}

// graphWeight is the integer edge weight kept in the graph: cost in thousandths.
func (b *edgeBundle) graphWeight() int { return int(math.Round(1000 * edgeCost(b.best()))) }

type pathIndex struct {
	id   map[string]int32
	keys []string
	off  []int32 // node i's edges are off[i]:off[i+1]
	src  []int32 // edge e goes src[e] → dst[e]
	dst  []int32
	cost []float64
	via  []*Transition

	// scratch, reused under the store lock
	dist []float64
	prev []int32 // edge index that reached the node, -1 none
	gen  []uint32
	cur  uint32
	heap []heapItem
}

type heapItem struct {
	d float64
	n int32
}

func (m *appMap) pathIndex() *pathIndex {
	if m.index != nil {
		return m.index
	}
	keys := make([]string, 0, len(m.pages))
	for k := range m.pages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ix := &pathIndex{id: make(map[string]int32, len(keys)), keys: keys, off: make([]int32, len(keys)+1)}
	for i, k := range keys {
		ix.id[k] = int32(i)
	}
	adj, _ := m.g.AdjacencyMap() // built once per change, not per query
	for i, k := range keys {
		targets := make([]string, 0, len(adj[k]))
		for to := range adj[k] {
			if to != k {
				targets = append(targets, to)
			}
		}
		slices.SortFunc(targets, func(a, b string) int { return cmp.Compare(ix.id[a], ix.id[b]) })
		for _, to := range targets {
			b := adj[k][to].Properties.Data.(*edgeBundle)
			t := b.bestWay()
			if t == nil {
				continue // only side effects lead there: no way
			}
			ix.src = append(ix.src, int32(i))
			ix.dst = append(ix.dst, ix.id[to])
			ix.cost = append(ix.cost, edgeCost(t))
			ix.via = append(ix.via, t)
		}
		ix.off[i+1] = int32(len(ix.dst))
	}
	n := len(keys)
	ix.dist, ix.prev, ix.gen = make([]float64, n), make([]int32, n), make([]uint32, n)
	m.index = ix
	return ix
}

// shortest returns the edge indexes of the cheapest path src→dst.
func (ix *pathIndex) shortest(src, dst int32) ([]int32, bool) {
	ix.cur++
	if ix.cur == 0 { // wrapped: reset generations
		clear(ix.gen)
		ix.cur = 1
	}
	visit := func(n int32, d float64, e int32) bool {
		if ix.gen[n] == ix.cur && ix.dist[n] <= d {
			return false
		}
		ix.gen[n], ix.dist[n], ix.prev[n] = ix.cur, d, e
		return true
	}
	h := ix.heap[:0]
	visit(src, 0, -1)
	h = heapPush(h, heapItem{0, src})
	found := false
	for len(h) > 0 {
		var it heapItem
		it, h = heapPop(h)
		if it.d > ix.dist[it.n] {
			continue // stale entry
		}
		if it.n == dst {
			found = true
			break
		}
		for e := ix.off[it.n]; e < ix.off[it.n+1]; e++ {
			to, d := ix.dst[e], it.d+ix.cost[e]
			if visit(to, d, e) {
				h = heapPush(h, heapItem{d, to})
			}
		}
	}
	ix.heap = h[:0]
	if !found {
		return nil, false
	}
	var edges []int32
	for n := dst; n != src; {
		e := ix.prev[n]
		edges = append(edges, e)
		n = ix.src[e]
	}
	slices.Reverse(edges)
	return edges, true
}

func heapPush(h []heapItem, it heapItem) []heapItem {
	h = append(h, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h[p].d <= h[i].d {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	return h
}

func heapPop(h []heapItem) (heapItem, []heapItem) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l].d < h[m].d {
			m = l
		}
		if r < len(h) && h[r].d < h[m].d {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top, h
}

func (m *appMap) resolve(ref string) (string, error) {
	if _, ok := m.pages[ref]; ok {
		return ref, nil
	}
	var found []string
	for k, p := range m.pages {
		if p.ID == ref {
			return k, nil
		}
		if ref != "" && len(k) >= len(ref) && k[:len(ref)] == ref {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("page %q in %s: %w", ref, m.app, ErrNotFound)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("page %q in %s matches %d pages; use its ID: %w", ref, m.app, len(found), ErrAmbiguous)
}

func (m *appMap) path(from, to string) ([]Transition, error) {
	fk, err := m.resolve(from)
	if err != nil {
		return nil, err
	}
	tk, err := m.resolve(to)
	if err != nil {
		return nil, err
	}
	if fk == tk {
		return []Transition{}, nil
	}
	ix := m.pathIndex()
	edges, ok := ix.shortest(ix.id[fk], ix.id[tk])
	if !ok {
		return nil, fmt.Errorf("path %s → %s in %s: %w", from, to, m.app, ErrNoPath)
	}
	out := make([]Transition, len(edges))
	for i, e := range edges {
		out[i] = *ix.via[e]
	}
	return out, nil
}

// pathViaGraph answers the same question with dominikbraun/graph's
// ShortestPath (weights: cost in thousandths); kept for the benchmark.
func (m *appMap) pathViaGraph(from, to string) ([]Transition, error) {
	keys, err := graph.ShortestPath(m.g, from, to)
	if errors.Is(err, graph.ErrTargetNotReachable) {
		return nil, fmt.Errorf("path %s → %s in %s: %w", from, to, m.app, ErrNoPath)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Transition, 0, len(keys)-1)
	for i := 0; i+1 < len(keys); i++ {
		e, err := m.g.Edge(keys[i], keys[i+1])
		if err != nil {
			return nil, err
		}
		out = append(out, *e.Properties.Data.(*edgeBundle).best())
	}
	return out, nil
}

// Path returns the cheapest known route of transitions from one page of app
// to another (page keys, short IDs or unique key prefixes), preferring
// reliable edges (hop cost 1/reliability). Same-page transitions are never
// part of a path. From = To gives an empty path.
func (s *Store) Path(app, from, to string) ([]Transition, error) {
	var out []Transition
	err := s.withMap(app, func(m *appMap) error { var err error; out, err = m.path(from, to); return err })
	return out, err
}
