package sim

import "image"

// The system windows around an app: the status bar, the navigation bar and the on-screen
// keyboard.

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
	for i, k := range []struct{ id, desc, key string }{{"back", "Back", "back"}, {"home", "Home", "home"},
		{"recent_apps", "Overview", "recents"}} {
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
			keys = append(keys, kbKey{r: r, label: k.l, value: k.v, icon: keyIcons[k.v]})
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
	r3 := append(ks{{"shift", "SHIFT", 1.5}}, row("zxcvbnm")...)
	r3 = append(r3, struct {
		l, v string
		wd   float64
	}{"del", "DEL", 1.5})
	addRow(rowsTop+2*rowH, 0, r3)
	addRow(rowsTop+3*rowH, 0, ks{{"?123", "SYM", 1.5}, {",", ",", 1}, {"space", " ", 5}, {".", ".", 1}, {"enter",
		"ENTER", 1.5}})
	return &window{kind: "keyboard", root: root}, keys
}

// keyIcons are the Material icons of the keys that show one (their labels are what a
// phone without the icon font shows).
var keyIcons = map[string]string{"SHIFT": "keyboard_capslock", "DEL": "backspace", "ENTER": "keyboard_return"}
