package guard

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/fairy-go/fairy/perception"
)

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

// warningGlyphs say a dialog warns, in any language.
const warningGlyphs = "⚠❗‼⛔🛑☢☣"

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
	if to.Text != "" && !to.Password {
		r.cues = []string{"to " + strings.TrimSpace(to.Text)} // what a send's consent names first
	}
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
