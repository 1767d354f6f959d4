package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Readings remember what the Key Context Collector read off a page content, so that the
// same content, seen again, is not sent to the model again: its facts are already known.
// A content is keyed by a hash of the page signature and the screen's whole text form,
// and of the instruction the facts were read for (which facts matter depends on it) or
// of none (what any task read there); the texts themselves are never stored.
//
// Layout: readings/<app>  content key -> Reading (JSON).
var bucketReadings = []byte("readings")

// maxReadingFacts bounds the facts kept per reading; maxReadings the readings kept per
// app: past it, the tenth read longest ago goes.
const (
	maxReadingFacts = 32
	maxReadings     = 4096
)

// Fact is one key/value fact read off a screen.
type Fact struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Reading is what was read off one page content for one instruction.
type Reading struct {
	Facts []Fact    `json:"facts,omitempty"`
	Reads int       `json:"reads"` // times the model read this content
	Last  time.Time `json:"last,omitzero"`
}

// ReadingKey is the key of a page content read for an instruction ("" for any task): a
// hash, so neither the instruction nor the screen's text is stored.
func ReadingKey(instruction, signature, text string) string {
	h := sha256.New()
	for _, s := range []string{strings.TrimSpace(instruction), signature, text} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Reading returns what was read off the content with key in app, or, given several keys,
// off the first of them that was read, in one read of the store; ok is false when none
// was read.
func (s *Store) Reading(app string, keys ...string) (r Reading, ok bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketReadings)
		if b == nil {
			return nil
		}
		if b = b.Bucket([]byte(app)); b == nil {
			return nil
		}
		for _, key := range keys {
			if v := b.Get([]byte(key)); v != nil {
				ok = true
				return decode("reading", []byte(key), v, &r)
			}
		}
		return nil
	})
	if err != nil {
		return Reading{}, false, fmt.Errorf("reading of %s: %w", app, err)
	}
	return r, ok, nil
}

// PutReading records that the content with key in app was read and gave facts (none is
// a result too: nothing on it matters). Facts already recorded for it are kept; a key
// read again takes its newest value.
func (s *Store) PutReading(app, key string, facts []Fact) error {
	return s.Update(func(tx *Tx) error { return tx.PutReading(app, key, facts) })
}

// PutReading is Store.PutReading in this transaction.
func (tx *Tx) PutReading(app, key string, facts []Fact) error {
	if strings.TrimSpace(app) == "" || strings.TrimSpace(key) == "" {
		return fmt.Errorf("put reading: empty app or key: %w", ErrInvalid)
	}
	top, err := root(tx.tx, bucketReadings)
	if err != nil {
		return err
	}
	b, err := top.CreateBucketIfNotExists([]byte(app))
	if err != nil {
		return err
	}
	var r Reading
	if v := b.Get([]byte(key)); v != nil {
		if err := decode("reading", []byte(key), v, &r); err != nil {
			r = Reading{} // a damaged reading is read again, not kept
		}
	} else if b.Stats().KeyN >= maxReadings {
		if err := dropOldReadings(b); err != nil {
			return err
		}
	}
	r.Reads++
	r.Last = tx.s.now()
	for _, f := range facts {
		f.Key, f.Value = strings.TrimSpace(f.Key), strings.TrimSpace(f.Value)
		if f.Key == "" || f.Value == "" {
			continue
		}
		i := 0
		for i < len(r.Facts) && r.Facts[i].Key != f.Key {
			i++
		}
		switch {
		case i < len(r.Facts):
			r.Facts[i].Value = f.Value
		case len(r.Facts) < maxReadingFacts:
			r.Facts = append(r.Facts, f)
		}
	}
	return putJSON(b, key, r)
}

// dropOldReadings deletes the tenth of b's readings read longest ago.
func dropOldReadings(b *bolt.Bucket) error {
	type aged struct {
		key  string
		last time.Time
	}
	var all []aged
	err := eachJSON(b, "reading", func(k []byte, r Reading) error {
		all = append(all, aged{string(k), r.Last})
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b aged) int { return a.last.Compare(b.last) })
	for _, a := range all[:max(1, len(all)/10)] {
		if err := b.Delete([]byte(a.key)); err != nil {
			return err
		}
	}
	return nil
}

// listReadings lists every reading, by app and key.
func listReadings(tx *bolt.Tx) ([]readingRecord, error) {
	top := tx.Bucket(bucketReadings)
	if top == nil {
		return nil, nil
	}
	var apps []string
	_ = top.ForEachBucket(func(k []byte) error { apps = append(apps, string(k)); return nil })
	var out []readingRecord
	for _, a := range apps {
		err := eachJSON(top.Bucket([]byte(a)), "reading", func(k []byte, r Reading) error {
			out = append(out, readingRecord{App: a, Key: string(k), Reading: r})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
