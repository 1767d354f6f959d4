package knowledge

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Writes to a mirrored store: each runs on the replica and commits to the Remote by
// compare-and-swap, again on a newer state after a conflict; while the Remote is away,
// writes wait in a queue retried in the background.

// updateMirror is Update for a mirrored store. With queue, a write the Remote cannot take
// now is queued and ErrRemoteAway returned.
func (s *Store) updateMirror(fn func(*Tx) error, queue bool) error {
	m := s.mirror
	m.mu.Lock()
	away := m.away
	m.mu.Unlock()
	if away && queue {
		return s.enqueue(fn)
	}
	for attempt := 0; attempt < mirrorAttempts; attempt++ {
		rev, err := s.tryMirror(fn)
		switch {
		case err == nil:
			m.mu.Lock()
			m.away = false
			m.mu.Unlock()
			return nil
		case errors.Is(err, errMirrorConflict):
			s.catchUp(rev)
			time.Sleep(time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 5))))
		case errors.Is(err, errMirrorRemote):
			m.mu.Lock()
			m.away = true
			m.mu.Unlock()
			if queue {
				s.log.Debug("shared knowledge unreachable, write queued", keyFile, s.path, "err", err)
				return s.enqueue(fn)
			}
			return fmt.Errorf("write shared knowledge %s: %w", s.path, err)
		default:
			return err
		}
	}
	return fmt.Errorf("write shared knowledge %s: %d attempts met newer writes of other agents: %w", s.path, mirrorAttempts, ErrRemoteAway)
}

var (
	errMirrorConflict = errors.New("knowledge: shared store moved on")
	errMirrorRemote   = errors.New("knowledge: shared store unreachable")
)

// tryMirror is one attempt of a write: fn on the replica, its changes committed to the
// remote at the replica's revision, the replica committed only if the Remote took them.
// On a conflict it returns the Remote's revision.
func (s *Store) tryMirror(fn func(*Tx) error) (int64, error) {
	m := s.mirror
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	if d := s.damage.Load(); d != nil {
		return 0, d
	}
	db, err := s.acquire()
	if err != nil {
		return 0, err
	}
	defer s.release()
	var t *Tx
	var txid uint64
	var conflictRev int64
	var remoteHas bool
	err = s.guard(func() error {
		return db.Update(func(btx *bolt.Tx) error {
			txid = uint64(btx.ID())
			s.syncCache(txid - 1)
			t = &Tx{s: s, tx: btx}
			if err := fn(t); err != nil {
				return err
			}
			m.mu.Lock()
			base := m.rev
			changes, err := diffRecords(btx, m.records)
			m.mu.Unlock()
			if err != nil || len(changes) == 0 {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), mirrorCommitWait)
			defer cancel()
			rev, ok, err := m.remote.Commit(ctx, base, changes)
			if err != nil {
				return fmt.Errorf("%w: %w", errMirrorRemote, err)
			}
			if !ok {
				conflictRev = rev
				return errMirrorConflict
			}
			// The replica's commit below fails only on a disk error; the Remote holds the
			// write, so the replica is then loaded again from it (below).
			remoteHas = true
			m.mu.Lock()
			applyToMap(m.records, changes)
			m.rev = rev
			m.cond.Broadcast()
			m.mu.Unlock()
			return nil
		})
	})
	if err != nil && remoteHas {
		// The records and revision say the write is in the replica; it is not.
		m.mu.Lock()
		m.records, m.rev = map[string][]byte{}, 0
		m.mu.Unlock()
		clear(s.maps)
		ctx, cancel := context.WithTimeout(context.Background(), mirrorLoadWait)
		defer cancel()
		if rerr := s.reload(ctx); rerr != nil {
			return 0, fmt.Errorf("%w (and reloading the replica: %w)", err, rerr)
		}
		return 0, nil // the write is stored; the replica holds it now
	}
	if err != nil {
		return conflictRev, err
	}
	for _, f := range t.after {
		f()
	}
	s.mapsTx = txid
	return 0, nil
}

// enqueue keeps fn for retryQueued.
func (s *Store) enqueue(fn func(*Tx) error) error {
	m := s.mirror
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) >= mirrorQueueCap {
		m.dropped++
		return fmt.Errorf("write shared knowledge %s: %d writes already wait, this one is dropped: %w", s.path, len(m.queue), ErrRemoteAway)
	}
	m.queue = append(m.queue, fn)
	return fmt.Errorf("write shared knowledge %s (%d waiting): %w", s.path, len(m.queue), ErrRemoteAway)
}

// retryQueued retries the queued writes until ctx ends.
func (s *Store) retryQueued(ctx context.Context) {
	t := time.NewTicker(mirrorRetryEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.flushQueued(ctx)
		}
	}
}

// flushQueued writes the queued writes in order, stopping at the first the Remote does
// not take.
func (s *Store) flushQueued(ctx context.Context) {
	m := s.mirror
	m.mu.Lock()
	away, n := m.away, len(m.queue)
	m.mu.Unlock()
	if n == 0 {
		return
	}
	if away {
		// Probe without the store's lock, so that reads go on while the Remote is away.
		pctx, cancel := context.WithTimeout(ctx, mirrorCommitWait)
		_, err := m.remote.Revision(pctx)
		cancel()
		if err != nil {
			return
		}
	}
	for ctx.Err() == nil {
		m.mu.Lock()
		if len(m.queue) == 0 {
			m.mu.Unlock()
			return
		}
		fn := m.queue[0]
		m.mu.Unlock()
		err := s.updateMirror(fn, false)
		if errors.Is(err, errMirrorRemote) || errors.Is(err, ErrRemoteAway) {
			return
		}
		if err != nil {
			s.log.Debug("queued knowledge write failed", keyFile, s.path, "err", err)
		}
		m.mu.Lock()
		m.queue = m.queue[1:]
		m.mu.Unlock()
	}
}
