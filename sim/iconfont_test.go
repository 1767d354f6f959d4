package sim

import (
	"image"
	"testing"

	"golang.org/x/image/font"

	"github.com/fairy-go/fairy/internal/testenv"
)

// needIcons fails under CI, and skips elsewhere, when the icon font is not installed.
func needIcons(t *testing.T, p *Phone) {
	t.Helper()
	if p.fonts.hasIcons() {
		return
	}
	testenv.Missing(t, "no Material Icons font at %s/%s: install Debian's fonts-material-design-icons-iconfont", fontRoot, iconFontFile)
}

// appIcons lists the descriptions of the icon buttons the apps show: icons, floating
// buttons and buttons with no text, in toolbars, bodies and boxes.
func appIcons(apps []*AppSpec) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(els []*ElementSpec)
	walk = func(els []*ElementSpec) {
		for _, e := range els {
			if (e.Type == "icon" || e.Type == "fab" || e.Type == "button" && e.Text == "") && e.Desc != "" && !seen[e.Desc] {
				seen[e.Desc] = true
				out = append(out, e.Desc)
			}
			walk(e.Children)
		}
	}
	for _, a := range apps {
		for _, s := range a.Screens {
			walk(s.Menu)
			walk(s.Elements)
		}
	}
	return out
}

// iconInk draws icon name in a 48dp box and returns its ink (pixels darker than mid-grey).
func iconInk(t *testing.T, p *Phone, name string) []bool {
	t.Helper()
	m := p.metrics()
	sz := m.dp(48)
	img := image.NewRGBA(image.Rect(0, 0, sz, sz))
	pal := paletteFor(false)
	fill(img, img.Bounds(), pal.bg)
	r := &renderer{p: p, img: img, pal: pal, m: m}
	if !r.icon(name, img.Bounds(), m.dp(24), pal.fg) {
		t.Fatalf("icon %q not drawn", name)
	}
	ink := make([]bool, sz*sz)
	for i := range ink {
		c := img.RGBAAt(i%sz, i/sz)
		ink[i] = int(c.R)+int(c.G)+int(c.B) < 3*128
	}
	return ink
}

// TestIconsDrawn: every icon an app shows (toolbars' Delete and Edit, Send, the floating
// buttons' add, Search, Call …), Navigate up and the keyboard's shift, backspace and enter
// are drawn from the icon font: each has ink, a fair share of its box, and no two icons
// look alike (a bin is not a pencil).
func TestIconsDrawn(t *testing.T) {
	p := newPhone(t)
	needIcons(t, p)
	apps := pictureApps(t)
	names := map[string]string{} // icon -> a description that shows it
	for _, d := range append(appIcons(apps), "Navigate up") {
		n := iconName(d)
		if n == "" {
			t.Errorf("icon button %q has no icon: it would show the letter %q", d, iconLetter(d))
			continue
		}
		names[n] = d
	}
	for _, k := range []string{"SHIFT", "DEL", "ENTER"} {
		names[keyIcons[k]] = "key " + k
	}
	for _, must := range []string{"delete", "edit", "send", "keyboard_capslock", "backspace", "keyboard_return"} {
		if names[must] == "" {
			t.Errorf("no app or key shows %q", must)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	inks := map[string][]bool{}
	for n, d := range names {
		ink := iconInk(t, p, n)
		count := 0
		for _, v := range ink {
			if v {
				count++
			}
		}
		// A 24dp icon in a 48dp box: some of it, not a box filled.
		if count*100 < len(ink) || count*2 > len(ink) {
			t.Errorf("icon %s (%s): %d ink pixels of %d", n, d, count, len(ink))
		}
		for o, oink := range inks {
			diff := 0
			for i := range ink {
				if ink[i] != oink[i] {
					diff++
				}
			}
			if diff*10 < count {
				t.Errorf("icons %s and %s look alike: %d pixels differ", n, o, diff)
			}
		}
		inks[n] = ink
	}
}

// TestIconsWithoutFont: a phone without the icon font draws each icon as its
// description's first letter and the keys as words: no missing-glyph box, no panic.
func TestIconsWithoutFont(t *testing.T) {
	p := newPhone(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fonts = &fontSet{regular: p.fonts.regular, bold: p.fonts.bold, cjk: p.fonts.cjk, faces: map[[2]int]font.Face{}}
	if p.fonts.hasIcons() {
		t.Fatal("hasIcons with no icon font")
	}
	m := p.metrics()
	img := image.NewRGBA(image.Rect(0, 0, m.dp(48), m.dp(48)))
	pal := paletteFor(false)
	fill(img, img.Bounds(), pal.bg)
	r := &renderer{p: p, img: img, pal: pal, m: m}
	r.drawIcon("delete", "Delete note", img.Bounds(), m.dp(24), pal.fg)
	ink := 0
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if c := img.RGBAAt(x, y); int(c.R)+int(c.G)+int(c.B) < 3*128 {
				ink++
			}
		}
	}
	if ink == 0 || len(r.missing) > 0 {
		t.Fatalf("fallback: %d ink pixels, missing glyphs %q", ink, string(r.missing))
	}
	f := p.frameLocked()
	if _, missing := p.drawFrame(f); len(missing) > 0 {
		t.Fatalf("home screen without the icon font: missing glyphs %q", string(missing))
	}
}

// TestIconNameWholeWords: an icon shows what its description says, word for word: an
// "Address book" button is no plus, "Feedback" no back arrow, "Restart" no plus, "Recall"
// no phone; "Delete note", "Send SMS", "增加" keep theirs.
func TestIconNameWholeWords(t *testing.T) {
	for desc, want := range map[string]string{
		"Address book": "", "Feedback": "", "Restart": "", "Recall": "", "Newsletter": "",
		"Delete note": "delete", "Send SMS": "send", "Navigate up": "arrow_back", "More options": "more_vert",
		"增加": "add", "Create new event": "add", "Add expense": "add", "Edit note": "edit",
	} {
		if got := iconName(desc); got != want {
			t.Errorf("iconName(%q) = %q, want %q", desc, got, want)
		}
	}
}
