package ocr_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// pixelScreen is one screen of the virtual phone the tree does not describe, with what the
// phone drew on it.
type pixelScreen struct {
	name  string
	dump  []byte
	shot  image.Image
	drawn []sim.DrawnText
	icons []sim.DrawnIcon
}

// pixelScreens walks the canvas apps of the virtual phone: TeaHouse's WebView checkout and
// its receipt, SafeBox's PIN pad and vault (in six languages), Lumen's photo with its
// toolbar of icons, and 城市地图 with each pin's card.
func pixelScreens(t testing.TB) []pixelScreen {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1, Clock: func() time.Time { return time.Date(2025, 6, 11, 9, 41, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	sh := func(line string) {
		var b bytes.Buffer
		if _, err := p.Shell(context.Background(), line, &b); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	tapText := func(s string, dx int) {
		for _, d := range p.DrawnTexts() {
			if d.Text == s {
				sh(fmt.Sprintf("input tap %d %d", (d.Bounds.Min.X+d.Bounds.Max.X)/2+dx, (d.Bounds.Min.Y+d.Bounds.Max.Y)/2))
				return
			}
		}
		t.Fatalf("%q is not drawn", s)
	}
	var out []pixelScreen
	take := func(name string) {
		shot, err := p.Screenshot()
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pixelScreen{name: name, dump: p.Dump(), shot: img, drawn: p.DrawnTexts(), icons: p.DrawnIcons()})
	}
	sh("am start -n com.fairy.teahouse/.WebActivity")
	take("teahouse order")
	tapText("Pay ¥36", 0)
	take("teahouse paid")
	// The checkout in the other languages it speaks.
	for _, loc := range []string{"zh-CN", "es-ES", "de-DE", "fr-FR", "pt-BR"} {
		sh("settings put system system_locales " + loc)
		sh("am force-stop com.fairy.teahouse")
		sh("am start -n com.fairy.teahouse/.WebActivity")
		take("teahouse order " + loc)
		for _, d := range p.DrawnTexts() {
			if strings.Contains(d.Text, "¥36") && d.Bounds.Min.Y > 600 {
				sh(fmt.Sprintf("input tap %d %d", (d.Bounds.Min.X+d.Bounds.Max.X)/2, (d.Bounds.Min.Y+d.Bounds.Max.Y)/2))
			}
		}
		take("teahouse paid " + loc)
	}
	sh("settings put system system_locales en-US")
	sh("am start -n com.fairy.safebox/.PinActivity")
	take("safebox pin")
	for _, k := range []string{"2", "5"} {
		tapText(k, 0)
	}
	take("safebox pin, two digits")
	for _, k := range []string{"8", "0", "Enter"} {
		tapText(k, 0)
	}
	take("safebox vault")
	// The vault in the other languages it speaks, and once its card is deleted, its bill
	// paid and its statement sent.
	for _, loc := range []string{"zh-CN", "es-ES", "de-DE", "fr-FR", "pt-BR"} {
		sh("settings put system system_locales " + loc)
		sh("am force-stop com.fairy.safebox")
		sh("am start -n com.fairy.safebox/.PinActivity")
		for _, k := range []string{"2", "5", "8", "0", "Enter"} {
			tapText(k, 0)
		}
		take("safebox vault " + loc)
		if loc == "de-DE" {
			for _, d := range p.DrawnTexts() {
				if strings.HasPrefix(d.Text, "Karte l") || strings.HasPrefix(d.Text, "Auszug s") || strings.HasPrefix(d.Text, "Bezahlen") {
					sh(fmt.Sprintf("input tap %d %d", (d.Bounds.Min.X+d.Bounds.Max.X)/2, (d.Bounds.Min.Y+d.Bounds.Max.Y)/2))
				}
			}
			take("safebox vault " + loc + ", done")
		}
	}
	sh("settings put system system_locales en-US")
	sh("am start -n com.fairy.lumen/.MainActivity")
	take("lumen")
	sh("am start -n com.fairy.citymap/.MapActivity")
	take("citymap")
	for _, pin := range []string{"书店", "停车场", "咖啡馆"} {
		tapText(pin, -100) // the pin is left of its name
		take("citymap " + pin)
	}
	return out
}

func norm(s string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s))
}

