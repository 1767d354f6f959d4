package guard

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/perception"
)

// pageRole is what a page is for, read from its structure and from cues no language
// owns: an amount, a masked card, an address's shape, a dialog's button bar, a
// recipient beside a body, the system's share sheet and permission dialog.
type pageRole uint8

const (
	roleNone        pageRole = iota
	roleCheckout             // an amount with a masked card or a delivery address
	roleDestructive          // a dialog of two or three choices with a warning
	roleCompose              // a recipient and a body being written
	roleShare                // the system's share sheet: a grid of app targets
	rolePermission           // the system's permission dialog
	roleBooking              // a price with a date or time and a pickup, a seat or a map
)

// category is the policy's category of what the role's primary action does.
func (r pageRole) category() string {
	return [...]string{"", "payment", "delete", "send", "send", "permission", "order"}[r]
}

// String names the role in a consent question.
func (r pageRole) String() string {
	return [...]string{"", "payment page", "destructive confirmation", "compose page", "share sheet", "permission dialog", "booking page"}[r]
}

// roleInfo is a page's role and where its primary action is.
type roleInfo struct {
	role pageRole
	// primary is the index of the element that completes the page (0: none found).
	primary int
	// grid is a share sheet's list of targets: each target in it shares.
	grid perception.Bounds
	// cues name what made the role, for the consent (the amount, the card).
	cues []string
}

// visitPageTexts visits the texts a page shows, in reading order: its static texts and the
// texts of its elements.
func visitPageTexts(s *perception.Screen, visit func(string) bool) {
	for _, t := range s.Context {
		if !visit(t) {
			return
		}
	}
	for i := range s.Elements {
		e := &s.Elements[i]
		for j, t := range [3]string{e.Label, e.Text, e.Desc} {
			if t != "" && (j == 0 || t != e.Label) && !visit(t) {
				return
			}
		}
		for _, t := range e.Texts {
			if t != e.Label && !visit(t) {
				return
			}
		}
	}
}

// warningGlyphs say a dialog warns, in any language.
const warningGlyphs = "⚠❗‼⛔🛑☢☣"

// roleOf reads s's role. money says the page shows an amount; info has the page's
// elements read.
func (g *Guard) roleOf(s *perception.Screen, money bool, info *pageInfo) roleInfo {
	if r, ok := g.systemRole(s); ok {
		return r
	}
	if bar := g.dialogBar(s, info); len(bar) >= 2 && g.warns(s) {
		if _, ok := g.rule("delete"); ok {
			return roleInfo{role: roleDestructive, primary: g.positive(s, bar)}
		}
	}
	if r, ok := g.composeRole(s, info); ok {
		return r
	}
	if !money {
		return roleInfo{}
	}
	return g.moneyRole(s, info)
}

// moneyRole reads the role of a page that shows money: a checkout (a masked card, a
// wallet, or a delivery address: a postcode and a house number) or a booking (a time or
// date with a seat or two addresses, and one to three prices). Each text is scanned once
// for its cues; the few that may be cues are read again with their amounts blanked.
func (g *Guard) moneyRole(s *perception.Screen, info *pageInfo) roleInfo {
	// First the cues as each text shows them, allocating nothing: most pages that show
	// money (a shop's list) show none.
	var seen textCues
	each := func(fn func(raw string, rt *readLabel)) {
		for _, t := range s.Context {
			fn(t, nil)
		}
		for raw, rt := range info.texts {
			if !strings.HasPrefix(raw, idKey) {
				fn(raw, rt)
			}
		}
	}
	each(func(raw string, _ *readLabel) {
		if mayCue(raw) {
			seen = seen.or(scanCues(raw))
		}
	})
	if !seen.card && !(seen.post && seen.streets > 0) && !(seen.times && (seen.seat || seen.streets >= 2)) {
		return roleInfo{}
	}
	// Then again without the amounts' digits (₹10000 is no postcode), with the prices
	// shown in their currency (a bare 17.10 may be a date).
	var c textCues
	var cues []string
	prices := map[string]bool{}
	each(func(raw string, rt *readLabel) {
		digits := mayCue(raw)
		if !digits && rt != nil && !rt.money {
			return
		}
		n := g.normLabel(raw)
		if rt == nil || rt.money {
			for _, a := range g.findAmounts(n) {
				if p := n[a.start:a.end]; strings.ContainsFunc(p, currencyRune) {
					prices[strings.TrimSpace(p)] = true
				}
			}
		}
		if !digits {
			return
		}
		ci := scanCues(g.withoutAmounts(n))
		if ci.card {
			cues = append(cues, strings.TrimSpace(raw))
		}
		c = c.or(ci)
	})
	if len(prices) == 0 {
		return roleInfo{}
	}
	if c.card || (c.post && c.streets >= 1) {
		return roleInfo{role: roleCheckout, primary: g.prominent(s, info), cues: cues}
	}
	// A booking shows one price or two (a fare and a total), not a list of offers.
	if c.times && (c.seat || c.streets >= 2) && len(prices) <= 3 {
		return roleInfo{role: roleBooking, primary: g.prominent(s, info)}
	}
	return roleInfo{}
}

