package knowledge

import (
	"errors"
	"fmt"
	"os"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// How a Store holds its file. bbolt locks the file (flock: exclusive for a writer, shared
// for a read-only reader) for as long as a bolt.DB is open. A run lasts minutes and waits
// on the person; holding the lock that long would keep `fairy map list`, `fairy tricks
// list`, `fairy knowledge export` and a second run out of the file. So a Store opens the
// file for each transaction and closes it right after: the lock is held for milliseconds,
// and every open waits for it up to Options.Timeout (bbolt retries the lock every 50 ms),
// then fails with ErrInUse. Transactions of one Store that overlap share one open handle;
// bbolt's own locking serialises writers across processes, so two writers never corrupt
// the file, and every write reads the records it changes inside its transaction, so two
// writers' counts add up.
//
// The App Map cache outlives a transaction, so it must notice another process's writes:
// bbolt numbers transactions, and a read transaction whose number is not the one the cache
// was read at (or a write whose base is not) drops the cache (syncCache).

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
