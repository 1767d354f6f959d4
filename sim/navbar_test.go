package sim

import (
	"bytes"
	"image"
	"image/png"
	"testing"
)

// TestNavBarIcons: the navigation bar draws its Back, Home and Overview icons — a triangle
// pointing left, a ring, a square — not the hollow box the renderer draws for a character
// the fonts lack (a narrow upright rectangle, the same for all three).
func TestNavBarIcons(t *testing.T) {
	p := newPhone(t)
	shot, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	bg := img.At(2, img.Bounds().Dy()-2) // the bar's background, at its corner
	ink := func(b image.Rectangle) (box image.Rectangle, px map[image.Point]bool) {
		px = map[image.Point]bool{}
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if img.At(x, y) != bg {
					px[image.Pt(x, y)] = true
					box = box.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		return box, px
	}
	icons := map[string]image.Rectangle{}
	for _, n := range allNodes(t, p) {
		if n.Class == "android.widget.ImageView" && (n.Desc == "Back" || n.Desc == "Home" || n.Desc == "Overview") {
			icons[n.Desc] = image.Rect(n.X1, n.Y1, n.X2, n.Y2)
		}
	}
	if len(icons) != 3 {
		t.Fatalf("navigation buttons in the dump: %v", icons)
	}
	shapes := map[string]image.Rectangle{}
	for desc, b := range icons {
		box, px := ink(b)
		if len(px) < 40 || box.Dx() < 20 || box.Dy() < 20 {
			t.Fatalf("%s: %d ink pixels in %v: no icon drawn", desc, len(px), box)
		}
		shapes[desc] = box
		// A missing glyph's box is about 0.45 as wide as it is tall; these icons are as
		// wide as they are tall.
		if r := float64(box.Dx()) / float64(box.Dy()); r < 0.8 || r > 1.25 {
			t.Errorf("%s: ink %v is %.2f as wide as tall, the shape of a missing-glyph box", desc, box, r)
		}
		column := func(x int) (n int) {
			for y := box.Min.Y; y < box.Max.Y; y++ {
				if px[image.Pt(x, y)] {
					n++
				}
			}
			return n
		}
		corner := func() (n int) {
			c := box.Dx() / 6
			for _, o := range []image.Point{box.Min, {box.Max.X - c, box.Min.Y}, {box.Min.X, box.Max.Y - c}, box.Max.Sub(image.Pt(c, c))} {
				_, k := ink(image.Rectangle{o, o.Add(image.Pt(c, c))}.Intersect(box))
				n += len(k)
			}
			return n
		}
		switch desc {
		case "Back": // a point on the left: the leftmost column has ink only near the middle
			if h := column(box.Min.X); h*4 > box.Dy() {
				t.Errorf("Back: the leftmost column has %d of %d pixels inked, not a point", h, box.Dy())
			}
			if h := column(box.Max.X - 1); h*4 < box.Dy()*3 {
				t.Errorf("Back: the right edge has %d of %d pixels inked, not a side", h, box.Dy())
			}
		case "Home": // a ring: the corners of its box are empty, its centre too
			if n := corner(); n > 0 {
				t.Errorf("Home: %d ink pixels in the corners of its box, not a ring", n)
			}
			if c := image.Pt((box.Min.X+box.Max.X)/2, (box.Min.Y+box.Max.Y)/2); px[c] {
				t.Errorf("Home: its centre is inked")
			}
		case "Overview": // a square: full sides
			if h := column(box.Min.X); h*2 < box.Dy() {
				t.Errorf("Overview: the left side has %d of %d pixels inked", h, box.Dy())
			}
		}
	}
	if t.Failed() {
		t.Logf("ink boxes: %v", shapes)
	}
}
