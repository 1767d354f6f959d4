package sim

import (
	"image"
	"image/color"
)

// Canvas elements are views the accessibility tree does not describe: a WebView whose page
// exposes no nodes, a SurfaceView or a custom view that draws its own controls (a PIN pad,
// a map with pins). The dump shows one childless node; the screenshot shows what is drawn;
// a tap reaches a drawn control by its place on the screen, as on a real phone.

// DrawSpec is one thing a canvas draws. Positions and sizes are in dp from the canvas's
// top-left corner; Text, Visible and the actions are templates like an element's.
//
// Kinds: text (16dp), title (22dp bold), small (14dp, grey), button (a filled button with
// light text), key (a round PIN-pad key), pin (a map pin with its label beside it), card
// (a raised panel; its text is drawn by the items on it), road (a map road, no text), bar (a
// band in the app's colour, no text: a toolbar's background), icon (a pictogram with no
// text and no description, light on a dark colour: Glyph names it, see glyphs.go).
type DrawSpec struct {
	Kind    string   `yaml:"kind"`
	Text    string   `yaml:"text"`
	Glyph   string   `yaml:"glyph"`
	X       int      `yaml:"x"`
	Y       int      `yaml:"y"`
	W       int      `yaml:"w"`
	H       int      `yaml:"h"`
	Visible string   `yaml:"visible"`
	OnTap   []Action `yaml:"on_tap"`
}

// DrawnText is one text a canvas drew on the current screen, where it drew it: what OCR
// over the screenshot should read. Benchmarks measure OCR against it.
type DrawnText struct {
	Text   string
	Bounds image.Rectangle
}

