package perception

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// node flags, one bit each.
const (
	fClickable uint32 = 1 << iota
	fLongClickable
	fCheckable
	fChecked
	fEnabled
	fFocusable
	fFocused
	fScrollable
	fPassword
	fSelected
	fHidden // visible-to-user="false" or displayed="false"
	fEditable
)

// node is one element of the raw tree as the dump states it.
type node struct {
	class, text, desc, rid, pkg, hint string
	raw                               Bounds // bounds as dumped
	vis                               Bounds // raw clipped to the screen; empty when not visible
	flags                             uint32
	parent                            int32 // -1 for a top-level window
	depth                             int32
	childStart, childN                int32 // range in tree.kids
}

func (n *node) has(f uint32) bool { return n.flags&f != 0 }

// tree is the parsed dump: nodes in document order (a parent before its
// children), plus what the <hierarchy> element said.
type tree struct {
	nodes         []node
	kids          []int32 // children of each node, see node.childStart
	roots         []int32 // top-level windows in document order
	rotation      int
	width, height int // from <hierarchy width height> (Appium), else 0
	sawHierarchy  bool
	// deep are the regions of the nodes dropped below maxDepth, one for each kept node
	// they descend from (at most maxDeepRegions).
	deep []deepRegion
}

// deepRegion is the union of the bounds of the nodes dropped below maxDepth under the
// kept node near (-1: none).
type deepRegion struct {
	near int32
	b    Bounds
}

// maxDeepRegions bounds the deep regions kept: more are merged into the last.
const maxDeepRegions = 64

// maxDepth bounds the element nesting the parser keeps; deeper elements
// (real dumps stay under 40 levels) are skipped, so hostile input cannot
// make the later recursive passes deep or quadratic.
const maxDepth = 512

// parseTree scans a dump with a small hand-written, allocation-light XML
// tokenizer. It keeps what it can read of sloppy markup (stray end tags, attributes
// without values, an end tag closing several elements), but fails on input that is no
// dump (binary data, text without markup), on a dump cut short (it ends inside an element,
// a tag or a comment) and on a broken tag (an invalid character in a name).
func parseTree(data []byte) (*tree, error) {
	bom := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		bom = 3
	}
	data = data[bom:]
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errEmpty
	}
	if looks := sniffBinary(data); looks != "" {
		return nil, &NotXMLError{Looks: looks}
	}
	start := bytes.Index(data, []byte("<hierarchy"))
	if start < 0 {
		start = bytes.Index(data, []byte("<?xml"))
	}
	if start < 0 {
		start = bytes.Index(data, []byte("<node"))
	}
	if start < 0 {
		if bytes.IndexByte(trimmed, '<') < 0 {
			if isDumperMessage(trimmed) {
				return nil, &DumperError{Message: cutMessage(trimmed)}
			}
			return nil, &NotXMLError{Looks: "plain text", Head: firstLine(trimmed)}
		}
		start = bytes.IndexByte(data, '<')
	}
	s := string(data[start:])
	p := &parser{s: s, base: bom + start, t: &tree{}, hier: -1}
	p.t.nodes = make([]node, 0, len(s)/300+8) // a dumped node takes 300-500 bytes
	p.run()
	if p.err != nil {
		return nil, p.err
	}
	if !p.t.sawHierarchy && !p.sawBounds {
		// Markup, but not a UI dump (every dumped node has bounds).
		if msg := bytes.TrimSpace(data[:start]); len(msg) > 0 && bytes.IndexByte(msg, '<') < 0 && isDumperMessage(msg) {
			return nil, &DumperError{Message: cutMessage(msg)}
		}
		return nil, errNoHierarchy
	}
	p.t.link()
	return p.t, nil
}

