package executor

import (
	"slices"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// match returns the first rule el trips, judged by its labels and resource id. A word
// that only names something ("Transfer history", "Tip of the day", "Remove filter", a
// label that starts with View) trips nothing; a send with an amount of money in its label
// is a transfer ("Send $20 to Alex").
func (g *Guard) match(el *perception.Element) (compiledRule, bool) {
	if el == nil {
		return compiledRule{}, false
	}
	var buf [6]guardText
	texts := buf[:0]
	money := false
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
		n := normLabel(t)
		texts = append(texts, guardTextOf(n))
		money = money || hasAmount(n)
	}
	// A resource id matches by its words: sender_name_settings holds no "send".
	if id := idWords(el.ResourceID); id != "" {
		texts = append(texts, newGuardText(id))
	}
	var hitBuf [16]bool
	hit := hitBuf[:0]
	if len(g.rules) <= len(hitBuf) {
		hit = hitBuf[:len(g.rules)]
	} else {
		hit = make([]bool, len(g.rules))
	}
	for _, t := range texts {
		g.trips(t, hit)
	}
	for i, r := range g.rules {
		for _, re := range r.ids {
			if el.ResourceID != "" && re.MatchString(el.ResourceID) {
				hit[i] = true
			}
		}
		if !hit[i] {
			continue
		}
		if r.Category == "send" && money {
			if t, ok := g.rule("transfer"); ok {
				return t, true
			}
		}
		return r, true
	}
	return compiledRule{}, false
}

// trips marks in hit the rules whose words text t holds as the action: not inside one of
// the rule's exceptions ("Don't allow"), and not used as a name.
func (g *Guard) trips(t guardText, hit []bool) {
	if len(t.toks) == 0 {
		return
	}
	var except [][]span
	g.excepts.find(t, func(r int, at span) {
		if except == nil {
			except = make([][]span, len(g.rules))
		}
		except[r] = append(except[r], at)
	})
	lead := g.startsWith(g.lead, t)
	g.words.find(t, func(r int, at span) {
		if hit[r] {
			return
		}
		if except != nil {
			for _, e := range except[r] {
				if e.start <= at.start && at.end <= e.end {
					return
				}
			}
		}
		if lead && at.start > 0 {
			return // "View purchase history" shows, it does not buy
		}
		if g.named(t, at) {
			return
		}
		hit[r] = true
	})
}

// startsWith reports whether t begins with a phrase of p.
func (g *Guard) startsWith(p *phraseSet, t guardText) bool {
	found := false
	p.find(t, func(_ int, at span) { found = found || at.start == 0 })
	return found
}

// named reports whether the sensitive word at span at of t names a thing rather than the
// action: a noun-like word followed by a noun or preceded by a determiner ("Transfer
// history", "Tip of the day", "Share this tip"), or any word followed by the state of a
// view ("Remove filter", "Reset zoom").
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
	viewState := false
	g.objects.find(t, func(_ int, sp span) {
		gapAfter := strings.TrimSpace(t.s[at.end:max(sp.start, at.end)])
		gapBefore := strings.TrimSpace(t.s[min(sp.end, at.start):at.start])
		switch {
		case sp.start >= at.end && gapAfter == "":
			viewState = true
		case sp.end <= at.start && gapBefore == "" && len(t.toks) <= 2:
			viewState = true
		}
	})
	if viewState {
		return true
	}
	if !g.nounable.has(word) || len(newGuardText(word.s).toks) != 1 {
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
	t := newGuardText(withoutAmounts(own))
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
		if own = strings.TrimSpace(normLabel(t)); own != "" {
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
	if own != "" && g.dismiss.has(newGuardText(own)) {
		return true
	}
	id := idWords(el.ResourceID)
	return id != "" && g.dismiss.has(newGuardText(id))
}
