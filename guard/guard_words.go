package guard

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// guardText is a label as the guard matches it: normalised (normLabel), lower-cased, and
// cut into tokens — runs of letters, combining marks and digits, so a Devanagari or
// Bengali word with its vowel signs is one token, and punctuation or an underscore ends
// one.
type guardText struct {
	s    string
	toks []span // byte ranges of the tokens in s
}

type span struct{ start, end int }

func (rd *textReader) newGuardText(label string) guardText {
	return rd.guardTextOf(rd.normLabel(label))
}

// guardTextOf is the guardText of a label already normalised by normLabel.
func (rd *textReader) guardTextOf(normalised string) guardText {
	s := lower(normalised)
	return guardText{s: s, toks: rd.appendTokens(make([]span, 0, 1+strings.Count(s, " ")), s)}
}

// guardTextIn is guardTextOf with the tokens appended to *arena, which a page's labels
// share.
func (rd *textReader) guardTextIn(normalised string, arena *[]span) guardText {
	s := lower(normalised)
	if cap(*arena)-len(*arena) < 64 {
		*arena = make([]span, 0, 1024) // a new slab: the labels read so far keep the old one
	}
	from := len(*arena)
	*arena = rd.appendTokens(*arena, s)
	return guardText{s: s, toks: (*arena)[from:len(*arena):len(*arena)]}
}

// lower is strings.ToLower, which walks Unicode's case tables for every letter beyond
// ASCII; a label without upper-case ASCII whose other letters are of scripts without case
// (Chinese, Japanese, Korean, Thai, Arabic, Hebrew, Indic, …) is returned as it is, and
// one whose only capitals are ASCII ("Bubble tea · $5.99") is lowered in one copy with
// the other letters looked up only when they may have case.
func lower(s string) string {
	upper := -1 // the first upper-case ASCII letter
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' && upper < 0 {
				upper = i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case caseless(r):
		case r < 1<<16 && cased()[r/64]&(1<<(r%64)) == 0:
			// no lower-case form: '·', '€', a lower-case letter
		default:
			if unicode.ToLower(r) != r {
				// Turkish İ lowers to i and a combining dot above, which would part the
				// word from the vocabulary's i (SİL is sil).
				return strings.ReplaceAll(lowerRunes(s), "i\u0307", "i")
			}
		}
	}
	if upper < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	from := 0 // s[:from] is in b
	for i := upper; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b.WriteString(s[from:i])
			b.WriteByte(c + 'a' - 'A')
			from = i + 1
		}
	}
	b.WriteString(s[from:])
	return b.String()
}

// lowerRunes is strings.ToLower(s) for s beyond ASCII (strings.Map of unicode.ToLower: a
// byte that is not UTF-8 becomes U+FFFD), with the characters that have no lower-case
// form (cased) copied without a look-up in Unicode's case tables.
func lowerRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r < 1<<16 && cased()[r/64]&(1<<(r%64)) == 0:
			b.WriteString(s[i : i+n])
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		i += n
	}
	return b.String()
}

// cased has bit r set when unicode.ToLower(r) != r (r < 1<<16): lower asks it of every
// character beyond ASCII, which Unicode's case tables answer by a binary search each.
var cased = sync.OnceValue(func() []uint64 {
	t := make([]uint64, 1<<16/64)
	for r := rune(utf8.RuneSelf); r < 1<<16; r++ {
		if unicode.ToLower(r) != r {
			t[r/64] |= 1 << (r % 64)
		}
	}
	return t
})

// caseless reports whether r is of a script without case: Hebrew, Arabic, Indic, Thai,
// …; CJK; Hangul.
func caseless(r rune) bool {
	return r >= 0x0590 && r < 0x10A0 || r >= 0x3000 && r < 0xA640 || r >= 0xAC00 && r < 0xD7B0
}

// appendTokens appends the byte ranges of s's tokens to toks.
func (rd *textReader) appendTokens(toks []span, s string) []span {
	start := -1
	for i, r := range s {
		var word bool
		if r < utf8.RuneSelf {
			word = r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		} else {
			word = rd.wordRune(r)
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			toks = append(toks, span{start, i})
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, span{start, len(s)})
	}
	return toks
}

func (t guardText) tok(i int) string { return t.s[t.toks[i].start:t.toks[i].end] }

// tokenAt is the index of the first token starting at or after byte offset b (len(toks)
// when none does).
func (t guardText) tokenAt(b int) int {
	for i, tk := range t.toks {
		if tk.end > b {
			return i
		}
	}
	return len(t.toks)
}