// currencyRune reports whether r is part of an amount's currency, not of its number.
func currencyRune(r rune) bool {
	return !unicode.IsDigit(r) && !strings.ContainsRune(".,'٬٫ \u00a0\u202f", r)
}

// textCues are the language-free cues one text shows.
type textCues struct {
	card, times, seat, post bool
	streets                 int // texts with a house number beside words
}

func (c textCues) any() bool { return c.card || c.times || c.seat || c.post || c.streets > 0 }

func (c textCues) or(d textCues) textCues {
	return textCues{c.card || d.card, c.times || d.times, c.seat || d.seat, c.post || d.post, c.streets + d.streets}
}

// maskRune reports whether r hides a card's digits: •••• 4242, **** 4242.
func maskRune(r rune) bool {
	switch r {
	case '•', '·', '∙', '●', '◦', '*', '✱':
		return true
	}
	return false
}

// mayCue reports whether s holds a digit or a 〒: no text without one shows a cue.
func mayCue(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; '0' <= b && b <= '9' || b == 0xe3 && strings.HasPrefix(s[i:], "〒") {
			return true
		}
	}
	return false
}

// scanCues reads s's cues in one pass: a masked card (•••• 4242, **** 4242, xxxx 4242),
// a time or date (14:35, 7h30, 29.11.2026, 2026-11-29, 11月29日), a seat (12A, F12), a
// postcode (five or six digits, 00-590, 100-0005, 01310-100, 〒) and a house number (up
// to four digits beside words: 221B Baker Street, ul. Tverskaya 7, 丸の内1-1).
func scanCues(s string) textCues {
	var c textCues
	if strings.Contains(s, "〒") {
		c.post = true
	}
	letters, street := false, false
	masks := 0 // mask runes in a row (spaces between allowed)
	prev := rune(-1)
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf && b != '*' && b != 'x' && b != 'X' && b != ' ' && (b < '0' || b > '9') {
			// ASCII that is no mask and no digit: the common case, read without decoding.
			if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' {
				letters = true
			}
			masks = 0
			prev = rune(b)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case maskRune(r), (r == 'x' || r == 'X') && masks > 0 || (r == 'x' || r == 'X') && strings.HasPrefix(strings.ToLower(s[i:]), "xxxx"):
			masks++
			prev = r
			i += n
			continue
		case r == ' ' && masks > 0:
			i += n
			continue
		case isASCIIDigit(r):
			j := i
			for j < len(s) && isASCIIDigit(rune(s[j])) {
				j++
			}
			run := j - i
			next := rune(-1)
			if j < len(s) {
				next, _ = utf8.DecodeRuneInString(s[j:])
			}
			if masks >= 2 && run >= 2 && run <= 4 {
				c.card = true
			}
			digitsAt := func(k, lo, hi int) int { // the digits at s[k:], if lo..hi of them and no more
				m := k
				for m < len(s) && isASCIIDigit(rune(s[m])) {
					m++
				}
				if m-k < lo || m-k > hi {
					return -1
				}
				return m
			}
			joined := strings.ContainsRune(".,:", prev) || isASCIIDigit(prev)
			switch {
			case run <= 2 && (next == ':' || next == 'h') && !joined:
				if m := digitsAt(j+1, 2, 2); m > 0 && s[j+1] <= '5' {
					c.times = true
				}
			case run <= 2 && (next == '.' || next == '/') && !joined:
				if m := digitsAt(j+1, 1, 2); m > 0 && m < len(s) && (s[m] == '.' || s[m] == '/') && digitsAt(m+1, 2, 4) > 0 {
					c.times = true
				}
			case run == 4 && next == '-':
				if m := digitsAt(j+1, 2, 2); m > 0 && m < len(s) && s[m] == '-' && digitsAt(m+1, 2, 2) > 0 {
					c.times = true
				}
			case run <= 2 && next == '月':
				c.times = true
			}
			if !joined {
				switch {
				case (run == 5 || run == 6) && !strings.ContainsRune(".,:", next) && next != '-':
					c.post = true
				case next == '-' && (run == 2 && digitsAt(j+1, 3, 3) > 0 || run == 3 && digitsAt(j+1, 4, 4) > 0 || run == 5 && digitsAt(j+1, 3, 3) > 0):
					c.post = true
				}
				if run <= 4 && !strings.ContainsRune(".,:%", next) {
					street = true
				}
				if run <= 2 && (next >= 'A' && next <= 'K') && !letterAt(s, j+1) && !unicode.IsLetter(prev) ||
					run <= 2 && prev >= 'A' && prev <= 'Z' && i >= 2 && !unicode.IsLetter(runeBefore(s, i-1)) && !unicode.IsLetter(next) && !isASCIIDigit(next) {
					c.seat = true
				}
			}
			prev = rune(s[j-1])
			masks = 0
			i = j
			continue
		}
		if !letters && unicode.IsLetter(r) {
			letters = true
		}
		masks = 0
		prev = r
		i += n
	}
	if street && letters {
		c.streets = 1
	}
	return c
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// letterAt reports whether a letter starts at s[i:].
func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// runeBefore is the rune that ends s[:i] (-1: none).
func runeBefore(s string, i int) rune {
	if i <= 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// systemRole is the role of the system's own share sheet and permission dialog, known by
// their resource ids.
func (g *Guard) systemRole(s *perception.Screen) (roleInfo, bool) {
	for i := range s.Elements {
		e := &s.Elements[i]
		id := e.ResourceID
		switch {
		case id == "":
		case strings.Contains(id, "permissioncontroller:id/permission_"):
			r := roleInfo{role: rolePermission}
			for j := range s.Elements {
				if strings.Contains(s.Elements[j].ResourceID, ":id/permission_allow") && r.primary == 0 {
					r.primary = s.Elements[j].Index
				}
			}
			return r, true
		case e.Scrollable && (strings.HasSuffix(id, ":id/resolver_list") || strings.HasSuffix(id, ":id/chooser_list") ||
			strings.HasSuffix(id, ":id/resolver_grid")) && (strings.HasPrefix(id, "android:") || strings.HasPrefix(id, "com.android.intentresolver:")):
			return roleInfo{role: roleShare, grid: e.Bounds}, true
		}
	}
	return roleInfo{}, false
}

// warns reports whether a dialog's own texts (its title and message, not its buttons)
// warn: a warning sign, or — the words count where they speak — a delete word or a
// delete page word ("Remove 3 photos?", "cannot be undone").
func (g *Guard) warns(s *perception.Screen) bool {
	del, ok := g.rule("delete")
	if !ok {
		return false
	}
	for _, t := range s.Context {
		if strings.ContainsAny(t, warningGlyphs) {
			return true
		}
		rt := g.readNew(t)
		if rt.hits&(1<<del.index) != 0 || rt.page.any&(1<<del.index) != 0 {
			return true
		}
	}
	return false
}

// dialogBar is the button bar of a dialog: Android's own dialog buttons
// (android:id/button1, 2, 3), or two or three buttons side by side, the lowest, on a
// card (a window shorter than a portrait page) of few actions and no list. Nil when the
// page is no dialog: a full page's two buttons side by side (Settings' Clear storage and
// Clear cache) are no dialog's.
func (g *Guard) dialogBar(s *perception.Screen, info *pageInfo) []*perception.Element {
	var own []*perception.Element
	actions := 0
	list := false
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Clickable || e.LongClickable {
			actions++
		}
		switch e.ResourceID {
		case "android:id/button1", "android:id/button2", "android:id/button3":
			own = append(own, e)
		}
		list = list || e.Scrollable && !strings.Contains(e.Class, "ScrollView")
	}
	if len(own) >= 2 {
		return own
	}
	// A dump of a dialog's window alone reaches from the display's corner to the card's
	// far corner: no portrait page is that short (a phone's is 16:9 or taller).
	if list || actions > maxDialogActions || s.Height <= s.Width || 10*s.Height >= 17*s.Width {
		return nil
	}
	var buttons []*perception.Element
	for i := range s.Elements {
		if e := &s.Elements[i]; g.buttonLike(e, info.texts) {
			buttons = append(buttons, e)
		}
	}
	if len(buttons) < 2 {
		return nil
	}
	// The lowest row of buttons.
	low := buttons[0]
	for _, b := range buttons {
		if b.Center.Y > low.Center.Y {
			low = b
		}
	}
	var row []*perception.Element
	for _, b := range buttons {
		if abs(b.Center.Y-low.Center.Y) <= (low.Bounds.Y2-low.Bounds.Y1)/2 {
			row = append(row, b)
		}
	}
	if len(row) < 2 || len(row) > 3 {
		return nil
	}
	return row
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// positive is the element of a dialog's bar that confirms: Android's button1, else the
// last in reading order (the rightmost, or the leftmost on a right-to-left page) that is
// not a way out.
func (g *Guard) positive(s *perception.Screen, bar []*perception.Element) int {
	for _, b := range bar {
		if b.ResourceID == "android:id/button1" {
			return b.Index
		}
	}
	rtl := rightToLeft(s)
	var best *perception.Element
	for _, b := range bar {
		if g.dismisses(b, g.ownLabel(b)) {
			continue
		}
		if best == nil || (!rtl && b.Center.X > best.Center.X) || (rtl && b.Center.X < best.Center.X) {
			best = b
		}
	}
	if best == nil {
		return 0
	}
	return best.Index
}

// rightToLeft reports whether most letters of s's texts are of a right-to-left script.
func rightToLeft(s *perception.Screen) bool {
	rtl, ltr := 0, 0
	visitPageTexts(s, func(t string) bool {
		for _, r := range t {
			switch {
			case unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Nko):
				rtl++
			case unicode.IsLetter(r):
				ltr++
			}
		}
		return rtl+ltr < 400
	})
	return rtl > ltr
}

