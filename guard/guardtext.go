package guard

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normLabel is how the guard reads a label before matching words: compatibility forms
// folded (full-width Ｐａｙ is Pay), invisible format characters dropped (zero-width
// spaces, soft hyphens, direction marks), spaces between Chinese, Japanese or Korean
// characters removed (支 付 is 支付), camelCase split (PayNow is Pay Now), and look-alike
// letters read as the Latin letters Unicode's confusables data says they imitate (Pаy
// with a Cyrillic а, Pɑy with a Latin alpha). The case is kept; matching folds it.
func (rd *textReader) normLabel(s string) string {
	if a, ok := normASCII(s); ok {
		return a
	}
	if rd.simple(s) {
		return s
	}
	return rd.normFull(s)
}

// normFull is normLabel by its steps, one by one.
func (rd *textReader) normFull(s string) string {
	if hasBidiControl(s) {
		s = displayOrder(s) // read as drawn (guardtext_bidi.go)
	}
	if !rd.nfkcStable(s) {
		s = norm.NFKC.String(s)
	}
	if plain, accent := rd.plain(s); plain {
		if accent {
			return rd.unaccent(s) // s itself unless it holds a known word with accents added
		}
		return s
	} else if f, ok := rd.foldWords(s); ok {
		return f
	}
	if hindiVariant(s) {
		s = hindiSpelling(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	word := -1            // where the current word starts in b (-1: between words)
	foreign := false      // the current word holds a letter beyond ASCII
	var prev rune = -1    // the last rune written
	pendingSpace := false // a space is owed before the next word
	flush := func() {
		if word >= 0 && foreign {
			w := b.String()[word:]
			if f := rd.unaccent(rd.foldConfusable(w)); f != w {
				rest := b.String()[:word]
				b.Reset()
				b.WriteString(rest)
				b.WriteString(f)
			}
		}
		word, foreign = -1, false
	}
	for i, r := range s {
		if r >= utf8.RuneSelf {
			switch {
			case rd.ignorable(r), rd.format(r), arabicMark(r):
				continue
			case r == '’' || r == 'ʼ' || r == '‘':
				r = '\''
			case r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ':
				r = 'ا'
			}
		}
		if isSpace(r) {
			if prev >= 0x1100 && isCJK(prev) {
				if next, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(s[i:], unicode.IsSpace)); isCJK(next) {
					continue // 支 付 is 支付
				}
			}
			flush()
			pendingSpace = b.Len() > 0
			continue
		}
		if word >= 0 && prev >= 0 && isUpper(r) && isLower(prev) {
			flush()
			pendingSpace = true
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		if word < 0 {
			word = b.Len()
		}
		if r >= utf8.RuneSelf && mayLookAlike(r) {
			foreign = true
		}
		b.WriteRune(r)
		prev = r
	}
	flush()
	return b.String()
}

// foldWords is normLabel's reading of s, in NFKC, when look-alike letters are all that
// keeps it from being plain (Чай с молоком): each word that holds a letter beyond ASCII
// read by foldConfusable and unaccent, the rest left as it is. ok is false for any other
// s, which the steps of normLabel read.
func (rd *textReader) foldWords(s string) (string, bool) {
	looks := false
	var prev rune = -1
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return "", false // a byte that is not UTF-8 is written as U+FFFD
		case r == ' ':
			if prev == -1 || prev == ' ' || i == len(s)-1 {
				return "", false
			}
			if prev >= 0x1100 && isCJK(prev) {
				if next, _ := utf8.DecodeRuneInString(s[i+1:]); isCJK(next) {
					return "", false
				}
			}
		case r < utf8.RuneSelf:
			if r < ' ' || r >= 'A' && r <= 'Z' && isLower(prev) {
				return "", false
			}
		case r == '’' || r == 'ʼ' || r == '‘' || isSpace(r) || rd.format(r) || rd.ignorable(r):
			return "", false
		case r >= 0x0622 && r <= 0x0671 && (arabicMark(r) || r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ'):
			return "", false
		case r == 'ँ' || r == 'य' && hindiYa(prev, s[i+len("य"):]):
			return "", false
		case isUpper(r) && isLower(prev):
			return "", false
		case mayLookAlike(r):
			looks = looks || r < 1<<16 && rd.lookAlikeSet[r/64]&(1<<(r%64)) != 0
		}
		prev = r
	}
	if !looks {
		return "", false
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], ' ')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		w := s[start:end]
		if strings.ContainsFunc(w, func(r rune) bool { return r >= utf8.RuneSelf && mayLookAlike(r) }) {
			f := rd.unaccent(rd.foldConfusable(w))
			if f == "" {
				return "", false
			}
			if f != w {
				b.WriteString(s[done:start])
				b.WriteString(f)
				done = end
			}
		}
		start = end + 1
	}
	if done == 0 {
		return s, true
	}
	b.WriteString(s[done:])
	return b.String(), true
}

