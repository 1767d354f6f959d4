package guard

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/fairy-go/fairy/perception"
)

// match returns the first rule el trips, judged by its labels and resource id. A word
// that only names something ("Transfer history", "Tip of the day", "Remove filter", a
// label that starts with View) trips nothing; a send with an amount of money in its label
// is a transfer ("Send $20 to Alex").
func (g *Guard) match(el *perception.Element, cache labelCache) (compiledRule, bool) {
	if el == nil {
		return compiledRule{}, false
	}
	hits, money := g.wordHits(el, cache)
	return g.ruleOf(hits|g.idHits(el, cache), money)
}

// matchOn is match for el on screen s: the texts a record row (isRecordRow) shows are the
// record's, not an action; its resource id counts, and so does a content description of
// its own, which is the app's word for what the row does ("Call Mobile +1 415-555-0100"
// on a phone number's row). On a page whose structure says it pays, sends or deletes, a
// row's texts count as before: a payment sheet's "Pay with PayPal" row may be how it pays.
func (g *Guard) matchOn(el *perception.Element, s *perception.Screen, info *pageInfo) (compiledRule, bool) {
	var cache labelCache
	if info != nil {
		cache = info.texts
	}
	var r compiledRule
	var ok bool
	if w, found := info.wordsOf(s, el); found {
		r, ok = g.ruleOf(w.hits|g.idHits(el, cache), w.money) // match, read with the page
	} else {
		r, ok = g.match(el, cache)
	}
	if ok && s != nil && !g.page(s).strong && g.isRecordRow(el, s) {
		_, money := g.wordHits(el, cache)
		hits := g.idHits(el, cache)
		if d := el.Desc; d != "" && d != el.Text && !slices.Contains(el.Texts, d) {
			hits |= g.read(cache, d).hits
		}
		return g.ruleOf(hits, money)
	}
	return r, ok
}

// wordHits are the rules el's labels and texts trip (bit i: rule i), and whether they show
// an amount of money.
func (g *Guard) wordHits(el *perception.Element, cache labelCache) (hits uint64, money bool) {
	var seen [6]string
	own := [3]string{el.Label, el.Text, el.Desc}
	for i := range len(own) + len(el.Texts) {
		t := ""
		if i < len(own) {
			t = own[i]
		} else {
			t = el.Texts[i-len(own)]
		}
		if t == "" || slices.Contains(seen[:], t) {
			continue
		}
		seen[i%len(seen)] = t
		rt := g.read(cache, t)
		hits |= rt.hits
		money = money || rt.money
	}
	return hits, money
}

// idHits are the rules el's resource id trips, by its words (sender_name_settings holds
// no "send") and by the rules' id patterns.
func (g *Guard) idHits(el *perception.Element, cache labelCache) uint64 {
	if el.ResourceID == "" {
		return 0
	}
	return g.read(cache, idKey+el.ResourceID).hits
}

// ruleOf is the first rule of hits; a send that shows money is a transfer.
func (g *Guard) ruleOf(hits uint64, money bool) (compiledRule, bool) {
	if hits == 0 {
		return compiledRule{}, false // most elements trip nothing: no rule is copied
	}
	for i := range g.rules {
		if hits&(1<<i) == 0 {
			continue
		}
		if r := &g.rules[i]; r.Category == "send" && money {
			if t, ok := g.rule("transfer"); ok {
				return t, true
			}
		}
		return g.rules[i], true
	}
	return compiledRule{}, false
}

