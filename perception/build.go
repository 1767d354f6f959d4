package perception

import (
	"fmt"
	"slices"
	"strings"
)

// Parse reads a UI Automator dump (stock `uiautomator dump`, uiautomator2 or
// Appium page source) and returns the Screen. It tolerates what real devices
// send: noise around the XML (the "UI hierchary dumped to" trailer), a BOM,
// CRLF, invalid characters in text, stray end tags and odd bounds. A dumper
// message instead of XML yields a [*DumperError]; a dump cut short or with a
// broken tag a [*SyntaxError] (with the byte offset); binary data or text
// without markup a [*NotXMLError]; empty input [errEmpty]. It never panics.
func Parse(xml []byte) (*Screen, error) {
	t, err := parseTree(xml)
	if err != nil {
		return nil, fmt.Errorf("perception parse: %w", err)
	}
	return build(t), nil
}

// window categories, in the order windows are listed.
const (
	winApp = iota
	winOther
	winSystem
	winIME
)

type builder struct {
	t      *tree
	s      *Screen
	act    []bool   // node is an indexed element
	subAct []bool   // some descendant is an indexed element
	cbox   []Bounds // union of the visible elements and texts in a subtree
	sig    []uint64
}

func build(t *tree) *Screen {
	s := &Screen{Rotation: t.rotation}
	b := &builder{t: t, s: s}
	b.geometry()
	order := b.windows()
	b.classify()
	for _, r := range order {
		b.visit(r, 0, -1, false)
	}
	s.Signature = b.signature()
	b.uncovered()
	b.deep()
	return s
}

// deep names the regions of the nodes the parser dropped below maxDepth, clipped to the
// screen; each is also uncovered, so the picture is read there.
func (b *builder) deep() {
	scr := Bounds{X2: b.s.Width, Y2: b.s.Height}
	for _, d := range b.t.deep {
		v := d.b.Intersect(scr)
		if v.Empty() || slices.Contains(b.s.Deep, v) {
			continue
		}
		b.s.Deep = append(b.s.Deep, v)
		if !slices.ContainsFunc(b.s.Uncovered, func(u Bounds) bool { return u.Intersect(v) == v }) {
			b.s.Uncovered = append(b.s.Uncovered, v)
		}
	}
}

// geometry finds the screen size and clips every node to it.
func (b *builder) geometry() {
	t, s := b.t, b.s
	w, h := t.width, t.height
	left, top := -1, -1
	for _, r := range t.roots {
		rb := t.nodes[r].raw
		if !rb.Empty() {
			w, h = max(w, rb.X2), max(h, rb.Y2)
			if left < 0 || rb.X1 < left {
				left = rb.X1
			}
			if top < 0 || rb.Y1 < top {
				top = rb.Y1
			}
		}
	}
	s.left, s.top = max(left, 0), max(top, 0)
	const limit = 1 << 20
	w, h = min(w, limit), min(h, limit)
	s.Width, s.Height = w, h
	s.sized = t.width > 0 && t.height > 0
	scr := Bounds{X2: w, Y2: h}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.has(fHidden) || n.raw.Empty() {
			continue
		}
		n.vis = n.raw.Intersect(scr)
		if isEditableClass(n.class) {
			n.flags |= fEditable
		}
	}
}

