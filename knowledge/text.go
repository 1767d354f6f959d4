package knowledge

import (
	"math"
	"strings"
	"unicode"
)

// Text relevance for trick retrieval and near-duplicate detection: texts become
// terms (see Terms), relevance is BM25 over the candidate tricks.

// terms splits text into index terms, in order and duplicates kept (for term
// frequency), the way trick search and near-duplicate detection see text; it is
// Tokenizer{}.Terms. Full-width ASCII is folded first. Runs of letters, digits
// and combining marks (Latin and other space-separated scripts) become lower-cased
// words: one-letter words other than digits and English stop words are dropped,
// an apostrophe ends the word ("Alice's" → "alice"), and the rest are lightly
// stemmed ("messages" → "message", "tapping" → "tap"). Runs of Han, kana or
// Hangul become overlapping character bigrams ("珍珠奶茶" → 珍珠 珠奶 奶茶), a lone
// character its unigram.
func terms(text string) []string { return Tokenizer{}.Terms(text) }

// A Tokenizer splits text into terms as Terms does, with a caller's own
// vocabulary on top. The zero value is Terms.
type Tokenizer struct {
	// Stop holds more words to drop besides the English stop words, lower-cased
	// and unstemmed (a word is checked before it is stemmed).
	Stop map[string]bool
	// Camel also ends a word where a lower-case letter meets an upper-case one,
	// so identifiers split into words ("wifiToggle" → wifi, toggle).
	Camel bool
}

// terms splits text into index terms (see the package function Terms).
func (tk Tokenizer) Terms(text string) []string {
	var out []string
	var word []rune
	var cjk []rune
	flushWord := func() {
		if len(word) == 0 {
			return
		}
		w := string(word)
		short := len(word) < 2 && !unicode.IsDigit(word[0])
		word = word[:0]
		if short || stopWords[w] || tk.Stop[w] {
			return
		}
		out = append(out, stem(w))
	}
	flushCJK := func() {
		switch len(cjk) {
		case 0:
			return
		case 1:
			out = append(out, string(cjk))
		default:
			for i := 0; i+1 < len(cjk); i++ {
				out = append(out, string(cjk[i:i+2]))
			}
		}
		cjk = cjk[:0]
	}
	skipTail := false // inside "'s" / "'t": drop the rest of the word
	var prev rune
	for _, r := range text {
		if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
			r -= 0xFEE0
		}
		switch {
		case isCJK(r):
			flushWord()
			skipTail = false
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			flushCJK()
			if tk.Camel && unicode.IsUpper(r) && unicode.IsLower(prev) {
				flushWord()
				skipTail = false
			}
			if !skipTail {
				word = append(word, unicode.ToLower(r))
			}
		case (r == '\'' || r == '’') && len(word) > 0:
			skipTail = true
		default:
			flushWord()
			flushCJK()
			skipTail = false
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

// stem is a light English suffix stripper: consistent rather than correct,
// since queries and tricks go through the same function.
func stem(w string) string {
	if !isASCII(w) {
		return w
	}
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		return undouble(w[:n-2])
	case n > 3 && strings.HasSuffix(w, "es") && strings.ContainsAny(w[n-3:n-2], "sxz"):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// undouble turns "tapp" (from "tapping") into "tap".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be
	because been before being below between both but by can could did do does doing down during each few
	for from further had has have having he her here hers herself him himself his how i if in into is it
	its itself just me more most my myself no nor not now of off on once only or other our ours ourselves
	out over own same she should so some such than that the their theirs them themselves then there these
	they this those through to too under until up very was we were what when where which while who whom
	why will with would you your yours yourself yourselves please then also via`) {
		m[w] = true
	}
	return m
}()

// termFreq counts terms.
func termFreq(ts []string) map[string]int {
	m := make(map[string]int, len(ts))
	for _, t := range ts {
		m[t]++
	}
	return m
}

// similarity is the cosine of two texts' term-frequency vectors (0..1).
func similarity(a, b map[string]int) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	var dot, na, nb float64
	for t, x := range a {
		na += float64(x * x)
		if y, ok := b[t]; ok {
			dot += float64(x * y)
		}
	}
	for _, y := range b {
		nb += float64(y * y)
	}
	return dot / math.Sqrt(na*nb)
}

// bm25 scores each document against the query; docs are term-frequency maps
// with their lengths.
type bm25Doc struct {
	tf  map[string]int
	len int
}

func bm25(query []string, docs []bm25Doc) []float64 {
	const k1, b = 1.2, 0.75
	scores := make([]float64, len(docs))
	if len(docs) == 0 || len(query) == 0 {
		return scores
	}
	var total int
	for _, d := range docs {
		total += d.len
	}
	avg := float64(total) / float64(len(docs))
	if avg == 0 {
		avg = 1
	}
	qtf := termFreq(query)
	n := float64(len(docs))
	for term := range qtf {
		df := 0
		for _, d := range docs {
			if d.tf[term] > 0 {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		for i, d := range docs {
			f := float64(d.tf[term])
			if f == 0 {
				continue
			}
			scores[i] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(d.len)/avg))
		}
	}
	return scores
}