// hindiSpelling reads Hindi's two spellings of one word as one: ये and यी after a vowel
// as ए and ई (मिटायें is मिटाएं, लिये is लिए), and candrabindu as anusvara (हटाएँ is
// हटाएं), the spellings the Central Hindi Directorate's standard and most app catalogs
// use.
func hindiSpelling(s string) string {
	if !hindiVariant(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var prev rune = -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 'ँ' {
			r = 'ं'
		}
		if r == 'य' && hindiYa(prev, s[i+n:]) {
			switch next, m := utf8.DecodeRuneInString(s[i+n:]); next {
			case 'े':
				r, n = 'ए', n+m
			case 'ी':
				r, n = 'ई', n+m
			}
		}
		b.WriteRune(r)
		prev = r
		i += n
	}
	return b.String()
}

// hindiVariant reports whether hindiSpelling changes s.
func hindiVariant(s string) bool {
	if strings.IndexRune(s, 'ँ') >= 0 {
		return true
	}
	for i := strings.IndexRune(s, 'य'); i >= 0; {
		prev, _ := utf8.DecodeLastRuneInString(s[:i]) // RuneError at the start: no vowel
		rest := s[i+len("य"):]
		if hindiYa(prev, rest) {
			return true
		}
		j := strings.IndexRune(rest, 'य')
		if j < 0 {
			break
		}
		i += len("य") + j
	}
	return false
}

// hindiYa reports whether a य after prev, followed by rest, is the य of ये or यी after a
// vowel (an independent vowel or a vowel sign).
func hindiYa(prev rune, rest string) bool {
	if !(prev >= 0x0904 && prev <= 0x0914 || prev >= 0x093E && prev <= 0x094C) {
		return false
	}
	next, _ := utf8.DecodeRuneInString(rest)
	return next == 'े' || next == 'ी'
}

// arabicMark reports whether r is an Arabic short-vowel sign (ḥarakāt), shadda, sukūn,
// dagger alif or the tatweel that stretches a word: Arabic is mostly written without them,
// so normLabel drops them, and reads every hamza'd alif (أ إ آ ٱ) as ا — the usual way
// Arabic text is normalised for matching (إرسل and أرسل are one word).
func arabicMark(r rune) bool {
	return r >= 0x064B && r <= 0x0652 || r == 0x0670 || r == 0x0640
}

// plain reports whether normLabel leaves s (in NFKC) as it is: no format character, curly
// apostrophe, look-alike letter or camelCase, and single spaces between words, none of
// them between two Chinese, Japanese or Korean characters. Most labels are plain; they
// are returned without being copied. accent reports an accented Latin letter or a
// combining mark in s (see unaccent).
func (rd *textReader) plain(s string) (plain, accent bool) {
	var prev rune = -1
	for i, r := range s {
		if r >= 0xC0 && !accent && accented(r) {
			accent = true
		}
		switch {
		case r == ' ':
			if prev == -1 || prev == ' ' || i == len(s)-1 {
				return false, false
			}
			if prev >= 0x1100 && isCJK(prev) {
				if next, _ := utf8.DecodeRuneInString(s[i+1:]); isCJK(next) {
					return false, false
				}
			}
		case r < utf8.RuneSelf:
			if r < ' ' || r >= 'A' && r <= 'Z' && isLower(prev) {
				return false, false
			}
		case r == '’' || r == 'ʼ' || r == '‘' || isSpace(r) || rd.format(r) || rd.ignorable(r):
			return false, false
		case r >= 0x0622 && r <= 0x0671 && (arabicMark(r) || r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ'):
			return false, false
		case r == 'ँ' || r == 'य' && hindiYa(prev, s[i+len("य"):]):
			return false, false // hindiSpelling reads it otherwise
		case isUpper(r) && isLower(prev):
			return false, false
		case mayLookAlike(r):
			if r < 1<<16 && rd.lookAlikeSet[r/64]&(1<<(r%64)) != 0 {
				return false, false
			}
		}
		prev = r
	}
	return true, accent
}

// simple reports whether normLabel leaves s as it is, read in one pass: single spaces
// between words (none between two Chinese, Japanese or Korean characters), no control
// character, no camelCase, and every character beyond ASCII one of rd.simpleSet (a य
// not after a vowel before े or ी). It is what the steps of normLabel would find one by
// one (bidi controls, NFKC, plain without accents), for the labels of a crowded page
// that are ASCII but for a "·" or a word of a script without case.
func (rd *textReader) simple(s string) bool {
	var prev rune = -1
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ':
				if prev == -1 || prev == ' ' || i == len(s)-1 {
					return false
				}
				if prev >= 0x1100 && isCJK(prev) {
					if next, _ := utf8.DecodeRuneInString(s[i+1:]); isCJK(next) {
						return false
					}
				}
			case c < ' ' || c == 0x7F:
				return false
			case c >= 'A' && c <= 'Z' && prev >= 'a' && prev <= 'z':
				return false
			}
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= 1<<16 || r == utf8.RuneError && n == 1 || rd.simpleSet[r/64]&(1<<(r%64)) == 0 ||
			r == 'य' && hindiYa(prev, s[i+n:]) {
			return false
		}
		prev = r
		i += n
	}
	return true
}

