package guard

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/perception"
)

// materialFont is Debian's Material Icons font (fonts-material-design-icons-iconfont, which
// scripts/test.sh installs): the test draws an app's icons with it, as apps do. Without it
// the test is skipped, and fails under CI.
func materialFont(t *testing.T) *opentype.Font {
	t.Helper()
	b, err := os.ReadFile("/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf")
	if err == nil {
		var f *opentype.Font
		if f, err = opentype.Parse(b); err == nil {
			return f
		}
	}
	testenv.Missing(t, "the Material Icons font: %v (apt-get install fonts-material-design-icons-iconfont)", err)
	return nil
}

// iconButton is an ImageButton with no text and no description, and the Material icon it
// shows, in its colour on its background.
type iconButton struct {
	code   rune
	name   string
	fg, bg color.RGBA
	want   string // the category the guard holds it for, "" for none
}

// TestGuardIconByPicture: a toolbar of ImageButtons with no text, no description and no
// telling id. With the screen's picture, the bin and the paper plane are held as a delete
// and a send, a cart as an order, a card as a payment; back, menu, search and settings are
// not. Without a picture nothing is held (the tree says nothing), and a button whose
// description speaks is judged by its words, whatever it looks like.
func TestGuardIconByPicture(t *testing.T) {
	f := materialFont(t)
	white, dark, blue := color.RGBA{255, 255, 255, 255}, color.RGBA{0x21, 0x21, 0x21, 255}, color.RGBA{0x19, 0x76, 0xd2, 255}
	buttons := []iconButton{
		{0xe872, "delete", white, blue, "delete"},
		{0xe163, "send", dark, white, "send"},
		{0xe8cc, "shopping_cart", white, blue, "order"},
		{0xe8a1, "payment", dark, white, "payment"},
		{0xe5c4, "arrow_back", white, blue, ""},
		{0xe5d2, "menu", dark, white, ""},
		{0xe8b6, "search", white, blue, ""},
		{0xe8b8, "settings", dark, white, ""},
		{0xe92e, "delete_outline", white, blue, "delete"}, // with a description: see below
	}
	const side, px = 126, 63 // a 48dp button with a 24dp icon at 2.625x
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		t.Fatal(err)
	}
	var nodes strings.Builder
	for i, b := range buttons {
		r := image.Rect(30+(i%8)*side, 200+(i/8)*side, 30+(i%8+1)*side, 200+(i/8+1)*side)
		draw.Draw(img, r, image.NewUniform(b.bg), image.Point{}, draw.Src)
		gb, _, _ := face.GlyphBounds(b.code)
		c := fixed.P((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
		d := &font.Drawer{Dst: img, Src: image.NewUniform(b.fg), Face: face, Dot: fixed.Point26_6{X: c.X - (gb.Min.X+gb.Max.X)/2, Y: c.Y - (gb.Min.Y+gb.Max.Y)/2}}
		d.DrawString(string(b.code))
		desc := ""
		if i == len(buttons)-1 {
			desc = "Back"
		}
		fmt.Fprintf(&nodes, `<node index="%d" text="" resource-id="com.example.toolbar:id/b%d" class="android.widget.ImageButton" package="com.example.toolbar" content-desc="%s" clickable="true" enabled="true" focusable="true" bounds="[%d,%d][%d,%d]" />`,
			i, i, desc, r.Min.X, r.Min.Y, r.Max.X, r.Max.Y)
	}
	xml := `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.toolbar" content-desc="" bounds="[0,0][1080,2400]">` +
		nodes.String() + `</node></hierarchy>`
	judge := func(g *Guard, s *perception.Screen) []string {
		var got []string
		for _, b := range buttons {
			var el *perception.Element
			for i := range s.Elements {
				if s.Elements[i].ResourceID == fmt.Sprintf("com.example.toolbar:id/b%d", slicesIndex(buttons, b.name)) {
					el = &s.Elements[i]
				}
			}
			if el == nil {
				t.Fatalf("no element for %s:\n%s", b.name, s.Text())
			}
			v, _ := g.Check(event.Action{Type: event.Tap, Index: el.Index}, el, s)
			got = append(got, v.Category)
		}
		return got
	}
	s, err := perception.Parse([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	if got := judge(g, s); strings.Join(got, "") != "" {
		t.Errorf("without a picture: held %q, want nothing", got)
	}
	g.SeePicture(s, func() image.Image { return img })
	got := judge(g, s)
	for i, b := range buttons {
		want := b.want
		if i == len(buttons)-1 {
			want = "" // described as Back: its words speak
		}
		if got[i] != want {
			t.Errorf("%s: held for %q, want %q", b.name, got[i], want)
		}
	}
	el := &s.Elements[0]
	if v, ok := g.Check(event.Action{Type: event.Tap, Index: el.Index}, el, s); !ok || !strings.Contains(v.Subject, "(drawn as a bin)") {
		t.Errorf("the bin's verdict %+v does not say what it is drawn as", v)
	}
}

func slicesIndex(bs []iconButton, name string) int {
	for i, b := range bs {
		if b.name == name {
			return i
		}
	}
	return -1
}

// BenchmarkGuardIconPage: Offers on a page of 40 ImageButtons with no words (a grid of
// ten Material icons in four looks), with its picture: every button's crop is matched. A
// phone shows the same icons screen after screen: "remembered" is a new screen of the same
// pixels (each crop found by its hash), "first" a new guard each time (every crop matched
// afresh, the references rendered at its scale once).
func BenchmarkGuardIconPage(b *testing.B) {
	bf, err := os.ReadFile("/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf")
	if err != nil {
		testenv.Missing(b, "%v", err)
	}
	f, err := opentype.Parse(bf)
	if err != nil {
		b.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 63, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		b.Fatal(err)
	}
	codes := []rune{0xe872, 0xe163, 0xe8cc, 0xe8a1, 0xe80d, 0xe5c4, 0xe5d2, 0xe8b6, 0xe8b8, 0xe838}
	looks := [][2]color.RGBA{{{255, 255, 255, 255}, {0x19, 0x76, 0xd2, 255}}, {{0x21, 0x21, 0x21, 255}, {255, 255, 255, 255}},
		{{0xd3, 0x2f, 0x2f, 255}, {0xee, 0xee, 0xee, 255}}, {{0xbb, 0xbb, 0xbb, 255}, {0x12, 0x12, 0x12, 255}}}
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	var nodes strings.Builder
	for i := range 40 {
		r := image.Rect(30+(i%8)*126, 200+(i/8)*126, 30+(i%8+1)*126, 200+(i/8+1)*126)
		lk := looks[i/10]
		draw.Draw(img, r, image.NewUniform(lk[1]), image.Point{}, draw.Src)
		code := codes[i%10]
		gb, _, _ := face.GlyphBounds(code)
		c := fixed.P((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
		d := &font.Drawer{Dst: img, Src: image.NewUniform(lk[0]), Face: face, Dot: fixed.Point26_6{X: c.X - (gb.Min.X+gb.Max.X)/2, Y: c.Y - (gb.Min.Y+gb.Max.Y)/2}}
		d.DrawString(string(code))
		fmt.Fprintf(&nodes, `<node index="%d" text="" resource-id="" class="android.widget.ImageButton" package="com.example.grid" content-desc="" clickable="true" enabled="true" bounds="[%d,%d][%d,%d]" />`,
			i, r.Min.X, r.Min.Y, r.Max.X, r.Max.Y)
	}
	xml := []byte(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.grid" content-desc="" bounds="[0,0][1080,2400]">` +
		nodes.String() + `</node></hierarchy>`)
	page, err := perception.Parse(xml)
	if err != nil {
		b.Fatal(err)
	}
	held := func(g *Guard) int {
		s := *page
		g.SeePicture(&s, func() image.Image { return img })
		return len(g.Offers(&s))
	}
	g, err := New(DefaultPolicy())
	if err != nil {
		b.Fatal(err)
	}
	if n := held(g); n != 16 {
		b.Fatalf("held %d of the 40 buttons, want 16 (bin, plane, cart, card in four looks)", n)
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			g, _ := New(DefaultPolicy())
			b.StartTimer()
			held(g)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/screen")
	})
	b.Run("remembered", func(b *testing.B) {
		for b.Loop() {
			held(g)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/screen")
	})
}
