package executor

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// normLabel is how the guard reads a label before matching words: compatibility forms
// folded (full-width Ｐａｙ is Pay), invisible format characters dropped (zero-width
// spaces, soft hyphens, direction marks), spaces between Chinese, Japanese or Korean
// characters removed (支 付 is 支付), camelCase split (PayNow is Pay Now), and look-alike
// letters read as the Latin letters Unicode's confusables data says they imitate (Pаy
// with a Cyrillic а, Pɑy with a Latin alpha). The case is kept; matching folds it.
func normLabel(s string) string {
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.Is(unicode.Cf, r):
			return -1
		case r == '’' || r == 'ʼ' || r == '‘':
			return '\''
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
		words[i] = foldConfusable(w)
	}
	return strings.Join(words, " ")
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// foldConfusable reads the look-alike letters of a word as the ASCII letters they imitate,
// by the skeletons of Unicode's confusables data (UTS #39): when the word mixes ASCII
// letters with look-alikes (Pаy, Pɑy), or every letter of it imitates an ASCII one (Рау
// in Cyrillic). A word of its own script stays as it is (Оплатить is Russian, gửi is
// Vietnamese). Keywords go through the same folding, so both sides read alike.
func foldConfusable(w string) string {
	ascii, foreign, mappable := false, 0, 0
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf:
			ascii = ascii || unicode.IsLetter(r)
		case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
			foreign++
			if _, ok := asciiLookAlike(r); ok {
				mappable++
			}
		}
	}
	if foreign == 0 || mappable == 0 || (!ascii && mappable < foreign) {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		if r >= utf8.RuneSelf {
			if a, ok := asciiLookAlike(r); ok {
				b.WriteString(a)
				continue
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lookAlikeScripts are the scripts whose letters are looked up in the confusables data:
// those with letters drawn like Latin ones. The lookup costs a normalisation per letter,
// so scripts without such letters skip it.
var lookAlikeScripts = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee,
	unicode.Coptic, unicode.Lisu, unicode.Georgian, unicode.Common, unicode.Inherited}

// asciiLookAlike is the ASCII letters r imitates by its confusables skeleton, if any.
func asciiLookAlike(r rune) (string, bool) {
	if !unicode.In(r, lookAlikeScripts...) {
		return "", false // Han, Thai, Arabic, …: no letter of theirs passes for a Latin one here
	}
	sk := confusables.Skeleton(string(r))
	if sk == "" || sk == string(r) {
		return "", false
	}
	for i := 0; i < len(sk); i++ {
		c := sk[i]
		if c >= utf8.RuneSelf || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	return sk, true
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
