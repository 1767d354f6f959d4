package sim

import (
	"fmt"
	"image"
	"image/color"
	"sort"
	"testing"
)

// The picture shows what the tree says: every view is drawn inside its bounds, a view
// with a text or an icon shows it there, and no character is drawn as a missing glyph's
// box — on every screen of every built-in app and of the AndroidWorld apps, dialogs and
// the keyboard included.

// sentinel is a colour no view draws: what a view drew is what is not sentinel.
var sentinel = color.RGBA{255, 0, 254, 255}

// viewPixels draws n alone (not its children) on a sentinel image and returns the box of
// what it drew and how many pixels it drew outside its bounds.
func viewPixels(p *Phone, pal palette, m metrics, n *node) (img *image.RGBA, drawn image.Rectangle, outside int) {
	img = drawAlone(p, pal, m, n, sentinel)
	s := sentinel
	for y := 0; y < m.h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*m.w]
		for x := 0; x < m.w; x++ {
			if q := row[4*x : 4*x+4]; q[0] == s.R && q[1] == s.G && q[2] == s.B && q[3] == s.A {
				continue
			}
			drawn = drawn.Union(image.Rect(x, y, x+1, y+1))
			if x < n.b.Min.X || x >= n.b.Max.X || y < n.b.Min.Y || y >= n.b.Max.Y {
				outside++
			}
		}
	}
	return img, drawn, outside
}

// drawAlone draws n alone (not its children) on an image of colour bg.
func drawAlone(p *Phone, pal palette, m metrics, n *node, bg color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, m.w, m.h))
	fill(img, img.Bounds(), bg)
	r := &renderer{p: p, img: img, pal: pal, m: m}
	r.self(n)
	return img
}

// contentPixels are the pixels n's text or icon sets: where n drawn as it is differs,
// inside its bounds, from n drawn with no text and no icon; with their colours (on the
// page's colour, as most views are).
func contentPixels(p *Phone, pal palette, m metrics, n *node) map[image.Point]color.RGBA {
	with := drawAlone(p, pal, m, n, pal.bg)
	bare := *n
	bare.text, bare.lines, bare.glyph, bare.desc = "", nil, "", ""
	without := drawAlone(p, pal, m, &bare, pal.bg)
	out := map[image.Point]color.RGBA{}
	b := n.b.Intersect(with.Bounds())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := with.RGBAAt(x, y); c != without.RGBAAt(x, y) {
				out[image.Pt(x, y)] = c
			}
		}
	}
	return out
}

// contentKinds are the kinds of view that draw their text, or their icon when they have
// no text (icon, fab, a button with no text).
var contentKinds = map[string]bool{
	"statustext": true, "title": true, "text": true, "button": true, "fab": true, "input": true,
	"switch": true, "checkbox": true, "icon": true, "slider": true, "rowtitle": true, "small": true,
	"avatar": true, "cell": true,
}

