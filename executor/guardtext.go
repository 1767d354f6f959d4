package executor

import (
	"path"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normLabel is how the guard reads a label before matching words: compatibility forms
// folded (full-width Ｐａｙ is Pay), invisible format characters dropped (zero-width
// spaces, soft hyphens), spaces between Chinese, Japanese or Korean characters removed
// (支 付 is 支付), camelCase split (PayNow is Pay Now), and in a word that mixes Latin with
// Cyrillic or Greek letters the look-alikes read as Latin (Pаy with a Cyrillic а is Pay).
func normLabel(s string) string {
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsSpace(r) && i > 0 && i+1 < len(rs) && isCJK(rs[i-1]) && isCJK(rs[i+1]) {
			continue
		}
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	words := strings.Fields(b.String())
	for i, w := range words {
		words[i] = foldMixed(w)
	}
	return strings.Join(words, " ")
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// lookAlike maps Cyrillic and Greek letters to the Latin letters they look like.
var lookAlike = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ѕ': 's', 'ј': 'j', 'ԁ': 'd', 'ո': 'n',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y',
	'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'τ': 't', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// foldMixed reads the look-alike letters of a word that mixes Latin with other letters as
// Latin; a word in one script stays as it is (Оплатить is Russian).
func foldMixed(w string) string {
	latin, other := false, false
	for _, r := range w {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin = true
		case unicode.In(r, unicode.Cyrillic, unicode.Greek):
			other = true
		}
	}
	if !latin || !other {
		return w
	}
	return strings.Map(func(r rune) rune {
		if l, ok := lookAlike[r]; ok {
			return l
		}
		return r
	}, w)
}

// hasWordy reports whether s holds a letter or a digit.
func hasWordy(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// hasLetter reports whether s holds a letter.
func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// shellWords splits a command line into words the way a POSIX shell would for plain
// words, removing quotes; unquoted reports whether an operator or expansion (; & | < > $ `
// or a line break) appears outside quotes.
func shellWords(cmd string) (words []string, unquoted bool) {
	var cur strings.Builder
	have := false
	quote := rune(0)
	for _, r := range cmd {
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				if r == '$' || r == '`' {
					unquoted = true
				}
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, have = r, true
		case r == ' ' || r == '\t':
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		case strings.ContainsRune(";&|<>$`\n\r()", r):
			unquoted = true
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		words = append(words, cur.String())
	}
	if len(words) > 0 {
		words[0] = path.Base(words[0])
	}
	return words, unquoted
}
