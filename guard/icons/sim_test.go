package icons

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/perception"
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

// TestPhoneScreens: the icon buttons the virtual phone draws (from the Material Icons font,
// as its apps' vector drawables) on the first screens of its apps and the screens one tap
// away, judged by their picture alone (their descriptions hidden): a delete and a send are
// taken for what they are, back, search, settings, more options, close, add, edit, call and
// the rest never for a sensitive icon. Without the font the phone draws letters, and the
// test is skipped (failed under CI).
func TestPhoneScreens(t *testing.T) {
	testenv.MustHaveFullTier(t, "opens every screen one tap away from the apps' first")
	iconFont(t)
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sh := func(cmd string) {
		if _, err := p.Shell(t.Context(), cmd, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	m := NewMatcher()
	seen := map[string]bool{}
	tried, taken := 0, 0
	look := func() {
		s, err := perception.Parse(p.Dump())
		if err != nil {
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
		for _, e := range s.Elements {
			if e.Text != "" || e.Desc == "" || !strings.Contains(e.Class, "Image") {
				continue
			}
			key := s.Package + " " + e.Desc
			if seen[key] {
				continue
			}
			seen[key] = true
			d := " " + strings.ToLower(e.Desc) + " "
			want := ""
			switch {
			case strings.Contains(d, "delete") || strings.Contains(d, "remove"):
				want = "delete"
			case strings.Contains(d, "send"):
				want = "send"
			case strings.Contains(d, "share"):
				want = "share"
			}
			b := e.Bounds
			got, ok := m.Match(img, image.Rect(b.X1, b.Y1, b.X2, b.Y2))
			tried++
			if ok {
				taken++
			}
			if ok && got.Word != want || !ok && want != "" {
				t.Errorf("%s: %q drawn at %v: got %+v ok=%v, want %q", s.Package, e.Desc, b, got, ok, want)
			}
		}
	}
	pkgs := []string{"com.android.settings", "com.android.contacts", "com.google.android.apps.messaging", "com.google.android.calendar",
		"com.fairy.notes", "com.fairy.maps", "com.fairy.shop"}
	for _, pkg := range pkgs {
		start := func() { sh("am force-stop " + pkg + "; monkey -p " + pkg + " -c android.intent.category.LAUNCHER 1") }
		start()
		first, err := perception.Parse(p.Dump())
		if err != nil {
			t.Fatal(err)
		}
		look()
		for i, e := range first.Elements {
			if i >= 12 || !e.Clickable {
				continue
			}
			start()
			sh(fmt.Sprintf("input tap %d %d", e.Center.X, e.Center.Y))
			look()
		}
	}
	t.Logf("%d icon buttons of the phone's screens judged by their picture, %d taken: %v", tried, taken, keys(seen))
	if tried < 10 {
		t.Errorf("only %d icon buttons found on the phone's screens", tried)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
