package sim

import (
	"image"
	"strings"
)

// The views an element of a screen spec becomes: texts, buttons, inputs, switches,
// icons, images, sliders, boxes, and lists of record rows or cells.

// elementNode builds the node of a non-list element in rectangle r.
func (p *Phone) elementNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, item Record,
	r image.Rectangle) *node {
	switch e.Type {
	case "datepicker":
		return p.datePickerNode(m, pkg, inst, e, r)
	case "timepicker":
		return p.timePickerNode(m, pkg, inst, e, r)
	}
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
		dh, dv := m.dp(float64(h)), m.dp(float64(v))
		n.b = image.Rect(r.Min.X+dh, r.Min.Y+dv, r.Max.X-dh, r.Max.Y-dv)
	}
	switch e.Type {
	case "title", "text":
		inset(16, 4)
		n.lines = p.fonts.wrap(n.text, m.dp(16), n.b.Dx())
	case "button":
		n.class = "android.widget.Button"
		n.clickable, n.focusable = true, true
		n.glyph = iconName(n.desc) // drawn when it has no text
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
		n.glyph = iconName(n.desc)
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
		n.glyph = iconName(n.desc)
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
			t := baseNode("android.widget.TextView", pkg, image.Rect(r.Min.X+m.dp(16), r.Min.Y+m.dp(16), r.Max.X-m.dp(16),
				r.Min.Y+m.dp(64)))
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
		ic := baseNode("android.widget.ImageView", pkg, image.Rect(x, r.Min.Y+(r.Dy()-m.dp(40))/2, x+m.dp(40),
			r.Min.Y+(r.Dy()+m.dp(40))/2))
		ic.rid = pkg + ":id/icon"
		ic.kind = "avatar"
		ic.lines = []string{a.eval(rs.Icon, c)}
		n.children = append(n.children, ic)
		x += m.dp(56)
	}
	right := r.Max.X - m.dp(16)
	var widget *node
	for _, wdg := range []struct{ tmpl, class, id string }{{rs.Switch, "android.widget.Switch",
		"android:id/switch_widget"}, {rs.Radio, "android.widget.RadioButton", pkg + ":id/radio"}, {rs.Checkbox,
		"android.widget.CheckBox", "android:id/checkbox"}} {
		if wdg.tmpl == "" || a.eval(wdg.tmpl, c) == "" {
			continue // a mixed list: this row has no widget
		}
		widget = baseNode(wdg.class, pkg, image.Rect(right-m.dp(52), r.Min.Y+(r.Dy()-m.dp(32))/2, right,
			r.Min.Y+(r.Dy()+m.dp(32))/2))
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
		trailing = baseNode("android.widget.TextView", pkg, image.Rect(right-tw, r.Min.Y+(r.Dy()-m.dp(24))/2, right,
			r.Min.Y+(r.Dy()+m.dp(24))/2))
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
		t := baseNode("android.widget.TextView", pkg, image.Rect(x, r.Min.Y+(r.Dy()-m.dp(28))/2, right,
			r.Min.Y+(r.Dy()+m.dp(28))/2))
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
