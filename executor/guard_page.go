package executor

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// sliderWords mark a control that acts when dragged.
var sliderWords = regexp.MustCompile(`(?i)\b(slide|swipe)\b|滑动|滑块|スライド|deslizar|wischen|schieben|glisser|сдвиньте|밀어`)

// isSlider reports whether el acts when dragged: a seek bar or slider, or a control that
// says to slide or swipe.
func isSlider(el *perception.Element) bool {
	c := strings.ToLower(el.Class)
	return strings.Contains(c, "seekbar") || strings.Contains(c, "slider") || sliderWords.MatchString(normLabel(label(el)))
}

// elementAt is the smallest element of s whose bounds hold (x, y).
func elementAt(s *perception.Screen, x, y int) *perception.Element {
	var best *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		b := e.Bounds
		if x < b.X1 || x >= b.X2 || y < b.Y1 || y >= b.Y2 {
			continue
		}
		if best == nil || (b.X2-b.X1)*(b.Y2-b.Y1) < (best.Bounds.X2-best.Bounds.X1)*(best.Bounds.Y2-best.Bounds.Y1) {
			best = e
		}
	}
	return best
}

// pageInfo is what the guard works out about a page once: its category, whether its
// structure makes its primary action sensitive whatever the label, and where that action is.
type pageInfo struct {
	rule   compiledRule
	ok     bool // the page has a category: generic confirms on it take it
	strong bool // the page pays, sends or deletes: its primary action is held whatever its label
	// bottom is the index of the lowest button on the page (0: none).
	bottom int
	// selection: the page shows a list with selected items.
	selection bool
	// bands index the elements by the horizontal bands of bandHeight pixels they cover,
	// so finding what is drawn at a point costs a band's elements, not the page's.
	bands map[int][]int
}

// maxDialogActions is the most actions a dialog offers.
const maxDialogActions = 5

// bandHeight is the height of a band of the page's element index, in pixels.
const bandHeight = 64

// at is the smallest element of s whose bounds hold (x, y), found through the page's
// bands; it is elementAt's answer.
func (info pageInfo) at(s *perception.Screen, x, y int) *perception.Element {
	var best *perception.Element
	for _, i := range info.bands[y/bandHeight] {
		e := &s.Elements[i]
		b := e.Bounds
		if x < b.X1 || x >= b.X2 || y < b.Y1 || y >= b.Y2 {
			continue
		}
		if best == nil || (b.X2-b.X1)*(b.Y2-b.Y1) < (best.Bounds.X2-best.Bounds.X1)*(best.Bounds.Y2-best.Bounds.Y1) {
			best = e
		}
	}
	return best
}

// page is s's pageInfo. A screen is judged many times (every element of it for Offers and
// submit): its page is worked out once.
func (g *Guard) page(s *perception.Screen) pageInfo {
	g.mu.Lock()
	if g.lastPage == s {
		info := g.lastInfo
		g.mu.Unlock()
		return info
	}
	g.mu.Unlock()
	info := g.pageOf(s)
	g.mu.Lock()
	g.lastPage, g.lastInfo = s, info
	g.mu.Unlock()
	return info
}

// pageOf works out what s is for from its structure and its own text (static texts and
// the texts inside elements, never the labels of buttons):
//   - money: an amount in any currency and locale format; with a password or PIN field,
//     a page word that is not a mere total (payment, card, IBAN, 收银台), or the
//     category's own action words in the page's text (a title "Confirm payment"), the page
//     pays, transfers or orders;
//   - a text field that is not a search, with a recipient (a field or text naming the
//     receiver, a send page word): the page composes something to send;
//   - the delete rule's page words ("Delete 3 items?", "cannot be undone"): it deletes;
//   - checked items in a list: a selection, on which a label-less action deletes.
func (g *Guard) pageOf(s *perception.Screen) pageInfo {
	var texts []guardText
	money, password := false, false
	for _, t := range s.Context {
		n := normLabel(t)
		texts = append(texts, newGuardText(n))
		money = money || hasAmount(n)
	}
	info := pageInfo{bands: map[int][]int{}}
	bottomY, checked, checkables, actions := -1, 0, 0, 0
	list := false
	compose := false
	var fields []guardText
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Bounds.Y2 > e.Bounds.Y1 {
			for b := max(e.Bounds.Y1, 0) / bandHeight; b <= (e.Bounds.Y2-1)/bandHeight && b < max(e.Bounds.Y1, 0)/bandHeight+1000; b++ {
				info.bands[b] = append(info.bands[b], i)
			}
		}
		for _, t := range e.Texts {
			n := normLabel(t)
			texts = append(texts, newGuardText(n))
			money = money || hasAmount(n)
		}
		money = money || hasAmount(normLabel(e.Label))
		password = password || e.Password
		if e.Editable && !e.Password && !g.searchField(e) {
			compose = true
			for _, t := range []string{e.Hint, e.Desc, idWords(e.ResourceID)} {
				if t != "" {
					fields = append(fields, newGuardText(t))
				}
			}
		}
		if e.Checkable && !strings.Contains(e.Class, "Switch") {
			checkables++
			if e.Checked {
				checked++
			}
		}
		if e.Clickable || e.LongClickable {
			actions++
		}
		list = list || e.Scrollable
		if buttonLike(e) && e.Bounds.Y2 > bottomY {
			bottomY, info.bottom = e.Bounds.Y2, e.Index
		}
	}
	info.selection = checkables >= 2 && checked >= 1
	for _, r := range g.rules {
		if r.Amount && !money {
			continue
		}
		found, strong := false, false
		if r.Amount && password {
			found, strong = true, true // a password or PIN asked on a page that shows an amount
		}
		// Without money, page words make the page one that deletes or sends only on a
		// dialog ("Delete 3 items? This cannot be undone."): in a list or a long page they
		// may be anyone's words ("I deleted the file").
		dialog := r.Amount || (!list && actions <= maxDialogActions)
		for _, t := range texts {
			if !found && r.page.has(t) {
				found = true
			}
			if dialog && r.strong.has(t) {
				found, strong = true, true
				break
			}
		}
		if !strong && r.Category == "send" && compose {
			// A compose field with a recipient: a field for the receiver, or a field
			// that names one.
			for _, f := range fields {
				if r.page.has(f) || recipientField(f) {
					found, strong = true, true
				}
			}
		}
		if found {
			info.rule, info.ok, info.strong = r, true, strong
			return info
		}
	}
	return info
}

