package guard

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// textReader reads labels the way the guard matches them: it holds the tables normLabel
// and findAmounts look things up in, built once by newTextReader (in New) and never
// changed after, so a Guard shares them between goroutines without a lock.
type textReader struct {
	// lookAlike maps a letter that may pass for Latin ones to the ASCII letters its
	// confusables skeleton (UTS #39) reads as (ɑ → a, а → a); letters without one are absent.
	lookAlike map[rune]string
	// lookAlikeSet has bit r set when lookAlike has r: plain asks it of every letter.
	lookAlikeSet []uint64
	// currency is the set of currency symbols and codes (CLDR's, and unitWords).
	currency map[string]bool
	// symbolEdge has bit r set when a currency symbol starts or ends with r (r < 1<<16): a
	// number with no such character beside it has no symbol, and amountAround looks up no
	// candidate (most numbers on a page: "#12", "3 items").
	symbolEdge []uint64
	// stable has bit r set when r is in NFKC by itself and starts a segment: combining
	// class 0, and never composed with what stands before it. A label of such characters
	// (and ASCII) only is in NFKC already — nothing in it reorders or composes — and is
	// skipped by NFKC, whose quick check costs a trie look-up a character (13% of judging a
	// crowded page).
	stable []uint64
	// markCCC is the combining class of the Thai and Lao marks (U+0E00–U+0EFF) that are
	// in NFKC by themselves and not starters (tone marks, vowel signs below): no
	// character composes with them, so NFKC leaves them as they are where they follow
	// one another in canonical order (ascending class) — the tone mark of ชาไข่มุก.
	markCCC [0x100]uint8
	// word has bit r set when r is a letter, a number or a combining mark (r < 1<<16): a
	// token's character. appendTokens asks it of every character beyond ASCII, which
	// Unicode's tables answer by a binary search each.
	word []uint64
	// formatSet has bit r set when r is a format character (Cf, r < 1<<16): normLabel
	// drops it.
	formatSet []uint64
	// lettersSet has bit r set when r is a letter or a non-spacing mark (r < 1<<16):
	// foldConfusable counts them.
	lettersSet []uint64
	// simpleSet has bit r set when normLabel leaves r as it is wherever it stands: in NFKC
	// by itself, no format, ignorable, look-alike, accented or cased letter, no space, no
	// Arabic mark or hamza'd alif, no curly apostrophe, no candrabindu (simple).
	simpleSet []uint64
	// ignorableSet has bit r set when r is a Default_Ignorable_Code_Point
	// (guardtext_ignorable.go): normLabel drops it.
	ignorableSet []uint64
	// vocab holds every token of the guard's words, lower-cased, once NewGuard has read
	// them (nil before): unaccent reads an unknown accented word as the known word its
	// bare letters spell (guardtext_accents.go).
	vocab map[string]bool
	// bare maps an accented Latin letter to its ASCII letter, lower-cased (bareLetters).
	bare map[rune]byte
}

// newTextReader builds the look-alike table from Unicode's confusables data for every
// letter of the scripts that have letters drawn like Latin ones (about 3,000), the table
// of characters NFKC leaves alone (x/text's properties of the Basic Multilingual Plane),
// the table of letters, numbers and marks, and the currency set from guard_currency.txt:
// about 8 ms, built once per process (baseTextReader) and shared: its tables are only read
// once built. Each Guard gets a reader of its own, with its own vocabulary.
func newTextReader() *textReader {
	rd := *baseTextReader()
	return &rd
}

// baseTextReader is the reader newTextReader copies, with no vocabulary.
var baseTextReader = sync.OnceValue(buildTextReader)

