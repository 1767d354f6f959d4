package executor

import "github.com/fairy-go/fairy/guard"

// One deed, one question. A consented action that only opens a dialog asking to confirm
// an action of the same kind ("Delete note", then the dialog's Delete) was a step toward
// the deed: the person's yes was for the deed, so it carries to the dialog's confirm on
// the screen the step opened, and the deed is not asked a second time. The carry holds for
// that screen alone and for one action of the category; anything else is asked as before.

// carry is a consent carried from the action that opened a confirmation to its confirm.
type carry struct {
	category  string // the consented category
	signature string // the confirmation's page signature
}

// carryTo records that the consented action spent as key opened the confirmation s.
func (r *run) carryTo(key, signature string) {
	cat, _, _ := splitSpent(key)
	r.carried = &carry{category: cat, signature: signature}
}

// takeCarried reports whether v, held on the current screen, is covered by the consent
// carried to it, and spends the carry.
func (r *run) takeCarried(v guard.Verdict) bool {
	c := r.carried
	if c == nil || r.screen == nil || v.Page || c.category != v.Category || c.signature != r.screen.Signature {
		return false
	}
	r.carried = nil
	return true
}
