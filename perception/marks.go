package perception

import (
	"fmt"
	"image"
	"image/color"
	"slices"
)

// A region the tree does not describe may draw controls with no text at all: a toolbar of
// icons in a Flutter or game canvas. OCR reads nothing there, so the region would offer
// nothing to tap. Like AppAgent's grid, which numbers cells where the tree has no
// elements, the pixel reader numbers what is drawn there — but only shapes of an icon's
// size that stand apart from the text read, so a page of text gains no cells and the model
// is not handed dozens of empty ones. Each becomes an element ("icon 2", Drawn): what it
// shows is for a model that sees the picture (the set-of-mark image boxes it) to judge.

// Size of a mark, as a share of the screenshot's width: an icon of 24dp on a 412dp-wide
// phone is about 1/17; letters of body text are narrower than markMinSide, a card or a
// picture wider than markMaxSide.
const (
	markMinSide = 40 // the shorter side at least width/markMinSide
	markMinLong = 30 // the longer side at least width/markMinLong
	markMaxSide = 7  // each side at most width/markMaxSide
	markMaxAR   = 3  // longer side at most markMaxAR times the shorter
	// Text read inside a shape covering at most 1/markTextShare of it is the shape's
	// detail; a badge's or a chip's text covers more of it.
	markTextShare = 4
	// markGap joins ink this near (in half-resolution pixels, about 2dp on a phone) into
	// one shape: an icon's parts (a bin's lid and body) are drawn apart.
	markGap = 3
)

// findMarks finds the marks of region rr of img: connected shapes of ink (far from the
// region's commonest shade, like text's ink in buildStrip) of an icon's size and shape that
// no text in read (relative to rr) touches, but for text wholly inside the shape and small
// beside it, which is the shape's detail: detail lists those (indexes into read). Marks
// are relative to rr, in reading order. The mask is searched at half resolution: an icon
// is many pixels wide.
func findMarks(img image.Image, rr image.Rectangle, read []TextBox) (marks []image.Rectangle, detail []int) {
	rr = rr.Intersect(img.Bounds())
	sw := img.Bounds().Dx()
	w, h := rr.Dx()/2, rr.Dy()/2
	if w < 4 || h < 4 || sw == 0 {
		return nil, nil
	}
	// Luminance at every other pixel of every other row.
	g := make([]uint8, w*h)
	if pix, stride, rect, ok := rgbaPix(img); ok {
		for y := 0; y < h; y++ {
			row := pix[(rr.Min.Y+2*y-rect.Min.Y)*stride+(rr.Min.X-rect.Min.X)*4:]
			for x := 0; x < w; x++ {
				p := row[x*8:]
				g[y*w+x] = uint8((299*uint32(p[0]) + 587*uint32(p[1]) + 114*uint32(p[2])) / 1000)
			}
		}
	} else {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				g[y*w+x] = color.GrayModel.Convert(img.At(rr.Min.X+2*x, rr.Min.Y+2*y)).(color.Gray).Y
			}
		}
	}
	var shapes []image.Rectangle
	top, bg := inkShapes(g, w, image.Rect(0, 0, w, h))
	for _, c := range top {
		b := image.Rect(c.Min.X*2, c.Min.Y*2, c.Max.X*2, c.Max.Y*2)
		if max(b.Dx(), b.Dy())*markMaxSide <= sw {
			shapes = append(shapes, b)
			continue
		}
		// Larger than an icon: a bar, a button, a card. Icons drawn on it are shapes of
		// ink against its own colour (light icons on a coloured toolbar) — where it is
		// mostly its own colour, not the page's (roads crossing a map).
		in, own := inkShapes(g, w, c)
		if absDiff(own, bg) < inkFloor {
			continue
		}
		for _, s := range in {
			shapes = append(shapes, image.Rect(s.Min.X*2, s.Min.Y*2, s.Max.X*2, s.Max.Y*2))
		}
	}
	for _, b := range shapes {
		short, long := min(b.Dx(), b.Dy()), max(b.Dx(), b.Dy())
		if short*markMinSide < sw || long*markMinLong < sw || long*markMaxSide > sw || long > short*markMaxAR {
			continue
		}
		// Text read near the shape: the shape is (part of) that text, or lies where a tap is
		// the text's — within a line's height above and below it, and as much or 1/20 of
		// the width beside it, the reach by which the guard judges a tap near drawn text
		// (Screen.ReadNear): an icon drawn just before "Delete" is the word's, a pin's
		// name is the pin's — unless all of the text lies inside the shape and covers a
		// small part of it: then it is the picture's detail read as letters (a bin's slots
		// as "I|"). Inside is 4/5 of the text's box: a line's box is padded.
		var inside []int
		text := false
		for k, t := range read {
			tb := image.Rect(t.Bounds.X1, t.Bounds.Y1, t.Bounds.X2, t.Bounds.Y2)
			switch {
			case !image.Rect(tb.Min.X-max(tb.Dy(), sw/20), tb.Min.Y-tb.Dy(), tb.Max.X+max(tb.Dy(), sw/20), tb.Max.Y+tb.Dy()).Overlaps(b):
			case area(tb.Intersect(b))*5 >= area(tb)*4 && area(tb)*markTextShare <= area(b):
				inside = append(inside, k)
			default:
				text = true
			}
		}
		if text {
			continue
		}
		marks = append(marks, b)
		detail = append(detail, inside...)
	}
	slices.SortFunc(marks, func(a, b image.Rectangle) int {
		if a.Max.Y <= b.Min.Y {
			return -1
		}
		if b.Max.Y <= a.Min.Y {
			return 1
		}
		return a.Min.X - b.Min.X
	})
	return marks, detail
}

