package sim

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strconv"
	"testing"
)

// glyphCell is the ink of one character cell drawn by renderer.text at px pixels, left
// aligned in box from x: a pixel is ink when it is darker than mid-grey.
type glyphCell struct {
	ink      []bool
	interior int // ink pixels inside the cell, away from where a missing glyph's box is drawn
	border   int // ink pixels on the missing-glyph box's outline
}

func cellAt(img image.Image, box image.Rectangle, x, px int) glyphCell {
	base := box.Min.Y + (box.Dy()+px*7/10)/2
	tofu := image.Rect(x+px/10, base-px*8/10, x+px-px/10, base+px/10)
	inner := tofu.Inset(max(1, px/16) + 2)
	cell := image.Rect(x, base-px, x+px, base+px/4)
	var c glyphCell
	for y := cell.Min.Y; y < cell.Max.Y; y++ {
		for xx := cell.Min.X; xx < cell.Max.X; xx++ {
			r, g, b, _ := img.At(xx, y).RGBA()
			ink := (r+g+b)/3 < 0x8000
			c.ink = append(c.ink, ink)
			p := image.Pt(xx, y)
			switch {
			case !ink:
			case p.In(inner):
				c.interior++
			case p.In(tofu):
				c.border++
			}
		}
	}
	return c
}

func differ(a, b glyphCell) int {
	n := 0
	for i := range a.ink {
		if a.ink[i] != b.ink[i] {
			n++
		}
	}
	return n
}

// titleBox is the bounds of the dumped TextView showing text.
func titleBox(t *testing.T, dump []byte, text string) image.Rectangle {
	t.Helper()
	re := regexp.MustCompile(`text="` + regexp.QuoteMeta(text) + `"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"`)
	m := re.FindSubmatch(dump)
	if m == nil {
		t.Fatalf("no %q on the screen:\n%s", text, dump)
	}
	var v [4]int
	for i := range v {
		v[i], _ = strconv.Atoi(string(m[i+1]))
	}
	return image.Rect(v[0], v[1], v[2], v[3])
}

// TestChineseMenuIsDrawn: the demo's shop menu draws its Chinese names with real glyphs —
// ink inside each character's cell, where a missing glyph's box has none; two different
// characters differ, and each differs from the box the phone draws for a character its
// fonts lack.
func TestChineseMenuIsDrawn(t *testing.T) {
	p, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := p.Shell(t.Context(), "monkey -p com.fairy.shop -c android.intent.category.LAUNCHER 1", &out); err != nil {
		t.Fatal(err)
	}
	raw, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	shot, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	dump := p.Dump()
	m := p.metrics()
	px := m.dp(16) // list row titles

	// The box of a character neither font has, drawn the same way.
	missing := image.NewRGBA(image.Rect(0, 0, 4*px, 2*px))
	fill(missing, missing.Bounds(), color.RGBA{255, 255, 255, 255})
	r := &renderer{p: p, img: missing, pal: paletteFor(false), m: m}
	r.text("龘", missing.Bounds(), px, color.RGBA{0, 0, 0, 255}, false, false)
	tofu := cellAt(missing, missing.Bounds(), 0, px)
	if tofu.interior != 0 || tofu.border < px {
		t.Fatalf("the missing-glyph box: %d ink pixels inside, %d on its outline; the check cannot tell glyphs from boxes", tofu.interior, tofu.border)
	}

	cells := map[string][]glyphCell{}
	for _, name := range []string{"珍珠奶茶", "芒果冰沙"} {
		box := titleBox(t, dump, name)
		for i, ch := range []rune(name) {
			c := cellAt(shot, box, box.Min.X+i*px, px)
			area := len(c.ink)
			if c.interior < area/30 {
				t.Errorf("%q in %q: %d ink pixels inside its cell of %d: drawn as an empty box, not a glyph", ch, name, c.interior, area)
			}
			if d := differ(c, tofu); d < area/20 {
				t.Errorf("%q in %q differs from the missing-glyph box in %d pixels only", ch, name, d)
			}
			cells[name] = append(cells[name], c)
		}
	}
	zhen, mang := cells["珍珠奶茶"][0], cells["芒果冰沙"][0]
	if d := differ(zhen, mang); d < len(zhen.ink)/20 {
		t.Errorf("珍 and 芒 differ in %d pixels only: the same shape drawn for two characters", d)
	}
	// 茶 ends 珍珠奶茶 and is drawn again in the 抹茶拿铁 row: one character, one shape.
	cha := cells["珍珠奶茶"][3]
	box := titleBox(t, dump, "抹茶拿铁")
	if d := differ(cha, cellAt(shot, box, box.Min.X+px, px)); d > len(cha.ink)/50 {
		t.Errorf("茶 drawn twice differs in %d pixels", d)
	}
}
