package icons

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"

	"github.com/fairy-go/fairy/internal/testenv"
)

// TestReferencesMatched: every sensitive icon of the set, drawn by the font at three
// scales and in every look, is recognised as itself or an icon with its word.
func TestReferencesMatched(t *testing.T) {
	f, codes := iconFont(t)
	m := NewMatcher()
	worst := 0.0
	for _, ref := range references {
		if ref.word == "" {
			continue
		}
		for _, px := range []int{24, 48, 72} {
			for _, lk := range looks {
				img, r := drawIcon(t, f, codes[ref.name], px, lk)
				got, ok := m.Match(img, r)
				if !ok || got.Word != ref.word {
					t.Errorf("%s at %dpx, %s: got %+v ok=%v, want %q", ref.name, px, lk.name, got, ok, ref.word)
				}
				worst = max(worst, got.Distance)
			}
		}
	}
	t.Logf("farthest a sensitive icon drawn by the font was from its nearest reference: %.2f", worst)
}

// TestOrdinaryIconsNotMatched: ordinary icons — back, menu, search, settings and the rest
// of a toolbar's — are never taken for a sensitive one; the table of the nearest sensitive
// icon of each shows the margin.
func TestOrdinaryIconsNotMatched(t *testing.T) {
	f, codes := iconFont(t)
	m := NewMatcher()
	nearest := Match{Distance: 1e9}
	for _, name := range []string{"arrow_back", "menu", "search", "settings", "more_vert", "close", "star", "home",
		"edit", "add", "check", "refresh", "mail", "call", "info", "notifications", "filter_list", "mic", "photo",
		"location_on", "camera_alt", "reply", "archive", "content_copy", "visibility", "bookmark", "thumb_up", "lock",
		"help", "person", "favorite", "arrow_forward", "play_arrow", "download",
		// Not in the set: the matcher has never seen them.
		"arrow_upward", "expand_less", "list", "tune", "palette", "language", "wifi", "bluetooth", "brightness_6",
		"volume_up", "alarm", "event", "schedule", "flag", "label", "link", "print", "save", "sync", "undo", "redo",
		"zoom_in", "translate", "cloud", "folder", "attach_file", "send_and_archive", "place", "directions_car"} {
		code, ok := codes[name]
		if !ok {
			t.Fatalf("no icon %q in the font", name)
		}
		for _, px := range []int{24, 48, 72} {
			for _, lk := range looks {
				img, r := drawIcon(t, f, code, px, lk)
				if got, ok := m.Match(img, r); ok {
					t.Errorf("%s at %dpx, %s: taken for %+v", name, px, lk.name, got)
				}
				if s := m.nearestSensitive(img, r); s.Distance >= 0 && s.Distance < nearest.Distance {
					nearest = s
					nearest.Icon = name + "→" + s.Icon
				}
			}
		}
	}
	t.Logf("nearest an ordinary icon came to a sensitive one: %s %.2f (maxDistance %.2f)", nearest.Icon, nearest.Distance, maxDistance)
}

// nearestSensitive is the nearest sensitive icon to r's picture in img, ok or not.
func (m *Matcher) nearestSensitive(img image.Image, r image.Rectangle) Match {
	pr := r.Inset(-(2 + max(r.Dx(), r.Dy())/8)).Intersect(img.Bounds())
	s, _ := m.match(readPixels(img, pr), r, [4]bool{pr.Min.X < r.Min.X, pr.Min.Y < r.Min.Y, pr.Max.X > r.Max.X, pr.Max.Y > r.Max.Y})
	return s
}

