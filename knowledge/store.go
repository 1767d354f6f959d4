package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// SchemaVersion is the layout version this package reads and writes. It is
// stored in every knowledge file and checked on Open.
const SchemaVersion = 1

// DefaultTimeout is how long Open waits for the file lock when
// Options.Timeout is zero.
const DefaultTimeout = time.Second

// DefaultMergeThreshold is the similarity (0..1) at or above which Upsert
// treats two tricks of the same app and kind as near-duplicates.
const DefaultMergeThreshold = 0.6

// Bucket names. The layout (schema 1):
//
//	meta                      schema -> "1", created -> RFC 3339 time
//	apps                      package -> App (JSON)
//	maps/<package>/pages      page key -> Page (JSON); sequence numbers page IDs
//	maps/<package>/trans      transition key -> Transition (JSON)
//	tricks/<app>              trick ID -> Trick (JSON); tricks' sequence numbers trick IDs
//	trickids                  trick ID -> app (index for Get/Delete by ID)
//	runs                      run ID -> Run (JSON)
var (
	bucketMeta     = []byte("meta")
	bucketApps     = []byte("apps")
	bucketMaps     = []byte("maps")
	bucketPages    = []byte("pages")
	bucketTrans    = []byte("trans")
	bucketTricks   = []byte("tricks")
	bucketTrickIDs = []byte("trickids")
	bucketRuns     = []byte("runs")

	keySchema  = []byte("schema")
	keyCreated = []byte("created")
)

// Options tunes Open. The zero value is useful.
type Options struct {
	// Timeout bounds the wait for the file lock; zero means DefaultTimeout.
	Timeout time.Duration
	// ReadOnly opens the file with a shared lock; writes fail with ErrReadOnly.
	// The file must exist.
	ReadOnly bool
	// Clock stamps first/last seen and provenance times; nil means time.Now.
	Clock func() time.Time
	// NewID names new tricks; nil numbers them t1, t2, … from the file.
	NewID func() string
	// MergeThreshold is Upsert's near-duplicate similarity; zero means
	// DefaultMergeThreshold.
	MergeThreshold float64
	// Preload loads every app's map at Open instead of on first use.
	Preload bool
	// Logger receives debug records; nil discards them.
	Logger *slog.Logger

	noSync bool // tests: commit without fsync
}

// Store is an open knowledge file: App Tricks, App Maps, app metadata and run
// history. It is safe for concurrent use by several goroutines. Every change
// is one bbolt transaction, so a crash leaves the last committed state.
type Store struct {
	db   *bolt.DB
	path string
	opts Options
	log  *slog.Logger

	mu     sync.RWMutex // guards maps and serialises writes with the cache
	maps   map[string]*appMap
	closed bool
	damage atomic.Pointer[DamageError] // set when bbolt failed on a page: no more writes
}

// Open opens (creating if needed, unless read-only) the knowledge file at path.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, fmt.Errorf("open knowledge file: empty path: %w", ErrInvalid)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.MergeThreshold <= 0 {
		opts.MergeThreshold = DefaultMergeThreshold
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// An existing file is verified before bbolt reads a page of it (damage.go); an empty
	// or missing one becomes a new knowledge file.
	info, err := os.Stat(path)
	if err != nil && (opts.ReadOnly || !errors.Is(err, fs.ErrNotExist)) {
		return nil, fmt.Errorf("open knowledge file %s: %w", path, err)
	}
	var db *bolt.DB
	switch {
	case err == nil && info.Size() > 0:
		db, err = openVerified(path, opts)
	case opts.ReadOnly:
		return nil, fmt.Errorf("knowledge file %s is empty and opened read-only: %w", path, ErrNotKnowledge)
	default:
		db, err = openBolt(path, opts, false)
	}
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, opts: opts, log: log, maps: map[string]*appMap{}}
	if err := s.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if opts.Preload {
		if err := s.preload(); err != nil {
			_ = db.Close()
			return nil, err
		}
	}
	return s, nil
}

