package executor

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Accents on a word the guard does not know are read past when what is left is a word it
// knows: "Páy" is Pay, "Dėlete" is Delete, drawn to pass a word list by. A word the guard
// knows with its marks (Vietnamese Gửi, Xóa) or whose bare letters are no word of its
// (Café, Résumé) keeps them: languages that need their marks read as before.

// vocabulary collects the tokens of every phrase of sets: the words the guard knows.
func vocabulary(sets ...*phraseSet) map[string]bool {
	words := map[string]bool{}
	for _, p := range sets {
		if p == nil {
			continue
		}
		for _, list := range p.byFirst {
			for _, ph := range list {
				for _, t := range ph.toks {
					words[t] = true
				}
			}
		}
	}
	return words
}

// accented reports whether r is a Latin letter with a diacritic or a combining mark that
// may sit on one: a word holding one may be a known word with marks added.
func accented(r rune) bool {
	return r >= 0xC0 && r <= 0x24F && r != 0xD7 && r != 0xF7 || r >= 0x300 && r <= 0x36F || r >= 0x1E00 && r <= 0x1EFF
}

// unaccent reads the tokens of w that the guard does not know as their letters without
// marks, where those are ASCII and a word it knows. rd.vocab nil (while the guard's own
// words are read): w as it is.
func (rd *textReader) unaccent(w string) string {
	if rd.vocab == nil || strings.IndexFunc(w, accented) < 0 {
		return w
	}
	var b strings.Builder
	changed := false
	start := -1
	emit := func(end int) {
		tok := w[start:end]
		if bare, ok := rd.bareWord(tok); ok {
			b.WriteString(bare)
			changed = true
		} else {
			b.WriteString(tok)
		}
		start = -1
	}
	for i, r := range w {
		word := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') || r >= utf8.RuneSelf && rd.wordRune(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			emit(i)
		}
		if !word {
			b.WriteRune(r)
		}
	}
	if start >= 0 {
		emit(len(w))
	}
	if !changed {
		return w
	}
	return b.String()
}

// bareWord is tok without its marks when tok is unknown and that is a known ASCII word.
func (rd *textReader) bareWord(tok string) (string, bool) {
	if strings.IndexFunc(tok, accented) < 0 || rd.vocab[lower(tok)] {
		return "", false
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(tok) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r >= utf8.RuneSelf:
			return "", false // a letter with no ASCII base (ø, ł, ß): no bare reading
		default:
			b.WriteRune(r)
		}
	}
	bare := b.String()
	return bare, rd.vocab[lower(bare)]
}