func cutMessage(b []byte) string {
	const max = 300
	if len(b) > max {
		b = b[:max]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

type parser struct {
	s     string
	i     int
	base  int // offset of s in the input given to Parse
	t     *tree
	stack []openTag
	hier  int // stack index of the outermost open <hierarchy>, or -1
	// sawBounds records that some element had a bounds attribute.
	sawBounds bool
	err       *SyntaxError
}

type openTag struct {
	name string
	near int32 // the node this element is, or its nearest node ancestor; -1 for none
	at   int   // offset of its '<' in s
}

// truncated records that the input ends inside what opened at s[at:].
func (p *parser) truncated(what string, at int) {
	p.err = &SyntaxError{Offset: p.base + len(p.s), Truncated: true,
		Problem: fmt.Sprintf("it ends inside %s begun at byte %d", what, p.base+at)}
}

// malformed records a broken tag at s[at:].
func (p *parser) malformed(at int, format string, args ...any) {
	p.err = &SyntaxError{Offset: p.base + at, Problem: fmt.Sprintf(format, args...)}
}

func (p *parser) parent() int32 {
	if len(p.stack) == 0 {
		return -1
	}
	return p.stack[len(p.stack)-1].near
}

func (p *parser) run() {
	s := p.s
	for p.i < len(s) && p.err == nil {
		j := strings.IndexByte(s[p.i:], '<')
		if j < 0 {
			break
		}
		p.i += j
		at := p.i
		rest := s[p.i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			p.skipPast("-->", "a comment", at)
		case strings.HasPrefix(rest, "<![CDATA["):
			p.skipPast("]]>", "a CDATA section", at)
		case strings.HasPrefix(rest, "<?"):
			p.skipPast("?>", "a processing instruction", at)
		case strings.HasPrefix(rest, "<!"):
			p.skipPast(">", "a declaration", at)
		case strings.HasPrefix(rest, "</"):
			p.i += 2
			name := p.name()
			if !p.validName(name, "end tag", at+2) {
				return
			}
			if !p.skipPast(">", "the end tag </"+name, at) {
				return
			}
			if p.closeTag(name) {
				return // the hierarchy is complete; ignore trailing noise
			}
		default:
			p.i++
			switch {
			case p.i >= len(s):
				p.truncated("a tag", at)
			case isNameStart(s[p.i]):
				p.startTag(at)
			case len(p.stack) > 0:
				// Inside the hierarchy every '<' starts markup (text has &lt;).
				p.malformed(p.i, "'<' followed by %s starts no tag", quoteByte(s[p.i]))
			}
		}
	}
	if p.err == nil && len(p.stack) > 0 {
		top := p.stack[len(p.stack)-1]
		what := fmt.Sprintf("<%s>", top.name)
		if len(p.stack) > 1 {
			what += fmt.Sprintf(" (%d elements still open)", len(p.stack))
		}
		p.truncated(what, top.at)
	}
}

// skipPast moves past the next end; at the end of the input it records that what, begun
// at s[at:], is cut short and returns false.
func (p *parser) skipPast(end, what string, at int) bool {
	j := strings.Index(p.s[p.i:], end)
	if j < 0 {
		p.i = len(p.s)
		p.truncated(what, at)
		return false
	}
	p.i += j + len(end)
	return true
}

// validName checks an element or attribute name read from s[at:]; on a bad one it
// records the error and returns false. Names are ASCII letters, digits, '_', ':', '-', '.'
// or UTF-8 letters, starting with neither a digit, '-' nor '.'.
func (p *parser) validName(name, what string, at int) bool {
	if name == "" {
		p.malformed(at, "%s without a name", what)
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := isNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
		if i == 0 {
			ok = isNameStart(c)
		}
		if !ok {
			p.malformed(at+i, "invalid character %s in the %s name %q", quoteByte(c), what, name)
			return false
		}
	}
	if !utf8.ValidString(name) {
		p.malformed(at, "invalid UTF-8 in the %s name %q", what, name)
		return false
	}
	return true
}

// quoteByte writes c for an error message: printable ASCII quoted, anything else in hex.
func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", c)
	}
	return fmt.Sprintf("0x%02X", c)
}

func isNameStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func (p *parser) name() string {
	s := p.s
	j := p.i
	for j < len(s) && !isSpace(s[j]) && s[j] != '>' && s[j] != '/' && s[j] != '=' && s[j] != '<' {
		j++
	}
	n := s[p.i:j]
	p.i = j
	return n
}

// closeTag pops the stack down to the matching open tag (ignoring a stray
// close tag) and reports whether the outermost element just closed. Only the
// innermost closeScan tags are searched, so hostile input stays linear.
func (p *parser) closeTag(name string) bool {
	const closeScan = 64
	for k := len(p.stack) - 1; k >= 0 && k >= len(p.stack)-closeScan; k-- {
		if p.stack[k].name == name {
			p.pop(k)
			return k == 0 && name == "hierarchy"
		}
	}
	if name == "hierarchy" && p.hier >= 0 {
		// Elements left open deeper than the scan: the hierarchy's end closes them all.
		k := p.hier
		p.pop(k)
		return k == 0
	}
	return false
}

// pop closes the open elements from stack index k up.
func (p *parser) pop(k int) {
	p.stack = p.stack[:k]
	if p.hier >= k {
		p.hier = -1
	}
}

