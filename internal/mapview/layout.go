package mapview

import (
	"cmp"
	"image"
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
// settings list with twenty entries) makes a block, not one long strip; a card sits under
// the cards that lead to it, and narrow deep rows share a band, so the map fills a window.
// Edge labels go where along their edge they hide no other label and no card.

// Sizes of the layout, in CSS pixels. A card is its picture (picW×picH, half the
// learner's picture so that it is sharp at twice the size) over the page's name, in as
// many lines as the longest name of the map needs.
const (
	picW     = 108
	picH     = 240
	cardPad  = 14        // the card's border (1) and padding (6), both sides
	nodeW    = picW + 24 // a page's card: its picture, 12 pixels either side
	capPx    = 12        // the caption's font size
	capLine  = 15        // and line height
	labelPx  = 10        // an edge label's font size
	labelH   = 15        // an edge label's height
	colGap   = 64
	rowGap   = 120
	margin   = 40
	minCols  = 3
	maxCols  = 14 // in a window of the default shape (aspects[0]); wider ones take more
	sweeps   = 4
	backBend = 36 // how far a back edge bows out to the side of its cards
)

// The map is laid out for windows of several shapes (width:height), and the page shows
// the one that it draws largest in its window, at Fit and whenever the window changes;
// the first is the default window's map pane (1600×1200, less the side panel, the header
// and the footer).
var aspects = []float64{1.26, 0.8, 1.0, 1.55, 1.8, 2.1, 2.5}

// Captions at Fit: a map of many pages is drawn small, and its captions with it (a 32-page
// map fits a window at less than half its size: 12-pixel captions become 5 pixels). Below
// the zoom at which captions show minScreenPx high, the page draws them larger, at
// minScreenPx on the screen, over the lower part of the picture; they grow at most to
// overPx, the largest size at which every caption still fits its card.
const (
	minScreenPx = 10   // the smallest caption a person reads, in CSS pixels on the screen
	overLine    = 1.25 // a caption's line height over the picture, in font sizes
	maxOverPx   = 60
)

// overPx is the largest caption font size (in CSS pixels, at most maxOverPx) at which the
// longest caption of m, drawn over the picture, fits a card nodeH high.
func overPx(m *knowledge.Map, nodeH int) float64 {
	// The caption's box over the picture (3 pixels inside the card's border, 2 of padding),
	// measured on a selected card, whose border is 3 pixels wide.
	width, height := float64(nodeW-6-6-4), float64(nodeH-6-3-4-3)
	fits := func(px float64) bool {
		for _, p := range m.Pages {
			if float64(wrapCount(p.ID+"  "+p.Name(), px, width))*px*overLine > height {
				return false
			}
		}
		return true
	}
	px := float64(capPx)
	for px < maxOverPx && fits(px+0.5) {
		px += 0.5
	}
	return px
}

// place is a page's position on the map: its card's top-left corner.
type place struct {
	X, Y int
	Row  int // the row it was drawn in
}

// geometry is a laid-out map: the pages' places by page key, the map's size and the
// cards' height (the same for every card of the map).
type geometry struct {
	places        map[string]place
	width, height int
	nodeH         int
	capLines      int
}

// captionLines is how many lines the longest caption (a page's ID in bold, its name)
// takes on a card.
func captionLines(m *knowledge.Map) int {
	n := 2
	for _, p := range m.Pages {
		n = max(n, wrapCount(p.ID+"  "+p.Name(), capPx, nodeW-cardPad))
	}
	return n
}

// layout places the pages of m for a window of the shape aspect (width:height).
func layout(m *knowledge.Map, aspect float64) geometry {
	lines := captionLines(m)
	g := placeLayers(m, 6+picH+4+lines*capLine+8, aspect) // padding, picture, gap, caption, padding
	g.capLines = lines
	return g
}

// placeLayers is the layered layout with cards nodeH high, for a window of the shape
// aspect.
func placeLayers(m *knowledge.Map, nodeH int, aspect float64) geometry {
	n := len(m.Pages)
	out := make(map[string]place, n)
	if n == 0 {
		return geometry{places: out, width: 2 * margin, height: 2 * margin, nodeH: nodeH}
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
		slices.SortFunc(from, func(a, b string) int {
			return cmp.Or(cmp.Compare(depth[a], depth[b]),
				cmp.Compare(order[a], order[b]))
		})
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
	colsMax := max(maxCols, int(math.Round(maxCols*aspect/aspects[0])))
	rows, width, height := wrap(minCols)
	best := math.Inf(1)
	for cols := minCols; cols <= colsMax; cols++ {
		r, w, h := wrap(cols)
		if off := math.Abs(math.Log(float64(w) / float64(h) / aspect)); off < best-1e-9 {
			rows, width, height, best = r, w, h, off
		}
	}
	// Bands: a map much taller than a window (a few wide layers, then narrow deep ones, or
	// one long chain) would leave most of the window empty, so from the bottom up narrow
	// rows share a band side by side, groups apart, while the map gets nearer a window's
	// shape; a band may hold as many cards as the widest row, or more when that row is too
	// narrow to give the map a window's shape.
	widest, top := 0, 0
	for i, r := range rows {
		if len(r) > widest {
			widest, top = len(r), i
		}
	}
	widthOf := func(cards int) int { return 2*margin + cards*nodeW + (cards-1)*colGap + 2*backBend }
	bandH := func(n int) int { return 2*margin + n*nodeH + (n-1)*rowGap }
	span := func(b [][]string) int { // a band's width in cards, a group's gap counting as one
		n := -1
		for _, seg := range b {
			n += len(seg) + 1
		}
		return n
	}
	fold := func(capacity int) [][][]string {
		bands := make([][][]string, len(rows))
		for i, r := range rows {
			bands[i] = [][]string{r}
		}
		w := widthOf(capacity)
		off := func(n int) float64 { return math.Abs(math.Log(float64(w) / float64(bandH(n)) / aspect)) }
		for float64(w)/float64(bandH(len(bands))) < aspect {
			merged := false
			for i := len(bands) - 1; i > top+1; i-- {
				if span(bands[i-1])+1+span(bands[i]) <= capacity && off(len(bands)-1) < off(len(bands)) {
					bands[i-1] = append(bands[i-1], bands[i]...)
					bands = slices.Delete(bands, i, i+1)
					merged = true
					break
				}
			}
			if !merged {
				break
			}
		}
		return bands
	}
	var bands [][][]string
	best = math.Inf(1)
	for c := widest; c <= max(widest, colsMax); c++ {
		b := fold(c)
		used := 0
		for _, x := range b {
			used = max(used, span(x))
		}
		w, h := widthOf(used), bandH(len(b))
		if off := math.Abs(math.Log(float64(w) / float64(h) / aspect)); off < best-1e-9 {
			bands, width, height, best = b, w, h, off
		}
	}

	// Columns: the widest row sets the map's width; in a band of one row each card sits
	// under the middle of the cards that lead to it in the bands above (a child under its
	// parent), as near as the row's spacing allows, so a deep branch hangs below its own
	// entry, not in the middle of the map; a band of several rows sets them side by side.
	step := nodeW + colGap
	left, right := margin+backBend, width-margin-backBend-nodeW
	bandOf := map[string]int{}
	for bi, b := range bands {
		for _, seg := range b {
			for _, k := range seg {
				bandOf[k] = bi
			}
		}
	}
	for bi, b := range bands {
		var r []string
		var want []float64
		n := -1 // the band's width in card steps, groups one step apart
		for _, seg := range b {
			n += len(seg) + 1
		}
		x := float64(width-(n*nodeW+(n-1)*colGap)) / 2
		for si, seg := range b {
			if si > 0 {
				x += float64(step)
			}
			for _, k := range seg {
				w := x
				var sum float64
				c := 0
				for _, o := range pred[k] {
					if p, ok := out[o]; ok && bandOf[o] < bi {
						sum += float64(p.X)
						c++
					}
				}
				if c > 0 && len(b) == 1 {
					w = sum / float64(c)
				}
				r, want = append(r, k), append(want, w)
				x += float64(step)
			}
		}
		xs := spread(want, float64(step), float64(left), float64(right))
		for i, k := range r {
			out[k] = place{X: int(math.Round(xs[i])), Y: margin + bi*(nodeH+rowGap), Row: bi}
		}
	}
	return geometry{places: out, width: width, height: height, nodeH: nodeH}
}

// spread moves the positions want (in order) the least so that neighbours are at least
// step apart and all lie in [lo, hi].
func spread(want []float64, step, lo, hi float64) []float64 {
	xs := slices.Clone(want)
	for i := range xs {
		if i > 0 {
			xs[i] = max(xs[i], xs[i-1]+step)
		}
		xs[i] = max(xs[i], lo)
	}
	for i := len(xs) - 1; i >= 0; i-- {
		limit := hi
		if i < len(xs)-1 {
			limit = xs[i+1] - step
		}
		xs[i] = min(xs[i], limit)
	}
	return xs
}

// curve is a cubic Bézier from P[0] to P[3].
type curve struct{ P [4]image.Point }

// d is the curve as an SVG path.
func (c curve) d() string {
	f := strconv.Itoa
	p := c.P
	return "M" + f(p[0].X) + " " + f(p[0].Y) + " C" + f(p[1].X) + " " + f(p[1].Y) + " " + f(p[2].X) + " " + f(p[2].Y) + " " + f(p[3].X) + " " + f(p[3].Y)
}

// at is the point of the curve at t in [0,1].
func (c curve) at(t float64) image.Point {
	p := c.P
	return image.Pt(cubic(t, p[0].X, p[1].X, p[2].X, p[3].X), cubic(t, p[0].Y, p[1].Y, p[2].Y, p[3].Y))
}

// edgePath is the curve of an edge from card a to card b (cards nodeH high) and where
// along it (t) its label sits best. An edge down the map leaves a card's bottom for the
// next card's top; an edge up or across the map (most often Back) bows out to the side,
// so it never runs under a card; the edge back of a pair leaves and arrives a little
// aside, so the two stay apart.
func edgePath(a, b place, nodeH int, twin bool) (c curve, t float64) {
	shift := 0
	if twin {
		shift = 14
	}
	pt := image.Pt
	if b.Row > a.Row {
		x1, y1 := a.X+nodeW/2+shift, a.Y+nodeH
		x2, y2 := b.X+nodeW/2+shift, b.Y
		dy := max((y2-y1)/2, 30)
		// The label sits near the end, where the edges fanning out of one card have
		// spread apart.
		return curve{[4]image.Point{pt(x1, y1), pt(x1, y1+dy), pt(x2, y2-dy), pt(x2, y2)}}, 0.78
	}
	if a.Row == b.Row && a.X != b.X {
		// Across one row: over the top, from one card's top to the other's.
		x1, y1 := a.X+nodeW/2, a.Y
		x2, y2 := b.X+nodeW/2, b.Y
		lift := 40 + abs(x2-x1)/12
		return curve{[4]image.Point{pt(x1, y1), pt(x1, y1-lift), pt(x2, y2-lift), pt(x2, y2)}}, 0.5
	}
	// Up: from the card's left side to the other card's left side (right when it lies
	// to the right), bowing outward.
	side, out := 0, -backBend
	if b.X > a.X {
		side, out = nodeW, backBend
	}
	x1, y1 := a.X+side, a.Y+nodeH/2-shift
	x2, y2 := b.X+side, b.Y+nodeH/2+shift
	return curve{[4]image.Point{pt(x1, y1), pt(x1+out, y1), pt(x2+out, y2), pt(x2, y2)}}, 0.5
}

// labelBox is the box an edge label of text takes, centred on p.
func labelBox(text string, p image.Point) image.Rectangle {
	w := int(math.Ceil(textWidth(text, labelPx))) + 10 // padding and border
	return image.Rect(p.X-w/2, p.Y-labelH/2, p.X-w/2+w, p.Y-labelH/2+labelH)
}

// placeLabel finds where along c (first near t, then farther out, then a little off the
// curve) a label of text overlaps no card, no label placed so far and stays on the map;
// when the map has no such spot, the one that hides least.
func placeLabel(
	c curve, t float64, text string, bounds image.Rectangle, cards, placed []image.Rectangle,
) image.Rectangle {
	var best image.Rectangle
	bestCost := -1
	for _, dt := range []float64{0, -0.08, 0.08, -0.16, 0.16, -0.24, 0.24, -0.32, -0.4, 0.3} {
		tt := t + dt
		if tt < 0.05 || tt > 0.95 {
			continue
		}
		p := c.at(tt)
		for _, off := range []int{0, -labelH - 2, labelH + 2, -2 * (labelH + 2), 2 * (labelH + 2)} {
			r := labelBox(text, p.Add(image.Pt(0, off)))
			if !r.In(bounds) {
				continue
			}
			cost := 0
			for _, q := range cards {
				o := r.Intersect(q.Inset(-2))
				cost += 4 * o.Dx() * o.Dy()
			}
			for _, q := range placed {
				o := r.Intersect(q.Inset(-1))
				cost += o.Dx() * o.Dy()
			}
			if cost == 0 {
				return r
			}
			if bestCost < 0 || cost < bestCost {
				best, bestCost = r, cost
			}
		}
	}
	if bestCost < 0 { // nothing fits the map: on the curve, moved onto the map
		r := labelBox(text, c.at(t))
		r = r.Add(image.Pt(max(0, bounds.Min.X-r.Min.X)-max(0, r.Max.X-bounds.Max.X),
			max(0, bounds.Min.Y-r.Min.Y)-max(0, r.Max.Y-bounds.Max.Y)))
		return r
	}
	return best
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
