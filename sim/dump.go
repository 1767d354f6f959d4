package sim

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// renderCache keeps the last frame, dump and screenshot with the state version they show.
type renderCache struct {
	frame        *frame
	frameVersion uint64
	xml          []byte
	xmlVersion   uint64
	allXML       []byte
	allVersion   uint64
	png          []byte
	pngVersion   uint64
	jpg          []byte // the MJPEG stream's last frame
	jpgVersion   uint64
	jpgConfig    mjpegConfig
}

const xmlHeader = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

// dumpLocked returns the uiautomator XML of the current frame, cached per state version.
// The format is that of a stock `uiautomator dump` (AccessibilityNodeInfoDumper through
// Android's KXmlSerializer) of Android 13+ (the phone's release is 14): one line, no
// trailing newline, the classic attribute set in its order followed by drawing-order and
// hint, leaves written as `<node … />`. The dumper reads UiAutomation.getRootInActiveWindow,
// so the only top-level <node> is the active window: the app, or the dialog in front of it —
// never the status bar, the navigation bar or the keyboard (every classic capture in
// testdata/android-corpus has one top-level node).
func (p *Phone) dumpLocked() []byte {
	if p.cache.xml != nil && p.cache.xmlVersion == p.version {
		return p.cache.xml
	}
	f := p.frameLocked()
	var b strings.Builder
	b.Grow(64 << 10)
	b.WriteString(xmlHeader)
	b.WriteString(`<hierarchy rotation="0">`)
	if w := f.activeWindow(); w != nil {
		writeNode(&b, w.root, 0, -1, true)
	}
	b.WriteString("</hierarchy>")
	p.cache.xml = []byte(b.String())
	p.cache.xmlVersion = p.version
	return p.cache.xml
}

// dumpAllLocked returns the all-windows dump a uiautomator2 server answers to its
// dumpWindowHierarchy call (androidx AccessibilityNodeInfoDumper over every window of
// UiAutomation.getWindows): indented two spaces a level, one top-level <node index="0">
// per window in the frame's order, `visible-to-user` before the bounds and `drawing-order`,
// `hint`, `display-id` after them — the openatx signature of the corpus's multi-window
// captures (ths-stock-2windows-display-id, google-tasks-tablet-2windows-display-id).
func (p *Phone) dumpAllLocked() []byte {
	if p.cache.allXML != nil && p.cache.allVersion == p.version {
		return p.cache.allXML
	}
	f := p.frameLocked()
	var b strings.Builder
	b.Grow(128 << 10)
	b.WriteString(xmlHeader)
	b.WriteString("\n<hierarchy rotation=\"0\">\n")
	for _, w := range f.windows {
		writeNode(&b, w.root, 0, 1, true)
	}
	b.WriteString("</hierarchy>")
	p.cache.allXML = []byte(b.String())
	p.cache.allVersion = p.version
	return p.cache.allXML
}

// activeWindow is the window with input focus: a dialog over its app, else the app.
func (f *frame) activeWindow() *window {
	for _, w := range f.windows {
		if w.kind == "dialog" {
			return w
		}
	}
	for _, w := range f.windows {
		if w.kind == "app" {
			return w
		}
	}
	return nil
}

// writeNode writes n, the index-th child of its parent (top: a window's root), and its
// children. depth < 0 writes the one-line form of `uiautomator dump`; depth ≥ 0 writes the
// uiautomator2 form, indented by depth and with visible-to-user and display-id. Both carry
// drawing-order and hint after the bounds, as the captures of Android 13+ devices do
// (pixel-launcher-home-widgets-1344x2992, gmail-inbox-1080x2400-drawing-order): 0 for a
// window's root, else the child's place in its parent's drawing order.
func writeNode(b *strings.Builder, n *node, index, depth int, top bool) {
	u2 := depth >= 0
	if u2 {
		b.WriteString(strings.Repeat("  ", depth))
	}
	b.WriteString(`<node index="`)
	b.WriteString(strconv.Itoa(index))
	b.WriteString(`" text="`)
	escapeAttr(b, n.text)
	b.WriteString(`" resource-id="`)
	escapeAttr(b, n.rid)
	b.WriteString(`" class="`)
	escapeAttr(b, n.class)
	b.WriteString(`" package="`)
	escapeAttr(b, n.pkg)
	b.WriteString(`" content-desc="`)
	escapeAttr(b, n.desc)
	for _, a := range [...]struct {
		k string
		v bool
	}{{"checkable", n.checkable}, {"checked", n.checked}, {"clickable", n.clickable}, {"enabled", n.enabled},
		{"focusable", n.focusable}, {"focused", n.focused}, {"scrollable", n.scrollable}, {"long-clickable", n.longClickable},
		{"password", n.password}, {"selected", n.selected}} {
		b.WriteString(`" `)
		b.WriteString(a.k)
		b.WriteString(`="`)
		b.WriteString(strconv.FormatBool(a.v))
	}
	if u2 {
		b.WriteString(`" visible-to-user="true`)
	}
	b.WriteString(`" bounds="[`)
	b.WriteString(strconv.Itoa(n.b.Min.X))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(n.b.Min.Y))
	b.WriteString("][")
	b.WriteString(strconv.Itoa(n.b.Max.X))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(n.b.Max.Y))
	b.WriteString(`]"`)
	order := index + 1
	if top {
		order = 0
	}
	b.WriteString(` drawing-order="`)
	b.WriteString(strconv.Itoa(order))
	b.WriteString(`" hint="`)
	if n.hint {
		escapeAttr(b, n.text)
	}
	b.WriteByte('"')
	if u2 {
		b.WriteString(` display-id="0"`)
	}
	if len(n.children) == 0 {
		b.WriteString(" />")
		if u2 {
			b.WriteByte('\n')
		}
		return
	}
	b.WriteByte('>')
	if u2 {
		b.WriteByte('\n')
	}
	for i, c := range n.children {
		d := -1
		if u2 {
			d = depth + 1
		}
		writeNode(b, c, i, d, false)
	}
	if u2 {
		b.WriteString(strings.Repeat("  ", depth))
	}
	b.WriteString("</node>")
	if u2 {
		b.WriteByte('\n')
	}
}

// escapeAttr writes s as KXmlSerializer writes an attribute value after uiautomator's
// stripInvalidXMLChars: control characters become '.', & < > " are entities, \n \r \t are
// numeric references, characters outside the BMP are numeric references of the code point
// (the serializer sees a surrogate pair), everything else is written as UTF-8.
func escapeAttr(b *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteString("&#")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteByte(';')
		case (r >= 0x1 && r <= 0x8) || r == 0xB || r == 0xC || (r >= 0xE && r <= 0x1F) || (r >= 0x7F && r <= 0x84) || (r >= 0x86 && r <= 0x9F) || (r >= 0xFDD0 && r <= 0xFDDF) || r == 0 || r == 0xFFFE || r == 0xFFFF:
			b.WriteByte('.')
		case r > 0xFFFF:
			// The dumper sees UTF-16: a surrogate pair, written as one code point reference.
			if r1, r2 := utf16.EncodeRune(r); r1 != 0xFFFD || r2 != 0xFFFD {
				b.WriteString("&#")
				b.WriteString(strconv.Itoa(int(r)))
				b.WriteByte(';')
			}
		default:
			b.WriteRune(r)
		}
	}
}
