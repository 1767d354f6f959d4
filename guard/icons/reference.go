package icons

import (
	"image"
	"math"

	"golang.org/x/image/vector"
)

// reference is one icon of the set: its name in Material Icons, the word the guard reads
// it as ("" for an ordinary icon) and its outline (see glyphs_gen.go).
type reference struct {
	name, word string
	ops        string
	pts        []int16
}

// box is the outline's box in its own units.
func (r *reference) box() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 0; i+1 < len(r.pts); i += 2 {
		x, y := float64(r.pts[i]), float64(r.pts[i+1])
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	return
}

// render draws the outline so that its longer side is long pixels, as the icon's font
// draws it at that size, and returns its ink: covered at least half.
func (r *reference) render(long int) *bitmap {
	x0, y0, x1, y1 := r.box()
	s := float64(long) / max(x1-x0, y1-y0)
	w, h := int(math.Ceil((x1-x0)*s))+2, int(math.Ceil((y1-y0)*s))+2
	z := vector.NewRasterizer(w, h)
	pt := func(i int) (float32, float32) {
		return float32((float64(r.pts[2*i])-x0)*s + 1), float32((float64(r.pts[2*i+1])-y0)*s + 1)
	}
	k := 0
	open := false
	for _, op := range []byte(r.ops) {
		switch op {
		case 'm':
			if open {
				z.ClosePath()
			}
			z.MoveTo(pt(k))
			k, open = k+1, true
		case 'l':
			z.LineTo(pt(k))
			k++
		case 'q':
			bx, by := pt(k)
			cx, cy := pt(k + 1)
			z.QuadTo(bx, by, cx, cy)
			k += 2
		case 'c':
			bx, by := pt(k)
			cx, cy := pt(k + 1)
			dx, dy := pt(k + 2)
			z.CubeTo(bx, by, cx, cy, dx, dy)
			k += 3
		}
	}
	if open {
		z.ClosePath()
	}
	a := image.NewAlpha(image.Rect(0, 0, w, h))
	z.Draw(a, a.Bounds(), image.Opaque, image.Point{})
	b := newBitmap(w, h)
	for i, v := range a.Pix {
		b.ink[i] = v >= 128
	}
	return b
}
