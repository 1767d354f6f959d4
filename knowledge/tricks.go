package knowledge

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

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

// ---- Store wrappers: one transaction each ----

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
	q := Terms(query)
	docs := make([]bm25Doc, len(cands))
	for i, c := range cands {
		ts := Terms(c.Text)
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

// ---- transaction-level operations ----

// AddTrick stores a new trick in this transaction.
func (tx *Tx) AddTrick(t Trick) (Trick, error) {
	if err := t.validate(); err != nil {
		return Trick{}, err
	}
	if t.Provenance.Time.IsZero() {
		t.Provenance.Time = tx.s.now()
	}
	t.Provenance.Time = t.Provenance.Time.UTC()
	ids, err := root(tx.tx, bucketTrickIDs)
	if err != nil {
		return Trick{}, fmt.Errorf("add trick: %w", err)
	}
	if t.ID == "" {
		if t.ID, err = tx.newTrickID(); err != nil {
			return Trick{}, fmt.Errorf("add trick: %w", err)
		}
	} else if ids.Get([]byte(t.ID)) != nil {
		return Trick{}, invalidf("add trick %s: ID already used", t.ID)
	}
	t.rescore()
	if err := tx.putTrick(t); err != nil {
		return Trick{}, fmt.Errorf("add trick: %w", err)
	}
	return t, nil
}

func (tx *Tx) newTrickID() (string, error) {
	ids, err := root(tx.tx, bucketTrickIDs)
	if err != nil {
		return "", err
	}
	for range 1000 {
		var id string
		if tx.s.opts.NewID != nil {
			id = tx.s.opts.NewID()
		} else {
			n, err := ids.NextSequence()
			if err != nil {
				return "", err
			}
			id = "t" + strconv.FormatUint(n, 10)
		}
		if id != "" && ids.Get([]byte(id)) == nil {
			return id, nil
		}
	}
	return "", invalidf("no free trick ID")
}

func (tx *Tx) putTrick(t Trick) error {
	if tx.s.opts.ReadOnly {
		return ErrReadOnly
	}
	tricks, err := root(tx.tx, bucketTricks)
	if err != nil {
		return err
	}
	ab, err := tricks.CreateBucketIfNotExists([]byte(t.App))
	if err != nil {
		return err
	}
	ids, err := root(tx.tx, bucketTrickIDs)
	if err != nil {
		return err
	}
	if err := ids.Put([]byte(t.ID), []byte(t.App)); err != nil {
		return err
	}
	return putJSON(ab, t.ID, t)
}

// UpsertTrick adds t or merges it into a near-duplicate (see Store.UpsertTrick).
func (tx *Tx) UpsertTrick(t Trick) (Trick, bool, error) {
	if err := t.validate(); err != nil {
		return Trick{}, false, err
	}
	cands, err := listTricks(tx.tx, t.App, t.Kind, false)
	if err != nil {
		return Trick{}, false, fmt.Errorf("upsert trick: %w", err)
	}
	tf := termFreq(Terms(t.Text))
	best, bestSim := -1, 0.0
	for i, c := range cands {
		if c.App != t.App {
			continue
		}
		if sim := similarity(tf, termFreq(Terms(c.Text))); sim > bestSim {
			best, bestSim = i, sim
		}
	}
	if best < 0 || bestSim < tx.s.opts.MergeThreshold {
		t, err := tx.AddTrick(t)
		return t, false, err
	}
	old := cands[best]
	// Keep the longer wording: a re-learned tip usually adds detail.
	if len([]rune(t.Text)) > len([]rune(old.Text)) {
		old.Text = t.Text
	}
	old.Uses += t.Uses
	old.Successes += t.Successes
	old.Merges++
	if t.Provenance.Time.IsZero() {
		t.Provenance.Time = tx.s.now()
	}
	if !t.Provenance.Time.Before(old.Provenance.Time) {
		old.Provenance = t.Provenance
		old.Provenance.Time = old.Provenance.Time.UTC()
	}
	old.rescore()
	if err := tx.putTrick(old); err != nil {
		return Trick{}, false, fmt.Errorf("upsert trick %s: %w", old.ID, err)
	}
	return old, true, nil
}

// RecordUse counts one use of a trick (see Store.RecordUse).
func (tx *Tx) RecordUse(id string, success bool) (Trick, error) {
	return tx.updateTrick(id, "record use of", func(t *Trick) {
		t.Uses++
		if success {
			t.Successes++
		}
	})
}

// Demote marks a trick contradicted (see Store.Demote).
func (tx *Tx) Demote(id string) (Trick, error) {
	return tx.updateTrick(id, "demote", func(t *Trick) { t.Demotions++ })
}

func (tx *Tx) updateTrick(id, op string, f func(*Trick)) (Trick, error) {
	t, err := getTrick(tx.tx, id)
	if err != nil {
		return Trick{}, fmt.Errorf("%s %w", op, err) // "demote trick t1 not found"
	}
	f(&t)
	t.rescore()
	if err := tx.putTrick(t); err != nil {
		return Trick{}, fmt.Errorf("%s trick %s: %w", op, id, err)
	}
	return t, nil
}

// DeleteTrick removes a trick in this transaction.
func (tx *Tx) DeleteTrick(id string) error {
	t, err := getTrick(tx.tx, id)
	if err != nil {
		return err // it names the trick
	}
	if err := tx.tx.Bucket(bucketTricks).Bucket([]byte(t.App)).Delete([]byte(id)); err != nil {
		return fmt.Errorf("delete trick %s: %w", id, err)
	}
	if err := tx.tx.Bucket(bucketTrickIDs).Delete([]byte(id)); err != nil {
		return fmt.Errorf("delete trick %s: %w", id, err)
	}
	return nil
}

func getTrick(tx *bolt.Tx, id string) (Trick, error) {
	var ids, tricks *bolt.Bucket
	if ids, tricks = tx.Bucket(bucketTrickIDs), tx.Bucket(bucketTricks); ids == nil || tricks == nil {
		return Trick{}, notFoundf("trick %s not found", id)
	}
	app := ids.Get([]byte(id))
	if app == nil {
		return Trick{}, notFoundf("trick %s not found", id)
	}
	ab := tricks.Bucket(app)
	var v []byte
	if ab != nil {
		v = ab.Get([]byte(id))
	}
	if v == nil {
		return Trick{}, fmt.Errorf("trick %s: index points at missing record: %w", id, ErrNotFound)
	}
	var t Trick
	if err := decode("trick", []byte(id), v, &t); err != nil {
		return Trick{}, err
	}
	return t, nil
}

// listTricks reads tricks of app (every app when empty; plus Common when
// withCommon) and kind (every kind when empty).
func listTricks(tx *bolt.Tx, app string, kind Kind, withCommon bool) ([]Trick, error) {
	tricks := tx.Bucket(bucketTricks)
	if tricks == nil {
		return nil, nil
	}
	var out []Trick
	read := func(name []byte) error {
		return eachJSON(tricks.Bucket(name), "trick", func(_ []byte, t Trick) error {
			if kind == "" || t.Kind == kind {
				out = append(out, t)
			}
			return nil
		})
	}
	if app == "" {
		return out, tricks.ForEachBucket(read)
	}
	if err := read([]byte(app)); err != nil {
		return nil, err
	}
	if withCommon && app != Common {
		if err := read([]byte(Common)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
