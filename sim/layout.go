package sim

import (
	"image"
	"math"
	"strings"
)

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
		f.windows = append(f.windows, &window{kind: "dialog", root: p.layoutDialog(m, inst, m.sb, kbTop), secure: inst.spec.Secure})
		f.secure = inst.spec.Secure || (under != nil && under.spec.Secure)
	} else {
		f.windows = append(f.windows, &window{kind: "app", root: p.layoutScreen(m, inst, m.sb, kbTop), secure: inst.spec.Secure})
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

func (p *Phone) statusWindow(m metrics) *window {
	b := image.Rect(0, 0, m.w, m.sb)
	root := baseNode("android.widget.FrameLayout", systemUI, b)
	root.kind = "statusbar"
	bar := baseNode("android.widget.FrameLayout", systemUI, b)
	bar.rid = systemUI + ":id/status_bar"
	clock := baseNode("android.widget.TextView", systemUI, image.Rect(m.dp(16), 0, m.dp(64), m.sb))
	clock.rid = systemUI + ":id/clock"
	clock.text = p.cfg.Clock().Format("15:04")
	clock.kind = "statustext"
	icons := baseNode("android.widget.LinearLayout", systemUI, image.Rect(m.w-m.dp(120), 0, m.w-m.dp(8), m.sb))
	icons.rid = systemUI + ":id/system_icons"
	if p.settings["global"]["wifi_on"] == "1" && p.settings["global"]["airplane_mode_on"] != "1" {
		wifi := baseNode("android.widget.ImageView", systemUI, image.Rect(m.w-m.dp(112), 0, m.w-m.dp(88), m.sb))
		wifi.desc = "Wifi signal full."
		wifi.rid = systemUI + ":id/wifi_signal"
		icons.children = append(icons.children, wifi)
	}
	bat := baseNode("android.widget.LinearLayout", systemUI, image.Rect(m.w-m.dp(56), 0, m.w-m.dp(8), m.sb))
	bat.rid = systemUI + ":id/battery"
	bat.desc = "Battery 100 percent."
	icons.children = append(icons.children, bat)
	bar.children = []*node{clock, icons}
	root.children = []*node{bar}
	return &window{kind: "status", root: root}
}

func (p *Phone) navWindow(m metrics) *window {
	b := image.Rect(0, m.h-m.nb, m.w, m.h)
	root := baseNode("android.widget.FrameLayout", systemUI, b)
	root.kind = "navbar"
	frameN := baseNode("android.widget.FrameLayout", systemUI, b)
	frameN.rid = systemUI + ":id/navigation_bar_frame"
	third := m.w / 3
	for i, k := range []struct{ id, desc, key string }{{"back", "Back", "back"}, {"home", "Home", "home"}, {"recent_apps", "Overview", "recents"}} {
		cx := third*i + third/2
		n := baseNode("android.widget.ImageView", systemUI, image.Rect(cx-m.dp(35), m.h-m.nb, cx+m.dp(35), m.h))
		n.rid = systemUI + ":id/" + k.id
		n.desc = k.desc
		n.clickable, n.focusable, n.longClickable = true, true, k.key == "home"
		n.kind = "navbtn"
		n.act = &hit{key: k.key}
		frameN.children = append(frameN.children, n)
	}
	root.children = []*node{frameN}
	return &window{kind: "nav", root: root}
}

func (p *Phone) keyboardWindow(m metrics, top, bottom int) (*window, []kbKey) {
	b := image.Rect(0, top, m.w, bottom)
	if p.currentIME == imeADB {
		root := baseNode("android.widget.FrameLayout", adbKbdPkg, b)
		root.kind = "keyboard"
		t := baseNode("android.widget.TextView", adbKbdPkg, b)
		t.text = "ADB Keyboard {ON}"
		t.kind = "text"
		root.children = []*node{t}
		return &window{kind: "keyboard", root: root}, nil
	}
	root := baseNode("android.widget.FrameLayout", gboardPkg, b)
	root.kind = "keyboard"
	holder := baseNode("android.widget.LinearLayout", gboardPkg, b)
	holder.rid = gboardPkg + ":id/keyboard_holder"
	view := baseNode("android.view.View", gboardPkg, image.Rect(0, top+m.dp(40), m.w, bottom))
	view.rid = gboardPkg + ":id/keyboard_view"
	holder.children = []*node{view}
	root.children = []*node{holder}
	// key geometry (drawn on screenshots, hit by taps; not in the tree, as with Gboard)
	var keys []kbKey
	rowsTop := top + m.dp(40)
	rowH := (bottom - rowsTop) / 4
	unit := float64(m.w) / 10
	addRow := func(y int, start float64, ks []struct {
		l, v string
		wd   float64
	}) {
		x := start
		for _, k := range ks {
			r := image.Rect(int(x), y, int(x+k.wd*unit), y+rowH)
			keys = append(keys, kbKey{r: r, label: k.l, value: k.v})
			x += k.wd * unit
		}
	}
	type ks = []struct {
		l, v string
		wd   float64
	}
	row := func(s string) ks {
		var out ks
		for _, c := range s {
			out = append(out, struct {
				l, v string
				wd   float64
			}{string(c), string(c), 1})
		}
		return out
	}
	addRow(rowsTop, 0, row("qwertyuiop"))
	addRow(rowsTop+rowH, unit/2, row("asdfghjkl"))
	r3 := append(ks{{"⇧", "SHIFT", 1.5}}, row("zxcvbnm")...)
	r3 = append(r3, struct {
		l, v string
		wd   float64
	}{"⌫", "DEL", 1.5})
	addRow(rowsTop+2*rowH, 0, r3)
	addRow(rowsTop+3*rowH, 0, ks{{"?123", "SYM", 1.5}, {",", ",", 1}, {"space", " ", 5}, {".", ".", 1}, {"⏎", "ENTER", 1.5}})
	return &window{kind: "keyboard", root: root}, keys
}

// layoutScreen lays out an activity screen between y=top and y=bottom.
func (p *Phone) layoutScreen(m metrics, inst *screenInst, top, bottom int) *node {
	a := inst.app
	pkg := a.spec.Package
	if inst.spec.Package != "" {
		pkg = inst.spec.Package
	}
	full := image.Rect(0, 0, m.w, m.h)
	root := baseNode("android.widget.FrameLayout", pkg, full)
	root.kind = "window"
	lin := baseNode("android.widget.LinearLayout", pkg, full)
	content := baseNode("android.widget.FrameLayout", pkg, image.Rect(0, top, m.w, bottom))
	content.rid = "android:id/content"
	screen := baseNode("android.widget.LinearLayout", pkg, content.b)
	screen.rid = pkg + ":id/" + inst.spec.ID
	root.children = []*node{lin}
	lin.children = []*node{content}
	content.children = []*node{screen}
	y := top
	c := tctx{inst: inst}
	if inst.spec.Title != "" || inst.spec.Up || len(inst.spec.Menu) > 0 {
		tb := baseNode("android.view.ViewGroup", pkg, image.Rect(0, y, m.w, y+m.dp(64)))
		tb.rid = pkg + ":id/toolbar"
		tb.kind = "toolbar"
		x := m.dp(16)
		if inst.spec.Up {
			up := baseNode("android.widget.ImageButton", pkg, image.Rect(0, y, m.dp(56), y+m.dp(64)))
			up.desc = "Navigate up"
			up.clickable, up.focusable = true, true
			up.kind = "icon"
			up.lines = []string{"←"}
			up.act = &hit{inst: inst, tap: []Action{{Back: true}}}
			tb.children = append(tb.children, up)
			x = m.dp(72)
		}
		right := m.w
		var menu []*node
		for _, e := range inst.spec.Menu {
			if e.Visible != "" && !a.truth(e.Visible, c) {
				continue
			}
			wd := m.dp(48)
			label := a.eval(e.Text, c)
			if label != "" {
				// The label is drawn at 16dp inside the button's 16dp insets, with 8dp to spare.
				wd = m.dp(40) + p.fonts.width(label, m.dp(16))
			}
			n := p.elementNode(m, pkg, inst, e, nil, image.Rect(right-wd-m.dp(4), y+m.dp(8), right-m.dp(4), y+m.dp(56)))
			right -= wd + m.dp(4)
			menu = append([]*node{n}, menu...)
		}
		if title := a.eval(inst.spec.Title, c); title != "" {
			t := baseNode("android.widget.TextView", pkg, image.Rect(x, y+m.dp(16), right-m.dp(8), y+m.dp(48)))
			t.text = title
			t.kind = "title"
			tb.children = append(tb.children, t)
		}
		tb.children = append(tb.children, menu...)
		screen.children = append(screen.children, tb)
		y += m.dp(64)
	}
	// visible elements
	var body, pinned, fabs []*ElementSpec
	for _, e := range inst.spec.Elements {
		if e.Visible != "" && !a.truth(e.Visible, c) {
			continue
		}
		switch {
		case e.Type == "fab":
			fabs = append(fabs, e)
		case e.Bottom:
			pinned = append(pinned, e)
		default:
			body = append(body, e)
		}
	}
	// pinned elements from the bottom up
	pb := bottom
	var pinnedNodes []*node
	for i := len(pinned) - 1; i >= 0; i-- {
		e := pinned[i]
		h := p.elemHeight(m, a, inst, e, m.w)
		n := p.elementNode(m, pkg, inst, e, nil, image.Rect(0, pb-h, m.w, pb))
		pb -= h
		pinnedNodes = append([]*node{n}, pinnedNodes...)
	}
	// body: one flexible list, or a scroll view when it overflows
	hasList := false
	fixed := 0
	for _, e := range body {
		if flexible(e) {
			hasList = true
			continue
		}
		fixed += p.elemHeight(m, a, inst, e, m.w)
	}
	avail := pb - y
	parent := screen
	offset := 0
	if !hasList && fixed > avail {
		sv := baseNode("android.widget.ScrollView", pkg, image.Rect(0, y, m.w, pb))
		sv.rid = pkg + ":id/scroll"
		sv.scrollable, sv.focusable = true, true
		maxS := fixed - avail
		offset = clamp(inst.scroll["body"], 0, maxS)
		inst.scroll["body"] = offset
		sv.act = &hit{inst: inst, scrollKey: "body", maxScroll: maxS}
		screen.children = append(screen.children, sv)
		parent = sv
	}
	clip := image.Rect(0, y, m.w, pb)
	cy := y - offset
	for _, e := range body {
		h := 0
		if flexible(e) {
			h = avail - fixed
			if h < m.dp(56) {
				h = m.dp(56)
			}
		} else {
			h = p.elemHeight(m, a, inst, e, m.w)
		}
		r := image.Rect(0, cy, m.w, cy+h)
		cy += h
		if !r.Overlaps(clip) {
			continue
		}
		var n *node
		switch {
		case e.Type == "canvas":
			n = p.canvasNode(m, pkg, inst, e, r)
		case e.Type == "list" || e.Type == "grid":
			n = p.listNode(m, pkg, inst, e, r)
		default:
			n = p.elementNode(m, pkg, inst, e, nil, r)
		}
		clipTree(n, clip)
		if !n.b.Empty() {
			parent.children = append(parent.children, n)
		}
	}
	screen.children = append(screen.children, pinnedNodes...)
	fy := pb - m.dp(16)
	for i := len(fabs) - 1; i >= 0; i-- {
		e := fabs[i]
		label := a.eval(e.Text, c)
		wd := m.dp(56)
		if label != "" {
			wd = m.dp(40) + p.fonts.width(label, m.dp(14))
		}
		r := image.Rect(m.w-m.dp(16)-wd, fy-m.dp(56), m.w-m.dp(16), fy)
		fy -= m.dp(72)
		screen.children = append(screen.children, p.elementNode(m, pkg, inst, e, nil, r))
	}
	return root
}

// flexible reports an element that takes the height the others leave: a list, a grid or
// a canvas.
func flexible(e *ElementSpec) bool {
	return e.Type == "list" || e.Type == "grid" || e.Type == "canvas"
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		hi = lo
	}
	return max(lo, min(v, hi))
}