// DrawnTexts lists the texts canvases draw on the current screen, in drawing order.
func (p *Phone) DrawnTexts() []DrawnText {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frameLocked()
	if f.secure {
		return nil
	}
	var out []DrawnText
	var walk func(n *node)
	walk = func(n *node) {
		for _, d := range n.drawn {
			if d.text != "" {
				out = append(out, DrawnText{Text: d.text, Bounds: d.textBox})
			}
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, w := range f.windows {
		walk(w.root)
	}
	return out
}

// DrawnIcon is one icon a canvas drew on the current screen (kind icon: no text, no
// description): its pictogram and its box. Tests measure the marks perception finds
// against it. A map pin is not one: its name is drawn beside it.
type DrawnIcon struct {
	Glyph  string
	Bounds image.Rectangle
}

// DrawnIcons lists the icons canvases draw on the current screen, in drawing order.
func (p *Phone) DrawnIcons() []DrawnIcon {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frameLocked()
	if f.secure {
		return nil
	}
	var out []DrawnIcon
	var walk func(n *node)
	walk = func(n *node) {
		for _, d := range n.drawn {
			if d.kind == "draw-icon" {
				out = append(out, DrawnIcon{Glyph: d.glyph, Bounds: d.b})
			}
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	for _, w := range f.windows {
		walk(w.root)
	}
	return out
}

func validDrawKind(k string) bool {
	switch k {
	case "text", "title", "small", "button", "key", "pin", "card", "road", "bar", "icon":
		return true
	}
	return false
}

// canvasNode builds a canvas element: one node in the dump, its drawn items beside it.
func (p *Phone) canvasNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, r image.Rectangle) *node {
	a := inst.app
	c := tctx{inst: inst}
	n := baseNode("android.view.View", pkg, r)
	if e.Class != "" {
		n.class = e.Class
	}
	if e.ID != "" {
		n.rid = pkg + ":id/" + e.ID
	}
	n.desc = a.eval(e.Desc, c)
	n.focusable = true
	n.kind = "canvas"
	for _, d := range e.Draw {
		if d.Visible != "" && !a.truth(d.Visible, c) {
			continue
		}
		b := image.Rect(r.Min.X+m.dp(float64(d.X)), r.Min.Y+m.dp(float64(d.Y)),
			r.Min.X+m.dp(float64(d.X+d.W)), r.Min.Y+m.dp(float64(d.Y+d.H)))
		dn := &node{kind: "draw-" + d.Kind, b: b, text: a.eval(d.Text, c), enabled: true, glyph: d.Glyph}
		if len(d.OnTap) > 0 {
			dn.act = &hit{inst: inst, el: e, tap: d.OnTap}
		}
		dn.textBox = p.drawnTextBox(m, dn)
		n.drawn = append(n.drawn, dn)
	}
	return n
}

// drawStyle is how a drawn item's text looks: size in px, centred, bold.
func (m metrics) drawStyle(kind string) (px int, center, bold bool) {
	switch kind {
	case "draw-title":
		return m.dp(22), false, true
	case "draw-small":
		return m.dp(14), false, false
	case "draw-button":
		return m.dp(18), true, true
	case "draw-key":
		return m.dp(26), true, false
	case "draw-pin":
		return m.dp(15), false, true
	}
	return m.dp(16), false, false
}

// drawnTextBox is where the text of a drawn item lands: its ink box, as renderer.text
// places it (the label of a pin sits to the right of the pin).
func (p *Phone) drawnTextBox(m metrics, d *node) image.Rectangle {
	if d.text == "" {
		return image.Rectangle{}
	}
	px, center, _ := m.drawStyle(d.kind)
	box := d.b
	if d.kind == "draw-pin" {
		box = pinLabelBox(m, d.b, p.fonts.width(d.text, px))
		box.Min.X += m.dp(6)
	}
	w := p.fonts.width(d.text, px)
	x := box.Min.X
	if center {
		x = box.Min.X + (box.Dx()-w)/2
	}
	base := box.Min.Y + (box.Dy()+px*7/10)/2
	return image.Rect(x, base-px*8/10, min(x+w, box.Max.X), base+px/5).Intersect(box)
}

// pinLabelBox is the label plate to the right of a pin.
func pinLabelBox(m metrics, pin image.Rectangle, textW int) image.Rectangle {
	return image.Rect(pin.Max.X+m.dp(6), pin.Min.Y, pin.Max.X+m.dp(18)+textW, pin.Max.Y)
}

// drawCanvas draws a canvas node's items.
func (r *renderer) drawCanvas(n *node) {
	m, pal := r.m, r.pal
	for _, d := range n.drawn {
		px, center, bold := m.drawStyle(d.kind)
		fg := pal.fg
		switch d.kind {
		case "draw-road":
			fill(r.img, d.b, color.RGBA{250, 250, 250, 255})
			continue
		case "draw-bar":
			fill(r.img, d.b, pal.primary)
			continue
		case "draw-icon":
			c := pal.fg
			if under := r.img.RGBAAt((d.b.Min.X+d.b.Max.X)/2, (d.b.Min.Y+d.b.Max.Y)/2); 299*int(under.R)+587*int(under.G)+114*int(under.B) < 128000 {
				c = pal.onPrimary // light on a dark or coloured bar
			}
			drawGlyph(r.img, d.glyph, d.b, c)
			continue
		case "draw-card":
			fill(r.img, d.b.Add(image.Pt(0, m.dp(2))), pal.divider)
			fill(r.img, d.b, pal.bg)
		case "draw-button":
			fill(r.img, d.b, pal.primary)
			fg = pal.onPrimary
		case "draw-key":
			circle(r.img, d.b, pal.surface)
		case "draw-small":
			fg = pal.sub
		case "draw-pin":
			circle(r.img, d.b, color.RGBA{217, 48, 37, 255})
			circle(r.img, d.b.Inset(d.b.Dx()*3/10), color.RGBA{255, 255, 255, 255})
			lb := pinLabelBox(m, d.b, r.p.fonts.width(d.text, px))
			fill(r.img, lb, pal.bg)
			r.text(d.text, image.Rect(lb.Min.X+m.dp(6), lb.Min.Y, lb.Max.X, lb.Max.Y), px, fg, false, bold)
			continue
		}
		r.text(d.text, d.b, px, fg, center, bold)
	}
}

// mapBackground is the land colour a canvas with pins is drawn on.
var mapBackground = color.RGBA{229, 239, 222, 255}

// canvasBackground fills a canvas: map land under pins and roads, else the page colour.
func (r *renderer) canvasBackground(n *node) {
	for _, d := range n.drawn {
		if d.kind == "draw-pin" || d.kind == "draw-road" {
			fill(r.img, n.b, mapBackground)
			return
		}
	}
	fill(r.img, n.b, r.pal.bg)
}
