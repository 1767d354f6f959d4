package event

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
	// Specifics are what the question named ("to: Alice Chen; text: …"): the consent
	// covers the action only while the screen still shows them.
	Specifics string `json:"specifics,omitempty"`
}

// Covers reports whether c authorises one action of category with identity action: it
// must be granted, and name both exactly.
func (c Consent) Covers(category, action string) bool {
	return c.Granted && c.Category != "" && c.Action != "" && c.Category == category && c.Action == action
}
