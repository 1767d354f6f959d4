package table

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text from outside fairy — an app's label from a phone, a suite's name from a file, what a
// model said — reaches a terminal, which obeys the control characters in it: ESC ] 0 ; … BEL
// sets the window title, ESC [ 2 J clears the screen, the C1 CSI (U+009B, or a lone byte
// 0x9B) starts a sequence without an ESC, and the bidirectional overrides and isolates
// (U+202A–U+202E, U+2066–U+2069) and marks (U+061C, U+200E, U+200F) reorder it. Escape is the one function
// that renders all of them visibly, so that what a user reads is what the text holds.

// Escape returns s with every control character written out, as Go writes it in a quoted
// string: C0 controls and DEL as \xNN (\t and \n included: a label is one line), C1
// controls and the bidirectional controls as \uNNNN, and each byte that is not UTF-8 as
// \xNN. Other text, any script included, is left as it is. s without any is returned as is.
func Escape(s string) string { return escape(s, false) }

// EscapeLines is Escape for text of several lines: its tabs and newlines are kept, and a
// carriage return is escaped (it would move back over the line written before it).
func EscapeLines(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if !needsEscape(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case keepLines && (r == '\t' || r == '\n'):
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		case isControl(r):
			q := strconv.QuoteRuneToASCII(r) // '\u009b'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// isControl reports the runes past ASCII that a terminal obeys, that reorder a line or that
// end it: C1, Unicode's Bidi_Control set (the embeddings, overrides and isolates, and the
// marks U+061C, U+200E, U+200F, which move neutral characters such as "." or "/" across
// a name), and the line and paragraph separators U+2028, U+2029.
func isControl(r rune) bool {
	return r >= 0x80 && r <= 0x9f || // C1: CSI, OSC, …
		unicode.Is(unicode.Bidi_Control, r) ||
		r == 0x2028 || r == 0x2029
}

func needsEscape(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(keepLines && (c == '\t' || c == '\n')) {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || isControl(r) {
			return true
		}
		i += n
	}
	return false
}

// escapingWriter escapes each write with EscapeLines.
type escapingWriter struct{ w io.Writer }

// EscapingWriter returns a writer that escapes each write to w (EscapeLines), for a
// command that prints many names from outside a line at a time. Each write must hold
// whole characters, as each fmt.Fprintf call does.
func EscapingWriter(w io.Writer) io.Writer { return escapingWriter{w} }

func (e escapingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, EscapeLines(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
