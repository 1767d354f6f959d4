package icons

import (
	"image"
	"math"
)

// bitmap is a black and white picture: ink or not.
type bitmap struct {
	w, h int
	ink  []bool
}

func newBitmap(w, h int) *bitmap { return &bitmap{w: w, h: h, ink: make([]bool, w*h)} }

// bounds is the box of the ink; empty when there is none.
func (b *bitmap) bounds() image.Rectangle {
	var r image.Rectangle
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if b.ink[y*b.w+x] {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

// gridSide is the side of the grid pictures are compared on, in cells.
const gridSide = 32

// grid is a picture normalised for comparison: its ink, scaled so that the ink's longer
// side spans the grid and centred; its edge (the cells of ink beside a cell of none), and
// the distance of every cell to the nearest edge. Pictures are compared by their edges: two
// filled shapes of a size overlap however they differ.
type grid struct {
	ink  [gridSide * gridSide]bool
	edge [gridSide * gridSide]bool
	dist [gridSide * gridSide]float32
	n    int // cells of edge
	// edgeAt lists the edge's cells, for comparing without scanning the grid.
	edgeAt []uint16
	// aspect is the ink's width over its height, before scaling.
	aspect float64
}

// minCover is how many of a cell's nine samples must be ink for the cell to be: a
// majority, so that a thin gap scaled down stays as a thin stroke does.
const minCover = 5

// normalise is b's ink on the grid (nil: no ink). Each cell samples 3×3 points of the
// pixels it covers.
func normalise(b *bitmap) *grid {
	r := b.bounds()
	if r.Empty() {
		return nil
	}
	g := &grid{aspect: float64(r.Dx()) / float64(r.Dy())}
	long := float64(max(r.Dx(), r.Dy()))
	s := long / gridSide // source pixels per cell
	// Centre the shorter side.
	ox := float64(r.Min.X) - (long-float64(r.Dx()))/2
	oy := float64(r.Min.Y) - (long-float64(r.Dy()))/2
	for gy := range gridSide {
		for gx := range gridSide {
			c := 0
			for sy := range 3 {
				y := int(oy + (float64(gy)+(float64(sy)+0.5)/3)*s)
				if y < r.Min.Y || y >= r.Max.Y {
					continue
				}
				for sx := range 3 {
					x := int(ox + (float64(gx)+(float64(sx)+0.5)/3)*s)
					if x >= r.Min.X && x < r.Max.X && b.ink[y*b.w+x] {
						c++
					}
				}
			}
			g.ink[gy*gridSide+gx] = c >= minCover
		}
	}
	g.n = edges(&g.ink, &g.edge)
	if g.n == 0 {
		return nil
	}
	g.edgeAt = make([]uint16, 0, g.n)
	for i, e := range g.edge {
		if e {
			g.edgeAt = append(g.edgeAt, uint16(i))
		}
	}
	distances(&g.edge, &g.dist)
	return g
}

// edges marks the cells of ink beside a cell of none (or the grid's side) and counts them.
func edges(ink, edge *[gridSide * gridSide]bool) int {
	const n = gridSide
	c := 0
	for y := range n {
		for x := range n {
			i := y*n + x
			if ink[i] && (x == 0 || y == 0 || x == n-1 || y == n-1 || !ink[i-1] || !ink[i+1] || !ink[i-n] || !ink[i+n]) {
				edge[i] = true
				c++
			}
		}
	}
	return c
}

// distances fills d by a two-pass chamfer transform (3-4 weights, in cells) of the
// distance to the nearest cell of edge.
func distances(edge *[gridSide * gridSide]bool, d *[gridSide * gridSide]float32) {
	const far = 1e6
	for i, v := range edge {
		if v {
			d[i] = 0
		} else {
			d[i] = far
		}
	}
	const a, b = 1, 4.0 / 3
	n := gridSide
	for y := range n {
		for x := range n {
			i := y*n + x
			if x > 0 {
				d[i] = min(d[i], d[i-1]+a)
			}
			if y > 0 {
				d[i] = min(d[i], d[i-n]+a)
				if x > 0 {
					d[i] = min(d[i], d[i-n-1]+b)
				}
				if x < n-1 {
					d[i] = min(d[i], d[i-n+1]+b)
				}
			}
		}
	}
	for y := n - 1; y >= 0; y-- {
		for x := n - 1; x >= 0; x-- {
			i := y*n + x
			if x < n-1 {
				d[i] = min(d[i], d[i+1]+a)
			}
			if y < n-1 {
				d[i] = min(d[i], d[i+n]+a)
				if x < n-1 {
					d[i] = min(d[i], d[i+n+1]+b)
				}
				if x > 0 {
					d[i] = min(d[i], d[i+n-1]+b)
				}
			}
		}
	}
}

// distance is how far apart a and b are: the root mean square distance of a cell of
// either's edge to the other's nearest, the larger of the two ways, in cells. The square
// weighs a stroke one has and the other lacks (a card's stripe, an envelope's flap) above
// a line drawn a little apart.
func distance(a, b *grid) float64 {
	return max(oneWay(a.edgeAt, &b.dist), oneWay(b.edgeAt, &a.dist))
}

func oneWay(edge []uint16, dist *[gridSide * gridSide]float32) float64 {
	var sum float32
	for _, i := range edge {
		d := dist[i]
		sum += d * d
	}
	return math.Sqrt(float64(sum) / float64(len(edge)))
}