// recipientShape is what a recipient field holds: an e-mail address, a phone number, a
// handle.
var recipientShape = regexp.MustCompile(`^\s*(?:[^\s@]+@[^\s@]+\.[^\s@]+|\+?[\d\s\-().]{7,}|@\w{2,})[,;\s]*$`)

// composeRole finds a compose page: a recipient field (holding an address, a number or a
// contact's chip, or named for the receiver) with a body field below it, taller than it
// or with a button at its end. The primary is the button at the body's end, else the
// last action of the app bar, else the lowest button.
func (g *Guard) composeRole(s *perception.Screen, info *pageInfo) (roleInfo, bool) {
	var to, body *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Editable || e.Password || g.searchField(e) {
			continue
		}
		if to == nil {
			if g.recipient(e) {
				to = e
			}
			continue
		}
		if e.Bounds.Y1 >= to.Bounds.Y2-1 {
			body = e // the lowest field below the recipient
		}
	}
	if to == nil || body == nil {
		return roleInfo{}, false
	}
	rtl := rightToLeft(s)
	// A button at the end of the body's row.
	var end *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Editable || !g.buttonLike(e, info.texts) || e.Center.Y < body.Bounds.Y1 || e.Center.Y > body.Bounds.Y2 {
			continue
		}
		if (!rtl && e.Bounds.X1 >= body.Bounds.X2-10) || (rtl && e.Bounds.X2 <= body.Bounds.X1+10) {
			end = e
		}
	}
	tall := body.Bounds.Y2-body.Bounds.Y1 >= 3*(to.Bounds.Y2-to.Bounds.Y1)/2
	if end == nil && !tall {
		return roleInfo{}, false
	}
	r := roleInfo{role: roleCompose}
	switch {
	case end != nil:
		r.primary = end.Index
	default:
		r.primary = g.barEnd(s, info, to, rtl)
		if r.primary == 0 {
			r.primary = g.prominent(s, info)
		}
	}
	return r, true
}

