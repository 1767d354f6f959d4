package sim

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/sim/cjkfont"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Screenshots are drawn from the same nodes the dump prints, with the Go fonts, and CJK
// characters (which the Go fonts lack) with the embedded subset of Droid Sans Fallback
// (sim/cjkfont), Android's own CJK font. A CJK character takes one em, as on a phone, and
// the layout measures it so with or without its glyph. A character neither font has is
// drawn as a hollow box of its width (the tree carries the text either way).

// Face styles: the keys of fontSet.faces beside the size.
const (
	styleRegular = iota
	styleBold
	styleCJK
	styleIcon
)

type fontSet struct {
	regular, bold, cjk *opentype.Font
	icons              *opentype.Font // Material Icons (see iconfont.go), nil when missing
	faces              map[[2]int]font.Face
	// shape holds the faces of text that needs shaping (see shape.go), loaded on first use.
	shape *shapeFonts
}

func newFontSet() (*fontSet, error) {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse font: %w", err)
	}
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse font: %w", err)
	}
	c, err := cjkfont.Parse()
	if err != nil {
		return nil, err
	}
	return &fontSet{regular: r, bold: b, cjk: c, icons: loadIconFont(), faces: map[[2]int]font.Face{}}, nil
}

func (fs *fontSet) face(px int, bold bool) font.Face {
	if bold {
		return fs.styled(px, styleBold)
	}
	return fs.styled(px, styleRegular)
}

// cjkFace is the CJK font at px pixels (it has no bold: text draws it twice, shifted).
func (fs *fontSet) cjkFace(px int) font.Face { return fs.styled(px, styleCJK) }

func (fs *fontSet) styled(px, style int) font.Face {
	k := [2]int{px, style}
	if f, ok := fs.faces[k]; ok {
		return f
	}
	src := [...]*opentype.Font{styleRegular: fs.regular, styleBold: fs.bold, styleCJK: fs.cjk, styleIcon: fs.icons}[style]
	if src == nil {
		return nil
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	fs.faces[k] = f
	return f
}

func (fs *fontSet) advance(f font.Face, r rune, px int) int {
	if f != nil {
		if a, ok := f.GlyphAdvance(r); ok && r < 0x2E80 {
			return a.Ceil()
		}
	}
	if r < 0x2E80 {
		return px * 6 / 10
	}
	return px
}

// width measures s at px pixels.
func (fs *fontSet) width(s string, px int) int {
	if fs.needsShaping(s) {
		return fs.shapeLine(s, px, false).width.Ceil()
	}
	f := fs.face(px, false)
	w := 0
	for _, r := range s {
		w += fs.advance(f, r, px)
	}
	return w
}

// wrap breaks s into lines no wider than w (at spaces, or anywhere in CJK text).
func (fs *fontSet) wrap(s string, px, w int) []string {
	if s == "" {
		return nil
	}
	f := fs.face(px, false)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line, lw := "", 0
		word, ww := "", 0
		flushWord := func() {
			if word == "" {
				return
			}
			if lw+ww > w && line != "" {
				lines = append(lines, strings.TrimRight(line, " "))
				line, lw = "", 0
				word = strings.TrimLeft(word, " ")
				ww = fs.width(word, px)
			}
			line += word
			lw += ww
			word, ww = "", 0
		}
		for _, r := range para {
			a := fs.advance(f, r, px)
			if r == ' ' || r >= 0x2E80 {
				flushWord()
				word, ww = string(r), a
				flushWord()
				continue
			}
			word += string(r)
			ww += a
		}
		flushWord()
		lines = append(lines, line)
	}
	return lines
}

type palette struct {
	bg, fg, sub, primary, onPrimary, surface, divider, statusBg, hint color.RGBA
}

func paletteFor(dark bool) palette {
	if dark {
		return palette{
			bg: color.RGBA{18, 18, 18, 255}, fg: color.RGBA{235, 235, 235, 255}, sub: color.RGBA{170, 170, 170, 255},
			primary: color.RGBA{138, 180, 248, 255}, onPrimary: color.RGBA{10, 10, 10, 255},
			surface: color.RGBA{40, 40, 44, 255},
			divider: color.RGBA{60, 60, 60, 255}, statusBg: color.RGBA{0, 0, 0, 255}, hint: color.RGBA{120, 120, 120, 255},
		}
	}
	return palette{
		bg: color.RGBA{255, 255, 255, 255}, fg: color.RGBA{32, 33, 36, 255}, sub: color.RGBA{95, 99, 104, 255},
		primary: color.RGBA{26, 115, 232, 255}, onPrimary: color.RGBA{255, 255, 255, 255}, surface: color.RGBA{241,
			243, 244, 255},
		divider: color.RGBA{218, 220, 224, 255}, statusBg: color.RGBA{230, 230, 230, 255}, hint: color.RGBA{150,
			150, 150, 255},
	}
}