// clipTree clips bounds to the visible rectangle and drops views that are not visible.
func clipTree(n *node, clip image.Rectangle) {
	n.b = n.b.Intersect(clip)
	kept := n.children[:0]
	for _, c := range n.children {
		clipTree(c, clip)
		if !c.b.Empty() {
			kept = append(kept, c)
		}
	}
	n.children = kept
}

// layoutDialog lays out a dialog screen as a card centred in the content area.
func (p *Phone) layoutDialog(m metrics, inst *screenInst, top, bottom int) *node {
	a := inst.app
	pkg := a.spec.Package
	if inst.spec.Package != "" {
		pkg = inst.spec.Package
	}
	c := tctx{inst: inst}
	inner := m.w - 2*m.dp(24)
	var els []*ElementSpec
	h := m.dp(24)
	for _, e := range inst.spec.Elements {
		if e.Visible != "" && !a.truth(e.Visible, c) {
			continue
		}
		els = append(els, e)
		h += p.elemHeight(m, a, inst, e, inner-2*m.dp(8))
	}
	h += m.dp(16)
	y0 := top + (bottom-top-h)/2
	card := image.Rect(m.dp(24), y0, m.w-m.dp(24), y0+h)
	root := baseNode("android.widget.FrameLayout", pkg, card)
	root.kind = "dialog"
	panel := baseNode("android.widget.LinearLayout", pkg, card)
	panel.rid = "android:id/parentPanel"
	root.children = []*node{panel}
	y := y0 + m.dp(24)
	for _, e := range els {
		eh := p.elemHeight(m, a, inst, e, inner-2*m.dp(8))
		panel.children = append(panel.children, p.elementNode(m, pkg, inst, e, nil, image.Rect(card.Min.X+m.dp(8), y, card.Max.X-m.dp(8), y+eh)))
		y += eh
	}
	return root
}

