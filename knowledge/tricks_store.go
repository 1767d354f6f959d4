package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The Store's trick API: each write in a transaction of its own, and the reads (one trick,
// an app's tricks, a ranked search).

// AddTrick stores a new trick and returns it with its ID, score and
// provenance time filled in.
func (s *Store) AddTrick(t Trick) (Trick, error) {
	err := s.Update(func(tx *Tx) error { var err error; t, err = tx.AddTrick(t); return err })
	return t, err
}

// UpsertTrick adds t or, when a trick of the same app and kind is a
// near-duplicate (similarity ≥ the merge threshold), merges t into it. It
// reports whether it merged.
func (s *Store) UpsertTrick(t Trick) (Trick, bool, error) {
	var merged bool
	err := s.Update(func(tx *Tx) error { var err error; t, merged, err = tx.UpsertTrick(t); return err })
	return t, merged, err
}

// RecordUse counts one use of a trick and whether its task succeeded.
func (s *Store) RecordUse(id string, success bool) (Trick, error) {
	var t Trick
	err := s.Update(func(tx *Tx) error { var err error; t, err = tx.RecordUse(id, success); return err })
	return t, err
}

// Demote marks a trick as contradicted (e.g. by a later failure): its score halves.
func (s *Store) Demote(id string) (Trick, error) {
	var t Trick
	err := s.Update(func(tx *Tx) error { var err error; t, err = tx.Demote(id); return err })
	return t, err
}

// DeleteTrick removes a trick.
func (s *Store) DeleteTrick(id string) error {
	return s.Update(func(tx *Tx) error { return tx.DeleteTrick(id) })
}

// Trick returns the trick with the given ID.
func (s *Store) Trick(id string) (Trick, error) {
	var t Trick
	err := s.view(func(tx *bolt.Tx) error { var err error; t, err = getTrick(tx, id); return err })
	return t, err
}

// Tricks lists tricks, best score first. An empty app means every app; an
// empty kind every kind.
func (s *Store) Tricks(app string, kind Kind) ([]Trick, error) {
	var out []Trick
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		out, err = listTricks(tx, app, kind, false)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list tricks: %w", err)
	}
	slices.SortStableFunc(out, func(a, b Trick) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.App, b.App); c != 0 {
			return c
		}
		return compareIDs(a.ID, b.ID)
	})
	return out, nil
}

// Search returns the k tricks of app (plus Common ones) and kind most
// relevant to query (an instruction, a sub-goal, or an error text), in
// English, Chinese or both. Results rank by relevance × (0.5 + score); app
// tricks slightly outrank Common ones. An empty kind searches every kind; an
// empty query ranks by score alone. Tricks that share no term with a
// non-empty query are not returned.
func (s *Store) Search(app string, kind Kind, query string, k int) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	var cands []Trick
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		cands, err = listTricks(tx, app, kind, true)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("search tricks: %w", err)
	}
	q := terms(query)
	docs := make([]bm25Doc, len(cands))
	for i, c := range cands {
		ts := terms(c.Text)
		docs[i] = bm25Doc{tf: termFreq(ts), len: len(ts)}
	}
	rel := bm25(q, docs)
	hits := make([]Hit, 0, len(cands))
	for i, c := range cands {
		if len(q) > 0 && rel[i] <= 0 {
			continue
		}
		weight := 0.5 + c.Score
		if c.App == Common && app != Common {
			weight *= 0.9
		}
		rank := rel[i] * weight
		if len(q) == 0 {
			rank = c.Score
		}
		hits = append(hits, Hit{Trick: c, Relevance: rel[i], Rank: rank})
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Rank, a.Rank); c != 0 {
			return c
		}
		return compareIDs(a.Trick.ID, b.Trick.ID)
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits, nil
}

// compareIDs orders t2 before t10.
func compareIDs(a, b string) int {
	na, ea := strconv.Atoi(strings.TrimLeft(a, "abcdefghijklmnopqrstuvwxyz"))
	nb, eb := strconv.Atoi(strings.TrimLeft(b, "abcdefghijklmnopqrstuvwxyz"))
	if ea == nil && eb == nil && na != nb {
		return cmp.Compare(na, nb)
	}
	return cmp.Compare(a, b)
}