// screenshotLocked returns the PNG of the current frame, cached per state version.
func (p *Phone) screenshotLocked() ([]byte, error) {
	if p.cache.png != nil && p.cache.pngVersion == p.version {
		return p.cache.png, nil
	}
	img := p.renderLocked()
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("screencap: %w", err)
	}
	p.cache.png = buf.Bytes()
	p.cache.pngVersion = p.version
	return p.cache.png, nil
}

// renderLocked draws the current frame.
func (p *Phone) renderLocked() *image.RGBA {
	img, _ := p.drawFrame(p.frameLocked())
	return img
}

// drawFrame draws f; missing are the characters no font drew (each a hollow box).
func (p *Phone) drawFrame(f *frame) (img *image.RGBA, missing []rune) {
	m := p.metrics()
	img = image.NewRGBA(image.Rect(0, 0, m.w, m.h))
	if f.secure {
		draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0, 0, 0, 255}), image.Point{}, draw.Src)
		return img, nil
	}
	pal := paletteFor(f.dark)
	fill(img, img.Bounds(), pal.bg)
	r := &renderer{p: p, img: img, pal: pal, m: m}
	if f.under != nil {
		r.node(f.under.root)
		dimImage(img, image.Rect(0, 0, m.w, m.h))
	}
	// The status bar is drawn over the app, whose window spans the whole screen as on a
	// phone (the dump gives its root the screen's bounds).
	var status []*window
	for _, w := range f.windows {
		if w.kind == "status" {
			status = append(status, w)
			continue
		}
		if w.kind == "dialog" {
			// The scrim: the dialog window dims what is behind its card.
			dimImage(img, image.Rect(0, m.sb, m.w, m.h-m.nb))
		}
		r.node(w.root)
		if w.kind == "keyboard" {
			for _, k := range f.keys {
				kr := k.r.Inset(m.dp(3))
				fill(img, kr, pal.bg)
				if k.icon == "" || !r.icon(k.icon, kr, m.dp(24), pal.fg) {
					r.text(k.label, kr, m.dp(20), pal.fg, true, false)
				}
			}
		}
	}
	for _, w := range status {
		r.node(w.root)
	}
	if f.toast != "" {
		tw := p.fonts.width(f.toast, m.dp(14)) + m.dp(32)
		tr := image.Rect((m.w-tw)/2, m.h-m.nb-m.dp(120), (m.w+tw)/2, m.h-m.nb-m.dp(80))
		fill(img, tr, color.RGBA{60, 60, 60, 255})
		r.text(f.toast, tr, m.dp(14), color.RGBA{255, 255, 255, 255}, true, false)
	}
	return img, r.missing
}

type renderer struct {
	p       *Phone
	img     *image.RGBA
	pal     palette
	m       metrics
	missing []rune // characters drawn as a hollow box
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

func dimImage(img *image.RGBA, r image.Rectangle) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[y*img.Stride:]
		for x := r.Min.X * 4; x < r.Max.X*4; x++ {
			if x%4 != 3 {
				row[x] = row[x] * 2 / 5
			}
		}
	}
}

