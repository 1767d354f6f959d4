package knowledge

import (
	"bytes"
	"context"
	"errors"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Keeping a mirrored store's replica current: the Remote's watch applied as it comes, and a
// full reload when the watch fails or falls behind.

// catchUp waits for the watch to bring the replica to revision rev, and loads everything
// again when it does not in time.
func (s *Store) catchUp(rev int64) {
	m := s.mirror
	deadline := time.Now().Add(mirrorCatchUp)
	m.mu.Lock()
	for m.rev < rev && time.Now().Before(deadline) {
		m.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		m.mu.Lock()
	}
	behind := m.rev < rev
	m.mu.Unlock()
	if behind {
		ctx, cancel := context.WithTimeout(context.Background(), mirrorLoadWait)
		defer cancel()
		if err := s.reload(ctx); err != nil {
			s.log.Debug("reload shared knowledge", keyFile, s.path, "err", err)
		}
	}
}

// follow applies the Remote's changes to the replica until ctx ends, loading everything
// again when the watch fails.
func (s *Store) follow(ctx context.Context) {
	m := s.mirror
	for ctx.Err() == nil {
		m.mu.Lock()
		from := m.rev
		m.mu.Unlock()
		changes := make(chan Change, 64)
		done := make(chan error, 1)
		go func() { done <- m.remote.Watch(ctx, from, changes) }()
		var err error
	watch:
		for {
			select {
			case c := <-changes:
				if aerr := s.applyChange(c); aerr != nil {
					s.log.Debug("apply shared knowledge change", keyFile, s.path, "err", aerr)
				}
			case err = <-done:
				break watch
			}
		}
		for len(changes) > 0 {
			_ = s.applyChange(<-changes)
		}
		if ctx.Err() != nil {
			return
		}
		s.log.Debug("shared knowledge watch ended", keyFile, s.path, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(mirrorRetryEvery):
		}
		if errors.Is(err, ErrRemoteCompacted) {
			lctx, cancel := context.WithTimeout(ctx, mirrorLoadWait)
			_ = s.reload(lctx)
			cancel()
		}
	}
}

// applyChange applies one Remote transaction to the replica, unless the replica has it.
func (s *Store) applyChange(c Change) error {
	m := s.mirror
	db, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.release()
	return s.guard(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			m.mu.Lock()
			defer m.mu.Unlock()
			if c.Rev <= m.rev {
				return nil
			}
			if err := applyRecords(tx, c.Records); err != nil {
				return err
			}
			applyToMap(m.records, c.Records)
			m.rev = c.Rev
			m.cond.Broadcast()
			return nil
		})
	})
}

// reload loads every record of the Remote and makes the replica hold exactly them.
func (s *Store) reload(ctx context.Context) error {
	m := s.mirror
	recs, rev, err := m.remote.Load(ctx)
	if err != nil {
		return err
	}
	db, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.release()
	return s.guard(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			m.mu.Lock()
			defer m.mu.Unlock()
			if rev <= m.rev && len(m.records) > 0 {
				return nil
			}
			loaded := make(map[string][]byte, len(recs))
			for _, r := range recs {
				loaded[r.Key] = r.Value
			}
			var changes []MirrorRecord
			for k, v := range loaded {
				if old, ok := m.records[k]; !ok || !bytes.Equal(old, v) {
					changes = append(changes, MirrorRecord{Key: k, Value: v})
				}
			}
			for k := range m.records {
				if _, ok := loaded[k]; !ok {
					changes = append(changes, MirrorRecord{Key: k, Deleted: true})
				}
			}
			if err := applyRecords(tx, changes); err != nil {
				return err
			}
			m.records = loaded
			m.rev = rev
			m.cond.Broadcast()
			return nil
		})
	})
}
