package mapview

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/knowledge"
)

// The layout is a layered one (Sugiyama's, much simplified): a page's layer is its depth
// from the app's entry pages along the map's transitions, breadth first, so a map reads
// top-down from where the app opens as the person would walk it; the pages of a layer are
// ordered by the mean position of their neighbours in the layers around them (a few
// sweeps of the barycentre heuristic), which keeps edges short and crossings few; and a
// layer wider than the map's column count wraps onto the next row, so a wide app (a
// settings list with twenty entries) makes a block, not one long strip.

// Sizes of the layout, in CSS pixels.
const (
	nodeW    = 116 // a page's card
	nodeH    = 252 // its picture (200) and a two-line name
	colGap   = 64
	rowGap   = 96
	margin   = 40
	minCols  = 3
	maxCols  = 12
	sweeps   = 4
	backBend = 36  // how far a back edge bows out to the side of its cards
	aspect   = 1.3 // the width:height the map aims at: a window's
)

// place is a page's position on the map: its card's top-left corner.
type place struct {
	X, Y int
	Row  int // the row it was drawn in
}

// layout places the pages of m and returns their places by page key, and the map's size.
func layout(m *knowledge.Map) (map[string]place, int, int) {
	n := len(m.Pages)
	out := make(map[string]place, n)
	if n == 0 {
		return out, 2 * margin, 2 * margin
	}
	order := make(map[string]int, n) // page key → its index in m.Pages (ID order)
	for i, p := range m.Pages {
		order[p.Key] = i
	}
	succ, pred := map[string][]string{}, map[string][]string{}
	seen := map[[2]string]bool{}
	for _, t := range m.Transitions {
		k := [2]string{t.From, t.To}
		if t.From == t.To || seen[k] {
			continue
		}
		seen[k] = true
		succ[t.From] = append(succ[t.From], t.To)
		pred[t.To] = append(pred[t.To], t.From)
	}
	for _, l := range []map[string][]string{succ, pred} {
		for k := range l {
			slices.SortFunc(l[k], func(a, b string) int { return cmp.Compare(order[a], order[b]) })
		}
	}

	// Layers: breadth first along the transitions from the first page seen (p1: where the
	// app opened the first time); a page no walk from there reaches (a dialog that popped
	// up, a page reached only from another app) goes one layer below the nearest page it
	// is linked to either way; a part of the map linked to none starts at the top again.
	depth := make(map[string]int, n)
	bfs := func(start string, next func(string) []string) {
		queue := []string{start}
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			for _, to := range next(k) {
				if _, ok := depth[to]; !ok {
					depth[to] = depth[k] + 1
					queue = append(queue, to)
				}
			}
		}
	}
	either := func(k string) []string { return append(slices.Clone(succ[k]), pred[k]...) }
	depth[m.Pages[0].Key] = 0
	bfs(m.Pages[0].Key, func(k string) []string { return succ[k] })
	for {
		// The reached pages linked to pages not reached yet, shallowest first.
		var from []string
		for k := range depth {
			for _, o := range either(k) {
				if _, ok := depth[o]; !ok {
					from = append(from, k)
					break
				}
			}
		}
		if len(from) == 0 {
			break
		}
		slices.SortFunc(from, func(a, b string) int { return cmp.Or(cmp.Compare(depth[a], depth[b]), cmp.Compare(order[a], order[b])) })
		bfs(from[0], either)
	}
	for _, p := range m.Pages {
		if _, ok := depth[p.Key]; !ok {
			depth[p.Key] = 0
			bfs(p.Key, either)
		}
	}
	layers := [][]string{}
	for _, p := range m.Pages {
		d := depth[p.Key]
		for len(layers) <= d {
			layers = append(layers, nil)
		}
		layers[d] = append(layers[d], p.Key)
	}

	// Order within layers: barycentre sweeps, down then up.
	pos := map[string]float64{}
	index := func() {
		for _, l := range layers {
			for i, k := range l {
				pos[k] = float64(i) / float64(max(1, len(l)-1))
			}
		}
	}
	index()
	bary := func(l []string, nb map[string][]string) {
		score := map[string]float64{}
		for _, k := range l {
			var sum float64
			var c int
			for _, o := range nb[k] {
				if depth[o] != depth[k] {
					sum += pos[o]
					c++
				}
			}
			score[k] = pos[k]
			if c > 0 {
				score[k] = sum / float64(c)
			}
		}
		slices.SortStableFunc(l, func(a, b string) int { return cmp.Compare(score[a], score[b]) })
	}
	for s := 0; s < sweeps; s++ {
		for _, l := range layers[1:] {
			bary(l, pred)
		}
		index()
		for i := len(layers) - 2; i >= 0; i-- {
			bary(layers[i], succ)
		}
		index()
	}

	// Rows: a layer wider than the column count wraps, and the count is the one that gives
	// the map a window's shape (aspect), so it fits a screen as a whole; every row is
	// centred.
	wrap := func(cols int) (rows [][]string, width, height int) {
		for _, l := range layers {
			for len(l) > cols {
				rows = append(rows, l[:cols])
				l = l[cols:]
			}
			rows = append(rows, l)
		}
		widest := 0
		for _, r := range rows {
			widest = max(widest, len(r))
		}
		width = 2*margin + widest*nodeW + (widest-1)*colGap + 2*backBend
		height = 2*margin + len(rows)*nodeH + (len(rows)-1)*rowGap
		return rows, width, height
	}
	rows, width, height := wrap(minCols)
	best := math.Inf(1)
	for cols := minCols; cols <= maxCols; cols++ {
		r, w, h := wrap(cols)
		if off := math.Abs(math.Log(float64(w) / float64(h) / aspect)); off < best-1e-9 {
			rows, width, height, best = r, w, h, off
		}
	}
	for ri, r := range rows {
		rw := len(r)*nodeW + (len(r)-1)*colGap
		x0 := (width - rw) / 2
		for i, k := range r {
			out[k] = place{X: x0 + i*(nodeW+colGap), Y: margin + ri*(nodeH+rowGap), Row: ri}
		}
	}
	return out, width, height
}