func circle(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
	rad := min(r.Dx(), r.Dy()) / 2
	for y := -rad; y <= rad; y++ {
		for x := -rad; x <= rad; x++ {
			if x*x+y*y <= rad*rad && image.Pt(cx+x, cy+y).In(r) {
				img.SetRGBA(cx+x, cy+y, c)
			}
		}
	}
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA, t int) {
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), c)
	fill(img, image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), c)
	fill(img, image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), c)
	fill(img, image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// text draws one line in r, centred or left-aligned, vertically centred.
func (r *renderer) text(s string, box image.Rectangle, px int, c color.RGBA, center, bold bool) {
	if s == "" {
		return
	}
	fs := r.p.fonts
	face := fs.face(px, bold)
	if face == nil {
		return
	}
	base := box.Min.Y + (box.Dy()+px*7/10)/2
	if fs.needsShaping(s) {
		line := fs.shapeLine(s, px, bold)
		x := box.Min.X
		if center {
			x = box.Min.X + (box.Dx()-line.width.Ceil())/2
		}
		drawShaped(r.img, line, box, x, base, px, c)
		return
	}
	w := fs.width(s, px)
	x := box.Min.X
	if center {
		x = box.Min.X + (box.Dx()-w)/2
	}
	d := &font.Drawer{Dst: r.img, Src: image.NewUniform(c), Face: face}
	clip := r.img.SubImage(box).(*image.RGBA)
	d.Dst = clip
	cjk := fs.cjkFace(px)
	cd := &font.Drawer{Dst: clip, Src: d.Src, Face: cjk}
	for _, ch := range s {
		a := fs.advance(face, ch, px)
		if x > box.Max.X {
			break
		}
		switch {
		case ch < 0x2E80 && hasGlyph(face, ch):
			d.Dot = fixed.P(x, base)
			d.DrawString(string(ch))
		case cjk != nil && hasGlyph(cjk, ch):
			// Centred in its advance; bold text draws it again one pixel on.
			ga, _ := cjk.GlyphAdvance(ch)
			gx := x + (a-ga.Round())/2
			cd.Dot = fixed.P(gx, base)
			cd.DrawString(string(ch))
			if bold {
				cd.Dot = fixed.P(gx+max(1, px/24), base)
				cd.DrawString(string(ch))
			}
		case !unicode.IsSpace(ch):
			r.missing = append(r.missing, ch)
			gr := image.Rect(x+px/10, base-px*8/10, x+a-px/10, base+px/10).Intersect(box)
			outline(clip, gr, c, max(1, px/16))
		}
		x += a
	}
}

func hasGlyph(f font.Face, r rune) bool {
	_, ok := f.GlyphAdvance(r)
	return ok
}

func (r *renderer) lines(lines []string, box image.Rectangle, px int, c color.RGBA, bold bool) {
	lh := r.m.dp(22)
	for i, l := range lines {
		lb := image.Rect(box.Min.X, box.Min.Y+i*lh, box.Max.X, box.Min.Y+(i+1)*lh)
		if len(lines) == 1 {
			lb = box
		}
		r.text(l, lb, px, c, false, bold)
	}
}

// node draws n and its children.
func (r *renderer) node(n *node) {
	r.self(n)
	for _, c := range n.children {
		r.node(c)
	}
}

// self draws n without its children.
func (r *renderer) self(n *node) {
	m, pal, img := r.m, r.pal, r.img
	b := n.b
	switch n.kind {
	case "window":
		fill(img, b, pal.bg)
	case "statusbar":
		fill(img, b, pal.statusBg)
	case "statustext":
		r.text(n.text, b, m.dp(14), pal.fg, false, true)
	case "navbar":
		fill(img, b, pal.statusBg)
	case "navbtn":
		// Drawn as shapes, as Android's own icons are vectors: the fonts have no "◁".
		navIcon(img, n.desc, b, m.dp(9), max(2, m.dp(1.5)), pal.fg)
	case "keyboard":
		fill(img, b, pal.surface)
	case "dialog":
		fill(img, b, pal.bg)
	case "toolbar":
		fill(img, b, pal.surface)
	case "title":
		if len(n.lines) > 0 {
			r.lines(n.lines, b, m.dp(20), pal.fg, true)
		} else {
			r.text(n.text, b, m.dp(20), pal.fg, false, true)
		}
	case "text":
		r.lines(n.lines, b, m.dp(16), pal.fg, false)
	case "button", "fab":
		bg, fg := pal.primary, pal.onPrimary
		if !n.enabled {
			bg, fg = pal.divider, pal.sub
		}
		if n.kind == "fab" || n.text != "" {
			fill(img, b, bg)
		}
		if n.text == "" {
			r.drawIcon(n.glyph, n.desc, b, m.dp(24), fg)
		} else {
			r.text(n.text, b, m.dp(16), fg, true, true)
		}
	case "input":
		fill(img, b, pal.surface)
		line := pal.sub
		if n.focused {
			line = pal.primary
		}
		fill(img, image.Rect(b.Min.X, b.Max.Y-m.dp(2), b.Max.X, b.Max.Y), line)
		c := pal.fg
		if n.hint {
			c = pal.hint
		}
		tb := image.Rect(b.Min.X+m.dp(12), b.Min.Y, b.Max.X-m.dp(12), b.Max.Y)
		r.text(n.text, tb, m.dp(16), c, false, false)
		if n.focused && !n.hint {
			cx := tb.Min.X + r.p.fonts.width(n.text, m.dp(16)) + 2
			fill(img, image.Rect(cx, b.Min.Y+m.dp(12), cx+m.dp(2), b.Max.Y-m.dp(12)), pal.primary)
		} else if n.focused {
			fill(img, image.Rect(tb.Min.X, b.Min.Y+m.dp(12), tb.Min.X+m.dp(2), b.Max.Y-m.dp(12)), pal.primary)
		}
	case "switch", "checkbox":
		tw := m.dp(44)
		track := image.Rect(b.Max.X-tw, b.Min.Y+(b.Dy()-m.dp(20))/2, b.Max.X, b.Min.Y+(b.Dy()+m.dp(20))/2)
		c := pal.divider
		if n.checked {
			c = pal.primary
		}
		fill(img, track, c)
		knob := image.Rect(track.Min.X, track.Min.Y-m.dp(3), track.Min.X+m.dp(26), track.Max.Y+m.dp(3))
		if n.checked {
			knob = image.Rect(track.Max.X-m.dp(26), knob.Min.Y, track.Max.X, knob.Max.Y)
		}
		circle(img, knob, pal.fg)
		if n.text != "" {
			r.text(n.text, image.Rect(b.Min.X, b.Min.Y, track.Min.X-m.dp(8), b.Max.Y), m.dp(16), pal.fg, false, false)
		}
	case "icon":
		circle(img, b.Inset(m.dp(4)), pal.surface)
		r.drawIcon(n.glyph, n.desc, b, m.dp(24), pal.fg)
	case "image":
		fill(img, b, pal.surface)
		r.text(n.desc, b, m.dp(14), pal.sub, true, false)
	case "slider":
		fill(img, b, pal.surface)
		thumb := image.Rect(b.Min.X, b.Min.Y, b.Min.X+b.Dy(), b.Max.Y)
		circle(img, thumb.Inset(m.dp(4)), pal.primary)
		r.text("»", thumb, m.dp(22), pal.onPrimary, true, true)
		r.text(n.text, image.Rect(thumb.Max.X, b.Min.Y, b.Max.X, b.Max.Y), m.dp(16), pal.sub, true, false)
	case "row":
		fill(img, image.Rect(b.Min.X+m.dp(16), b.Max.Y-1, b.Max.X, b.Max.Y), pal.divider)
	case "rowtitle":
		r.text(n.text, b, m.dp(16), pal.fg, false, false)
	case "small":
		r.text(n.text, b, m.dp(14), pal.sub, false, false)
	case "avatar":
		circle(img, b, pal.primary)
		if len(n.lines) > 0 {
			r.text(n.lines[0], b, m.dp(18), pal.onPrimary, true, true)
		}
	case "canvas":
		r.canvasBackground(n)
		r.drawCanvas(n)
	case "cell":
		ic := image.Rect(b.Min.X+(b.Dx()-m.dp(56))/2, b.Min.Y+m.dp(8), b.Min.X+(b.Dx()+m.dp(56))/2, b.Min.Y+m.dp(64))
		circle(img, ic, pal.primary)
		if len(n.lines) > 0 {
			r.text(n.lines[0], ic, m.dp(24), pal.onPrimary, true, true)
		}
		r.text(n.text, image.Rect(b.Min.X, b.Min.Y+m.dp(68), b.Max.X, b.Min.Y+m.dp(96)), m.dp(13), pal.fg, true, false)
	}
}

// navIcon draws a navigation-bar icon centred in b, rad pixels from its centre to its edge,
// as outlines t pixels thick: Back a triangle pointing left, Home a ring, Overview a square
// with rounded corners.
func navIcon(img *image.RGBA, desc string, b image.Rectangle, rad, t int, c color.RGBA) {
	cx, cy := (b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2
	in := func(x, y int) bool { return false }
	switch desc {
	case "Back":
		// The triangle (cx-rad, cy), (cx+rad, cy-rad), (cx+rad, cy+rad): at column x its
		// half-height is (x-(cx-rad))/2; the outline is what lies within t of an edge.
		in = func(x, y int) bool {
			dx, dy := float64(x-(cx-rad)), math.Abs(float64(y-cy))
			if dx < 0 || x > cx+rad || dy > dx/2 {
				return false
			}
			edge := (dx/2 - dy) * 2 / math.Sqrt(5) // distance to a slanted edge
			return edge < float64(t) || x > cx+rad-t
		}
	case "Home":
		in = func(x, y int) bool {
			d := math.Hypot(float64(x-cx), float64(y-cy))
			return d <= float64(rad) && d > float64(rad-t)
		}
	case "Overview":
		s, rc := rad*8/10, rad/4
		in = func(x, y int) bool {
			dx, dy := abs(x-cx), abs(y-cy)
			if dx > s || dy > s {
				return false
			}
			if dx > s-rc && dy > s-rc { // a rounded corner
				d := math.Hypot(float64(dx-(s-rc)), float64(dy-(s-rc)))
				return d <= float64(rc) && d > float64(rc-t)
			}
			return dx > s-t || dy > s-t
		}
	}
	for y := cy - rad; y <= cy+rad; y++ {
		for x := cx - rad; x <= cx+rad; x++ {
			if in(x, y) {
				img.SetRGBA(x, y, c)
			}
		}
	}
}
