package sim

import "image"

// Layout: where a screen's elements go (an activity between the status bar and the keyboard
// or navigation bar, a dialog centred), their heights, scrolling and clipping.

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
			up.glyph = "arrow_back"
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
		panel.children = append(panel.children, p.elementNode(m, pkg, inst, e, nil, image.Rect(card.Min.X+m.dp(8), y,
			card.Max.X-m.dp(8), y+eh)))
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
	case "datepicker", "timepicker":
		return m.dp(pickerHeight(inst, e))
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