// TestReferenceConfusion: every icon of the set, drawn by the font at three scales, is
// nearest to itself or to an icon of its word — a delete is never taken for a send, a
// cart or an ordinary icon, nor an ordinary icon for a delete.
func TestReferenceConfusion(t *testing.T) {
	f, codes := iconFont(t)
	m := NewMatcher()
	for _, ref := range references {
		for _, px := range []int{24, 48, 72} {
			img, r := drawIcon(t, f, codes[ref.name], px, looks[0])
			pr := r.Inset(-(2 + max(r.Dx(), r.Dy())/8)).Intersect(img.Bounds())
			s, o := m.match(readPixels(img, pr), r, [4]bool{true, true, true, true})
			got, ok := m.Match(img, r)
			switch {
			case ref.word == "" && ok:
				t.Errorf("%s at %dpx (ordinary) taken for %+v", ref.name, px, got)
			case ref.word != "" && (!ok || got.Word != ref.word):
				t.Errorf("%s at %dpx taken for %+v ok=%v", ref.name, px, got, ok)
			case ref.word == "" && o.Icon != ref.name:
				t.Errorf("%s at %dpx nearest to %+v", ref.name, px, o)
			case ref.word != "" && s.Icon != ref.name && s.Word != ref.word:
				t.Errorf("%s at %dpx nearest to %+v", ref.name, px, s)
			}
		}
	}
}

// TestWholeFontFalseMatches measures the matcher on every other icon of the font (over two
// thousand, most never on a phone's toolbar): the share taken for a sensitive icon stays
// under 1%, and the log lists them.
func TestWholeFontFalseMatches(t *testing.T) {
	testenv.MustHaveFullTier(t, "draws every icon of the font at three scales")
	f, codes := iconFont(t)
	inSet := map[string]bool{}
	for _, ref := range references {
		inSet[ref.name] = true
	}
	m := NewMatcher()
	for _, px := range []int{24, 48, 72} {
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			t.Fatal(err)
		}
		var taken []string
		n := 0
		for name, code := range codes {
			if _, _, ok := face.GlyphBounds(code); !ok || inSet[name] || name[0] < 'a' {
				continue // not drawn, in the set, or a digit-named duplicate
			}
			n++
			img, r := drawIcon(t, f, code, px, looks[1])
			if got, ok := m.Match(img, r); ok {
				taken = append(taken, fmt.Sprintf("%s→%s %.2f", name, got.Icon, got.Distance))
			}
		}
		slices.Sort(taken)
		t.Logf("%dpx: %d of %d other icons taken for a sensitive one (%.2f%%): %v", px, len(taken), n, 100*float64(len(taken))/float64(n), taken)
		if len(taken)*100 > n {
			t.Errorf("%dpx: %d of %d other icons taken for a sensitive one", px, len(taken), n)
		}
	}
}

// TestPhotosNotMatched: a clickable picture with no words that is no icon — a photo's
// thumbnail, a gradient — is never taken for one, however its blobs fall.
func TestPhotosNotMatched(t *testing.T) {
	m := NewMatcher()
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 200 {
		img := image.NewRGBA(image.Rect(0, 0, 300, 300))
		// Soft blobs of colour over a gradient, with grain: a photo's look.
		type blob struct{ x, y, r, c float64 }
		var blobs []blob
		for range 3 + rng.IntN(5) {
			blobs = append(blobs, blob{rng.Float64() * 300, rng.Float64() * 300, 20 + rng.Float64()*90, rng.Float64() * 255})
		}
		for y := range 300 {
			for x := range 300 {
				v := float64(x+y) / 600 * 160
				for _, b := range blobs {
					if d := math.Hypot(float64(x)-b.x, float64(y)-b.y); d < b.r {
						v = v*(d/b.r) + b.c*(1-d/b.r)
					}
				}
				v += rng.NormFloat64() * 6
				g := uint8(max(0, min(255, v)))
				img.SetRGBA(x, y, color.RGBA{g, uint8(int(g) * 3 / 4), uint8(255 - int(g)/2), 255})
			}
		}
		for _, r := range []image.Rectangle{image.Rect(20, 20, 280, 280), image.Rect(100, 100, 190, 190)} {
			if got, ok := m.Match(img, r); ok {
				t.Errorf("photo %d %v taken for %+v", k, r, got)
			}
		}
	}
}