// spaceless reports whether r belongs to a script written without spaces between words
// (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) or whose words agglutinate endings
// (Korean 삭제하기): a word of such a script is found anywhere in a text.
func spaceless(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// phraseSet finds phrases in guardTexts: phrases of scripts written with spaces match
// whole tokens in sequence ("pay now" in "Pay now ¥18", never in "Payday"); phrases of
// spaceless scripts match anywhere (支付 in 立即支付). Looking a text up costs one map
// probe per token plus, for spaceless text, one per character.
type phraseSet struct {
	rd      *textReader
	byFirst map[string][]phrase // by first token
	byRune  map[rune][]phrase   // spaceless phrases by first character
	// firsts has bit r set when byRune has phrases starting with r (r < 1<<16): a text's
	// other characters are passed over without a map lookup.
	firsts []uint64
	// firstToks has bit tokKey(w) set for every first token w of byFirst: most of a
	// text's tokens are in no phrase, and are passed over without hashing them for the map.
	firstToks []uint64
	n         int
}

// tokKey is a token's bit in phraseSet.firstToks: its length and its first and last two
// bytes, mixed.
func tokKey(w string) uint32 {
	h := uint32(len(w))*0x01000193 ^ uint32(w[0])<<8 ^ uint32(w[len(w)-1])
	if len(w) > 1 {
		h = h*0x01000193 ^ uint32(w[1])<<8 ^ uint32(w[len(w)-2])
	}
	return (h * 0x9E3779B1) >> 16
}

type phrase struct {
	toks []string
	text string // spaceless phrases: the normalised phrase
	id   int    // what the phrase stands for (a rule's index, …)
}

func newPhraseSet(rd *textReader) *phraseSet {
	return &phraseSet{rd: rd, byFirst: map[string][]phrase{}, byRune: map[rune][]phrase{}}
}

// add adds a phrase standing for id; an empty phrase is ignored.
func (p *phraseSet) add(raw string, id int) {
	t := p.rd.newGuardText(raw)
	if len(t.toks) == 0 {
		return
	}
	p.n++
	for _, r := range t.s {
		if spaceless(r) {
			first, _ := utf8.DecodeRuneInString(t.s)
			if !spaceless(first) {
				// A phrase starting with Latin letters and ending in Han ("QR支付") is found by
				// its first spaceless character.
				for _, r2 := range t.s {
					if spaceless(r2) {
						first = r2
						break
					}
				}
				text := t.s[strings.IndexRune(t.s, first):]
				p.addRune(first, phrase{text: text, id: id})
				return
			}
			p.addRune(first, phrase{text: t.s, id: id})
			return
		}
	}
	toks := make([]string, len(t.toks))
	for i := range t.toks {
		toks[i] = t.tok(i)
	}
	p.byFirst[toks[0]] = append(p.byFirst[toks[0]], phrase{toks: toks, id: id})
	if p.firstToks == nil {
		p.firstToks = make([]uint64, 1<<16/64)
	}
	k := tokKey(toks[0])
	p.firstToks[k/64] |= 1 << (k % 64)
}

func (p *phraseSet) addRune(first rune, ph phrase) {
	p.byRune[first] = append(p.byRune[first], ph)
	if p.firsts == nil {
		p.firsts = make([]uint64, 1<<16/64)
	}
	if first < 1<<16 {
		p.firsts[first/64] |= 1 << (first % 64)
	}
}

// find calls fn for every phrase found in t with the byte range it covers.
func (p *phraseSet) find(t guardText, fn func(id int, at span)) {
	if p == nil || p.n == 0 {
		return
	}
	for i := range t.toks {
		if p.firstToks == nil {
			break
		}
		if k := tokKey(t.tok(i)); p.firstToks[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, ph := range p.byFirst[t.tok(i)] {
			if i+len(ph.toks) > len(t.toks) {
				continue
			}
			ok := true
			for j := 1; j < len(ph.toks); j++ {
				if t.tok(i+j) != ph.toks[j] {
					ok = false
					break
				}
			}
			if ok {
				fn(ph.id, span{t.toks[i].start, t.toks[i+len(ph.toks)-1].end})
			}
		}
	}
	if len(p.byRune) == 0 {
		return
	}
	for i, r := range t.s {
		if r < utf8.RuneSelf || (r < 1<<16 && p.firsts[r/64]&(1<<(r%64)) == 0) {
			continue
		}
		for _, ph := range p.byRune[r] {
			if strings.HasPrefix(t.s[i:], ph.text) {
				fn(ph.id, span{i, i + len(ph.text)})
			}
		}
	}
}

// has reports whether any phrase is in t.
func (p *phraseSet) has(t guardText) bool {
	found := false
	p.find(t, func(int, span) { found = true })
	return found
}

// covered reports whether every token of t (and every spaceless character) lies inside
// one of the spans.
func (t guardText) covered(spans []span) bool {
	in := func(a, b int) bool {
		for _, s := range spans {
			if s.start <= a && b <= s.end {
				return true
			}
		}
		return false
	}
	for _, tk := range t.toks {
		if !in(tk.start, tk.end) {
			if !strings.ContainsFunc(t.s[tk.start:tk.end], spaceless) {
				return false
			}
			for i, r := range t.s[tk.start:tk.end] {
				if !in(tk.start+i, tk.start+i+utf8.RuneLen(r)) {
					return false
				}
			}
		}
	}
	return true
}
