package guard

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
	var b strings.Builder // written from the first token read otherwise
	done := 0             // w[:done] is in b
	start := -1
	token := func(end int) {
		if bare, ok := rd.bareWord(w[start:end]); ok {
			b.WriteString(w[done:start])
			b.WriteString(bare)
			done = end
		}
		start = -1
	}
	for i, r := range w {
		word := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') || r >= utf8.RuneSelf && rd.wordRune(r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			token(i)
		}
	}
	if start >= 0 {
		token(len(w))
	}
	if done == 0 {
		return w
	}
	b.WriteString(w[done:])
	return b.String()
}

// bareWord is tok without its marks when tok is unknown and that is a known ASCII word.
func (rd *textReader) bareWord(tok string) (string, bool) {
	var buf [32]byte
	n := 0
	for _, r := range tok {
		var c byte
		switch {
		case r >= 0x300 && r <= 0x36F:
			continue // a combining mark
		case r >= 'A' && r <= 'Z':
			c = byte(r) + 'a' - 'A'
		case r < utf8.RuneSelf:
			c = byte(r)
		default:
			base, ok := rd.bare[r]
			if !ok {
				return "", false // a letter with no ASCII base (ø, ł, ß): no bare reading
			}
			c = base
		}
		if n == len(buf) {
			return "", false
		}
		buf[n] = c
		n++
	}
	if !rd.vocab[string(buf[:n])] || rd.vocab[lower(tok)] {
		return "", false
	}
	// The bare word keeps the label's capitals where it had them.
	var b strings.Builder
	for _, r := range norm.NFD.String(tok) {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// bareLetters maps each accented Latin letter (Latin-1, Latin Extended-A and -B, Latin
// Extended Additional) whose canonical decomposition is an ASCII letter and marks to that
// letter, lower-cased.
func bareLetters() map[rune]byte {
	m := map[rune]byte{}
	for r := rune(0xC0); r <= 0x1EFF; r++ {
		if !accented(r) {
			continue
		}
		d := norm.NFD.String(string(r))
		base, size := utf8.DecodeRuneInString(d)
		if size == len(d) || base >= utf8.RuneSelf || !unicode.IsLetter(base) {
			continue
		}
		if strings.IndexFunc(d[size:], func(m rune) bool { return !unicode.Is(unicode.Mn, m) }) >= 0 {
			continue
		}
		m[r] = byte(unicode.ToLower(base))
	}
	return m
}
