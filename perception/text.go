package perception

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxText is how many characters of a text the text form keeps
// before cutting it with [CutMarker].
const DefaultMaxText = 120

// cutMarker ends a text the text form had to cut.
const cutMarker = "…"

// maxIndent caps the nesting the text form shows, so a pathological tree
// cannot make the output quadratic.
const maxIndent = 24

// TextOptions tunes [Screen.TextWith]. The zero value gives the defaults.
type TextOptions struct {
	// MaxText is the number of characters (runes) kept of each label or
	// text; longer ones are cut and end with CutMarker. 0 means
	// DefaultMaxText, a negative value keeps every text whole.
	MaxText int
}

// Text returns the compact text form of the screen, the model's non-visual
// view: one line per kept node, nested by two spaces a level, e.g.
//
//   - [3] item "Blue Bottle Coffee" id=row
//   - "4.5 ★ · Open until 6 PM"
//   - [4] input id=search focused hint="Search"
//
// An element line is `- [N] ROLE` then an optional quoted label, optional
// `id=SUFFIX`, optional state words (checked, unchecked, selected, focused,
// disabled, password, scroll-vertical, scroll-horizontal, scrollable,
// long-clickable), and optional desc="…" and hint="…". A static text line is
// `- "TEXT"`. Labels are quoted like strconv.QuoteToGraphic, with runs of
// white space collapsed to one space.
func (s *Screen) Text() string { return s.TextWith(TextOptions{}) }

// TextWith is [Screen.Text] with options.
func (s *Screen) TextWith(o TextOptions) string {
	max := o.MaxText
	if max == 0 {
		max = DefaultMaxText
	}
	buf := make([]byte, 0, 48*len(s.lines)+16)
	for _, l := range s.lines {
		buf = s.appendLine(buf, l, max)
	}
	return string(buf)
}

func (s *Screen) appendLine(buf []byte, l line, max int) []byte {
	for d := min(l.depth, maxIndent); d > 0; d-- {
		buf = append(buf, ' ', ' ')
	}
	buf = append(buf, '-', ' ')
	if l.elem < 0 {
		buf = appendQuoted(buf, l.text, max)
		if l.desc != "" {
			buf = append(buf, " desc="...)
			buf = appendQuoted(buf, l.desc, max)
		}
		return append(buf, '\n')
	}
	e := &s.Elements[l.elem]
	buf = append(buf, '[')
	buf = strconv.AppendInt(buf, int64(e.Index), 10)
	buf = append(buf, "] "...)
	buf = append(buf, e.Role...)
	label := e.Label
	if label == "" {
		label = e.Caption
	}
	if label != "" {
		buf = append(buf, ' ')
		buf = appendQuoted(buf, label, max)
	}
	if id := idSuffix(e.ResourceID); id != "" {
		buf = append(buf, " id="...)
		buf = append(buf, id...)
	}
	buf = appendStates(buf, e)
	if d := strings.TrimSpace(e.Desc); d != "" && d != label {
		buf = append(buf, " desc="...)
		buf = appendQuoted(buf, d, max)
	}
	if h := strings.TrimSpace(e.Hint); h != "" && h != label && e.Text == "" {
		buf = append(buf, " hint="...)
		buf = appendQuoted(buf, h, max)
	}
	if e.FromPicture {
		buf = append(buf, ' ')
		buf = append(buf, readNote...)
	}
	if e.Drawn {
		buf = append(buf, ' ')
		buf = append(buf, markNote...)
	}
	return append(buf, '\n')
}

// States returns the state words of e as the text form shows them.
func (e *Element) States() []string {
	b := appendStates(nil, e)
	return strings.Fields(string(b))
}

func appendStates(buf []byte, e *Element) []byte {
	if e.Checkable {
		if e.Checked {
			buf = append(buf, " checked"...)
		} else {
			buf = append(buf, " unchecked"...)
		}
	} else if e.Checked {
		buf = append(buf, " checked"...)
	}
	if e.Selected {
		buf = append(buf, " selected"...)
	}
	if e.Focused {
		buf = append(buf, " focused"...)
	}
	if !e.Enabled {
		buf = append(buf, " disabled"...)
	}
	if e.Password {
		buf = append(buf, " password"...)
	}
	if e.Scrollable {
		switch e.ScrollDir {
		case scrollVertical:
			buf = append(buf, " scroll-vertical"...)
		case ScrollHorizontal:
			buf = append(buf, " scroll-horizontal"...)
		default:
			buf = append(buf, " scrollable"...)
		}
	}
	if e.LongClickable && !e.Clickable {
		buf = append(buf, " long-clickable"...)
	}
	return buf
}

// idSuffix shortens "com.app:id/send_btn" to "send_btn"; obfuscated ids
// and ids with characters a reader could not tell apart are dropped.
func idSuffix(rid string) string {
	if i := strings.LastIndex(rid, ":id/"); i >= 0 {
		rid = rid[i+4:]
	}
	if rid == "" || strings.Contains(rid, "obfuscated") {
		return ""
	}
	for i := 0; i < len(rid); i++ {
		c := rid[i]
		if c <= ' ' || c == '"' || c >= 0x7f {
			return ""
		}
	}
	return rid
}

// appendQuoted appends s in double quotes the way strconv.QuoteToGraphic
// does, after collapsing white space runs to one space and cutting s to max
// runes (max < 0: no cut) with CutMarker.
func appendQuoted(buf []byte, s string, max int) []byte {
	buf = append(buf, '"')
	n := 0
	space := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' || (r >= utf8.RuneSelf && unicode.IsSpace(r)) {
			space = n > 0
			continue
		}
		if max >= 0 && n >= max {
			buf = append(buf, cutMarker...)
			break
		}
		if space {
			buf = append(buf, ' ')
			n++
			space = false
		}
		n++
		switch {
		case r == '"' || r == '\\':
			buf = append(buf, '\\', byte(r))
		case r < utf8.RuneSelf && r >= ' ' && r != 0x7f:
			buf = append(buf, byte(r))
		case r >= utf8.RuneSelf && unicode.IsGraphic(r):
			buf = utf8.AppendRune(buf, r)
		default:
			q := strconv.QuoteRuneToGraphic(r) // 'x' with escapes
			buf = append(buf, q[1:len(q)-1]...)
		}
	}
	return append(buf, '"')
}