// windows picks the foreground package, detects the keyboard and returns
// the top-level windows to show, application windows first.
func (b *builder) windows() []int32 {
	t, s := b.t, b.s
	cat := make([]int, len(t.roots))
	best, bestArea := int32(-1), -1
	anyBest, anyArea := int32(-1), -1
	for k, r := range t.roots {
		n := &t.nodes[r]
		area := n.vis.Area()
		switch {
		case isIMEPackage(n.pkg):
			cat[k] = winIME
			if area > 0 {
				s.Keyboard = true
			}
		case isSystemPackage(n.pkg) || b.isBar(n.vis):
			cat[k] = winSystem
		default:
			cat[k] = winApp
			if area > bestArea {
				best, bestArea = r, area
			}
		}
		if cat[k] != winIME && area > anyArea {
			anyBest, anyArea = r, area
		}
	}
	switch {
	case best >= 0:
		s.Package = t.nodes[best].pkg
	case anyBest >= 0:
		s.Package = t.nodes[anyBest].pkg
	}
	for k, r := range t.roots {
		if cat[k] == winApp && t.nodes[r].pkg != s.Package {
			cat[k] = winOther
		}
	}
	var order []int32
	for c := winApp; c < winIME; c++ {
		for k, r := range t.roots {
			if cat[k] == c {
				order = append(order, r)
			}
		}
	}
	return order
}

// isBar reports a thin strip along the screen (status, navigation, gesture bar).
func (b *builder) isBar(v Bounds) bool {
	if b.s.Width == 0 || b.s.Height == 0 || v.Empty() {
		return false
	}
	return v.Dy()*12 <= b.s.Height || v.Dx()*12 <= b.s.Width
}

// classify decides which nodes are indexed elements.
func (b *builder) classify() {
	t := b.t
	b.act = make([]bool, len(t.nodes))
	b.subAct = make([]bool, len(t.nodes))
	screenArea := b.s.Width * b.s.Height
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.vis.Empty() || isIMEPackage(n.pkg) {
			continue
		}
		const acts = fClickable | fLongClickable | fScrollable | fCheckable | fEditable
		if n.flags&acts == 0 {
			continue
		}
		// A text-less tap target spanning the whole window adds nothing the
		// model can use; its children are listed instead.
		if n.flags&(fScrollable|fCheckable|fEditable) == 0 && n.text == "" && n.desc == "" &&
			screenArea > 0 && n.vis.Area()*10 >= screenArea*9 {
			continue
		}
		b.act[i] = true
	}
	// Content boxes: where a node's elements and texts are, for reading order.
	b.cbox = make([]Bounds, len(t.nodes))
	for i := len(t.nodes) - 1; i >= 0; i-- {
		n := &t.nodes[i]
		if b.act[i] || (!n.vis.Empty() && (n.text != "" || n.desc != "")) {
			b.cbox[i] = union(b.cbox[i], n.vis)
		}
		if p := n.parent; p >= 0 {
			if b.act[i] || b.subAct[i] {
				b.subAct[p] = true
			}
			b.cbox[p] = union(b.cbox[p], b.cbox[i])
		}
	}
}

func union(a, b Bounds) Bounds {
	switch {
	case a.Empty():
		return b
	case b.Empty():
		return a
	}
	return Bounds{X1: min(a.X1, b.X1), Y1: min(a.Y1, b.Y1), X2: max(a.X2, b.X2), Y2: max(a.Y2, b.Y2)}
}

// kids returns the children of i sorted in reading order of what they
// show (not of their own bounds: full-screen layers all start at 0,0): a box
// wholly above another comes first, boxes side by side go left to right.
func (b *builder) kids(i int32) []int32 {
	t := b.t
	kids := t.children(i)
	if len(kids) > 1 {
		slices.SortStableFunc(kids, func(x, y int32) int {
			bx, by := b.cbox[x], b.cbox[y]
			if bx.Empty() || by.Empty() {
				return 0
			}
			switch {
			case bx.Y2 <= by.Y1 && bx.Y1 < by.Y1:
				return -1
			case by.Y2 <= bx.Y1 && by.Y1 < bx.Y1:
				return 1
			case bx.X1 != by.X1:
				return bx.X1 - by.X1
			}
			return bx.Y1 - by.Y1
		})
	}
	return kids
}

