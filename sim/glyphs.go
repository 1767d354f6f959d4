package sim

import (
	"image"
	"image/color"
	"math"
	"slices"
)

// Icons a canvas draws with no text and no description, as toolbars of apps drawn by
// Flutter or a game engine show them: filled pictograms in the item's box, in the text
// colour. Nothing but the pixels says what they are.

// glyphNames are the pictograms drawGlyph knows.
var glyphNames = []string{"star", "share", "rotate", "trash"}

func validGlyph(name string) bool { return slices.Contains(glyphNames, name) }

// drawGlyph draws the pictogram name centred in b, filling 3/4 of its shorter side.
func drawGlyph(img *image.RGBA, name string, b image.Rectangle, c color.RGBA) {
	cx, cy := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	rad := float64(min(b.Dx(), b.Dy())) * 3 / 8
	in := func(x, y float64) bool { return false }
	// segment reports a point within w of the segment (x1,y1)-(x2,y2).
	segment := func(x, y, x1, y1, x2, y2, w float64) bool {
		dx, dy := x2-x1, y2-y1
		t := math.Max(0, math.Min(1, ((x-x1)*dx+(y-y1)*dy)/(dx*dx+dy*dy)))
		return math.Hypot(x-(x1+t*dx), y-(y1+t*dy)) <= w
	}
	switch name {
	case "star":
		// A five-pointed star: inside the polygon of its ten corners.
		var px, py [10]float64
		for i := range 10 {
			r := rad
			if i%2 == 1 {
				r = rad * 0.45
			}
			a := -math.Pi/2 + float64(i)*math.Pi/5
			px[i], py[i] = cx+r*math.Cos(a), cy+r*math.Sin(a)
		}
		in = func(x, y float64) bool {
			inside := false
			for i, j := 0, 9; i < 10; j, i = i, i+1 {
				if (py[i] > y) != (py[j] > y) && x < (px[j]-px[i])*(y-py[i])/(py[j]-py[i])+px[i] {
					inside = !inside
				}
			}
			return inside
		}
	case "share":
		// Three dots joined by two lines: one on the left, two on the right.
		dot := rad * 0.3
		lx, rx, ty, by := cx-rad*0.7, cx+rad*0.7, cy-rad*0.7, cy+rad*0.7
		in = func(x, y float64) bool {
			return math.Hypot(x-lx, y-cy) <= dot || math.Hypot(x-rx, y-ty) <= dot || math.Hypot(x-rx, y-by) <= dot ||
				segment(x, y, lx, cy, rx, ty, rad*0.09) || segment(x, y, lx, cy, rx, by, rad*0.09)
		}
	case "rotate":
		// Three quarters of a ring, open at the top right, with an arrowhead at its end.
		in = func(x, y float64) bool {
			d := math.Hypot(x-cx, y-cy)
			a := math.Atan2(y-cy, x-cx) // 0 to the right, growing clockwise (y down)
			ring := d <= rad*0.8 && d >= rad*0.55 && !(a < 0 && a > -math.Pi/2)
			hx, hy := cx+rad*0.675, cy // the ring's end on the right
			head := y <= hy && y >= hy-rad*0.5 && math.Abs(x-hx) <= (y-(hy-rad*0.5))*0.7
			return ring || head
		}
	case "trash":
		// A bin: a lid with a handle over a body narrowing to the bottom, with two slots.
		in = func(x, y float64) bool {
			dx, dy := math.Abs(x-cx), y-cy
			lid := dy >= -rad*0.8 && dy <= -rad*0.6 && dx <= rad*0.8
			handle := dy >= -rad && dy < -rad*0.8 && dx <= rad*0.3
			body := dy >= -rad*0.5 && dy <= rad && dx <= rad*0.65-(dy+rad*0.5)*0.1
			slot := dy >= -rad*0.3 && dy <= rad*0.8 && math.Abs(dx-rad*0.25) <= rad*0.07
			return lid || handle || (body && !slot)
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if in(float64(x)+0.5, float64(y)+0.5) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}
