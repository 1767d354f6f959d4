package replay

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordRE matches value in text as whole words (any case for the letters' words; a value
// in a script without spaces matches anywhere).
func wordRE(value string) *regexp.Regexp {
	q := regexp.QuoteMeta(value)
	first, _ := utf8.DecodeRuneInString(value)
	last, _ := utf8.DecodeLastRuneInString(value)
	if isWordRune(first) {
		q = `(?:^|\b)` + q
	}
	if isWordRune(last) {
		q += `(?:\b|$)`
	}
	return regexp.MustCompile(q)
}

func isWordRune(r rune) bool {
	return r < unicode.MaxLatin1 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// HasWords reports whether text holds value as whole words, with its case.
func HasWords(text, value string) bool {
	return strings.TrimSpace(value) != "" && wordRE(value).MatchString(text)
}

// replaceWords replaces value, as whole words, in text.
func replaceWords(text, value, with string) string {
	return wordRE(value).ReplaceAllLiteralString(text, with)
}
