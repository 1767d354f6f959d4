package knowledge

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestMirrorRecordsRoundTrip: a bbolt file's buckets, keys and sequences become records
// (diffRecords) that rebuild the same file elsewhere (applyRecords), names with '/', '%',
// '@', '=' and CJK included; a later change is only what changed, and a bucket removed
// is removed on the other side.
func TestMirrorRecordsRoundTrip(t *testing.T) {
	open := func(name string) *bolt.DB {
		db, err := bolt.Open(filepath.Join(t.TempDir(), name), 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	src, dst := open("src.db"), open("dst.db")
	records := map[string][]byte{}
	sync := func(change func(tx *bolt.Tx) error) []MirrorRecord {
		t.Helper()
		var changes []MirrorRecord
		err := src.Update(func(tx *bolt.Tx) error {
			if err := change(tx); err != nil {
				return err
			}
			var err error
			changes, err = diffRecords(tx, records)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		applyToMap(records, changes)
		if err := dst.Update(func(tx *bolt.Tx) error { return applyRecords(tx, changes) }); err != nil {
			t.Fatal(err)
		}
		// The copy must list no change against the same records.
		if err := dst.View(func(tx *bolt.Tx) error {
			again, err := diffRecords(tx, records)
			if len(again) != 0 {
				t.Errorf("copy differs from the source: %+v", again)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return changes
	}
	odd := []byte("com.a/b%c@d=e 外卖")
	first := sync(func(tx *bolt.Tx) error {
		maps, err := tx.CreateBucket([]byte("maps"))
		if err != nil {
			return err
		}
		app, err := maps.CreateBucket(odd)
		if err != nil {
			return err
		}
		pages, err := app.CreateBucket([]byte("pages"))
		if err != nil {
			return err
		}
		if _, err := pages.NextSequence(); err != nil {
			return err
		}
		if err := pages.Put([]byte("/p#1"), []byte(`{"visits":1}`)); err != nil {
			return err
		}
		_, err = tx.CreateBucket([]byte("empty"))
		return err
	})
	if len(first) != 6 { // maps, maps/odd, pages, its sequence, one page, empty
		t.Errorf("first sync: %d records %+v, want 6", len(first), first)
	}
	second := sync(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("maps")).Bucket(odd).Bucket([]byte("pages")).Put([]byte("/p#1"), []byte(`{"visits":2}`))
	})
	if len(second) != 1 || second[0].Deleted || string(second[0].Value) != `{"visits":2}` {
		t.Errorf("second sync: %+v, want the one page changed", second)
	}
	third := sync(func(tx *bolt.Tx) error { return tx.Bucket([]byte("maps")).DeleteBucket(odd) })
	if len(third) != 4 {
		t.Errorf("third sync: %+v, want 4 deletions", third)
	}
	if err := dst.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("maps")).Bucket(odd) != nil {
			t.Error("the removed bucket is still in the copy")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "=k", "@a/%zz", "@a/x", "@a/=k/@b"} {
		if _, err := parseKey(bad); err == nil {
			t.Errorf("parseKey(%q) accepted", bad)
		}
	}
}
