package perception

import (
	"strings"
	"unicode/utf8"
)

// The values of a dump's attributes: numbers, bounds, and text with its entity and
// character references resolved.

func atoi(s string) int {
	n, neg, i := 0, false, 0
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n < 1<<30 {
			n = n*10 + int(s[i]-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// parseBounds reads "[x1,y1][x2,y2]".
func parseBounds(v string) (Bounds, bool) {
	var nums [4]int
	k := 0
	for i := 0; i < len(v) && k < 4; {
		c := v[i]
		if c == '-' || c >= '0' && c <= '9' {
			j := i + 1
			for j < len(v) && v[j] >= '0' && v[j] <= '9' {
				j++
			}
			nums[k] = atoi(v[i:j])
			k++
			i = j
			continue
		}
		i++
	}
	if k < 4 {
		return Bounds{}, false
	}
	return Bounds{X1: nums[0], Y1: nums[1], X2: nums[2], Y2: nums[3]}, true
}

// decode resolves entity and character references and drops what is not
// valid text: control characters, invalid UTF-8 and lone surrogates. The
// common case (plain text) returns v without copying.
func decode(v string) string {
	clean := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '&' || c < 0x20 || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return v
	}
	if strings.IndexByte(v, '&') < 0 && utf8.ValidString(v) && !hasControl(v) {
		return v
	}
	var b strings.Builder
	b.Grow(len(v))
	var pendingHigh rune // a high surrogate waiting for its low half
	flush := func() {
		if pendingHigh != 0 {
			b.WriteRune(utf8.RuneError)
			pendingHigh = 0
		}
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c == '&' {
			if r, n, ok := entity(v[i:]); ok {
				i += n
				switch {
				case r >= 0xD800 && r < 0xDC00:
					flush()
					pendingHigh = r
				case r >= 0xDC00 && r < 0xE000:
					if pendingHigh != 0 {
						b.WriteRune(0x10000 + (pendingHigh-0xD800)<<10 + (r - 0xDC00))
						pendingHigh = 0
					} else {
						b.WriteRune(utf8.RuneError)
					}
				default:
					flush()
					writeTextRune(&b, r)
				}
				continue
			}
		}
		flush()
		r, n := utf8.DecodeRuneInString(v[i:])
		i += n
		writeTextRune(&b, r)
	}
	flush()
	return b.String()
}

func hasControl(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			return true
		}
	}
	return false
}

func writeTextRune(b *strings.Builder, r rune) {
	switch {
	case r == '\n' || r == '\t' || r == '\r':
		b.WriteRune(r)
	case r < 0x20 || r == 0xFFFE || r == 0xFFFF:
		// invalid in XML text: drop
	case r > utf8.MaxRune || r >= 0xD800 && r < 0xE000:
		b.WriteRune(utf8.RuneError)
	default:
		b.WriteRune(r)
	}
}

// entity decodes one reference at the start of s ("&amp;", "&#10;", "&#x1F600;").
func entity(s string) (rune, int, bool) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 12 {
		return 0, 0, false
	}
	body := s[1:end]
	switch body {
	case "amp":
		return '&', end + 1, true
	case "lt":
		return '<', end + 1, true
	case "gt":
		return '>', end + 1, true
	case "quot":
		return '"', end + 1, true
	case "apos":
		return '\'', end + 1, true
	}
	if body[0] != '#' || len(body) < 2 {
		return 0, 0, false
	}
	base, digits := 10, body[1:]
	if digits[0] == 'x' || digits[0] == 'X' {
		base, digits = 16, digits[1:]
	}
	if digits == "" {
		return 0, 0, false
	}
	var r rune
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = rune(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return 0, 0, false
		}
		r = r*rune(base) + d
		if r > utf8.MaxRune {
			r = utf8.MaxRune + 1
		}
	}
	return r, end + 1, true
}
