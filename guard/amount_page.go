package guard

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A page shows money by more than an amount with a currency: a number its label names an
// amount ("Amount: 300", "Montant : 300"), or a UPI handle (bob@okbank: India's payment
// address, which a page shows where another shows a masked card). A page word ("Details",
// "Amount", a total) or a UPI handle with that money makes a generic confirm (Confirm,
// Yes, Proceed) a payment.

// moneyText reports whether s (normalised) shows money: an amount, a labelled amount, or
// a UPI handle.
func (g *Guard) moneyText(s string) bool {
	return g.hasAmount(s) || g.labelledAmount(s) || upiHandle(s)
}

// labelledAmount reports whether s is a label and a number, the label wholly a page or
// total word of a rule that needs an amount ("Amount: 300", "Total: 18", "金额：300").
func (g *Guard) labelledAmount(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		i = strings.Index(s, "：")
	}
	if i <= 0 {
		return false
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	rest := strings.TrimSpace(s[i+n:])
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsDigit(r) {
		return false
	}
	t := g.newGuardText(s[:i])
	for _, r := range g.rules {
		if r.Amount && g.wholly(r.page, t) {
			return true
		}
	}
	return false
}

// upiHandle reports whether s shows a UPI handle: a name, "@", and a bank's or app's
// handle of letters and digits with no dot (bob@okbank, 98765@ybl) — an e-mail address's
// domain has one.
func upiHandle(s string) bool {
	for at := strings.IndexByte(s, '@'); at >= 0; {
		name := at
		for name > 0 && handleByte(s[name-1], true) {
			name--
		}
		end := at + 1
		for end < len(s) && handleByte(s[end], false) {
			end++
		}
		host := s[at+1 : end]
		if at-name >= 2 && len(host) >= 2 && host[0] >= 'a' && host[0] <= 'z' && (end == len(s) || s[end] != '.' && s[end] != '@') {
			return true
		}
		next := strings.IndexByte(s[at+1:], '@')
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return false
}

// handleByte reports whether b may be in a UPI handle's name (letters, digits, '.', '-',
// '_') or, with name unset, in its bank's handle (lower-case letters and digits).
func handleByte(b byte, name bool) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= '0' && b <= '9':
		return true
	case name:
		return b >= 'A' && b <= 'Z' || b == '.' || b == '-' || b == '_'
	}
	return false
}

// moneyHits are the page words a UPI handle in s (normalised) stands for: a payment
// method, which says what the page is for as "card" or "wallet" does — the first rule
// that needs an amount (payment).
func (g *Guard) moneyHits(s string) pageHits {
	if strings.IndexByte(s, '@') < 0 || !upiHandle(s) {
		return pageHits{}
	}
	for _, r := range g.rules {
		if r.Amount {
			return pageHits{any: 1 << r.index}
		}
	}
	return pageHits{}
}