// edgePath is the SVG path of an edge from card a to card b and the point its label sits
// on. An edge down the map leaves a card's bottom for the next card's top; an edge up or
// across the map (most often Back) bows out to the side, so it never runs under a card;
// the edge back of a pair leaves and arrives a little aside, so the two stay apart.
func edgePath(a, b place, twin bool) (d string, lx, ly int) {
	f := strconv.Itoa
	shift := 0
	if twin {
		shift = 14
	}
	if b.Row > a.Row {
		x1, y1 := a.X+nodeW/2+shift, a.Y+nodeH
		x2, y2 := b.X+nodeW/2+shift, b.Y
		dy := max((y2-y1)/2, 30)
		d = "M" + f(x1) + " " + f(y1) + " C" + f(x1) + " " + f(y1+dy) + " " + f(x2) + " " + f(y2-dy) + " " + f(x2) + " " + f(y2)
		// The label sits on the curve near its end, where the edges fanning out of one
		// card have spread apart; every other column a little higher, so that the labels
		// of neighbouring cards do not overlap.
		t := 0.78
		if (b.X/(nodeW+colGap))%2 == 1 {
			t = 0.6
		}
		lx, ly = cubic(t, x1, x1, x2, x2), cubic(t, y1, y1+dy, y2-dy, y2)
		return d, lx, ly
	}
	// Up or across: from the card's left side to the other card's left side (right when
	// it lies to the right), bowing outward.
	side, out := 0, -backBend
	if b.X > a.X {
		side, out = nodeW, backBend
	}
	x1, y1 := a.X+side, a.Y+nodeH/2-shift
	x2, y2 := b.X+side, b.Y+nodeH/2+shift
	if a.Row == b.Row && a.X != b.X {
		// Across one row: over the top, from one card's top to the other's.
		x1, y1 = a.X+nodeW/2, a.Y
		x2, y2 = b.X+nodeW/2, b.Y
		lift := 40 + abs(x2-x1)/12
		d = "M" + f(x1) + " " + f(y1) + " C" + f(x1) + " " + f(y1-lift) + " " + f(x2) + " " + f(y2-lift) + " " + f(x2) + " " + f(y2)
		return d, (x1 + x2) / 2, y1 - lift*3/4
	}
	d = "M" + f(x1) + " " + f(y1) + " C" + f(x1+out) + " " + f(y1) + " " + f(x2+out) + " " + f(y2) + " " + f(x2) + " " + f(y2)
	return d, (x1+x2)/2 + out*3/4, (y1 + y2) / 2
}

// cubic is a coordinate of the cubic Bézier p0..p3 at t.
func cubic(t float64, p0, p1, p2, p3 int) int {
	u := 1 - t
	return int(math.Round(u*u*u*float64(p0) + 3*u*u*t*float64(p1) + 3*u*t*t*float64(p2) + t*t*t*float64(p3)))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// shortAction is an edge's label on the map: the action and what it acts on, clipped.
func shortAction(a knowledge.Action) string {
	s := string(a.Kind)
	t := a.Target
	switch {
	case t.Text != "":
		s += " “" + t.Text + "”"
	case t.Desc != "":
		s += " “" + t.Desc + "”"
	case t.ResourceID != "":
		id := t.ResourceID
		if i := strings.LastIndex(id, ":id/"); i >= 0 {
			id = id[i+4:]
		}
		s += " #" + id
	}
	if d := a.Args["direction"]; d != "" {
		s += " " + d
	}
	return clip(s, 24)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
