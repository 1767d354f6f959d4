package knowledge

import (
	"fmt"
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// The trick operations of a transaction (Tx), and the bbolt reads the Store's API shares.

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
		return errReadOnly
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
	tf := termFreq(terms(t.Text))
	best, bestSim := -1, 0.0
	for i, c := range cands {
		if c.App != t.App {
			continue
		}
		if sim := similarity(tf, termFreq(terms(c.Text))); sim > bestSim {
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