// buildTextReader builds the tables newTextReader describes.
func buildTextReader() *textReader {
	rd := &textReader{lookAlike: map[rune]string{}, lookAlikeSet: make([]uint64, 1<<16/64), currency: map[string]bool{},
		symbolEdge: make([]uint64, 1<<16/64), stable: make([]uint64, 1<<16/64),
		word: make([]uint64, 1<<16/64), formatSet: make([]uint64, 1<<16/64), lettersSet: make([]uint64, 1<<16/64),
		ignorableSet: ignorableTable(), bare: bareLetters()}
	for _, set := range []struct {
		bits []uint64
		tabs []*unicode.RangeTable
	}{
		{rd.formatSet, []*unicode.RangeTable{unicode.Cf}},
		{rd.lettersSet, []*unicode.RangeTable{unicode.Letter, unicode.Mn}},
	} {
		for _, tab := range set.tabs {
			for _, rg := range tab.R16 {
				for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
					set.bits[r/64] |= 1 << (r % 64)
				}
			}
			for _, rg := range tab.R32 {
				for r := rune(rg.Lo); r <= rune(rg.Hi) && r < 1<<16; r += rune(rg.Stride) {
					set.bits[r/64] |= 1 << (r % 64)
				}
			}
		}
	}
	var buf [utf8.UTFMax]byte
	for _, tab := range []*unicode.RangeTable{unicode.Letter, unicode.Number, unicode.Mark} {
		for _, rg := range tab.R16 {
			for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
				rd.word[r/64] |= 1 << (r % 64)
			}
		}
	}
	for r := rune(utf8.RuneSelf); r < 1<<16; r++ {
		b := buf[:utf8.EncodeRune(buf[:], r)]
		if p := norm.NFKC.Properties(b); p.BoundaryBefore() && norm.NFKC.IsNormal(b) {
			rd.stable[r/64] |= 1 << (r % 64)
		} else if r >= 0x0E00 && r < 0x0F00 && p.CCC() != 0 && norm.NFKC.IsNormal(b) {
			rd.markCCC[r-0x0E00] = p.CCC()
		}
	}
	for r := rune(utf8.RuneSelf); r <= 0xFFFF; r++ {
		if !mayLookAlike(r) || !unicode.In(r, lookAlikeScripts...) {
			continue
		}
		sk := confusables.Skeleton(string(r))
		if sk != "" && sk != string(r) && strings.IndexFunc(sk, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
		}) < 0 {
			rd.lookAlike[r] = sk
			rd.lookAlikeSet[r/64] |= 1 << (r % 64)
		}
	}
	rd.simpleSet = make([]uint64, 1<<16/64)
	for r := rune(utf8.RuneSelf); r < 1<<16; r++ {
		if rd.stable[r/64]&(1<<(r%64)) != 0 && !rd.format(r) && !rd.ignorable(r) && !arabicMark(r) && !isSpace(r) &&
			!strings.ContainsRune("’ʼ‘أإآٱँ", r) && !accented(r) && !isUpper(r) && !isLower(r) &&
			rd.lookAlikeSet[r/64]&(1<<(r%64)) == 0 {
			rd.simpleSet[r/64] |= 1 << (r % 64)
		}
	}
	for _, line := range strings.Split(currencyData, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s := rd.normLabel(line)
		rd.currency[s] = true
		if t := strings.TrimRight(s, "."); t != "" {
			rd.currency[t] = true
		}
	}
	for _, w := range slices.Concat(unitWords, cryptoTickers, localSymbols) {
		rd.currency[w] = true
	}
	for sym := range rd.currency {
		first, _ := utf8.DecodeRuneInString(sym)
		last, _ := utf8.DecodeLastRuneInString(sym)
		for _, r := range [2]rune{first, last} {
			if r < 1<<16 {
				rd.symbolEdge[r/64] |= 1 << (r % 64)
			}
		}
	}
	return rd
}

// nfkcStable reports whether NFKC leaves s as it is because every character of it is
// stable (ASCII, or marked in rd.stable); false may also mean it does not know.
func (rd *textReader) nfkcStable(s string) bool {
	var last uint8 // the combining class of the mark before, 0 after a stable character
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf || r < 1<<16 && rd.stable[r/64]&(1<<(r%64)) != 0:
			last = 0
		case r >= 0x0E00 && r < 0x0F00 && rd.markCCC[r-0x0E00] >= max(last, 1):
			last = rd.markCCC[r-0x0E00] // a Thai or Lao mark, in canonical order
		default:
			return false
		}
	}
	return true
}

// format is unicode.Is(unicode.Cf, r), by a table look-up below 1<<16.
func (rd *textReader) format(r rune) bool {
	if r >= 0 && r < 1<<16 {
		return rd.formatSet[r/64]&(1<<(r%64)) != 0
	}
	return unicode.Is(unicode.Cf, r)
}

// letterOrMn is unicode.IsLetter(r) || unicode.Is(unicode.Mn, r), by a table look-up
// below 1<<16.
func (rd *textReader) letterOrMn(r rune) bool {
	if r >= 0 && r < 1<<16 {
		return rd.lettersSet[r/64]&(1<<(r%64)) != 0
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Mn, r)
}

// wordRune reports whether r (beyond ASCII) is a letter, a number or a combining mark.
func (rd *textReader) wordRune(r rune) bool {
	if r < 1<<16 {
		return rd.word[r/64]&(1<<(r%64)) != 0
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.M, r)
}

// mayEdgeSymbol reports whether a currency symbol may start or end with r.
func (rd *textReader) mayEdgeSymbol(r rune) bool {
	return r >= 1<<16 || rd.symbolEdge[r/64]&(1<<(r%64)) != 0
}