// normASCII is normLabel for a label of printable ASCII, which needs no Unicode tables:
// camelCase split and spaces collapsed. A crowded page is mostly such labels.
func normASCII(s string) (string, bool) {
	clean := true // already one space between words, no camelCase
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf || (c < ' ' && c != '\t' && c != '\n' && c != '\r'):
			return "", false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' '), c == '\t', c == '\n', c == '\r':
			clean = false
		case c >= 'A' && c <= 'Z' && i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z':
			clean = false
		}
	}
	if clean {
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = b.Len() > 0
			continue
		}
		if space || (c >= 'A' && c <= 'Z' && i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z') {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// isSpace, isUpper and isLower are unicode's, with ASCII and the scripts without case
// or spaces answered without a table walk: normLabel asks them of every character.
func isSpace(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r == ' ' || r >= '\t' && r <= '\r'
	case r < 0x1680:
		return r == 0x85 || r == 0xA0
	}
	return unicode.IsSpace(r)
}

func isUpper(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r >= 'A' && r <= 'Z'
	case r >= 0x0590 && r < 0x10A0, r >= 0x3000 && r < 0xA640, r >= 0xAC00 && r < 0xD7B0:
		return false // Hebrew, Arabic, Indic, Thai, …; CJK; Hangul: no case
	case r < 1<<16:
		return upperSet[r/64]&(1<<(r%64)) != 0
	}
	return unicode.IsUpper(r)
}

func isLower(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r >= 'a' && r <= 'z'
	case r >= 0x0590 && r < 0x10A0, r >= 0x3000 && r < 0xA640, r >= 0xAC00 && r < 0xD7B0:
		return false
	case r < 1<<16:
		return lowerSet[r/64]&(1<<(r%64)) != 0
	}
	return unicode.IsLower(r)
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// foldConfusable reads the look-alike letters of a word as the ASCII letters they imitate,
// by the skeletons of Unicode's confusables data (UTS #39): when the word mixes ASCII
// letters with look-alikes (Pаy, Pɑy), or every letter of it imitates an ASCII one (Рау
// in Cyrillic). A word of its own script stays as it is (Оплатить is Russian, gửi is
// Vietnamese). Keywords go through the same folding, so both sides read alike.
func (rd *textReader) foldConfusable(w string) string {
	ascii, foreign, mappable := false, 0, 0
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf:
			ascii = ascii || unicode.IsLetter(r)
		case rd.letterOrMn(r):
			foreign++
			if r < 1<<16 && rd.lookAlikeSet[r/64]&(1<<(r%64)) != 0 {
				mappable++
			} else if _, ok := rd.lookAlike[r]; ok && r >= 1<<16 {
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
			if a, ok := rd.lookAlike[r]; ok {
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
var lookAlikeScripts = []*unicode.RangeTable{
	unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee,
	unicode.Coptic, unicode.Lisu, unicode.Georgian, unicode.Common, unicode.Inherited,
}

// mayLookAlike reports whether r lies in a block whose letters may pass for Latin ones
// (Latin extensions, IPA, Greek, Cyrillic, Armenian, Georgian, Cherokee, Lisu, Coptic):
// a range test, so words of other scripts (Han, Thai, Arabic, Devanagari, …) skip the
// confusables lookup without a table walk per letter.
func mayLookAlike(r rune) bool {
	switch {
	case r < 0x0590, r >= 0x10A0 && r <= 0x10FF, r >= 0x13A0 && r <= 0x13FF, r >= 0x1D00 && r <= 0x1FFF,
		r >= 0x2C00 && r <= 0x2DFF, r >= 0xA4D0 && r <= 0xA4FF, r >= 0xA640 && r <= 0xA7FF, r >= 0xAB30 && r <= 0xABBF:
		return true
	}
	return false
}

// hasWordy reports whether s holds a letter or a digit.
func hasWordy(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

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
