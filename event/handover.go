package event

import "time"

// HandOver reports that the phone was handed to the person for a moment — a login, a
// one-time code, a biometric prompt, a CAPTCHA, a payment app's own PIN — and given back.
// It says what the screen needed and for how long the person had the phone; never what
// the person typed or tapped: that is theirs, and never enters a trace or knowledge.
// Ended is zero (and Duration 0) on the event that opens the hand-over; a page showing
// the run live renders "your turn" until the closing event with Ended set.
type HandOver struct {
	Step   int    `json:"step"`
	App    string `json:"app,omitempty"`
	Reason string `json:"reason"` // what the screen needs, in words, e.g. "a password"
	// By says who asked for the hand-over: "screen" (the executor saw a password,
	// one-time code or biometric prompt), "policy" (the person's "always hand over
	// logins"), or "model" (the Re-Planner's interaction type 5).
	By       string        `json:"by"`
	Started  time.Time     `json:"started"`
	Ended    time.Time     `json:"ended,omitzero"`
	Duration time.Duration `json:"duration,omitempty"` // Ended − Started
	// Error is why the phone did not come back ("" when it did): no person to hand over
	// to, the run was stopped.
	Error string `json:"error,omitempty"`
}

// Kind implements Event.
func (HandOver) Kind() string { return "HandOver" }
