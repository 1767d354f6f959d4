package knowledge

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Tricks: short lessons (planning, action, recovery) kept per app, each scored by its uses.
// This file holds their types; the Store's API is in tricks_store.go, a transaction's in
// tricks_tx.go.

// Common is the app name of tricks that hold in every app.
const Common = "common"

// Kind says what a trick helps with.
type Kind string

// Trick kinds.
const (
	KindPlanning Kind = "planning"       // how to break a task into sub-goals
	KindAction   Kind = "action"         // which element or gesture does what
	KindRecovery Kind = "error-recovery" // how to get out of a known failure
)

// Kinds lists the valid trick kinds.
func Kinds() []Kind { return []Kind{KindPlanning, KindAction, KindRecovery} }

// ParseKind accepts a kind name, also "recovery" for KindRecovery.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case KindPlanning, KindAction, KindRecovery:
		return k, nil
	case "recovery", "error":
		return KindRecovery, nil
	}
	return "", invalidf("trick kind %q: want planning, action or error-recovery", s)
}

// Provenance says where a trick was learned.
type Provenance struct {
	Instruction string    `json:"instruction,omitempty"`
	RunID       string    `json:"run_id,omitempty"`
	Outcome     string    `json:"outcome,omitempty"` // e.g. "success", "failure", "stopped", "manual"
	Time        time.Time `json:"time"`
}

// Trick is one App Trick: a natural-language tip for an app (or Common).
type Trick struct {
	ID         string     `json:"id"`
	App        string     `json:"app"`
	Kind       Kind       `json:"kind"`
	Text       string     `json:"text"`
	Provenance Provenance `json:"provenance"`
	// Uses counts retrievals that were acted on; Successes those whose task succeeded.
	Uses      int `json:"uses"`
	Successes int `json:"successes"`
	// Merges counts near-duplicates folded into this trick by Upsert.
	Merges int `json:"merges"`
	// Demotions counts contradictions (Demote); each halves the score.
	Demotions int `json:"demotions"`
	// Score is the trick's quality in 0..1: (Successes+1)/(Uses+2) × 0.5^Demotions.
	Score float64 `json:"score"`
}

func (t *Trick) rescore() {
	t.Score = float64(t.Successes+1) / float64(t.Uses+2) * math.Pow(0.5, float64(t.Demotions))
}

func (t *Trick) validate() error {
	t.Text = strings.TrimSpace(t.Text)
	t.App = strings.TrimSpace(t.App)
	if t.Text == "" {
		return invalidf("trick: empty text")
	}
	if len(t.Text) > MaxTrickText {
		return fmt.Errorf("trick: text is %d bytes, over the %d-byte cap: %w", len(t.Text), MaxTrickText, ErrTooLarge)
	}
	if t.App == "" {
		return invalidf("trick: empty app (use %q for every app)", Common)
	}
	if _, err := ParseKind(string(t.Kind)); err != nil {
		return err
	}
	t.Kind, _ = ParseKind(string(t.Kind))
	if t.Uses < 0 || t.Successes < 0 || t.Successes > t.Uses || t.Demotions < 0 {
		return invalidf("trick: bad counters uses=%d successes=%d demotions=%d", t.Uses, t.Successes, t.Demotions)
	}
	return nil
}

// Hit is one search result.
type Hit struct {
	Trick     Trick
	Relevance float64 // BM25 relevance of the text to the query
	Rank      float64 // what results are ordered by: relevance weighted by score
}
