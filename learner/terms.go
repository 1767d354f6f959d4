package learner

import (
	"strings"
	"unicode"
)

// Matching a sub-goal against pages. Text becomes terms the way the knowledge store's
// trick search makes them, so English and Chinese both work: Latin words lower-cased
// (camelCase and snake_case ids split, stop words dropped, plurals folded) and runs of
// Han, kana or Hangul as overlapping character bigrams, a lone character as itself.

// terms returns the distinct terms of text.
func terms(text string) map[string]bool {
	out := map[string]bool{}
	var word, cjk []rune
	flushWord := func() {
		if len(word) >= 2 || (len(word) == 1 && unicode.IsDigit(word[0])) {
			if w := strings.ToLower(string(word)); !stopWords[w] {
				out[stem(w)] = true
			}
		}
		word = word[:0]
	}
	flushCJK := func() {
		if len(cjk) == 1 {
			out[string(cjk)] = true
		}
		for i := 0; i+1 < len(cjk); i++ {
			out[string(cjk[i:i+2])] = true
		}
		cjk = cjk[:0]
	}
	var prev rune
	for _, r := range text {
		if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
			r -= 0xFEE0
		}
		switch {
		case isCJK(r):
			flushWord()
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK()
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flushWord() // camelCase boundary
			}
			word = append(word, r)
		default:
			flushWord()
			flushCJK()
		}
		prev = r
	}
	flushWord()
	flushCJK()
	return out
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// stem folds plurals and -ing forms: "settings" → "setting", "messages" → "message".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// stopWords are English words that say nothing about a page.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "in": true, "on": true, "at": true,
	"for": true, "and": true, "or": true, "is": true, "it": true, "be": true, "by": true, "with": true,
	"from": true, "into": true, "this": true, "that": true, "page": true, "screen": true, "app": true,
	"go": true, "open": true, "tap": true, "click": true, "then": true, "my": true, "me": true,
	"btn": true, "button": true, "id": true, "view": true, "layout": true, "com": true, "android": true,
	"widget": true, "its": true, "find": true, "get": true, "navigate": true, "there": true,
}