func (s *Store) checkSchema() error {
	check := func(tx *bolt.Tx) (bool, error) {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return false, fmt.Errorf("knowledge file %s has no schema record: %w", s.path, ErrNotKnowledge)
			}
			return true, nil
		}
		v := meta.Get(keySchema)
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return false, fmt.Errorf("knowledge file %s has a bad schema record %q: %w", s.path, v, ErrNotKnowledge)
		}
		if n != SchemaVersion {
			return false, fmt.Errorf("knowledge file %s has schema version %d but this fairy reads version %d; use a matching fairy or move the knowledge with export/import: %w", s.path, n, SchemaVersion, ErrSchema)
		}
		return false, nil
	}
	var fresh bool
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		fresh, err = check(tx)
		return err
	})
	if err != nil || !fresh {
		return err
	}
	if s.opts.ReadOnly {
		return fmt.Errorf("knowledge file %s is empty and opened read-only: %w", s.path, ErrNotKnowledge)
	}
	err = s.guard(func() error { return s.db.Update(s.initialise) })
	if err != nil {
		return fmt.Errorf("initialise knowledge file %s: %w", s.path, err)
	}
	return nil
}

// initialise writes the layout of a new file.
func (s *Store) initialise(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if err := meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion))); err != nil {
		return err
	}
	if err := meta.Put(keyCreated, []byte(s.opts.Clock().UTC().Format(time.RFC3339))); err != nil {
		return err
	}
	for _, name := range [][]byte{bucketApps, bucketMaps, bucketTricks, bucketTrickIDs, bucketRuns} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// File returns the path of the file the store was opened from.
func (s *Store) File() string { return s.path }

// Close releases the file and its lock. Closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.maps = nil
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close knowledge file %s: %w", s.path, err)
	}
	return nil
}

// Tx is one write transaction: everything done through it commits together
// or not at all. Use it for a learning write that touches several records.
type Tx struct {
	s     *Store
	tx    *bolt.Tx
	after []func() // cache updates applied only once the transaction commits
}

// Update runs fn in one write transaction. If fn returns an error nothing is
// written. The Tx must not be used after fn returns.
func (s *Store) Update(fn func(*Tx) error) error {
	if s.opts.ReadOnly {
		return fmt.Errorf("write knowledge file %s: %w", s.path, ErrReadOnly)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if d := s.damage.Load(); d != nil {
		return d
	}
	var t *Tx
	err := s.guard(func() error {
		return s.db.Update(func(btx *bolt.Tx) error {
			t = &Tx{s: s, tx: btx}
			return fn(t)
		})
	})
	if err != nil {
		return err
	}
	for _, f := range t.after {
		f()
	}
	return nil
}

func (s *Store) view(fn func(*bolt.Tx) error) error {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	return s.guard(func() error { return s.db.View(fn) })
}

func (s *Store) now() time.Time { return s.opts.Clock().UTC() }

// root returns a top-level bucket, creating it in write transactions so that
// files from older builds of the same schema still work.
func root(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if b := tx.Bucket(name); b != nil {
		return b, nil
	}
	if !tx.Writable() {
		return nil, nil
	}
	return tx.CreateBucket(name)
}

// eachJSON decodes every record of b (none when b is nil) and hands it to fn
// with its key; what names a record in a decode error ("app", "run").
func eachJSON[T any](b *bolt.Bucket, what string, fn func(k []byte, v T) error) error {
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var x T
		if err := decode(what, k, v, &x); err != nil {
			return err
		}
		return fn(k, x)
	})
}

// decode decodes record k of kind what (a *recordError when it does not decode).
func decode(what string, k, v []byte, x any) error {
	if err := json.Unmarshal(v, x); err != nil {
		return &recordError{what: what, key: bytes.Clone(k), err: err}
	}
	return nil
}

func putJSON(b *bolt.Bucket, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), data)
}
