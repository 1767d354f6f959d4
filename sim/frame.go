package sim

import (
	"image"
	"math"
)

// The frame: the windows of views on the screen at one moment (built once per state
// version from the task stack) and what a touch at a point hits.

// node is one view of a laid-out screen: what the dump prints, what the renderer draws and
// what a tap hits.
type node struct {
	class, text, rid, desc, pkg string

	checkable, checked, clickable, enabled, focusable, focused, scrollable, longClickable, password, selected bool

	b        image.Rectangle
	children []*node

	kind  string // how the renderer draws it
	hint  bool   // text is the input's hint
	lines []string
	act   *hit
	// drawn are the controls a canvas draws (sim/canvas.go): on the screenshot and hit by
	// taps, never in the dump; textBox is where a drawn item's text lands.
	drawn   []*node
	textBox image.Rectangle
	glyph   string // the pictogram a drawn icon shows
}

// hit is what touching a node does.
type hit struct {
	inst  *screenInst
	el    *ElementSpec
	item  Record
	tap   []Action
	long  []Action
	input string   // focus this input
	key   string   // system button: back, home, recents
	end   []Action // slider: swiped to its end
	start []Action // level slider: swiped to its start
	// pick is what touching a part of a picker does (sim/pickers.go)
	pick func(*Phone)
	// scrolling container
	scrollKey string
	maxScroll int
}

type window struct {
	kind   string // status, app, dialog, keyboard, nav
	root   *node
	secure bool
}

type kbKey struct {
	r     image.Rectangle
	label string
	value string // text to type, or DEL / ENTER / SHIFT / SYM
	icon  string // the Material icon drawn instead of label (see iconfont.go), if any
}

// frame is the whole screen at one moment.
type frame struct {
	windows []*window
	under   *window // the app window under a dialog (drawn dimmed, not dumped)
	keys    []kbKey
	secure  bool
	dark    bool
	toast   string
}

type metrics struct {
	d          float64
	w, h       int
	sb, nb, kb int
}

func (p *Phone) metrics() metrics {
	d := float64(p.cfg.Density) / 160
	m := metrics{d: d, w: p.cfg.Width, h: p.cfg.Height}
	m.sb = m.dp(24)
	m.nb = m.dp(48)
	if p.currentIME == imeADB {
		m.kb = m.dp(48)
	} else {
		m.kb = m.dp(280)
	}
	return m
}

func (m metrics) dp(v float64) int { return int(math.Round(v * m.d)) }

// frameLocked returns the current frame, computed once per state version.
func (p *Phone) frameLocked() *frame {
	if p.cache.frame != nil && p.cache.frameVersion == p.version {
		return p.cache.frame
	}
	f := p.buildFrame()
	p.cache.frame = f
	p.cache.frameVersion = p.version
	return f
}

func (p *Phone) buildFrame() *frame {
	m := p.metrics()
	f := &frame{dark: p.settings["secure"]["ui_night_mode"] == "2", toast: p.toast}
	inst := p.top()
	contentBottom := m.h - m.nb
	kbTop := contentBottom
	showKb := p.kbShown && inst.focus != ""
	if showKb {
		kbTop = contentBottom - m.kb
	}
	f.windows = append(f.windows, p.statusWindow(m))
	if inst.spec.Dialog {
		t := p.front()
		var under *screenInst
		if len(t.stack) > 1 {
			under = t.stack[len(t.stack)-2]
		}
		if under != nil {
			f.under = &window{kind: "app", root: p.layoutScreen(m, under, m.sb, contentBottom), secure: under.spec.Secure}
		}
		f.windows = append(f.windows, &window{kind: "dialog", root: p.layoutDialog(m, inst, m.sb, kbTop),
			secure: inst.spec.Secure})
		f.secure = inst.spec.Secure || (under != nil && under.spec.Secure)
	} else {
		f.windows = append(f.windows, &window{kind: "app", root: p.layoutScreen(m, inst, m.sb, kbTop),
			secure: inst.spec.Secure})
		f.secure = inst.spec.Secure
	}
	if showKb {
		kw, keys := p.keyboardWindow(m, kbTop, contentBottom)
		f.windows = append(f.windows, kw)
		f.keys = keys
	}
	f.windows = append(f.windows, p.navWindow(m))
	return f
}

func baseNode(class, pkg string, b image.Rectangle) *node {
	return &node{class: class, pkg: pkg, b: b, enabled: true}
}

// hitTest finds what a touch at (x,y) reaches: the deepest actionable node of the topmost
// window that contains the point, or a keyboard key.
func (f *frame) hitTest(x, y int) (*node, *kbKey) {
	pt := image.Pt(x, y)
	for i := len(f.windows) - 1; i >= 0; i-- {
		w := f.windows[i]
		if !pt.In(w.root.b) {
			continue
		}
		if w.kind == "keyboard" {
			for k := range f.keys {
				if pt.In(f.keys[k].r) {
					return nil, &f.keys[k]
				}
			}
			return nil, nil
		}
		return deepestActionable(w.root, pt), nil
	}
	return nil, nil
}

func deepestActionable(n *node, pt image.Point) *node {
	if !pt.In(n.b) {
		return nil
	}
	for i := len(n.drawn) - 1; i >= 0; i-- {
		if d := n.drawn[i]; d.act != nil && (pt.In(d.b) || (d.kind == "draw-pin" && pt.In(d.textBox))) { // a pin opens by its name too
			return d
		}
	}
	for i := len(n.children) - 1; i >= 0; i-- {
		if d := deepestActionable(n.children[i], pt); d != nil {
			return d
		}
	}
	if n.act != nil && (n.act.tap != nil || n.act.long != nil || n.act.input != "" || n.act.key != "" || n.act.end != nil || n.act.pick != nil) {
		return n
	}
	return nil
}

// scrollerAt finds the scrollable container under a point.
func (f *frame) scrollerAt(x, y int) *node {
	pt := image.Pt(x, y)
	for i := len(f.windows) - 1; i >= 0; i-- {
		w := f.windows[i]
		if !pt.In(w.root.b) {
			continue
		}
		return deepestScroller(w.root, pt)
	}
	return nil
}

func deepestScroller(n *node, pt image.Point) *node {
	if !pt.In(n.b) {
		return nil
	}
	for i := len(n.children) - 1; i >= 0; i-- {
		if d := deepestScroller(n.children[i], pt); d != nil {
			return d
		}
	}
	if n.act != nil && n.act.scrollKey != "" && n.act.maxScroll > 0 {
		return n
	}
	return nil
}