// hitsOf are the rules text t trips (bit i for rule i) as the action — not inside one of
// the rule's exceptions ("Don't allow"), not after a word that only shows ("View purchase
// history"), and not used as a name — and, for a resource id (id set), the rules whose id
// patterns match it; slide reports whether t says to slide or swipe. The text is looked
// up once in the guard's lexicon, which holds every rule's words and exceptions, the
// lead words and the slider words.
func (g *Guard) hitsOf(t guardText, id string) (hits uint64, slide bool, page pageHits) {
	type found struct {
		rule int
		at   span
	}
	var wordBuf, exceptBuf [8]found
	words, excepts := wordBuf[:0], exceptBuf[:0]
	lead := false
	var clears, cancels []span
	g.lexicon.find(t, func(id int, at span) {
		switch r := id & 0xff; id >> 8 {
		case lexWord:
			words = append(words, found{r, at})
		case lexExcept:
			excepts = append(excepts, found{r, at})
		case lexLead:
			lead = lead || at.start == 0
		case lexSlide:
			slide = true
		case lexClear:
			clears = append(clears, at)
		case lexPage:
			page.add(r)
		case lexCancel:
			cancels = append(cancels, at)
		}
	})
	for i, tk := range t.toks {
		// A form of a word of minStemWord letters has at least minStemWord-2 of them; the
		// words of scripts without spaces have no stems.
		if tk.end-tk.start < minStemWord-2 || utf8.RuneCountInString(t.s[tk.start:tk.end]) < minStemWord-2 || g.whole[t.tok(i)] {
			continue // "Subscribers", "Public": a word read only as itself
		}
		within := func(sp span) bool { return sp.start <= tk.start && tk.end <= sp.end }
		if r, _ := utf8.DecodeRuneInString(t.s[tk.start:]); r >= 0x0E00 && spaceless(r) ||
			slices.ContainsFunc(words, func(w found) bool { return within(w.at) }) || slices.ContainsFunc(clears, within) {
			// A Clear is judged by what it clears (Italian cancella, a form of cancellare
			// too: Cancella cache deletes nothing).
			continue
		}
		// An inflected form of a rule's word, unless it is more a form of one of the
		// rule's exceptions, sharing more letters with it (Greek αποστολέα, the sender, is
		// of αποστολέας, not αποστολή; Spanish eliminados of eliminado, not eliminar); a
		// form as much of both is the word's (Italian cancella, delete, of cancellare and
		// of the name cancellato, deleted).
		type stemHit struct{ rule, common int }
		var buf [8]stemHit
		hs := buf[:0]
		g.wordStems.findStem(t.tok(i), func(r, n int) { hs = append(hs, stemHit{r, n}) })
		if len(hs) == 0 {
			continue
		}
		g.exceptStems.findStem(t.tok(i), func(r, n int) {
			for j := range hs {
				if hs[j].rule == r && n > hs[j].common {
					hs[j].rule = -1
				}
			}
		})
		var stemHits uint64
		for _, h := range hs {
			if h.rule >= 0 && stemHits&(1<<h.rule) == 0 {
				stemHits |= 1 << h.rule
				words = append(words, found{h.rule, tk})
			}
		}
	}
	if len(clears) > 0 && g.deleteRule >= 0 && !(lead && clears[0].start > 0) {
		// "Clear messages", "Berichten wissen": a Clear with data deletes it. The span is
		// the verb and the data word, so a view's state after them clears it ("Clear
		// all filters").
		if d, ok := g.dataIn(t, clears[0]); ok {
			at := span{min(clears[0].start, d.start), max(clears[0].end, d.end)}
			if !g.named(t, at) {
				hits |= 1 << g.deleteRule
			}
		}
	}
	if len(cancels) > 0 && g.deleteRule >= 0 && !(lead && cancels[0].start > 0) {
		// "إلغاء الرسالة", "Скасаваць ліст": cancelling a message is discarding it. A
		// Cancel deletes only with what is being written right beside it; alone, or
		// beside anything else ("Cancel download"), it leaves.
		if d, ok := g.composedBeside(t, cancels[0]); ok && !g.named(t, span{min(cancels[0].start, d.start), max(cancels[0].end, d.end)}) {
			hits |= 1 << g.deleteRule
		}
	}
words:
	for _, w := range words {
		if hits&(1<<w.rule) != 0 {
			continue
		}
		for _, e := range excepts {
			if e.rule == w.rule && e.at.start <= w.at.start && w.at.end <= e.at.end {
				continue words
			}
		}
		if lead && w.at.start > 0 {
			continue // "View purchase history" shows, it does not buy
		}
		if g.named(t, w.at) {
			continue
		}
		hits |= 1 << w.rule
	}
	if id != "" {
		for i, r := range g.rules {
			for _, re := range r.ids {
				if re.MatchString(id) {
					hits |= 1 << i
				}
			}
		}
	}
	return hits, slide, page
}

// What a phrase of the guard's lexicon is: lexWord<<8|i is a word of rule i, and so on.
const (
	lexWord = iota
	lexExcept
	lexLead
	lexSlide
	lexClear
	lexPage
	lexCancel
)

// pageHits are the rules whose page words a text holds (bit i: rule i), and whose strong
// page words it holds.
type pageHits struct{ any, strong uint64 }