// recipient reports whether field e is for a receiver: it holds an address, a number or
// a handle, it is a contact-chip field, or its hint or id names a receiver.
func (g *Guard) recipient(e *perception.Element) bool {
	if strings.Contains(e.Class, "MultiAutoComplete") || strings.Contains(e.Class, "Recipient") || strings.Contains(e.Class, "Chips") {
		return true
	}
	if e.Text != "" && recipientShape.MatchString(e.Text) {
		return true
	}
	for _, t := range []string{e.Hint, idWords(e.ResourceID)} {
		if t != "" && recipientField(g.newGuardText(t)) {
			return true
		}
	}
	return false
}

// barEnd is the last action of the app bar above field: the button at the top of the
// page farthest in reading order (a compose page's Send), when there are two or more
// (the first is the way up).
func (g *Guard) barEnd(s *perception.Screen, info *pageInfo, field *perception.Element, rtl bool) int {
	var bar []*perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Bounds.Y2 <= field.Bounds.Y1 && g.buttonLike(e, info.texts) {
			bar = append(bar, e)
		}
	}
	if len(bar) < 2 {
		return 0
	}
	best := bar[0]
	for _, b := range bar {
		if (!rtl && b.Center.X > best.Center.X) || (rtl && b.Center.X < best.Center.X) {
			best = b
		}
	}
	if g.dismisses(best, g.ownLabel(best)) {
		return 0
	}
	return best.Index
}