// visit walks the tree in reading order, numbering elements and laying out
// the text form. owner is the Elements index of the nearest element ancestor.
func (b *builder) visit(i int32, depth int32, owner int32, inList bool) {
	t, s := b.t, b.s
	n := &t.nodes[i]
	b.sigToken(n, inList, b.act[i])
	if b.act[i] {
		e := b.element(i)
		ei := int32(len(s.Elements))
		s.Elements = append(s.Elements, e)
		s.lines = append(s.lines, line{depth: depth, elem: ei})
		list := inList || n.has(fScrollable)
		for _, k := range b.kids(i) {
			b.visit(k, depth+1, ei, list)
		}
		return
	}
	txt, desc := "", ""
	if !n.vis.Empty() {
		txt, desc = strings.TrimSpace(n.text), strings.TrimSpace(n.desc)
		if n.has(fPassword) {
			txt = ""
		}
		if desc == txt {
			desc = ""
		}
		if txt == "" {
			txt, desc = desc, ""
		}
	}
	if txt == "" {
		for _, k := range b.kids(i) {
			b.visit(k, depth, owner, inList)
		}
		return
	}
	if owner >= 0 {
		e := &s.Elements[owner]
		switch {
		case e.Label == "" && !e.Scrollable && !b.subAct[i]:
			// A label-only child folds into its element.
			e.Label = txt
			if desc != "" {
				e.Texts = append(e.Texts, desc)
				s.lines = append(s.lines, line{depth: depth, elem: -1, text: desc})
			}
			for _, k := range b.kids(i) {
				b.visit(k, depth, owner, inList)
			}
			return
		}
		// Texts the label already says ("Directions" under "Directions to
		// Soul Vegetarian") are not repeated.
		if desc != "" && strings.Contains(e.Label, desc) {
			desc = ""
		}
		if strings.Contains(e.Label, txt) {
			txt, desc = desc, ""
		}
		if txt == "" {
			for _, k := range b.kids(i) {
				b.visit(k, depth, owner, inList)
			}
			return
		}
		e.Texts = append(e.Texts, txt)
	} else {
		s.Context = append(s.Context, txt)
	}
	s.lines = append(s.lines, line{depth: depth, elem: -1, text: txt, desc: desc})
	for _, k := range b.kids(i) {
		b.visit(k, depth+1, owner, inList)
	}
}

func (b *builder) element(i int32) Element {
	n := &b.t.nodes[i]
	e := Element{
		Index:         len(b.s.Elements) + 1,
		Text:          n.text,
		Desc:          n.desc,
		Hint:          n.hint,
		ResourceID:    n.rid,
		Class:         n.class,
		Package:       n.pkg,
		Bounds:        n.vis,
		Center:        n.vis.Center(),
		Clickable:     n.has(fClickable),
		LongClickable: n.has(fLongClickable),
		Checkable:     n.has(fCheckable),
		Checked:       n.has(fChecked),
		Editable:      n.has(fEditable),
		Scrollable:    n.has(fScrollable),
		Selected:      n.has(fSelected),
		Focused:       n.has(fFocused),
		Enabled:       n.has(fEnabled),
		Password:      n.has(fPassword),
	}
	if e.Password {
		e.Text = ""
	}
	if e.Hint == e.Text {
		e.Hint = ""
	}
	e.Label = strings.TrimSpace(e.Text)
	if e.Label == "" {
		e.Label = strings.TrimSpace(e.Desc)
	}
	if e.Scrollable {
		e.ScrollDir = b.scrollDir(i)
	}
	e.Role = role(n.class, &e)
	return e
}

// scrollDir guesses the scroll direction from the class, else from how the
// visible children are laid out.
func (b *builder) scrollDir(i int32) string {
	c := b.t.nodes[i].class
	switch {
	case strings.Contains(c, "HorizontalScrollView") || strings.Contains(c, "ViewPager"):
		return ScrollHorizontal
	case strings.HasSuffix(c, "ScrollView") || strings.HasSuffix(c, "ListView"):
		return scrollVertical
	}
	var first Bounds
	seen := 0
	for _, k := range b.t.children(i) {
		v := b.t.nodes[k].vis
		if v.Empty() {
			continue
		}
		if seen == 0 {
			first = v
		} else if v.X1 != first.X1 && v.Y1 == first.Y1 {
			return ScrollHorizontal
		} else if v.Y1 != first.Y1 {
			return scrollVertical
		}
		seen++
	}
	return ""
}