// add records page word id of the lexicon (2i: rule i's, 2i+1: a strong one of rule i).
func (p *pageHits) add(id int) {
	if id%2 == 0 {
		p.any |= 1 << (id / 2)
	} else {
		p.strong |= 1 << (id / 2)
	}
}

// pageHitsOf are the page words of t alone (a page's context line).
func (g *Guard) pageHitsOf(t guardText) pageHits {
	var p pageHits
	g.lexicon.find(t, func(id int, _ span) {
		if id>>8 == lexPage {
			p.add(id & 0xff)
		}
	})
	return p
}

// maxGuardRules is the most rules a policy may have (a rule is a bit of a uint64).
const maxGuardRules = 64

// named reports whether the sensitive word at span at of t names a thing rather than the
// action: a finished action (a Done marker against it: 已发送, Đã gửi); a noun-like word
// followed by a noun or preceded by a determiner ("Transfer history", "Tip of the day",
// "Share this tip"), or any word followed by the state of a view ("Remove filter", "Reset
// zoom").
func (g *Guard) named(t guardText, at span) bool {
	next := t.tokenAt(at.end)
	prev := t.tokenAt(at.start) - 1
	word := guardText{s: t.s[at.start:at.end]}
	word.toks = []span{{0, len(word.s)}}
	nextHas := func(p *phraseSet) bool {
		if next >= len(t.toks) {
			return false
		}
		found := false
		p.find(t, func(_ int, sp span) { found = found || sp.start == t.toks[next].start })
		return found
	}
	// The state of a view right after the word ("Remove filter", 移除星标), or right
	// before it in a label of two words, where the object comes first ("Ster verwijderen",
	// 별표 삭제).
	finished := false // 已发送, 送信済み, Đã gửi
	g.done.find(t, func(_ int, sp span) {
		finished = finished || strings.TrimSpace(t.s[min(sp.end, at.start):at.start]) == "" && sp.end <= at.start ||
			sp.start >= at.end && strings.TrimSpace(t.s[at.end:sp.start]) == ""
	})
	if finished {
		return true
	}
	viewState := markGlyph(t.s[at.end:]) // "Odebrat ☆"
	g.objects.find(t, func(_ int, sp span) {
		gapAfter := strings.TrimSpace(t.s[at.end:max(sp.start, at.end)])
		gapBefore := strings.TrimSpace(t.s[min(sp.end, at.start):at.start])
		switch {
		case sp.start <= at.start && at.end < sp.end:
			viewState = true // a view's state learned with its verb (移除星號)
		case sp.start >= at.end && article(gapAfter):
			viewState = true
		case sp.end <= at.start && gapBefore == "" && len(t.toks) <= 2:
			viewState = true
		}
	})
	obj := next
	if obj < len(t.toks)-1 && t.toks[obj].start >= at.end && article(t.s[at.end:t.toks[obj+1].start]) {
		obj++ // "Supprimer l’étoile", "Dilemel ar steredenn": the article before the object
	}
	if !viewState && obj == len(t.toks)-1 && t.toks[obj].start >= at.end && article(t.s[at.end:t.toks[obj].start]) {
		// An inflected form of a view's state right after the word, ending the label
		// ("Usuń gwiazdkę"): the stems are of every language, so a form in the middle of a
		// longer label may be another language's word ("Удалить выбранные элементы").
		viewState = g.objectStems.has(t.tok(obj))
	}
	if !viewState && prev >= 0 && len(t.toks) <= 2 {
		viewState = g.objectStems.has(t.tok(prev)) // "Yıldızı kaldır"
	}
	if viewState {
		return true
	}
	if !g.nounable.has(word) || len(g.newGuardText(word.s).toks) != 1 {
		return false
	}
	if nextHas(g.nouns) {
		return true
	}
	if prev >= 0 {
		found := false
		g.before.find(t, func(_ int, sp span) { found = found || sp.end == t.toks[prev].end })
		return found
	}
	return false
}

// article reports whether gap, the text between a word and the next, is nothing or one
// short word with its punctuation: an article or a preposition ("l’", "ar", "a", "de").
func article(gap string) bool {
	gap = strings.TrimSpace(gap)
	if gap == "" {
		return true
	}
	n := 0
	for _, r := range gap {
		switch {
		case unicode.IsLetter(r):
			n++
		case unicode.IsSpace(r) || r == '\'' || r == '’' || r == '-':
		default:
			return false
		}
	}
	return n <= 2 && !strings.ContainsFunc(strings.TrimSpace(strings.TrimRight(gap, "'’- ")), unicode.IsSpace)
}

