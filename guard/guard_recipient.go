package guard

import (
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/perception"
)

// Choosing whom to write to sends nothing. A messenger's new-conversation page offers the
// number typed in its "To" field back as a button — "Send to +1 415 555 0199" — that only
// opens the conversation: the message is written, and sent, on the next page. Such a
// button is no send: its label repeats the address typed in a field of the page, and no
// other field holds anything to send. Language-free: the address is what matches.

// addressText is a phone number or an e-mail address, as typed into a recipient field.
var addressText = regexp.MustCompile(`^(\+?[0-9][0-9 ().\-]{2,}[0-9]|[^@\s]+@[^@\s]+\.[^@\s]+)$`)

// picksRecipient reports whether el, held for sending by its own words on s, only picks
// the recipient typed into a field of s.
func picksRecipient(el *perception.Element, s *perception.Screen) bool {
	if el == nil || s == nil || el.Editable {
		return false
	}
	typed := ""
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.Editable || e.Password {
			continue
		}
		t := strings.TrimSpace(e.Text)
		if t == "" || t == strings.TrimSpace(e.Hint) {
			continue
		}
		if typed != "" {
			return false // a second field holds text: something may be written to send
		}
		typed = t
	}
	if typed == "" || !addressText.MatchString(typed) {
		return false
	}
	own := el.Label
	if own == "" {
		own = el.Text
	}
	return strings.Contains(own, typed)
}
