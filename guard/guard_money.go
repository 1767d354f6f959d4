package guard

import (
	_ "embed"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:embed guard_currency.txt
var currencyData string

// unitWords are currency words written after a number that CLDR records as unit names,
// not symbols (18元, 1,200円, 5 000 원, 100 руб.): the data has no list of them.
var unitWords = []string{"元", "円", "원", "руб", "руб.", "грн", "тг", "сом", "лв", "лв.", "kr", "kr.", "Kč", "Ft", "zł", "lei", "TL", "р.", "₸"}

// maxSymbolRunes is the longest currency symbol looked for next to a number.
const maxSymbolRunes = 6

// findAmounts returns the amounts of money in s (normalised by normLabel): a number in any
// script's digits and any locale's grouping (1,234.50 · 1.234,50 · 1 234,50 · 12'345 ·
// ١٬٢٣٤٫٥٠) with a currency symbol or code before or after it (CLDR's, through
// golang.org/x/text: $, €, zł, Rp, ر.س., ₫, CHF …), or a number with exactly two decimals
// ("Total 18.00").
func (rd *textReader) findAmounts(s string) []span { return rd.appendAmounts(nil, s, false) }

// appendAmounts appends the amounts of s to dst (only the first when first is set).
func (rd *textReader) appendAmounts(dst []span, s string, first bool) []span {
	out := dst
	i := 0
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf && (c < '0' || c > '9') {
			i++ // ASCII that is no digit: most of a label, read without decoding
			continue
		} else if c >= 0xC2 && c < 0xF0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			// A letter of two or three bytes that is no digit, passed over without
			// decoding; bytes that are not UTF-8 decode to U+FFFD, no digit either.
			r, n := rune(c&0x1F)<<6|rune(s[i+1]&0x3F), 2
			if c >= 0xE0 {
				if i+2 >= len(s) || s[i+2]&0xC0 != 0x80 {
					r = '0' // left to the decoder
				} else {
					r, n = rune(c&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
				}
			}
			if !isDigit(r) {
				i += n
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isDigit(r) {
			i += n
			continue
		}
		start := i
		end := i + n
		lastDigit := end
		sep, decimals := -1, 0
		for end < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[end:])
			switch {
			case isDigit(r2):
				end += n2
				lastDigit = end
				if sep >= 0 {
					decimals++
				}
				continue
			case strings.ContainsRune(".,'٬٫ \u00a0\u202f", r2):
				if nx, _ := utf8.DecodeRuneInString(s[end+n2:]); end+n2 < len(s) && isDigit(nx) {
					end += n2
					sep, decimals = end, 0
					continue
				}
			}
			break
		}
		end = lastDigit
		if a, ok := rd.amountAround(s, start, end); ok {
			out = append(out, a)
		} else if sep > 0 && decimals == 2 && strings.ContainsRune(".,٫", rune(s[sep-1])) {
			out = append(out, span{start, end})
		}
		if first && len(out) > len(dst) {
			return out
		}
		i = end
	}
	return out
}

// amountAround widens the number s[start:end] by the currency symbol before or after it.
func (rd *textReader) amountAround(s string, start, end int) (span, bool) {
	syms := rd.currency
	// Before: up to one space, then a symbol that is not the tail of a longer word.
	b := start
	if b > 0 && s[b-1] == ' ' {
		b--
	}
	if b > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:b]); !rd.mayEdgeSymbol(r) {
			b = 0 // no symbol ends right before the number
		}
	}
	// The longest symbol counts: "ر.س." is the riyal, not its first letter "ر".
	runes, found := 0, -1
	for j := b; j > 0 && runes < maxSymbolRunes; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		if r == ' ' || isDigit(r) {
			break
		}
		j -= n
		runes++
		if syms[s[j:b]] && !letterJoins(s, j, true) {
			found = j
		}
	}
	if found >= 0 {
		return span{found, end}, true
	}
	a := end
	if a < len(s) && s[a] == ' ' {
		a++
	}
	if a < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[a:]); !rd.mayEdgeSymbol(r) {
			return span{}, false // nor starts right after it
		}
	}
	runes, found = 0, -1
	for j := a; j < len(s) && runes < maxSymbolRunes; {
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == ' ' || isDigit(r) {
			break
		}
		j += n
		runes++
		if syms[s[a:j]] && !letterJoins(s, j, false) {
			found = j
		}
	}
	if found >= 0 {
		return span{start, found}, true
	}
	return span{}, false
}

// letterJoins reports whether a letter touches the symbol at its outer edge (before it
// when before is set), which makes the symbol part of a longer word ("TOP" in "STOP").
func letterJoins(s string, at int, before bool) bool {
	if before {
		if at == 0 {
			return false
		}
		r, _ := utf8.DecodeLastRuneInString(s[:at])
		return unicode.IsLetter(r)
	}
	if at >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[at:])
	return unicode.IsLetter(r)
}

// hasAmount reports whether s (normalised) shows an amount of money.
func (rd *textReader) hasAmount(s string) bool {
	var buf [1]span
	return len(rd.appendAmounts(buf[:0], s, true)) > 0
}

// withoutAmounts is s with its amounts blanked.
func (rd *textReader) withoutAmounts(s string) string {
	as := rd.findAmounts(s)
	if len(as) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, a := range as {
		b.WriteString(s[last:a.start])
		b.WriteByte(' ')
		last = a.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// isDigit is unicode.IsDigit, answered for ASCII by a comparison and for the rest of the
// Basic Multilingual Plane by a table (digitSet): appendAmounts asks it of every
// character of every label.
func isDigit(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r >= '0' && r <= '9'
	case r < 1<<16:
		return digitSet[r/64]&(1<<(r%64)) != 0
	}
	return unicode.IsDigit(r)
}

// digitSet, upperSet and lowerSet have bit r set for the r < 1<<16 that are digits (Nd:
// unicode.IsDigit), upper-case (Lu: unicode.IsUpper) or lower-case letters (Ll:
// unicode.IsLower), read from Unicode's range tables when the package loads.
var digitSet, upperSet, lowerSet = rangeSet(unicode.Nd), rangeSet(unicode.Lu), rangeSet(unicode.Ll)

// rangeSet has bit r set for every r < 1<<16 of tab.
func rangeSet(tab *unicode.RangeTable) []uint64 {
	t := make([]uint64, 1<<16/64)
	for _, rg := range tab.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			t[r/64] |= 1 << (r % 64)
		}
	}
	return t
}