// inkShapes are the boxes of the shapes of ink in area of g (half-resolution luminance,
// w wide): pixels at least inkFloor from area's commonest shade bg, joined when markGap
// or nearer.
func inkShapes(g []uint8, w int, area image.Rectangle) (shapes []image.Rectangle, bg uint8) {
	var hist [256]int
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for _, v := range g[y*w+area.Min.X : y*w+area.Max.X] {
			hist[v]++
		}
	}
	common := 0
	for v := range hist {
		if hist[v] > hist[common] {
			common = v
		}
	}
	bg = uint8(common)
	aw, ah := area.Dx(), area.Dy()
	ink := make([]bool, aw*ah)
	for y := 0; y < ah; y++ {
		for x := 0; x < aw; x++ {
			ink[y*aw+x] = absDiff(g[(area.Min.Y+y)*w+area.Min.X+x], bg) >= inkFloor
		}
	}
	seen := make([]bool, aw*ah)
	stack := make([]int32, 0, 1024)
	for i := range ink {
		if !ink[i] || seen[i] {
			continue
		}
		box := image.Rect(i%aw, i/aw, i%aw+1, i/aw+1)
		seen[i] = true
		stack = append(stack[:0], int32(i))
		for len(stack) > 0 {
			p := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			px, py := p%aw, p/aw
			box = box.Union(image.Rect(px, py, px+1, py+1))
			for dy := -markGap; dy <= markGap; dy++ {
				for dx := -markGap; dx <= markGap; dx++ {
					nx, ny := px+dx, py+dy
					if nx < 0 || ny < 0 || nx >= aw || ny >= ah {
						continue
					}
					if q := ny*aw + nx; ink[q] && !seen[q] {
						seen[q] = true
						stack = append(stack, int32(q))
					}
				}
			}
		}
		shapes = append(shapes, box.Add(area.Min))
	}
	return shapes, bg
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }

// mark is a shape found by findMarks: its box, and its look (see lookOf).
type mark struct {
	box  image.Rectangle
	look string
}

// lookOf names what r of img shows, the same on every screen and in every run that draws
// the same pixels there: "mark_" and a hash of them. A learned step on a mark finds it
// again by its look as well as its number, so a replay never taps whatever icon has since
// taken its place.
func lookOf(img image.Image, r image.Rectangle) string {
	return fmt.Sprintf("mark_%08x", uint32(fnvString(fnvOffset, string(gray(img, r.Intersect(img.Bounds()))))))
}

// addMarks adds marks (in screen pixels) to s, in reading order, as elements numbered
// after the others: role icon, labelled "icon K" (the K-th mark of the screen: the label
// only numbers it, the picture shows what it is), the id of its look (see lookOf), Drawn,
// tappable.
func (s *Screen) addMarks(marks []mark) {
	for _, m := range marks {
		b := Bounds{X1: m.box.Min.X, Y1: m.box.Min.Y, X2: m.box.Max.X, Y2: m.box.Max.Y}
		label := fmt.Sprintf("icon %d", len(s.Marks)+1)
		e := Element{
			Index: len(s.Elements) + 1, Role: "icon", Label: label, ResourceID: drawnIDPrefix + m.look, Class: drawnClass,
			Package: s.Package, Bounds: b, Center: b.Center(), Clickable: true, Enabled: true, Drawn: true,
		}
		s.lines = append(s.lines, line{depth: 0, elem: int32(len(s.Elements))})
		s.Elements = append(s.Elements, e)
		s.Marks = append(s.Marks, b)
	}
}

// drawnClass is the class of a mark's element, drawnIDPrefix the start of its id: no view
// has them.
const (
	drawnClass    = "fairy.DrawnInPicture"
	drawnIDPrefix = "fairy.picture:id/"
)

// markNote is what the text form writes after a mark.
const markNote = "(drawn in the picture, no text)"