// checkPicture checks the current frame of p; what names the screen in errors.
func checkPicture(t *testing.T, p *Phone, what string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frameLocked()
	if f.secure {
		return
	}
	m := p.metrics()
	pal := paletteFor(f.dark)
	final, missing := p.drawFrame(f)
	if len(missing) > 0 {
		t.Errorf("%s: drawn as missing glyphs: %q", what, string(missing))
	}
	var walk func(n *node)
	walk = func(n *node) {
		_, drawn, outside := viewPixels(p, pal, m, n)
		if outside > 0 {
			t.Errorf("%s: %s %q (%s) at %v draws %d pixels outside its bounds (it draws over %v)", what, n.kind, n.text+n.desc, n.rid, n.b, outside, drawn)
		}
		// A text view draws its text only: one left empty (a picker's field before a
		// value is set) shows nothing, whatever its description says, as on Android.
		if contentKinds[n.kind] && (n.text != "" || n.glyph != "" || n.desc != "" && n.kind != "small" && n.kind != "text") && !n.b.Empty() {
			// Its text or icon is drawn in its bounds, and is on the screen: not all of
			// it under what is drawn later.
			px := contentPixels(p, pal, m, n)
			seen := 0
			for pt, c := range px {
				// The same colour, but for the edges of letters drawn over another
				// background than the page's.
				if f := final.RGBAAt(pt.X, pt.Y); absDiff(f.R, c.R) <= 40 && absDiff(f.G, c.G) <= 40 && absDiff(f.B, c.B) <= 40 {
					seen++
				}
			}
			switch {
			case len(px) == 0:
				t.Errorf("%s: %s %q (%s) at %v shows nothing of its text or icon in its bounds", what, n.kind, n.text+n.desc, n.rid, n.b)
			case seen == 0:
				t.Errorf("%s: %s %q (%s) at %v: its text or icon is hidden on the screen", what, n.kind, n.text+n.desc, n.rid, n.b)
			}
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, w := range f.windows {
		walk(w.root)
	}
}

// pictureApps are the built-in apps and the AndroidWorld apps.
func pictureApps(t *testing.T) []*AppSpec {
	t.Helper()
	base, err := DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	aw, err := LoadAppDir("../eval/androidworld/apps")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := MergeApps(base, aw)
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

// TestPictureMatchesTree opens every screen of every app (a dialog over its app's first
// screen, with the parameters of the app's first records), then each of its fields with the
// keyboard up (under -short, its first field only), and checks the picture against the tree.
func TestPictureMatchesTree(t *testing.T) {
	apps := pictureApps(t)
	screens := 0
	for _, spec := range apps {
		for _, s := range spec.Screens {
			name := spec.Package + "/" + s.ID
			t.Run(name, func(t *testing.T) {
				// A small screen (the layout is in dp): the check draws every view alone.
				p := newPhone(t, func(c *Config) { c.Apps, c.Width, c.Height, c.Density = apps, 360, 800, 140 })
				params := map[string]string{}
				colls := make([]string, 0, len(spec.Records))
				for c := range spec.Records {
					colls = append(colls, c)
				}
				sort.Strings(colls)
				for _, c := range colls {
					if recs := spec.Records[c]; len(recs) > 0 {
						for k, v := range recs[0] {
							if _, ok := params[k]; !ok {
								params[k] = fmt.Sprint(v)
							}
						}
					}
				}
				p.mu.Lock()
				a := p.apps[spec.Package]
				_, err := p.launch(spec.Package)
				if err == nil && p.top().spec != s {
					p.push(a, s, params)
				}
				p.mu.Unlock()
				if err != nil {
					t.Fatal(err)
				}
				checkPicture(t, p, name)
				screens++
				inputs := inputsOf(s.Elements)
				if testing.Short() && len(inputs) > 1 {
					// Each check draws every view alone: the fast tier types in a screen's
					// first field, the full tier in each.
					inputs = inputs[:1]
				}
				for _, e := range inputs {
					p.mu.Lock()
					inst := p.top()
					inst.focus, p.kbShown = e, true
					p.bump()
					p.mu.Unlock()
					checkPicture(t, p, name+" typing in "+e)
				}
			})
		}
	}
	if screens < 40 {
		t.Fatalf("only %d screens checked", screens)
	}
}

// inputsOf lists the ids of the inputs among els (in boxes too).
func inputsOf(els []*ElementSpec) []string {
	var out []string
	for _, e := range els {
		if e.Type == "input" && e.ID != "" {
			out = append(out, e.ID)
		}
		out = append(out, inputsOf(e.Children)...)
	}
	return out
}

// TestPictureCatchesStrayDrawing: the check finds a view drawn off its bounds (a tree
// whose box moved away from its pixels) and a character drawn as a missing glyph.
func TestPictureCatchesStrayDrawing(t *testing.T) {
	p := newPhone(t)
	m := p.metrics()
	pal := paletteFor(false)
	n := baseNode("android.widget.Button", "x", image.Rect(100, 100, 400, 200))
	n.kind, n.text = "button", "Delete"
	if _, _, out := viewPixels(p, pal, m, n); out != 0 {
		t.Fatalf("a button drawn in its box: %d pixels outside", out)
	}
	if len(contentPixels(p, pal, m, n)) == 0 {
		t.Fatal("a button's label not seen")
	}
	img := image.NewRGBA(image.Rect(0, 0, m.w, m.h))
	r := &renderer{p: p, img: img, pal: pal, m: m}
	r.text("a\u0378b", image.Rect(0, 0, 300, 100), m.dp(16), pal.fg, false, false)
	if len(r.missing) != 1 {
		t.Fatalf("missing glyphs %q, want the one unassigned character", string(r.missing))
	}
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}