// elemHeight is the height of a non-list element laid out in width w.
func (p *Phone) elemHeight(m metrics, a *appState, inst *screenInst, e *ElementSpec, w int) int {
	if e.Height > 0 {
		return m.dp(float64(e.Height))
	}
	c := tctx{inst: inst}
	switch e.Type {
	case "title":
		return m.dp(56)
	case "text":
		lines := p.fonts.wrap(a.eval(e.Text, c), m.dp(16), w-2*m.dp(16))
		return max(1, len(lines))*m.dp(22) + m.dp(16)
	case "button":
		return m.dp(64)
	case "input", "slider":
		return m.dp(72)
	case "switch", "checkbox", "icon":
		return m.dp(56)
	case "image":
		return m.dp(160)
	case "hbox":
		h := 0
		n := 0
		for _, ch := range e.Children {
			if ch.Visible == "" || a.truth(ch.Visible, c) {
				n++
			}
		}
		for _, ch := range e.Children {
			if ch.Visible == "" || a.truth(ch.Visible, c) {
				h = max(h, p.elemHeight(m, a, inst, ch, w/max(1, n)))
			}
		}
		return h
	}
	return m.dp(48)
}

// elementNode builds the node of a non-list element in rectangle r.
func (p *Phone) elementNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, item Record, r image.Rectangle) *node {
	a := inst.app
	c := tctx{inst: inst, item: item}
	n := baseNode("android.widget.TextView", pkg, r)
	if e.ID != "" {
		n.rid = pkg + ":id/" + e.ID
	}
	n.text = a.eval(e.Text, c)
	n.desc = a.eval(e.Desc, c)
	n.kind = e.Type
	if e.Enabled != "" && !a.truth(e.Enabled, c) {
		n.enabled = false
	}
	if len(e.OnTap) > 0 || len(e.OnLongPress) > 0 {
		n.clickable, n.focusable = true, true
		n.longClickable = len(e.OnLongPress) > 0
		n.act = &hit{inst: inst, el: e, item: item, tap: e.OnTap, long: e.OnLongPress}
	}
	inset := func(h, v int) {
		n.b = image.Rect(r.Min.X+m.dp(float64(h)), r.Min.Y+m.dp(float64(v)), r.Max.X-m.dp(float64(h)), r.Max.Y-m.dp(float64(v)))
	}
	switch e.Type {
	case "title", "text":
		inset(16, 4)
		n.lines = p.fonts.wrap(n.text, m.dp(16), n.b.Dx())
	case "button":
		n.class = "android.widget.Button"
		n.clickable, n.focusable = true, true
		inset(16, 8)
	case "input":
		n.class = "android.widget.EditText"
		val := a.vars[e.Bind]
		n.text = val
		if val == "" {
			n.text = a.eval(e.Hint, c)
			n.hint = true
		}
		n.password = e.Password
		if e.Password && val != "" {
			n.text = strings.Repeat("•", len([]rune(val)))
		}
		n.clickable, n.focusable, n.longClickable = true, true, true
		n.focused = inst.focus == e.ID
		n.act = &hit{inst: inst, el: e, input: e.ID}
		inset(16, 8)
	case "switch", "checkbox":
		n.class = "android.widget.Switch"
		if e.Type == "checkbox" {
			n.class = "android.widget.CheckBox"
		}
		n.checkable, n.clickable, n.focusable = true, true, true
		n.checked = a.truth(e.Checked, c) && e.Checked != ""
		inset(16, 4)
	case "icon":
		n.class = "android.widget.ImageButton"
		n.clickable, n.focusable = true, true
		if r.Dx() > m.dp(56) {
			n.b = image.Rect(r.Min.X+m.dp(4), r.Min.Y+m.dp(4), r.Min.X+m.dp(52), r.Max.Y-m.dp(4))
			if e.Bottom {
				n.b = image.Rect(r.Max.X-m.dp(60), r.Min.Y+m.dp(4), r.Max.X-m.dp(8), r.Max.Y-m.dp(4))
			}
		}
		n.lines = []string{iconGlyph(n.desc)}
	case "image":
		n.class = "android.widget.ImageView"
		inset(16, 8)
	case "slider":
		// A "slide to confirm" control: its label is its text, as custom ones show it.
		n.class = "android.widget.SeekBar"
		n.clickable, n.focusable = true, true
		n.act = &hit{inst: inst, el: e, item: item, end: e.OnEnd, start: e.OnStart}
		inset(16, 8)
	case "fab":
		n.class = "android.widget.ImageButton"
		if n.text != "" {
			n.class = "android.widget.Button"
		}
		n.clickable, n.focusable = true, true
	case "hbox":
		n.class = "android.widget.LinearLayout"
		n.clickable, n.focusable, n.act = false, false, nil
		var kids []*ElementSpec
		for _, ch := range e.Children {
			if ch.Visible == "" || a.truth(ch.Visible, c) {
				kids = append(kids, ch)
			}
		}
		if len(kids) > 0 {
			// icons keep their 56dp; the other children share the rest
			fixedW, flex := 0, 0
			for _, ch := range kids {
				if ch.Type == "icon" {
					fixedW += m.dp(56)
				} else {
					flex++
				}
			}
			share := 0
			if flex > 0 {
				share = (r.Dx() - fixedW) / flex
			}
			x := r.Min.X
			for _, ch := range kids {
				wd := share
				if ch.Type == "icon" {
					wd = m.dp(56)
				}
				cr := image.Rect(x, r.Min.Y, x+wd, r.Max.Y)
				x += wd
				n.children = append(n.children, p.elementNode(m, pkg, inst, ch, item, cr))
			}
		}
	}
	if e.Class != "" {
		n.class = e.Class
	}
	if !n.enabled && n.act != nil {
		n.act = nil
	}
	return n
}