// startTag parses one start tag at p.i (just past the '<' at s[at]). It records an
// error when the input ends inside the tag or a name in it is invalid.
func (p *parser) startTag(at int) {
	s := p.s
	name := p.name()
	if !p.validName(name, "tag", at+1) {
		return
	}
	isHier := name == "hierarchy"
	n := node{flags: fEnabled} // a dump that omits "enabled" means enabled
	var w, h, rot int
	var sawBounds, sawClass bool
	selfClose := false
	for {
		for p.i < len(s) && isSpace(s[p.i]) {
			p.i++
		}
		if p.i >= len(s) {
			p.truncated("the start tag <"+name, at)
			return
		}
		c := s[p.i]
		if c == '>' {
			p.i++
			break
		}
		if c == '/' {
			if p.i+1 < len(s) && s[p.i+1] == '>' {
				p.i += 2
				selfClose = true
				break
			}
			p.i++
			continue
		}
		if c == '<' {
			p.malformed(p.i, "the start tag <%s begun at byte %d has no '>'", name, p.base+at)
			return
		}
		attrAt := p.i
		attr := p.name()
		if attr == "" {
			p.i++
			continue
		}
		if !p.validName(attr, "attribute", attrAt) {
			return
		}
		for p.i < len(s) && isSpace(s[p.i]) {
			p.i++
		}
		if p.i >= len(s) {
			p.truncated("the start tag <"+name, at)
			return
		}
		if s[p.i] != '=' {
			continue // attribute without a value
		}
		p.i++
		for p.i < len(s) && isSpace(s[p.i]) {
			p.i++
		}
		if p.i >= len(s) {
			p.truncated("the start tag <"+name, at)
			return
		}
		var val string
		if q := s[p.i]; q == '"' || q == '\'' {
			j := strings.IndexByte(s[p.i+1:], q)
			if j < 0 {
				p.truncated(fmt.Sprintf("the value of %s in <%s", attr, name), at)
				return
			}
			val = s[p.i+1 : p.i+1+j]
			p.i += j + 2
		} else {
			j := p.i
			for j < len(s) && !isSpace(s[j]) && s[j] != '>' {
				j++
			}
			val = s[p.i:j]
			p.i = j
		}
		if isHier {
			switch attr {
			case "rotation":
				rot = atoi(val)
			case "width":
				w = atoi(val)
			case "height":
				h = atoi(val)
			}
			continue
		}
		switch attr {
		case "text":
			n.text = decode(val)
		case "content-desc":
			n.desc = decode(val)
		case "resource-id":
			n.rid = decode(val)
		case "class":
			n.class = decode(val)
			sawClass = true
		case "package":
			n.pkg = decode(val)
		case "hint":
			n.hint = decode(val)
		case "bounds":
			n.raw, sawBounds = parseBounds(val)
		case "clickable":
			n.setFlag(fClickable, val)
		case "long-clickable":
			n.setFlag(fLongClickable, val)
		case "checkable":
			n.setFlag(fCheckable, val)
		case "checked":
			n.setFlag(fChecked, val)
		case "enabled":
			n.setFlag(fEnabled, val)
		case "focusable":
			n.setFlag(fFocusable, val)
		case "focused":
			n.setFlag(fFocused, val)
		case "scrollable":
			n.setFlag(fScrollable, val)
		case "password":
			n.setFlag(fPassword, val)
		case "selected":
			n.setFlag(fSelected, val)
		case "visible-to-user", "displayed":
			if val == "false" {
				n.flags |= fHidden
			}
		}
	}
	if isHier {
		p.t.sawHierarchy = true
		p.t.rotation, p.t.width, p.t.height = rot, w, h
		if !selfClose {
			if p.hier < 0 {
				p.hier = len(p.stack)
			}
			p.stack = append(p.stack, openTag{name: name, near: p.parent(), at: at})
		}
		return
	}
	if !sawClass {
		n.class = name // Appium page sources name elements by class
	}
	p.sawBounds = p.sawBounds || sawBounds
	idx := p.parent()
	if len(p.stack) < maxDepth {
		n.parent = p.parent()
		if n.parent >= 0 {
			n.depth = p.t.nodes[n.parent].depth + 1
		}
		idx = int32(len(p.t.nodes))
		p.t.nodes = append(p.t.nodes, n)
	} else if !n.has(fHidden) && !n.raw.Empty() {
		p.t.addDeep(idx, n.raw)
	}
	if !selfClose {
		p.stack = append(p.stack, openTag{name: name, near: idx, at: at})
	}
}

func (n *node) setFlag(f uint32, val string) {
	if val == "true" {
		n.flags |= f
	} else {
		n.flags &^= f
	}
}

// link builds the child lists and the list of top-level windows.
func (t *tree) link() {
	counts := make([]int32, len(t.nodes))
	for i := range t.nodes {
		if p := t.nodes[i].parent; p >= 0 {
			counts[p]++
		} else {
			t.roots = append(t.roots, int32(i))
		}
	}
	var off int32
	for i := range t.nodes {
		t.nodes[i].childStart = off
		off += counts[i]
	}
	t.kids = make([]int32, off)
	for i := range t.nodes {
		if p := t.nodes[i].parent; p >= 0 {
			pn := &t.nodes[p]
			t.kids[pn.childStart+pn.childN] = int32(i)
			pn.childN++
		}
	}
}

func (t *tree) children(i int32) []int32 {
	n := &t.nodes[i]
	return t.kids[n.childStart : n.childStart+n.childN]
}

// addDeep records a node dropped below maxDepth, with bounds b, under the kept node near.
func (t *tree) addDeep(near int32, b Bounds) {
	for i := range t.deep {
		if t.deep[i].near == near {
			t.deep[i].b = union(t.deep[i].b, b)
			return
		}
	}
	if len(t.deep) == maxDeepRegions {
		last := &t.deep[len(t.deep)-1]
		last.b = union(last.b, b)
		return
	}
	t.deep = append(t.deep, deepRegion{near: near, b: b})
}