// prominent is the button that completes a page: the lowest button, the widest of the
// lowest row; a way out never is.
func (g *Guard) prominent(s *perception.Screen, info *pageInfo) int {
	var best *perception.Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if !g.buttonLike(e, info.texts) || g.dismisses(e, g.ownLabel(e)) {
			continue
		}
		switch {
		case best == nil, e.Bounds.Y2 > best.Bounds.Y2+10:
			best = e
		case e.Bounds.Y2 >= best.Bounds.Y2-10 && e.Bounds.X2-e.Bounds.X1 > best.Bounds.X2-best.Bounds.X1:
			best = e
		}
	}
	if best == nil {
		return 0
	}
	return best.Index
}

// byRole reports whether el is held on a page whose role info has: a share sheet's
// target, or the page's primary action unless its own words say it only shows, leaves or
// does something the guard knows is no completion ("Continue reading").
func (g *Guard) byRole(el *perception.Element, s *perception.Screen, info pageInfo) bool {
	r := info.role
	switch {
	case r.role == roleNone:
		return false
	case r.role == roleShare:
		b := r.grid
		return (el.Clickable || el.LongClickable) && !el.Scrollable && el.Center.X >= b.X1 && el.Center.X < b.X2 && el.Center.Y >= b.Y1 && el.Center.Y < b.Y2
	case el.Index != r.primary || el.Editable || el.Checkable:
		return false
	}
	own := g.ownLabel(el)
	if g.dismisses(el, own) {
		return false
	}
	if own == "" || g.generic(el, &info.rule) {
		return true
	}
	return !g.knows(g.newGuardText(g.withoutAmounts(own)), &info.rule)
}

// applyRole gives info s's role: a page its words did not make one that pays, sends or
// deletes takes its role's category; either way the role's primary is the page's
// primary action.
func (g *Guard) applyRole(s *perception.Screen, money bool, info *pageInfo) {
	r := g.roleOf(s, money, info)
	if r.role == roleNone {
		return
	}
	if !info.strong {
		rule, ok := g.rule(r.role.category())
		if !ok {
			return // the person's policy has no such category
		}
		info.rule, info.ok, info.strong = rule, true, true
	}
	info.role = r
	if r.primary != 0 {
		info.bottom = r.primary
	}
}

// maxRoleAmounts is the most amounts a role's consent names.
const maxRoleAmounts = 3

// nameRole says in v that el is held as the primary action of its page's role, with what
// the page shows of it: "tap "→" (the payment page's primary action: 36,00 €, •••• 4242)".
func (g *Guard) nameRole(v *Verdict, el *perception.Element, s *perception.Screen) {
	info := g.page(s)
	r := info.role
	if r.role == roleNone || !g.byRole(el, s, info) {
		return
	}
	v.Role = r.role.String()
	what := "the " + r.role.String() + "'s primary action"
	if r.role == roleShare {
		what = "a target of the share sheet"
	}
	shown := append(g.pageAmountList(s), r.cues...)
	if len(shown) > 0 {
		what += ": " + strings.Join(shown, ", ")
	}
	v.Subject += " (" + what + ")"
}

// pageAmountList is the last maxRoleAmounts amounts s shows (a total is mostly last).
func (g *Guard) pageAmountList(s *perception.Screen) []string {
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
	if len(out) > maxRoleAmounts {
		out = out[len(out)-maxRoleAmounts:]
	}
	return out
}