// sigToken adds the structural token of a visible node to the signature.
// Inside scrolling containers only resource ids count, so list contents and
// their lengths do not change the page.
func (b *builder) sigToken(n *node, inList, act bool) {
	if n.vis.Empty() {
		return
	}
	if inList && n.rid == "" {
		return
	}
	if n.rid == "" && !act && n.text == "" && n.desc == "" {
		return // layout-only wrapper: depth and count vary too easily
	}
	h := fnvString(fnvOffset, shortClass(n.class))
	h = fnvString(h, "#")
	h = fnvString(h, n.rid)
	if n.has(fScrollable) {
		h = fnvString(h, "~")
	}
	b.sig = append(b.sig, h)
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvString continues an FNV-1a 64 hash over s.
func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func (b *builder) signature() string {
	slices.Sort(b.sig)
	b.sig = slices.Compact(b.sig)
	h := fnvString(fnvOffset, b.s.Package)
	if b.s.Width > b.s.Height {
		h = fnvString(h, "L")
	}
	if title := b.pageTitle(); title != "" {
		h = fnvString(h, "title\x00"+title)
	}
	for _, v := range b.sig {
		for k := 0; k < 8; k++ {
			h ^= (v >> (8 * k)) & 0xff
			h *= fnvPrime
		}
	}
	return fmt.Sprintf("%016x", h)
}

func shortClass(c string) string {
	if i := strings.LastIndexAny(c, ".$"); i >= 0 {
		return c[i+1:]
	}
	return c
}

func isEditableClass(c string) bool {
	return strings.Contains(c, "EditText") || strings.Contains(c, "AutoCompleteTextView")
}

// role maps a class and flags to the short word the text form shows.
func role(class string, e *Element) string {
	c := shortClass(class)
	switch {
	case e.Editable:
		return "input"
	case strings.Contains(c, "Switch") || strings.Contains(c, "Toggle"):
		return "switch"
	case strings.Contains(c, "CheckBox") || strings.Contains(c, "CheckedTextView"):
		return "checkbox"
	case strings.Contains(c, "RadioButton"):
		return "radio"
	case strings.Contains(c, "SeekBar") || strings.Contains(c, "Slider"):
		return "slider"
	case strings.Contains(c, "Spinner"):
		return "dropdown"
	case strings.Contains(c, "Tab"):
		return "tab"
	case strings.Contains(c, "Button"):
		return "button"
	case strings.Contains(c, "Image"):
		return "image"
	case c == "WebView":
		return "web"
	case e.Scrollable && strings.Contains(c, "Pager"):
		return "pager"
	case e.Scrollable:
		return "list"
	case strings.Contains(c, "TextView") || c == "Text":
		return "text"
	case e.Checkable:
		return "checkbox"
	}
	return "item"
}

// isIMEPackage reports an input method (soft keyboard) package.
func isIMEPackage(p string) bool {
	switch p {
	case "com.baidu.input", "com.baidu.input_mi", "com.baidu.input_huawei", "com.baidu.input_oppo",
		"com.baidu.input_vivo", "com.tencent.wetype", "com.tencent.qqpinyin", "com.touchtype.swiftkey":
		return true
	}
	return strings.Contains(p, "inputmethod") || strings.Contains(p, "keyboard") ||
		strings.Contains(p, "honeyboard") || strings.Contains(p, ".ime")
}

func isSystemPackage(p string) bool {
	switch p {
	case "com.android.systemui", "android", "gesture", "":
		return true
	}
	return false
}
