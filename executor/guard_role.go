package executor

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
	roleCheckout             // an amount with a masked card, a wallet or a delivery address
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

// maskedCard is a card number with all but its last digits hidden (•••• 4242, **** 4242,
// xxxx 4242), as payment sheets show the card they charge.
var maskedCard = regexp.MustCompile(`(?:[•·∙●◦*✱]\s?){2,}\s?\d{2,4}\b|\b[xX]{4}[\s-]?\d{4}\b`)

// wallets are payment methods by their brand names, which no language translates.
var wallets = []string{"paypal", "google pay", "g pay", "apple pay", "samsung pay", "alipay", "支付宝", "wechat pay", "微信支付",
	"paytm", "phonepe", "upi", "klarna", "venmo", "cash app", "mercado pago", "pix", "grabpay", "gcash", "kakaopay", "kakao pay",
	"paypay", "line pay", "m-pesa", "ideal", "blik", "twint", "momo", "zalopay", "ovo", "gopay", "dana", "toss"}

// postcode is a postal code as a delivery address writes it: five or six digits, the
// Polish, Japanese and Brazilian forms with a hyphen, the British form, or 〒 before any.
var postcode = regexp.MustCompile(`(?:^|[^\p{N}\p{L}.,:])(?:\d{5,6}|\d{2}-\d{3}|\d{3}-\d{4}|\d{5}-\d{3}|[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})(?:$|[^\p{N}.,:])|〒`)

// houseNumber is a number on a street: up to four digits, maybe with a letter or a
// second number (221B, 1-1, 12/3).
var houseNumber = regexp.MustCompile(`(?:^|[^\p{N}.,:])\d{1,4}(?:[-/]\d{1,4})*[A-Za-z]?(?:$|[^\p{N}.,:%])`)

// timeOrDate is a clock time or a date: 14:35, 7h30, 29.11.2026, 2026-11-29, 11/29, 11月29日.
var timeOrDate = regexp.MustCompile(`\b(?:[01]?\d|2[0-3])[:h][0-5]\d\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\d{1,2}月\d{1,2}日`)

// seatCode is a seat: a row letter and a number, or a number and a seat letter (F12, 12A).
var seatCode = regexp.MustCompile(`\b(?:[A-Z]\d{1,2}|\d{1,2}[A-K])\b`)

// warningGlyphs say a dialog warns, in any language.
const warningGlyphs = "⚠❗‼⛔🛑☢☣"

// roleOf reads s's role. money says the page shows an amount; info has the page's
// elements read.
func (g *Guard) roleOf(s *perception.Screen, money bool, info *pageInfo) roleInfo {
	if r, ok := g.systemRole(s); ok {
		return r
	}
	dialog := g.dialogBar(s, info)
	if len(dialog) >= 2 {
		warn, words := false, false
		del, _ := g.rule("delete")
		visitPageTexts(s, func(t string) bool {
			warn = warn || strings.ContainsAny(t, warningGlyphs)
			if !words {
				rt := info.texts[t]
				if rt == nil {
					r := g.readNew(t)
					rt = &r
				}
				// The words still count where they speak: a delete word in a dialog's
				// title or message warns ("Remove 3 photos?").
				words = rt.hits&(1<<del.index) != 0 || rt.page.any&(1<<del.index) != 0
			}
			return !(warn || words)
		})
		if (warn || words) && del.Category != "" {
			return roleInfo{role: roleDestructive, primary: g.positive(s, dialog)}
		}
	}
	if r, ok := g.composeRole(s, info); ok {
		return r
	}
	if !money {
		return roleInfo{}
	}
	var card, wallet, post, times, seat bool
	streets := 0
	var cues []string
	prices := map[string]bool{}
	visitPageTexts(s, func(t string) bool {
		if !strings.ContainsFunc(t, unicode.IsDigit) && len(t) < 64 {
			lt := strings.ToLower(t)
			for _, w := range wallets {
				if i := strings.Index(lt, w); i >= 0 && wordEdge(lt, i, i+len(w)) {
					wallet = true
					cues = append(cues, t)
				}
			}
			return true
		}
		n := g.normLabel(t)
		if m := maskedCard.FindString(n); m != "" {
			card = true
			cues = append(cues, strings.TrimSpace(m))
			return true
		}
		for _, a := range g.findAmounts(n) {
			if strings.ContainsFunc(n[a.start:a.end], func(r rune) bool { return !unicode.IsDigit(r) && !strings.ContainsRune(".,'٬٫ \u00a0\u202f", r) }) {
				prices[strings.TrimSpace(n[a.start:a.end])] = true // with its currency: a bare 17.10 may be a date
			}
		}
		rest := g.withoutAmounts(n)
		if timeOrDate.MatchString(rest) {
			times = true
			rest = timeOrDate.ReplaceAllString(rest, " ")
		}
		seat = seat || seatCode.MatchString(rest)
		if !strings.ContainsFunc(rest, unicode.IsLetter) && !strings.Contains(rest, "〒") {
			if postcode.MatchString(rest) && strings.TrimSpace(rest) == strings.TrimSpace(n) {
				post = true // a postcode on a line of its own
			}
			return true
		}
		if utf8.RuneCountInString(rest) <= 64 {
			if postcode.MatchString(rest) {
				post = true
			}
			if houseNumber.MatchString(rest) {
				streets++
			}
		}
		return true
	})
	if len(prices) == 0 {
		return roleInfo{}
	}
	if card || wallet || (post && streets >= 1) {
		return roleInfo{role: roleCheckout, primary: g.prominent(s, info), cues: cues}
	}
	// A booking shows one price or two (a fare and a total), not a list of offers.
	if times && (seat || streets >= 2) && len(prices) <= 3 {
		return roleInfo{role: roleBooking, primary: g.prominent(s, info)}
	}
	return roleInfo{}
}

// wordEdge reports whether s[i:j] stands as a word of its own.
func wordEdge(s string, i, j int) bool {
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); unicode.IsLetter(r) {
			return false
		}
	}
	if j < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsLetter(r) {
			return false
		}
	}
	return true
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

// dialogBar is the button bar of a dialog: two or three buttons side by side, the page's
// lowest, on a page of few actions and no list; or Android's own dialog buttons
// (android:id/button1, 2, 3). Nil when the page is no dialog.
func (g *Guard) dialogBar(s *perception.Screen, info *pageInfo) []*perception.Element {
	var own, buttons []*perception.Element
	actions := 0
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Clickable || e.LongClickable {
			actions++
		}
		switch e.ResourceID {
		case "android:id/button1", "android:id/button2", "android:id/button3":
			own = append(own, e)
			continue
		}
		if e.Scrollable && !strings.Contains(e.Class, "ScrollView") {
			return nil // a list: no dialog
		}
		if g.buttonLike(e, info.texts) {
			buttons = append(buttons, e)
		}
	}
	if len(own) >= 2 {
		return own
	}
	if actions > maxDialogActions || len(buttons) < 2 {
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
