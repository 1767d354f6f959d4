package knowledge

import (
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestCheckProblemsEscaped: Check's problems name apps and records as the file holds them
// (a package a phone reported, a shared file's keys); a control character in one is
// written out, so that knowledge check cannot set a terminal's title or clear it.
func TestCheckProblemsEscaped(t *testing.T) {
	const evil = "com.b\x1b]0;PWNED\a\x1b[2J\u202e"
	s, path := openTemp(t, Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		tricks, err := tx.CreateBucketIfNotExists(bucketTricks)
		if err != nil {
			return err
		}
		b, err := tricks.CreateBucket([]byte(evil))
		if err != nil {
			return err
		}
		if err := b.Put([]byte("t1"), []byte(`{"id":"t9","app":"x\u001b[2J"}`)); err != nil {
			return err
		}
		if err := b.Put([]byte("t2"), []byte("not json")); err != nil {
			return err
		}
		maps, err := tx.CreateBucketIfNotExists(bucketMaps)
		if err != nil {
			return err
		}
		_, err = maps.CreateBucket([]byte(evil))
		return err
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var de *DamageError
	if err := s.Check(); !errors.As(err, &de) || len(de.Problems) < 3 {
		t.Fatalf("Check: %v, want a *DamageError of three problems or more", err)
	}
	for _, p := range de.Problems {
		if strings.ContainsAny(p, "\x1b\a\u202e") {
			t.Errorf("a raw control character in the problem %q", p)
		}
	}
}
