package guard

import (
	"strings"

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
	roleBooking              // a price with a date or time and a seat or a pickup and a drop-off
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

// byRole reports whether el is held on a page whose role info has: a share sheet's
// target, or the page's primary action unless its own words say it only shows, leaves or
// does something the guard knows is no completion ("Continue reading").
func (g *Guard) byRole(el *perception.Element, s *perception.Screen, info *pageInfo) bool {
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
	out := g.amountsShown(s)
	if len(out) > maxRoleAmounts {
		out = out[len(out)-maxRoleAmounts:]
	}
	return out
}
