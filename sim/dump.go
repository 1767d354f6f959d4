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
	png          []byte
	pngVersion   uint64
}

const xmlHeader = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

// dumpLocked returns the uiautomator XML of the current frame, cached per state version.
// The format is that of `uiautomator dump` (AccessibilityNodeInfoDumper through Android's
// KXmlSerializer): one line, no trailing newline, the classic attribute set in its order,
// leaves written as `<node … />`, one top-level <node> per window.
func (p *Phone) dumpLocked() []byte {
	if p.cache.xml != nil && p.cache.xmlVersion == p.version {
		return p.cache.xml
	}
	f := p.frameLocked()
	var b strings.Builder
	b.Grow(64 << 10)
	b.WriteString(xmlHeader)
	b.WriteString(`<hierarchy rotation="0">`)
	for _, w := range f.windows {
		writeNode(&b, w.root, 0)
	}
	b.WriteString("</hierarchy>")
	p.cache.xml = []byte(b.String())
	p.cache.xmlVersion = p.version
	return p.cache.xml
}

func writeNode(b *strings.Builder, n *node, index int) {
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
	b.WriteString(`" bounds="[`)
	b.WriteString(strconv.Itoa(n.b.Min.X))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(n.b.Min.Y))
	b.WriteString("][")
	b.WriteString(strconv.Itoa(n.b.Max.X))
	b.WriteByte(',')
	b.WriteString(strconv.Itoa(n.b.Max.Y))
	b.WriteString(`]"`)
	if len(n.children) == 0 {
		b.WriteString(" />")
		return
	}
	b.WriteByte('>')
	for i, c := range n.children {
		writeNode(b, c, i)
	}
	b.WriteString("</node>")
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