// markGlyph reports whether rest, what a label holds after its verb, is only a mark's
// glyph: a star or a heart is the state of a view, like the word ("Odebrat ☆").
func markGlyph(rest string) bool {
	rest = strings.TrimSpace(rest)
	return rest != "" && strings.Trim(rest, "☆★⭐♡♥❤\ufe0f ") == ""
}

// idWords is a resource id's own name as words: "com.app:id/sender_name_settings" is
// "sender name settings", "payNowButton" is "pay Now Button".
func idWords(id string) string {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return idSeparators.Replace(id)
}

var idSeparators = strings.NewReplacer("_", " ", "-", " ", ".", " ")

// generic reports whether el is a generic confirm on a page of rule r: its whole label is
// confirm words, amounts and the page's own words (OK, 确定, "Yes, continue", "Confirm
// ¥18.00", "Confirm transaction" on a payment page), or it is a button or icon with no
// label at all; and it is not a way out (Cancel, Close, a back arrow).
func (g *Guard) generic(el *perception.Element, r *compiledRule) bool {
	if el.Editable || el.Scrollable || el.Checkable {
		return false
	}
	own := g.ownLabel(el)
	if g.dismisses(el, own) {
		return false
	}
	if own == "" {
		return el.Clickable || el.LongClickable
	}
	t := g.newGuardText(g.withoutAmounts(own))
	var covered []span
	hit := false
	g.confirm.find(t, func(_ int, at span) { covered, hit = append(covered, at), true })
	if r != nil && hit {
		r.page.find(t, func(_ int, at span) { covered = append(covered, at) })
		r.words.find(t, func(_ int, at span) { covered = append(covered, at) })
	}
	return hit && t.covered(covered)
}

// ownLabel is the label the app gave el ("" for none, a symbol, or fairy's caption).
func (g *Guard) ownLabel(el *perception.Element) string {
	own := ""
	for _, t := range []string{el.Text, el.Desc, el.Label} {
		if own = strings.TrimSpace(g.normLabel(t)); own != "" {
			break
		}
	}
	if el.Text == "" && el.Desc == "" && el.Label == el.Caption {
		own = "" // an icon caption is fairy's guess, not the app's word
	}
	if !hasWordy(own) {
		own = "" // ✓, →, »: a symbol is no label
	}
	return own
}

// dismisses reports whether el is a way out: Cancel, Close, a back arrow.
func (g *Guard) dismisses(el *perception.Element, own string) bool {
	if own != "" && g.dismiss.has(g.newGuardText(own)) {
		return true
	}
	id := idWords(el.ResourceID)
	return id != "" && g.dismiss.has(g.newGuardText(id))
}

// dataIn finds a data word in t (Data, or an inflected form of one) apart from the verb:
// a word both generated lists hold (Mongolian түүхийг) is not a Clear and its data at once.
func (g *Guard) dataIn(t guardText, verb span) (span, bool) {
	apart := func(sp span) bool { return sp.end <= verb.start || sp.start >= verb.end }
	var at span
	found := false
	g.data.find(t, func(_ int, sp span) {
		if !found && apart(sp) {
			at, found = sp, true
		}
	})
	if found {
		return at, true
	}
	for _, tk := range t.toks {
		// A view's state word itself is no form of a data word ("selection" is not of
		// Dutch selectie, selected items: Clear selection deletes nothing).
		if apart(tk) && g.dataStems.has(t.s[tk.start:tk.end]) && !g.objects.has(guardText{s: t.s[tk.start:tk.end], toks: []span{{0, tk.end - tk.start}}}) {
			return tk, true
		}
	}
	return span{}, false
}

// composedBeside finds a compose word (Compose, or an inflected form of one) that is the
// token right after the span at, or after an article, or the token right before it.
func (g *Guard) composedBeside(t guardText, at span) (span, bool) {
	next, prev := t.tokenAt(at.end), t.tokenAt(at.start)-1
	var cands []int
	if next < len(t.toks) && t.toks[next].start >= at.end {
		cands = append(cands, next)
		if next+1 < len(t.toks) && article(t.s[at.end:t.toks[next+1].start]) {
			cands = append(cands, next+1) // "Annuler le message"
		}
	}
	if prev >= 0 {
		cands = append(cands, prev) // "მესიჯის გაუქმება": the object first
	}
	for _, i := range cands {
		tk := t.toks[i]
		found := g.composeStems.has(t.s[tk.start:tk.end])
		g.compose.find(t, func(_ int, sp span) { found = found || sp.start == tk.start && sp.end >= tk.end })
		if found {
			return tk, true
		}
	}
	return span{}, false
}

