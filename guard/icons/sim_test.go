package icons

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"testing"

	"github.com/fairy-go/fairy/sim"
)

// phoneShot starts app on a virtual phone and returns the phone and its screenshot.
func phoneShot(t testing.TB, cmd string) (*sim.Phone, image.Image) {
	t.Helper()
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Shell(t.Context(), cmd, io.Discard); err != nil {
		t.Fatal(err)
	}
	shot, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	return p, img
}

// TestLumenToolbar: the virtual phone's Lumen draws its toolbar's icons by hand, not from
// the font — a bin with slots, three dots joined for share, a star, a turning arrow — light
// on a blue bar. The bin is a delete and the share a share; the star and the arrow are
// nothing the guard holds.
func TestLumenToolbar(t *testing.T) {
	p, img := phoneShot(t, "am start -n com.fairy.lumen/.MainActivity")
	want := map[string]string{"trash": "delete", "share": "share", "star": "", "rotate": ""}
	icons := p.DrawnIcons()
	if len(icons) != len(want) {
		t.Fatalf("Lumen draws %v, want %d icons", icons, len(want))
	}
	m := NewMatcher()
	for _, ic := range icons {
		// Where the pixel reader finds it: the ink's box, not the icon's cell.
		got, ok := m.Match(img, inkBox(img, ic.Bounds))
		if ok != (want[ic.Glyph] != "") || got.Word != want[ic.Glyph] && ok {
			t.Errorf("%s: got %+v ok=%v, want %q", ic.Glyph, got, ok, want[ic.Glyph])
		}
		t.Logf("%s → %+v ok=%v", ic.Glyph, got, ok)
		// The cell the app drew it in, with the bar around.
		if got2, ok2 := m.Match(img, ic.Bounds); ok2 != ok || got2.Word != got.Word {
			t.Errorf("%s in its cell: got %+v ok=%v, in its ink's box %+v", ic.Glyph, got2, ok2, got)
		}
	}
}

// inkBox is the box of what differs from r's corner colour inside r.
func inkBox(img image.Image, r image.Rectangle) image.Rectangle {
	bg := img.At(r.Min.X, r.Min.Y)
	br, bgc, bb, _ := bg.RGBA()
	var out image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if max(absDiff(uint8(cr>>8), uint8(br>>8)), absDiff(uint8(cg>>8), uint8(bgc>>8)), absDiff(uint8(cb>>8), uint8(bb>>8))) >= inkFloor {
				out = out.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return out
}
