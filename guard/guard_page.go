package guard

import (
	"regexp"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// sliderWords mark a control that acts when dragged.
var sliderWords = []string{"slide", "swipe", "滑动", "滑块", "スライド", "deslizar", "wischen", "schieben", "glisser", "сдвиньте", "밀어"}

// labelCache is what the guard read in the labels of one screen: raw string (a resource
// id prefixed by idKey) → its normalised text, tokens and whether it shows an amount.
// pageOf fills it once per screen; it is only read after.
type labelCache map[string]*readLabel

type readLabel struct {
	t     guardText
	money bool
	hits  uint64 // the rules it trips: bit i for rule i (Guard.hitsOf)
	slide bool   // it says to slide or swipe
	page  pageHits
}

// idKey prefixes a resource id in a labelCache: it is read as its words (idWords).
const idKey = "\x00id:"

// read is raw as the guard reads it, from cache when the screen's page read it already.
func (g *Guard) read(cache labelCache, raw string) *readLabel {
	if r, ok := cache[raw]; ok {
		return r
	}
	r := g.readNew(raw)
	return &r
}

func (g *Guard) readNew(raw string) readLabel { return g.readInto(raw, nil) }

// readInto is readNew with the tokens appended to *arena (nil: a slice of their own).
func (g *Guard) readInto(raw string, arena *[]span) readLabel {
	if id, ok := strings.CutPrefix(raw, idKey); ok {
		t := g.newGuardText(idWords(id))
		hits, slide, _ := g.hitsOf(t, id)
		return readLabel{t: t, hits: hits, slide: slide}
	}
	n := g.normLabel(raw)
	var t guardText
	if arena == nil {
		t = g.guardTextOf(n)
	} else {
		t = g.guardTextIn(n, arena)
	}
	hits, slide, page := g.hitsOf(t, "")
	page.any |= g.moneyHits(n).any
	return readLabel{t: t, money: g.moneyText(n), hits: hits, slide: slide, page: page}
}

// isSlider reports whether el acts when dragged: a seek bar or slider, or a control that
// says to slide or swipe.
func (g *Guard) isSlider(el *perception.Element, cache labelCache) bool {
	c := el.Class
	if (strings.IndexByte(c, 'S') >= 0 || strings.IndexByte(c, 's') >= 0) &&
		(strings.Contains(c, "SeekBar") || strings.Contains(c, "Slider") || strings.Contains(c, "seekbar") || strings.Contains(c, "slider")) {
		return true
	}
	l := el.Name()
	switch {
	case el.Label == "" && el.Text == "" && el.Desc == "" && el.ResourceID == "":
		// No words of its own: only its role can say it slides (a thousand label-less
		// buttons of a crowded page are not read one by one).
		return el.Role == "slider"
	case l == el.ResourceID:
		l = idKey + l
	}
	return g.read(cache, l).slide
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
	// texts are the screen's labels as the guard reads them.
	texts labelCache
	// bands index the elements by the horizontal bands of bandHeight pixels they cover,
	// so finding what is drawn at a point costs a band's elements, not the page's.
	bands map[int][]int
	// rows are the page's rows alike, counted when first asked (isRecordRow).
	rows *recordRows
	// role is what the page is for by its structure (role.go).
	role roleInfo
	// words are the rules each element's labels and texts trip, by its place in the
	// screen's elements (wordHits, worked out once).
	words []elemWords
}

// elemWords are the rules an element's labels and texts trip (bit i: rule i), and whether
// they show an amount of money: wordHits.
type elemWords struct {
	hits  uint64
	money bool
}

func (w *elemWords) add(rt *readLabel) {
	w.hits |= rt.hits
	w.money = w.money || rt.money
}

// wordsOf is wordHits of el, when el is an element of s, the screen info is of.
func (info *pageInfo) wordsOf(s *perception.Screen, el *perception.Element) (elemWords, bool) {
	if info == nil || s == nil || el == nil {
		return elemWords{}, false
	}
	if i := el.Index - 1; i >= 0 && i < len(info.words) && i < len(s.Elements) && &s.Elements[i] == el {
		return info.words[i], true
	}
	return elemWords{}, false
}

// maxDialogActions is the most actions a dialog offers.
const maxDialogActions = 5

// bandHeight is the height of a band of the page's element index, in pixels.
const bandHeight = 64

// at is the smallest element of s whose bounds hold (x, y), found through the page's
// bands; it is elementAt's answer.
func (info *pageInfo) at(s *perception.Screen, x, y int) *perception.Element {
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
func (g *Guard) page(s *perception.Screen) *pageInfo {
	g.mu.Lock()
	if g.lastPage == s {
		info := g.lastInfo
		g.mu.Unlock()
		return info
	}
	g.mu.Unlock()
	info := new(pageInfo)
	*info = g.pageOf(s)
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
	// Every rule's page words are looked up in each of the page's texts once, with the
	// text's other words (readLabel.page).
	var hit pageHits
	pageText := func(p pageHits) { hit.any, hit.strong = hit.any|p.any, hit.strong|p.strong }
	var seen [4]*readLabel // the texts of the last element, by position
	money, password := false, false
	for _, t := range s.Context {
		n := g.normLabel(t)
		pageText(g.pageHitsOf(g.guardTextOf(n)))
		pageText(g.moneyHits(n))
		money = money || g.moneyText(n)
	}
	info := pageInfo{bands: map[int][]int{}, texts: make(labelCache, len(s.Elements)), rows: &recordRows{}}
	// The labels' readings are allocated in chunks: a crowded page has a thousand.
	var reads []readLabel
	var toks []span // the labels' tokens, in slabs
	readNew := func(raw string) *readLabel {
		if len(reads) == cap(reads) {
			reads = make([]readLabel, 0, 128)
		}
		reads = append(reads, g.readInto(raw, &toks))
		return &reads[len(reads)-1]
	}
	get := func(t string) *readLabel {
		rt, ok := info.texts[t]
		if !ok {
			rt = readNew(t)
			info.texts[t] = rt
		}
		return rt
	}
	// readAll reads e's texts, and gives the readings of its label and of its Texts (nil:
	// an empty one), so each is looked up once.
	var textsBuf []*readLabel
	info.words = make([]elemWords, len(s.Elements))
	readAll := func(e *perception.Element, w *elemWords) (label *readLabel, texts []*readLabel) {
		if e.Label != "" {
			label = get(e.Label)
			w.add(label)
		}
		for _, t := range [2]string{e.Text, e.Desc} {
			if t != "" && t != e.Label {
				w.add(get(t)) // an element's text is mostly its label too
			}
		}
		texts = textsBuf[:0]
		for _, t := range e.Texts {
			switch {
			case t == "":
				texts = append(texts, nil)
			case t == e.Label:
				texts = append(texts, label)
			default:
				rt := get(t)
				w.add(rt)
				texts = append(texts, rt)
			}
		}
		textsBuf = texts
		if id := idKey + e.ResourceID; e.ResourceID != "" && info.texts[id] == nil {
			info.texts[id] = readNew(id)
		}
		return label, texts
	}
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
		label, texts := readAll(e, &info.words[i])
		for j, rt := range texts {
			if rt == nil || (j < len(seen) && seen[j] == rt) {
				continue // "", or the same text as the last element's: "Add to cart" on every row
			}
			if j < len(seen) {
				seen[j] = rt
			}
			pageText(rt.page)
			money = money || rt.money
		}
		if label != nil {
			money = money || label.money
			if e.FromPicture {
				pageText(label.page) // read text is the page's text too
			}
		}
		password = password || e.Password
		if e.Editable && !e.Password && !g.searchField(e) {
			compose = true
			for _, t := range []string{e.Hint, e.Desc, idWords(e.ResourceID)} {
				if t != "" {
					fields = append(fields, g.newGuardText(t))
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
		if g.buttonLike(e, info.texts) && e.Bounds.Y2 > bottomY {
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
		if hit.any&(1<<r.index) != 0 {
			found = true
		}
		if dialog && hit.strong&(1<<r.index) != 0 {
			found, strong = true, true
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
			break
		}
	}
	g.applyRole(s, money, &info)
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
func (g *Guard) buttonLike(e *perception.Element, cache labelCache) bool {
	if e.Editable || e.Checkable || e.Scrollable {
		return false
	}
	// A FloatingActionButton's class holds "Button": isFAB's class test is this one's.
	if (e.Clickable || e.LongClickable) && (strings.Contains(e.Class, "Button") || fabID(e)) {
		return true
	}
	return g.isSlider(e, cache)
}

// isFAB reports whether e is a floating action button.
func isFAB(e *perception.Element) bool {
	return strings.Contains(e.Class, "FloatingActionButton") || fabID(e)
}

// fabID reports whether e's resource id has the word fab.
func fabID(e *perception.Element) bool {
	if e.ResourceID == "" {
		return false
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
func (g *Guard) primary(el *perception.Element, s *perception.Screen, info *pageInfo) bool {
	if el.Editable || el.Checkable || el.Scrollable {
		return false
	}
	own := g.ownLabel(el)
	if g.dismisses(el, own) {
		return false
	}
	switch {
	case g.isSlider(el, info.texts), isFAB(el):
		return true
	case own == "":
		return el.Clickable || el.LongClickable
	case el.Index == info.bottom:
		return !g.knows(g.newGuardText(g.withoutAmounts(own)), &info.rule)
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
func (g *Guard) pageAmounts(s *perception.Screen) string {
	return strings.Join(g.amountsShown(s), " ")
}

// amountsShown are the amounts of money s shows, in reading order: its texts', then its
// elements' labels and texts.
func (g *Guard) amountsShown(s *perception.Screen) []string {
	var out []string
	add := func(t string) {
		n := g.normLabel(t)
		for _, a := range g.findAmounts(n) {
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
	return out
}

// direction reports whether el's own label is wholly a browser's Forward or Back.
func (g *Guard) direction(el *perception.Element) bool {
	own := g.ownLabel(el)
	if own == "" {
		return false
	}
	return g.wholly(g.directions, g.newGuardText(own))
}

// wholly reports whether the words of p cover all of t.
func (g *Guard) wholly(p *phraseSet, t guardText) bool {
	if len(t.toks) == 0 {
		return false
	}
	var at []span
	p.find(t, func(_ int, sp span) { at = append(at, sp) })
	return len(at) > 0 && t.covered(at)
}

// browserPage reports whether s is a browser's page: it shows two of a browser's signs —
// an address bar (a view whose resource id names the URL bar, or a field showing a web
// address), a browser's Reload or Stop, and two of its directions (Back and Forward). A
// mail app's message has Back and Forward, but neither Reload nor an address bar. It is
// worked out only for a Forward (a send word that is wholly a direction), not per page.
func (g *Guard) browserPage(s *perception.Screen) bool {
	bar, reload, directions := false, false, 0
	for i := range s.Elements {
		e := &s.Elements[i]
		bar = bar || addressBar(e)
		if !(e.Clickable || e.LongClickable) {
			continue
		}
		if own := g.ownLabel(e); own != "" {
			t := g.newGuardText(own)
			reload = reload || g.wholly(g.browser, t)
			if g.wholly(g.directions, t) {
				directions++
			}
		}
	}
	signs := 0
	for _, b := range []bool{bar, reload, directions >= 2} {
		if b {
			signs++
		}
	}
	return signs >= 2
}

// urlIDWords name a browser's address bar in a resource id (url_bar, omnibox,
// mozac_browser_toolbar_url_view, location_bar_edit_text, address_bar).
var urlIDWords = []string{"url", "omnibox", "urlbar", "addressbar", "locationbar"}

// addressBar reports whether e is a browser's address bar: its resource id names one, or
// it is a text field that shows a web address.
func addressBar(e *perception.Element) bool {
	words := strings.Fields(strings.ToLower(idWords(e.ResourceID)))
	for i, w := range words {
		if slices.Contains(urlIDWords, w) || (w == "address" || w == "location") && i+1 < len(words) && words[i+1] == "bar" {
			return true
		}
	}
	return e.Editable && !e.Password && webAddress.MatchString(strings.TrimSpace(e.Text))
}

// webAddress is a web address as an address bar shows it: with its scheme, or a host
// name of two labels or more and an optional path.
var webAddress = regexp.MustCompile(`^(?i)(https?://\S+|[a-z0-9-]+(\.[a-z0-9-]+)+(/\S*)?)$`)
