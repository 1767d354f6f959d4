package knowledge

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// How a Store holds its file. bbolt locks the file (flock: exclusive for a writer, shared
// for a read-only reader) for as long as a bolt.DB is open. A run lasts minutes and waits
// on the person; holding the lock that long would keep `fairy map list`, `fairy tricks
// list`, `fairy knowledge export` and a second run out of the file. So a Store opens the
// file for each transaction and closes it right after: the lock is held for milliseconds,
// and every open waits for it, failing with ErrInUse only when another keeps it (openBolt).
// Transactions of one Store that overlap share one open handle; bbolt's own locking
// serialises writers across processes, so two writers never corrupt the file, and every
// write reads the records it changes inside its transaction, so two writers' counts add up.
//
// The App Map cache outlives a transaction, so it must notice another process's writes:
// bbolt numbers transactions, and a read transaction whose number is not the one the cache
// was read at (or a write whose base is not) drops the cache (syncCache).

// lockRetry is how often openBolt tries a lock another holds, and lockWaitMax bounds a
// wait that other writers' commits keep extending.
const (
	lockRetry   = 2 * time.Millisecond
	lockWaitMax = 30 * time.Second
)

// openBolt opens the file (tryOpenBolt) once its lock is free. Writers hold the lock for
// a transaction's milliseconds and take it again at once, so a waiter that tried it only
// every 50 ms (bbolt's own wait) rarely found it free: behind other busy writers it gave
// up with ErrInUse though no one kept the file. So the lock is tried every lockRetry, and
// Options.Timeout counts from the last commit seen: ErrInUse means that a holder kept the
// lock that long without committing (a long transaction, a reader, a stuck process), or
// that other writers' commits kept this one out for lockWaitMax.
func openBolt(path string, opts Options, readOnly bool) (*bolt.DB, error) {
	start := time.Now()
	deadline := start.Add(opts.Timeout)
	seen, _ := committedTx(path)
	for {
		db, err := tryOpenBolt(path, opts, readOnly)
		if !errors.Is(err, ErrInUse) {
			return db, err
		}
		now := time.Now()
		if tx, ok := committedTx(path); ok && tx != seen {
			seen, deadline = tx, now.Add(opts.Timeout)
			if limit := start.Add(lockWaitMax); deadline.After(limit) {
				deadline = limit
			}
		}
		if !now.Before(deadline) {
			return nil, err
		}
		time.Sleep(min(lockRetry, deadline.Sub(now)))
	}
}

// committedTx is the number of the last transaction committed to the file at path, read
// from its meta pages without the lock (ok false when they do not read, as for a file of
// pages larger than this machine's, bbolt's default).
func committedTx(path string) (txid uint64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	head := make([]byte, 2*os.Getpagesize())
	n, err := f.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	d, err := boltfile.Parse(head[:n], int64(n))
	if d == nil {
		return 0, false
	}
	return d.Meta.TxID, true
}

// fileHandle is the open bbolt file shared by the transactions of a Store that overlap.
type fileHandle struct {
	mu    sync.Mutex
	db    *bolt.DB
	users int
}

// acquire returns the open file, opening it when no transaction of s has it open. Every
// acquire is paired with a release.
func (s *Store) acquire() (*bolt.DB, error) {
	h := &s.file
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.db == nil {
		// bbolt would create a missing file: one removed while a run goes is an error.
		if _, err := os.Stat(s.path); err != nil {
			return nil, fmt.Errorf("open knowledge file %s (moved or removed while fairy had it open?): %w", s.path, err)
		}
		db, err := openBolt(s.path, s.opts, s.opts.ReadOnly)
		var de *DamageError
		if errors.As(err, &de) {
			s.damage.CompareAndSwap(nil, de)
		}
		if err != nil {
			// bbolt failing mid-open leaves its handle, and the lock, behind: once the file
			// is known damaged, a lock that never frees is that, not another process.
			if d := s.damage.Load(); d != nil {
				return nil, d
			}
			return nil, err
		}
		h.db = db
	}
	h.users++
	return h.db, nil
}

// hold makes db, just opened by Open, the handle of s, as an acquire would.
func (s *Store) hold(db *bolt.DB) {
	s.file.mu.Lock()
	defer s.file.mu.Unlock()
	s.file.db, s.file.users = db, 1
}

// release ends one acquire; the last one closes the file and frees its lock. A close
// error is logged: every transaction has committed (and synced) or rolled back by then.
func (s *Store) release() {
	h := &s.file
	h.mu.Lock()
	defer h.mu.Unlock()
	h.users--
	if h.users > 0 || h.db == nil {
		return
	}
	if err := h.db.Close(); err != nil {
		s.log.Debug("close knowledge file", keyFile, s.path, "err", err)
	}
	h.db = nil
}

// syncCache drops the cached App Maps unless they were read at transaction txid, the
// file's state now: another process (or another Store) wrote since. s.mu must be held
// for writing.
func (s *Store) syncCache(txid uint64) {
	if txid != s.mapsTx {
		clear(s.maps)
		s.mapsTx = txid
	}
}
