package event

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Consent is the person's answer to a consent question. A granted consent is specific: it
// covers one action of one guard category — the action it was asked for, named by Action
// (the element's identity on its page, or the shell command) — and is used up by it. A
// consent with no category or no action (a vague "may I go on?") authorises nothing the
// guard holds back.
type Consent struct {
	Granted  bool   `json:"granted"`
	Category string `json:"category,omitempty"` // guard category it covers: payment, order, delete, …
	Action   string `json:"action,omitempty"`   // identity of the action it covers (Verdict.Action)
	Subject  string `json:"subject,omitempty"`  // what was asked about, e.g. `tap "Pay ¥18"`
	// Specifics are what the question named (to Alice Chen, text "…"): the consent
	// covers the action only while the screen still shows them.
	Specifics Specifics `json:"specifics,omitzero"`
}

// Covers reports whether c authorises one action of category with identity action: it
// must be granted, and name both exactly.
func (c Consent) Covers(category, action string) bool {
	return c.Granted && c.Category != "" && c.Action != "" && c.Category == category && c.Action == action
}

// Specifics are what a consent names: what a person needs to judge the one action it
// covers, read from the screen the action waits on — never from the model, which may be
// wrong about where it is. The executor fills them; the consent question shows them
// (String), and whoever answers it (a person at a terminal, an evaluation's judging
// person) may read them typed, field by field, instead of parsing the question's words.
type Specifics struct {
	To     string   `json:"to,omitempty"`     // send: the conversation or recipient the page names
	Text   string   `json:"text,omitempty"`   // send: the text in the compose field
	Items  []string `json:"items,omitempty"`  // order, payment: the lines that name items with their quantity
	Amount string   `json:"amount,omitempty"` // order, payment, transfer: the total to pay
	Payee  string   `json:"payee,omitempty"`  // order, payment, transfer: who is paid (the app)
	What   string   `json:"what,omitempty"`   // delete and the rest: what the page says the action is about
	// Again is the step at which this task already did the very same action under a
	// consent (0: it did not): a yes does it a second time.
	Again int `json:"again,omitempty"`
}

// SpecificPart is one specific as a consent question shows it: its key ("to"), its value
// as shown (a text is quoted) and the value itself.
type SpecificPart struct {
	Key, Shown, Value string
}

// Parts are the specifics a question shows, in the order it shows them; empty values are
// left out.
func (sp Specifics) Parts() []SpecificPart {
	var parts []SpecificPart
	add := func(k, shown, v string) {
		if shown = strings.TrimSpace(shown); shown != "" {
			parts = append(parts, SpecificPart{Key: k, Shown: shown, Value: v})
		}
	}
	add("to", sp.To, strings.TrimSpace(sp.To))
	if sp.Text != "" {
		add("text", strconv.QuoteToGraphic(sp.Text), sp.Text)
	}
	items := strings.TrimSpace(strings.Join(sp.Items, ", "))
	add("items", items, items)
	add("amount", sp.Amount, strings.TrimSpace(sp.Amount))
	add("payee", sp.Payee, strings.TrimSpace(sp.Payee))
	add("what", sp.What, strings.TrimSpace(sp.What))
	if sp.Again > 0 {
		again := fmt.Sprintf("done once already in this task, at step %d", sp.Again)
		add("again", again, again)
	}
	return parts
}

// String writes the specifics as the consent question shows them: `to: Bob Smith; text:
// "running late"`. Empty when none were read.
func (sp Specifics) String() string {
	var b strings.Builder
	for i, p := range sp.Parts() {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Key + ": " + p.Shown)
	}
	return b.String()
}

// IsZero reports whether sp names nothing a question would show.
func (sp Specifics) IsZero() bool { return len(sp.Parts()) == 0 }

// Equal reports whether sp and o name the same: a consent covers an action only while
// the screen still shows what it named.
func (sp Specifics) Equal(o Specifics) bool {
	return sp.To == o.To && sp.Text == o.Text && slices.Equal(sp.Items, o.Items) && sp.Amount == o.Amount &&
		sp.Payee == o.Payee && sp.What == o.What && sp.Again == o.Again
}