// recipientField reports whether a field's hint or id names a receiver: To, Recipient, a
// phone number or an address, in the words of Android's own compose screens.
func recipientField(f guardText) bool {
	for i := range f.toks {
		switch f.tok(i) {
		case "to", "recipient", "recipients", "cc", "bcc", "phone", "number", "email":
			return true
		}
	}
	return false
}

// buttonLike reports whether e is drawn as a button: a Button, ImageButton, floating
// action button, or a slider.
func buttonLike(e *perception.Element) bool {
	if e.Editable || e.Checkable || e.Scrollable || !(e.Clickable || e.LongClickable || isSlider(e)) {
		return false
	}
	return strings.Contains(e.Class, "Button") || isFAB(e) || isSlider(e)
}

// isFAB reports whether e is a floating action button.
func isFAB(e *perception.Element) bool {
	if strings.Contains(e.Class, "FloatingActionButton") {
		return true
	}
	for _, w := range strings.Fields(strings.ToLower(idWords(e.ResourceID))) {
		if w == "fab" {
			return true
		}
	}
	return false
}

// primary reports whether el is the primary action of s: a slider, a floating action
// button, a label-less or symbol button, or the bottom button when its label holds no
// word the guard knows (a language beyond its vocabulary). Ways out never are.
func (g *Guard) primary(el *perception.Element, s *perception.Screen, info pageInfo) bool {
	if el.Editable || el.Checkable || el.Scrollable {
		return false
	}
	own := g.ownLabel(el)
	if g.dismisses(el, own) {
		return false
	}
	switch {
	case isSlider(el), isFAB(el):
		return true
	case own == "":
		return el.Clickable || el.LongClickable
	case el.Index == info.bottom:
		return !g.knows(newGuardText(withoutAmounts(own)), &info.rule)
	}
	return false
}

// knows reports whether t holds a word the guard knows other than the words of rule r
// (a bottom button "ยืนยันการชำระเงิน" on a payment page holds only a payment word: its
// verb is in no vocabulary; "Continue reading" holds a known confirm).
func (g *Guard) knows(t guardText, r *compiledRule) bool {
	var own []span
	r.page.find(t, func(_ int, at span) { own = append(own, at) })
	r.words.find(t, func(_ int, at span) { own = append(own, at) })
	known := false
	g.known.find(t, func(_ int, at span) {
		for _, o := range own {
			if o.start <= at.start && at.end <= o.end {
				return
			}
		}
		known = true
	})
	return known
}

// iconAction reports whether el is a label-less or symbol action (a toolbar icon).
func (g *Guard) iconAction(el *perception.Element) bool {
	if el.Editable || el.Checkable || el.Scrollable || !(el.Clickable || el.LongClickable) {
		return false
	}
	own := g.ownLabel(el)
	return own == "" && !g.dismisses(el, own)
}

// pageAmounts lists the amounts of money s shows, in reading order.
func pageAmounts(s *perception.Screen) string {
	var out []string
	add := func(t string) {
		n := normLabel(t)
		for _, a := range findAmounts(n) {
			out = append(out, strings.TrimSpace(n[a.start:a.end]))
		}
	}
	for _, t := range s.Context {
		add(t)
	}
	for i := range s.Elements {
		add(s.Elements[i].Label)
		for _, t := range s.Elements[i].Texts {
			add(t)
		}
	}
	return strings.Join(out, " ")
}