func iconGlyph(desc string) string {
	d := strings.ToLower(desc)
	switch {
	case strings.Contains(d, "增加"):
		return "+"
	case strings.Contains(d, "减少"):
		return "−"
	case strings.Contains(d, "search"):
		return "⌕"
	case strings.Contains(d, "delete"):
		return "✕"
	case strings.Contains(d, "send"):
		return "➤"
	case strings.Contains(d, "new") || strings.Contains(d, "add") || strings.Contains(d, "create") || strings.Contains(d, "start"):
		return "+"
	case strings.Contains(d, "back") || strings.Contains(d, "up"):
		return "←"
	}
	for _, r := range desc {
		return strings.ToUpper(string(r))
	}
	return "•"
}

// listNode builds a RecyclerView with the rows visible at the current scroll offset.
func (p *Phone) listNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, r image.Rectangle) *node {
	a := inst.app
	n := baseNode("androidx.recyclerview.widget.RecyclerView", pkg, r)
	if e.ID != "" {
		n.rid = pkg + ":id/" + e.ID
	}
	n.focusable = true
	n.kind = "list"
	rows := a.rows(e, inst)
	cols := 1
	rowH := m.dp(56)
	if e.Row.Subtitle != "" {
		rowH = m.dp(72)
	}
	if e.Type == "grid" {
		cols = max(1, e.Columns)
		if cols == 1 {
			cols = 4
		}
		rowH = m.dp(104)
	}
	if e.RowHeight > 0 {
		rowH = m.dp(float64(e.RowHeight))
	}
	if len(rows) == 0 {
		if e.Empty != "" {
			t := baseNode("android.widget.TextView", pkg, image.Rect(r.Min.X+m.dp(16), r.Min.Y+m.dp(16), r.Max.X-m.dp(16), r.Min.Y+m.dp(64)))
			t.rid = pkg + ":id/empty"
			t.text = a.eval(e.Empty, tctx{inst: inst})
			t.kind = "text"
			t.lines = []string{t.text}
			n.children = append(n.children, t)
		}
		return n
	}
	nrows := (len(rows) + cols - 1) / cols
	content := nrows * rowH
	maxS := max(0, content-r.Dy())
	key := e.ID
	off := clamp(inst.scroll[key], 0, maxS)
	inst.scroll[key] = off
	if maxS > 0 {
		n.scrollable = true
	}
	n.act = &hit{inst: inst, el: e, scrollKey: key, maxScroll: maxS}
	cw := r.Dx() / cols
	for i, rec := range rows {
		ry := r.Min.Y + (i/cols)*rowH - off
		cx := r.Min.X + (i%cols)*cw
		rr := image.Rect(cx, ry, cx+cw, ry+rowH)
		if !rr.Overlaps(r) {
			continue
		}
		var row *node
		if e.Type == "grid" {
			row = p.cellNode(m, pkg, inst, e, rec, rr)
		} else {
			row = p.rowNode(m, pkg, inst, e, rec, rr)
		}
		clipTree(row, r)
		if !row.b.Empty() {
			n.children = append(n.children, row)
		}
	}
	return n
}

