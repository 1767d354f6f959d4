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

// schemaVersion is the layout version this package reads and writes. It is
// stored in every knowledge file and checked on Open.
const schemaVersion = 1

// defaultTimeout is how long Open, and every transaction after it, waits for
// the file lock when Options.Timeout is zero.
const defaultTimeout = time.Second

// defaultMergeThreshold is the similarity (0..1) at or above which Upsert
// treats two tricks of the same app and kind as near-duplicates.
const defaultMergeThreshold = 0.6

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
	// Timeout bounds each wait for the file lock: at Open and at every
	// transaction, since the store holds the file only while a transaction
	// runs (file.go). It counts from the last commit another writer made, so
	// a wait behind busy writers is not a file kept (openBolt). Zero means
	// one second.
	Timeout time.Duration
	// ReadOnly opens the file with a shared lock; writes fail with ErrReadOnly.
	// The file must exist.
	ReadOnly bool
	// Clock stamps first/last seen and provenance times; nil means time.Now.
	Clock func() time.Time
	// NewID names new tricks; nil numbers them t1, t2, … from the file.
	NewID func() string
	// MergeThreshold is Upsert's near-duplicate similarity; zero means 0.6.
	MergeThreshold float64
	// Preload loads every app's map at Open instead of on first use.
	Preload bool
	// Logger receives debug records; nil discards them.
	Logger *slog.Logger

	noSync bool // tests: commit without fsync
}

// Store is an open knowledge file: App Tricks, App Maps, app metadata and run
// history. It is safe for concurrent use by several goroutines, and by several
// processes: it holds the file's lock only while a transaction runs (file.go).
// Every change is one bbolt transaction, so a crash leaves the last committed
// state.
type Store struct {
	path string
	opts Options
	log  *slog.Logger
	file fileHandle

	mu     sync.RWMutex // guards maps and serialises writes with the cache
	maps   map[string]*appMap
	mapsTx uint64 // the file's transaction the cached maps were read at
	closed bool
	damage atomic.Pointer[DamageError] // set when bbolt failed on a page: no more writes
	mirror *mirror                     // nil for a knowledge file (mirror.go)
}

// Open opens (creating if needed, unless read-only) the knowledge file at path.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, invalidf("open knowledge file: empty path")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.MergeThreshold <= 0 {
		opts.MergeThreshold = defaultMergeThreshold
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
	// The file stays open (and locked) through the schema check and preloading only.
	s := &Store{path: path, opts: opts, log: log, maps: map[string]*appMap{}}
	s.hold(db)
	defer s.release()
	if err := s.checkSchema(); err != nil {
		return nil, err
	}
	if opts.Preload {
		if err := s.preload(); err != nil {
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
		if n != schemaVersion {
			return false, fmt.Errorf("knowledge file %s has schema version %d but this fairy reads version %d; use a matching fairy or move the knowledge with export/import: %w", s.path, n, schemaVersion, ErrSchema)
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
	db, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.release()
	err = s.guard(func() error { return db.Update(s.initialise) })
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
	if err := meta.Put(keySchema, []byte(strconv.Itoa(schemaVersion))); err != nil {
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

// Close ends the use of the store; the file is not held between transactions,
// so a transaction still running frees it when it ends. Closing twice is
// harmless.
func (s *Store) Close() error {
	var err error
	if s.mirror != nil {
		s.mirror.closeOnce.Do(func() { err = s.closeMirror() })
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.maps = nil
	return err
}

// Tx is one write transaction: everything done through it commits together
// or not at all. Use it for a learning write that touches several records.
type Tx struct {
	s     *Store
	tx    *bolt.Tx
	after []func() // cache updates applied only once the transaction commits
}

// Update runs fn in one write transaction. If fn returns an error nothing is
// written. The Tx must not be used after fn returns. On a mirrored store
// (OpenMirror) fn may run more than once — again on newer state when another
// agent wrote first, and later when the shared store was away (ErrRemoteAway) —
// so it must do nothing outside tx that cannot be repeated.
func (s *Store) Update(fn func(*Tx) error) error {
	if s.opts.ReadOnly {
		return fmt.Errorf("write knowledge file %s: %w", s.path, errReadOnly)
	}
	if s.mirror != nil {
		return s.updateMirror(fn, true)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if d := s.damage.Load(); d != nil {
		return d
	}
	db, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.release()
	var t *Tx
	var txid uint64
	err = s.guard(func() error {
		return db.Update(func(btx *bolt.Tx) error {
			txid = uint64(btx.ID())
			s.syncCache(txid - 1) // the state this write starts from
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
	s.mapsTx = txid
	return nil
}

func (s *Store) view(fn func(*bolt.Tx) error) error {
	s.mu.RLock()
	closed := s.closed
	s.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	db, err := s.acquire()
	if err != nil {
		return err
	}
	defer s.release()
	return s.guard(func() error { return db.View(fn) })
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
