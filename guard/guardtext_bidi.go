package guard

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

// A label with explicit direction controls (embeddings, overrides, isolates: U+202A–U+202E,
// U+2066–U+2069) may draw its letters in another order than it stores them: "\u202eyaP"
// draws "Pay", "\u202ella eteleD" draws "Delete all". Such a label is read in the order a
// person sees it, by the Unicode Bidirectional Algorithm (x/text's implementation): its
// runs in display order, each right-to-left run reversed, then each stretch of
// right-to-left letters (Arabic, Hebrew, …) read back in its own direction, as a reader of
// that script reads it. A label without such controls is read as stored: that is how it
// is drawn.

// hasBidiControl reports whether s holds an explicit embedding, override or isolate.
func hasBidiControl(s string) bool {
	// U+202A–U+202E are E2 80 AA–AE in UTF-8, U+2066–U+2069 E2 81 A6–A9.
	for i := strings.IndexByte(s, 0xE2); i >= 0 && i+2 < len(s); {
		if b1, b2 := s[i+1], s[i+2]; b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE || b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9 {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xE2)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// displayOrder is s as a person reads it off the screen; s itself when the algorithm
// cannot order it.
func displayOrder(s string) string {
	var p bidi.Paragraph
	if _, err := p.SetString(s, bidi.DefaultDirection(bidi.LeftToRight)); err != nil {
		return s
	}
	o, err := p.Order()
	if err != nil {
		return s
	}
	var drawn []rune // left to right, as drawn
	for i := 0; i < o.NumRuns(); i++ {
		run := o.Run(i)
		rs := []rune(run.String())
		if run.Direction() == bidi.RightToLeft {
			for a, b := 0, len(rs)-1; a < b; a, b = a+1, b-1 {
				rs[a], rs[b] = rs[b], rs[a]
			}
		}
		drawn = append(drawn, rs...)
	}
	// A reader of Arabic or Hebrew reads their stretch from the right: back to reading order.
	for i := 0; i < len(drawn); {
		if !rtlLetter(drawn[i]) {
			i++
			continue
		}
		j := i
		last := i
		for j < len(drawn) && (rtlLetter(drawn[j]) || !unicode.IsLetter(drawn[j]) && !unicode.IsDigit(drawn[j])) {
			if rtlLetter(drawn[j]) {
				last = j
			}
			j++
		}
		for a, b := i, last; a < b; a, b = a+1, b-1 {
			drawn[a], drawn[b] = drawn[b], drawn[a]
		}
		i = last + 1
	}
	return string(drawn)
}

// rtlLetter reports whether r is a letter or mark of a script written right to left.
func rtlLetter(r rune) bool {
	if r < 0x0590 {
		return false
	}
	p, _ := bidi.LookupRune(r)
	c := p.Class()
	return c == bidi.R || c == bidi.AL
}