// recall reads every screen and counts the drawn labels read right: a line read whose
// box overlaps the label's and whose text is the label's (spaces and case aside).
func recall(t testing.TB, r *perception.PixelReader, screens []pixelScreen, report bool) (hit, total int) {
	for _, ps := range screens {
		s, err := perception.Parse(ps.dump)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Uncovered) == 0 {
			t.Fatalf("%s: the tree covers the screen, it should not", ps.name)
		}
		if err := r.Read(context.Background(), s, ps.shot); err != nil {
			t.Fatal(err)
		}
		for _, d := range ps.drawn {
			total++
			db := perception.Bounds{X1: d.Bounds.Min.X, Y1: d.Bounds.Min.Y, X2: d.Bounds.Max.X, Y2: d.Bounds.Max.Y}
			found := false
			for _, b := range s.Read {
				if !b.Bounds.Intersect(db).Empty() && norm(b.Text) == norm(d.Text) {
					found = true
				}
			}
			if found {
				hit++
			} else if report {
				var near []string
				for _, b := range s.Read {
					if !b.Bounds.Intersect(db).Empty() {
						near = append(near, b.Text)
					}
				}
				t.Logf("%s: missed %q (read there: %q)", ps.name, d.Text, near)
			}
		}
	}
	return hit, total
}

func TestRecallOnDrawnScreens(t *testing.T) {
	tess := ocrtest.Start(t)
	r, err := perception.NewPixelReader(tess)
	if err != nil {
		t.Fatal(err)
	}
	screens := pixelScreens(t)
	hit, total := recall(t, r, screens, true)
	t.Logf("recall %d/%d = %.1f%% (languages %v)", hit, total, 100*float64(hit)/float64(total), tess.Languages())
	if hit*100 < total*95 {
		t.Fatalf("recall %d/%d is under 95%%", hit, total)
	}
	// The labels with Chinese characters apart (the same reads, from the reader's cache).
	var zh []pixelScreen
	for _, ps := range screens {
		ps.drawn = slices.DeleteFunc(slices.Clone(ps.drawn), func(d sim.DrawnText) bool {
			return !strings.ContainsFunc(d.Text, func(r rune) bool { return unicode.Is(unicode.Han, r) })
		})
		zh = append(zh, ps)
	}
	zhHit, zhTotal := recall(t, r, zh, false)
	t.Logf("of which with Chinese characters %d/%d = %.1f%%", zhHit, zhTotal, 100*float64(zhHit)/float64(zhTotal))
}

// TestMarksOnDrawnScreens: the icons the canvas apps draw with no text (Lumen's toolbar)
// are each found as one mark on it, numbered in reading order, and nothing else is a mark:
// no text, read or not, no card, button or road, no map pin (its name beside it is what a
// tap there is judged by).
func TestMarksOnDrawnScreens(t *testing.T) {
	tess := ocrtest.Start(t)
	r, err := perception.NewPixelReader(tess)
	if err != nil {
		t.Fatal(err)
	}
	icons := 0
	for _, ps := range pixelScreens(t) {
		s, err := perception.Parse(ps.dump)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Read(context.Background(), s, ps.shot); err != nil {
			t.Fatal(err)
		}
		on := func(m perception.Bounds, ic sim.DrawnIcon) bool {
			c := m.Center()
			return image.Pt(c.X, c.Y).In(ic.Bounds)
		}
		for _, ic := range ps.icons {
			icons++
			n := 0
			for _, m := range s.Marks {
				if on(m, ic) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: the %s icon at %v is %d marks, want 1 (marks %v)", ps.name, ic.Glyph, ic.Bounds, n, s.Marks)
			}
		}
		for k, m := range s.Marks {
			if !slices.ContainsFunc(ps.icons, func(ic sim.DrawnIcon) bool { return on(m, ic) }) {
				t.Errorf("%s: mark %v is on no icon the phone drew", ps.name, m)
			}
			e := s.Elements[len(s.Elements)-len(s.Marks)+k]
			if want := fmt.Sprintf("icon %d", k+1); !e.Drawn || e.Label != want || e.Bounds != m {
				t.Errorf("%s: mark %d is element %+v, want %q, Drawn", ps.name, k+1, e, want)
			}
		}
	}
	if icons == 0 {
		t.Fatal("no screen drew an icon")
	}
	// A mark's id names its look: the same icon drawn in the same place has the same id
	// on every screen, different pictograms different ids.
	ids := map[string]string{}  // glyph and box → id
	seen := map[string]string{} // id → glyph
	for _, ps := range pixelScreens(t) {
		s, err := perception.Parse(ps.dump)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Read(context.Background(), s, ps.shot); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Elements {
			if !e.Drawn {
				continue
			}
			for _, ic := range ps.icons {
				if c := e.Center; image.Pt(c.X, c.Y).In(ic.Bounds) {
					what := ic.Glyph + ic.Bounds.String()
					if id, ok := ids[what]; ok && id != e.ResourceID {
						t.Errorf("%s: the %s icon's id %s, elsewhere %s", ps.name, ic.Glyph, e.ResourceID, id)
					}
					if g, ok := seen[e.ResourceID]; ok && g != ic.Glyph {
						t.Errorf("%s: a %s and a %s have one id %s", ps.name, ic.Glyph, g, e.ResourceID)
					}
					ids[what], seen[e.ResourceID] = e.ResourceID, ic.Glyph
				}
			}
		}
	}
}
