package sim

// The emulated UiAutomator2 server's view of the screen: finding elements, the page
// source, an element's attributes and the device's description.

import (
	"fmt"
	"strconv"
	"strings"
)

// uiServerFind finds elements of the active window by the locator strategies a client
// uses most: "id" (resource-id, the package prefix optional), "accessibility id"
// (content-desc), "class name", and the xpath forms //*[@text='…'], //*[@resource-id='…'],
// //*[@content-desc='…'], //CLASS.
// With within, only the elements inside its bounds (a search from an element).
func (p *Phone) uiServerFind(using, value string, first bool, within *elementRef) ([]map[string]string, error) {
	var match func(n *node) bool
	switch using {
	case "id":
		match = func(n *node) bool { return n.rid == value || strings.HasSuffix(n.rid, ":id/"+value) }
	case "accessibility id":
		match = func(n *node) bool { return n.desc == value }
	case "class name":
		match = func(n *node) bool { return n.class == value }
	case "xpath":
		attr, want, ok := parseXPath(value)
		if !ok {
			return nil, fmt.Errorf("unsupported xpath %q: use //*[@text='…'], //*[@resource-id='…'], "+
				"//*[@content-desc='…'] or //CLASS", value)
		}
		match = func(n *node) bool {
			switch attr {
			case "text":
				return n.text == want && !n.hint
			case "resource-id":
				return n.rid == want
			case "content-desc":
				return n.desc == want
			}
			return n.class == want
		}
	default:
		return nil, fmt.Errorf("locator strategy %q is not supported", using)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.frameLocked()
	w := f.activeWindow()
	var out []map[string]string
	var walk func(n *node) bool
	walk = func(n *node) bool {
		inside := within == nil || n.b.Min.X >= within.x0 && n.b.Min.Y >= within.y0 && n.b.Max.X <= within.x1 && n.b.Max.Y <= within.y1 &&
			(n.b.Min.X != within.x0 || n.b.Min.Y != within.y0 || n.b.Max.X != within.x1 || n.b.Max.Y != within.y1)
		if inside && match(n) {
			p.uia2.nextEl++
			id := fmt.Sprintf("00000000-0000-%04x-ffff-ffff%08x", p.uia2.nextEl>>16&0xffff, p.uia2.nextEl)
			p.uia2.elements[id] = elementRef{text: n.text, x0: n.b.Min.X, y0: n.b.Min.Y, x1: n.b.Max.X, y1: n.b.Max.Y,
				attrs: appiumAttrs(n)}
			out = append(out, map[string]string{"ELEMENT": id, w3cElementKey: id})
			if first {
				return false
			}
		}
		for _, c := range n.children {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	if w != nil {
		walk(w.root)
	}
	if out == nil {
		out = []map[string]string{}
	}
	return out, nil
}

// parseXPath reads //*[@ATTR='V'] (or "V") and //CLASS; attr is "" for a class.
func parseXPath(x string) (attr, value string, ok bool) {
	if !strings.HasPrefix(x, "//") {
		return "", "", false
	}
	x = x[2:]
	if !strings.HasPrefix(x, "*[@") {
		if x == "" || strings.ContainsAny(x, "[]/@'\"") {
			return "", "", false
		}
		return "", x, true
	}
	attr, rest, found := strings.Cut(x[3:], "=")
	if !found || len(rest) < 3 || !strings.HasSuffix(rest, "]") {
		return "", "", false
	}
	rest = rest[:len(rest)-1]
	q := rest[0]
	if (q != '\'' && q != '"') || rest[len(rest)-1] != q {
		return "", "", false
	}
	switch attr {
	case "text", "resource-id", "content-desc":
		return attr, rest[1 : len(rest)-1], true
	}
	return "", "", false
}

// appiumSourceLocked is the page source the server answers: AccessibilityNodeInfoDumper's
// XML of the active window (enableMultiWindows off), each element named by its class, a
// <hierarchy> root with the screen's size, and Appium's attribute set.
func (p *Phone) appiumSourceLocked() []byte {
	f := p.frameLocked()
	m := p.metrics()
	var b strings.Builder
	b.Grow(64 << 10)
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>` + "\n")
	fmt.Fprintf(&b, `<hierarchy index="0" class="hierarchy" rotation="0" width="%d" height="%d">`+"\n", m.w, m.h)
	if w := f.activeWindow(); w != nil {
		writeAppiumNode(&b, w.root, 0, 1)
	}
	b.WriteString("</hierarchy>")
	return []byte(b.String())
}

func writeAppiumNode(b *strings.Builder, n *node, index, depth int) {
	tag := n.class
	if tag == "" || strings.ContainsAny(tag, " <>\"'&/=") {
		tag = "android.view.View"
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteByte('<')
	b.WriteString(tag)
	attr := func(k, v string) {
		b.WriteByte(' ')
		b.WriteString(k)
		b.WriteString(`="`)
		escapeAttr(b, v)
		b.WriteByte('"')
	}
	attr("index", strconv.Itoa(index))
	attr("package", n.pkg)
	attr("class", n.class)
	attr("text", n.text)
	hint := ""
	if n.hint {
		hint = n.text
	}
	attr("hint", hint)
	if n.rid != "" {
		attr("resource-id", n.rid)
	}
	attr("content-desc", n.desc)
	for _, a := range [...]struct {
		k string
		v bool
	}{{"checkable", n.checkable}, {"checked", n.checked}, {"clickable", n.clickable}, {"enabled", n.enabled},
		{"focusable", n.focusable}, {"focused", n.focused}, {"long-clickable", n.longClickable},
		{"password", n.password}, {"scrollable", n.scrollable}, {"selected", n.selected}} {
		attr(a.k, strconv.FormatBool(a.v))
	}
	attr("bounds", fmt.Sprintf("[%d,%d][%d,%d]", n.b.Min.X, n.b.Min.Y, n.b.Max.X, n.b.Max.Y))
	attr("displayed", "true")
	if len(n.children) == 0 {
		b.WriteString(" />\n")
		return
	}
	b.WriteString(">\n")
	for i, c := range n.children {
		writeAppiumNode(b, c, i, depth+1)
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString("</")
	b.WriteString(tag)
	b.WriteString(">\n")
}

// uiServerDeviceInfo is GetDeviceInfo's answer (DeviceInfoHelper): the build, the display
// and the locale as the phone's properties and settings have them.
func (p *Phone) uiServerDeviceInfo() map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := p.metrics()
	prop := func(k string) string { return p.props[k] }
	locale := prop("persist.sys.locale")
	if locale == "" {
		locale = prop("ro.product.locale")
	}
	return map[string]any{
		"androidId":       fmt.Sprintf("%016x", uint64(crc(p.cfg.Serial))<<32|uint64(crc(p.cfg.Model))),
		"manufacturer":    prop("ro.product.manufacturer"),
		"model":           prop("ro.product.model"),
		"brand":           prop("ro.product.brand"),
		"apiVersion":      prop("ro.build.version.sdk"),
		"platformVersion": prop("ro.build.version.release"),
		"carrierName":     "T-Mobile",
		"realDisplaySize": fmt.Sprintf("%dx%d", m.w, m.h),
		"displayDensity":  p.cfg.Density,
		"networks":        []any{},
		"locale":          strings.ReplaceAll(locale, "-", "_"),
		"timeZone":        defaultStr(prop("persist.sys.timezone"), "UTC"),
		"bluetooth":       map[string]any{"state": "OFF"},
	}
}

// appiumAttrs are a node's attributes as the page source names them (writeAppiumNode).
func appiumAttrs(n *node) map[string]string {
	hint := ""
	if n.hint {
		hint = n.text
	}
	b := strconv.FormatBool
	return map[string]string{
		"text": n.text, "hint": hint, "class": n.class, "package": n.pkg, "resource-id": n.rid, "content-desc": n.desc,
		"checkable": b(n.checkable), "checked": b(n.checked), "clickable": b(n.clickable), "enabled": b(n.enabled),
		"focusable": b(n.focusable), "focused": b(n.focused), "long-clickable": b(n.longClickable),
		"password": b(n.password), "scrollable": b(n.scrollable), "selected": b(n.selected), "displayed": "true",
		"bounds": fmt.Sprintf("[%d,%d][%d,%d]", n.b.Min.X, n.b.Min.Y, n.b.Max.X, n.b.Max.Y),
	}
}
