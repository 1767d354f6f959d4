package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Run is a short summary of one agent run, kept to compare runs with and
// without knowledge (cold/warm).
type Run struct {
	ID          string        `json:"id"`
	Instruction string        `json:"instruction,omitempty"`
	Apps        []string      `json:"apps,omitempty"`
	Outcome     string        `json:"outcome,omitempty"` // "success", "failure", "stopped", …
	Steps       int           `json:"steps"`
	ModelCalls  int           `json:"model_calls"`
	Tokens      int           `json:"tokens"`
	Cost        float64       `json:"cost"`
	Start       time.Time     `json:"start"`
	Duration    time.Duration `json:"duration_ns"`
	// UsedKnowledge is true when the run had learned tricks or a map to use.
	UsedKnowledge bool `json:"used_knowledge"`
}

// PutRun stores (or replaces) a run summary.
func (s *Store) PutRun(r Run) error {
	return s.Update(func(tx *Tx) error { return tx.PutRun(r) })
}

// Runs returns run summaries, oldest first; limit > 0 keeps only the last limit.
func (s *Store) Runs(limit int) ([]Run, error) {
	var out []Run
	err := s.view(func(tx *bolt.Tx) error { var err error; out, err = listRuns(tx); return err })
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

func listRuns(tx *bolt.Tx) ([]Run, error) {
	var out []Run
	err := eachJSON(tx.Bucket(bucketRuns), "run", func(_ []byte, r Run) error { out = append(out, r); return nil })
	slices.SortFunc(out, func(a, b Run) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, err
}

// PutRun stores a run summary in this transaction.
func (tx *Tx) PutRun(r Run) error {
	if strings.TrimSpace(r.ID) == "" {
		return fmt.Errorf("put run: empty ID: %w", ErrInvalid)
	}
	if tx.s.opts.ReadOnly {
		return errReadOnly
	}
	b, err := root(tx.tx, bucketRuns)
	if err != nil {
		return fmt.Errorf("put run %s: %w", r.ID, err)
	}
	if r.Start.IsZero() {
		r.Start = tx.s.now()
	}
	r.Start = r.Start.UTC()
	if err := putJSON(b, r.ID, r); err != nil {
		return fmt.Errorf("put run %s: %w", r.ID, err)
	}
	return nil
}