func (p *Phone) cellNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, rec Record, r image.Rectangle) *node {
	a := inst.app
	c := tctx{inst: inst, item: rec}
	n := baseNode("android.widget.TextView", pkg, r)
	n.text = a.eval(e.Row.Title, c)
	n.desc = a.eval(e.Row.Desc, c)
	if id := a.eval(e.Row.ID, c); id != "" {
		n.rid = pkg + ":id/" + id
	}
	n.kind = "cell"
	n.lines = []string{a.eval(e.Row.Icon, c)}
	n.clickable, n.focusable = true, true
	n.longClickable = len(e.OnLongPress) > 0
	n.act = &hit{inst: inst, el: e, item: rec, tap: e.OnTap, long: e.OnLongPress}
	return n
}

func (p *Phone) rowNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, rec Record, r image.Rectangle) *node {
	a := inst.app
	c := tctx{inst: inst, item: rec}
	rs := e.Row
	n := baseNode("android.widget.LinearLayout", pkg, r)
	if id := a.eval(rs.ID, c); id != "" {
		n.rid = pkg + ":id/" + id
	}
	n.desc = a.eval(rs.Desc, c)
	n.kind = "row"
	if len(e.OnTap) > 0 || len(e.OnLongPress) > 0 {
		n.clickable, n.focusable = true, true
		n.longClickable = len(e.OnLongPress) > 0
		n.act = &hit{inst: inst, el: e, item: rec, tap: e.OnTap, long: e.OnLongPress}
	}
	x := r.Min.X + m.dp(16)
	if rs.Icon != "" {
		ic := baseNode("android.widget.ImageView", pkg, image.Rect(x, r.Min.Y+(r.Dy()-m.dp(40))/2, x+m.dp(40), r.Min.Y+(r.Dy()+m.dp(40))/2))
		ic.rid = pkg + ":id/icon"
		ic.kind = "avatar"
		ic.lines = []string{a.eval(rs.Icon, c)}
		n.children = append(n.children, ic)
		x += m.dp(56)
	}
	right := r.Max.X - m.dp(16)
	var widget *node
	for _, wdg := range []struct{ tmpl, class, id string }{{rs.Switch, "android.widget.Switch", "android:id/switch_widget"}, {rs.Radio, "android.widget.RadioButton", pkg + ":id/radio"}, {rs.Checkbox, "android.widget.CheckBox", "android:id/checkbox"}} {
		if wdg.tmpl == "" || a.eval(wdg.tmpl, c) == "" {
			continue // a mixed list: this row has no widget
		}
		widget = baseNode(wdg.class, pkg, image.Rect(right-m.dp(52), r.Min.Y+(r.Dy()-m.dp(32))/2, right, r.Min.Y+(r.Dy()+m.dp(32))/2))
		widget.rid = wdg.id
		widget.checkable, widget.focusable = true, true
		widget.checked = a.truth(wdg.tmpl, c)
		widget.kind = "switch"
		if wdg.class != "android.widget.Switch" {
			widget.kind = "checkbox"
		}
		right -= m.dp(64)
	}
	var trailing *node
	if rs.Trailing != "" {
		txt := a.eval(rs.Trailing, c)
		tw := p.fonts.width(txt, m.dp(14)) + m.dp(8)
		trailing = baseNode("android.widget.TextView", pkg, image.Rect(right-tw, r.Min.Y+(r.Dy()-m.dp(24))/2, right, r.Min.Y+(r.Dy()+m.dp(24))/2))
		trailing.rid = pkg + ":id/trailing"
		trailing.text = txt
		trailing.kind = "small"
		trailing.lines = []string{txt}
		right -= tw + m.dp(8)
	}
	title := a.eval(rs.Title, c)
	sub := a.eval(rs.Subtitle, c)
	if sub != "" {
		t := baseNode("android.widget.TextView", pkg, image.Rect(x, r.Min.Y+m.dp(12), right, r.Min.Y+m.dp(38)))
		t.rid = "android:id/title"
		t.text = title
		t.kind = "rowtitle"
		t.lines = []string{title}
		s := baseNode("android.widget.TextView", pkg, image.Rect(x, r.Min.Y+m.dp(40), right, r.Min.Y+m.dp(62)))
		s.rid = "android:id/summary"
		s.text = sub
		s.kind = "small"
		s.lines = []string{sub}
		n.children = append(n.children, t, s)
	} else {
		t := baseNode("android.widget.TextView", pkg, image.Rect(x, r.Min.Y+(r.Dy()-m.dp(28))/2, right, r.Min.Y+(r.Dy()+m.dp(28))/2))
		t.rid = "android:id/title"
		t.text = title
		t.kind = "rowtitle"
		t.lines = []string{title}
		n.children = append(n.children, t)
	}
	if trailing != nil {
		n.children = append(n.children, trailing)
	}
	if widget != nil {
		n.children = append(n.children, widget)
	}
	return n
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
	if n.act != nil && (n.act.tap != nil || n.act.long != nil || n.act.input != "" || n.act.key != "" || n.act.end != nil) {
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
