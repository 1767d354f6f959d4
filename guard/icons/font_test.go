package icons

import (
	"image"
	"image/color"
	"image/draw"
	"os"
	"regexp"
	"strconv"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/fairy-go/fairy/internal/testenv"
)

// The tests draw icons with the font itself, as an app draws them, not with the embedded
// outlines the matcher compares them with.

const (
	fontFile  = "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"
	namesFile = "/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss"
)

// iconFont is Debian's Material Icons font and its code points by name. Without it the test
// is skipped, and fails under CI (scripts/test.sh installs fonts-material-design-icons-iconfont).
func iconFont(t testing.TB) (*opentype.Font, map[string]rune) {
	t.Helper()
	fb, err := os.ReadFile(fontFile)
	if err == nil {
		var nb []byte
		if nb, err = os.ReadFile(namesFile); err == nil {
			var f *opentype.Font
			if f, err = opentype.Parse(fb); err == nil {
				codes := map[string]rune{}
				for _, m := range regexp.MustCompile(`"([a-z0-9_]+)":\s*([0-9a-f]{4,5}),`).FindAllSubmatch(nb, -1) {
					v, _ := strconv.ParseUint(string(m[2]), 16, 32)
					codes[string(m[1])] = rune(v)
				}
				return f, codes
			}
		}
	}
	testenv.Missing(t, "the Material Icons font: %v (apt-get install fonts-material-design-icons-iconfont)", err)
	return nil, nil
}

// look is how an app draws an icon: its colour on a background.
type look struct {
	name   string
	fg, bg color.RGBA
}

var looks = []look{
	{"dark on white", color.RGBA{0x1f, 0x1f, 0x1f, 0xff}, color.RGBA{0xff, 0xff, 0xff, 0xff}},
	{"white on blue", color.RGBA{0xff, 0xff, 0xff, 0xff}, color.RGBA{0x19, 0x76, 0xd2, 0xff}},
	{"red on grey", color.RGBA{0xd3, 0x2f, 0x2f, 0xff}, color.RGBA{0xee, 0xee, 0xee, 0xff}},
	{"grey on black", color.RGBA{0xbb, 0xbb, 0xbb, 0xff}, color.RGBA{0x12, 0x12, 0x12, 0xff}},
}

// drawIcon draws icon code at px pixels in the middle of a button of twice its size (an
// icon button's touch target), on a screen of colour bg, and returns the screen and the
// button's box.
func drawIcon(t testing.TB, f *opentype.Font, code rune, px int, lk look) (*image.RGBA, image.Rectangle) {
	t.Helper()
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	screen := image.NewRGBA(image.Rect(0, 0, 6*px, 4*px))
	draw.Draw(screen, screen.Bounds(), image.NewUniform(color.RGBA{0x80, 0x40, 0x90, 0xff}), image.Point{}, draw.Src)
	button := image.Rect(2*px, px, 4*px, 3*px)
	draw.Draw(screen, button.Inset(-px/2), image.NewUniform(lk.bg), image.Point{}, draw.Src)
	gb, _, ok := face.GlyphBounds(code)
	if !ok {
		t.Fatalf("no glyph U+%04X", code)
	}
	cx, cy := fixed.I(button.Min.X+button.Max.X)/2, fixed.I(button.Min.Y+button.Max.Y)/2
	d := &font.Drawer{Dst: screen, Src: image.NewUniform(lk.fg), Face: face,
		Dot: fixed.Point26_6{X: cx - (gb.Min.X+gb.Max.X)/2, Y: cy - (gb.Min.Y+gb.Max.Y)/2}}
	d.DrawString(string(code))
	return screen, button
}