// stemSet finds the inflected forms of words written with spaces: a token is a form of a
// word of five letters or more when it starts with the word cut by its last two letters
// and is at most four letters longer than that stem (Polish gwiazdka: gwiazdkę, Serbian
// звездица: звездицу); a word of four letters is matched whole. Both are compared after
// stemFold. Words of scripts without spaces are left to their phrase sets.
type stemSet map[string][]stemEntry // first four letters → stems; "="+word → a word of four

type stemEntry struct {
	stem, word string // the word after stemFold, and its stem
	id         int    // what the word stands for (a rule's index, …)
}

// stems builds the stemSet of words (single words only).
func (g *Guard) stems(words []string) stemSet {
	set := stemSet{}
	for _, w := range words {
		g.addStem(set, w, 0, 4)
	}
	return set
}

// addStem adds word w standing for id to set (a phrase of more than one word, or of a
// script without spaces, is left out); minRunes is the shortest word added.
func (g *Guard) addStem(set stemSet, w string, id, minRunes int) {
	t := g.newGuardText(w)
	if len(t.toks) != 1 || strings.ContainsFunc(t.s, spaceless) {
		return
	}
	rs := []rune(stemFold(t.s))
	if len(rs) < minRunes {
		return
	}
	if len(rs) == 4 {
		// A short word counts as itself only, after stemFold (النجمة).
		if e := (stemEntry{string(rs), string(rs), id}); !slices.Contains(set["="+e.stem], e) {
			set["="+e.stem] = append(set["="+e.stem], e)
		}
	}
	if len(rs) < 5 {
		return
	}
	e := stemEntry{string(rs[:max(4, len(rs)-2)]), string(rs), id}
	head := string(rs[:4])
	if !slices.Contains(set[head], e) {
		set[head] = append(set[head], e)
	}
}

// has reports whether tok (lower-cased) is a form of one of the set's words.
func (s stemSet) has(tok string) bool {
	found := false
	s.find(tok, func(int) { found = true })
	return found
}

// find calls fn with the id of every word of the set tok (lower-cased) is a form of.
func (s stemSet) find(tok string, fn func(id int)) {
	s.findStem(tok, func(id, _ int) { fn(id) })
}

// findStem is find that also gives how many letters tok has in common with the word, from
// its start.
func (s stemSet) findStem(tok string, fn func(id, common int)) {
	if len(s) == 0 {
		return
	}
	tok = stemFold(tok)
	n, cut := 0, -1
	for i := range tok {
		if n == 4 {
			cut = i
			break
		}
		n++
	}
	if cut < 0 {
		if n == 4 {
			for _, e := range s["="+tok] {
				fn(e.id, 4)
			}
		}
		return
	}
	for _, e := range s[tok[:cut]] {
		if strings.HasPrefix(tok, e.stem) && utf8.RuneCountInString(tok[len(e.stem):]) <= 4 {
			fn(e.id, commonPrefix(tok, e.word))
		}
	}
}

// commonPrefix is how many letters a and b have in common from their start.
func commonPrefix(a, b string) int {
	n := 0
	for a != "" && b != "" {
		ra, la := utf8.DecodeRuneInString(a)
		rb, lb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		a, b, n = a[la:], b[lb:], n+1
	}
	return n
}

// stemFold is a word as its stem is compared: Greek without its accents, which move as a
// word inflects (αστέρι, αστεριού), and Arabic without the article ال written into the
// word (النجمة is the نجمة).
func stemFold(w string) string {
	if strings.HasPrefix(w, "ال") && utf8.RuneCountInString(w) > 4 {
		w = w[len("ال"):]
	}
	for _, r := range w {
		if r >= 0x0370 && r < 0x0400 || r >= 0x1F00 && r < 0x2000 {
			var b strings.Builder
			for _, r := range norm.NFD.String(w) {
				if !unicode.Is(unicode.Mn, r) {
					b.WriteRune(r)
				}
			}
			return b.String()
		}
	}
	return w
}
