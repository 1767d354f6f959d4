package knowledge

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A mirrored store keeps its records in a Remote shared by a fleet of agents (etcd, in
// knowledge/etcdstore) and reads them from a local replica: a private bbolt file in a
// temporary directory, loaded once at OpenMirror and kept current by the Remote's watch.
// Every read of the Store (maps, tricks, routines, readings, apps, runs) is the same code
// as for a knowledge file, on the replica, so a step never waits on the network.
//
// A write runs the caller's function in a bbolt transaction on the replica, lists the
// records it changed (a walk of the replica compared with the records last seen from the
// remote) and commits them to the Remote only if nothing was written there since the
// replica's revision (compare-and-swap). When another agent wrote first, the replica
// rolls back, catches up with the Remote and the function runs again on the new state:
// two agents counting a page visit end with both visits counted. Only a committed
// remote transaction commits the replica's.
//
// When the Remote is away, reads go on from the replica; writes are queued (at most
// mirrorQueueCap) and retried in the background, and Close says what could not be stored.

// Remote is where a mirrored Store's records live; *etcdstore.Client satisfies it. Keys
// are the store's own encoding of bbolt's buckets, keys and sequences (recordKey), with no
// prefix: a Remote adds its own.
type Remote interface {
	// Load returns every record and the revision they were read at.
	Load(ctx context.Context) ([]MirrorRecord, int64, error)
	// Watch sends each change after revision after, in revision order, until ctx ends or
	// the watch fails (it returns ErrRemoteCompacted when after is no longer kept).
	Watch(ctx context.Context, after int64, changes chan<- Change) error
	// Commit writes changes if nothing was committed after revision base. It returns the
	// new revision and true, or the Remote's current revision and false on a conflict.
	Commit(ctx context.Context, base int64, changes []MirrorRecord) (rev int64, ok bool, err error)
	// Revision returns the Remote's current revision: a cheap call that says whether it
	// can be reached.
	Revision(ctx context.Context) (int64, error)
	// String names the Remote for messages (no credentials).
	String() string
	// Close ends the use of the Remote.
	Close() error
}

// MirrorRecord is one record of a mirrored store: a bbolt key, a bucket or a bucket's sequence.
type MirrorRecord struct {
	Key     string
	Value   []byte
	Deleted bool
}

// Change is the records one Remote transaction wrote, at revision Rev.
type Change struct {
	Rev     int64
	Records []MirrorRecord
}

const (
	mirrorQueueCap   = 256             // writes kept while the Remote is away
	mirrorAttempts   = 50              // compare-and-swap attempts of one write
	mirrorCommitWait = 2 * time.Second // one Remote commit
	mirrorRetryEvery = time.Second     // queued writes retried this often
	mirrorCatchUp    = 2 * time.Second // wait for the watch to reach a revision, then reload
	mirrorFlushWait  = 3 * time.Second // Close's last attempt at queued writes
	mirrorLoadWait   = 5 * time.Second // OpenMirror's load
)

// mirror is a Store's link to its Remote.
type mirror struct {
	remote Remote
	dir    string // the replica's directory, removed at Close

	mu      sync.Mutex
	cond    *sync.Cond        // signalled when rev moves
	rev     int64             // the Remote revision the replica holds
	records map[string][]byte // the records at rev (values nil for bucket markers)
	away    bool              // the last commit failed to reach the Remote
	queue   []func(*Tx) error // writes waiting for the Remote
	dropped int               // writes dropped: the queue was full

	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// OpenMirror opens a store whose records live in remote, loading them all into a local
// replica. opts.ReadOnly, Timeout and Preload apply as to Open; the replica is never
// synced to disk (it is a copy). The store owns remote and closes it.
func OpenMirror(remote Remote, opts Options) (*Store, error) {
	if remote == nil {
		return nil, fmt.Errorf("open shared knowledge: no store: %w", ErrInvalid)
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
	dir, err := os.MkdirTemp("", "fairy-knowledge-")
	if err != nil {
		_ = remote.Close()
		return nil, fmt.Errorf("open shared knowledge %s: replica: %w", remote, err)
	}
	fail := func(err error) (*Store, error) {
		_ = remote.Close()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	ropts := opts
	ropts.noSync = true
	db, err := openBolt(filepath.Join(dir, "replica.db"), ropts, false)
	if err != nil {
		return fail(err)
	}
	m := &mirror{remote: remote, dir: dir, records: map[string][]byte{}}
	m.cond = sync.NewCond(&m.mu)
	s := &Store{path: remote.String(), opts: opts, log: log, maps: map[string]*appMap{}, mirror: m}
	s.hold(db) // held until Close: the replica is private
	ctx, cancel := context.WithTimeout(context.Background(), mirrorLoadWait)
	defer cancel()
	if err := s.reload(ctx); err != nil {
		_ = db.Close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", ErrRemoteUnreachable, err)
		}
		return fail(fmt.Errorf("open shared knowledge %s: %w", remote, err))
	}
	if err := s.checkMirrorSchema(); err != nil {
		_ = db.Close()
		return fail(err)
	}
	if opts.Preload {
		if err := s.preload(); err != nil {
			_ = db.Close()
			return fail(err)
		}
	}
	wctx, wcancel := context.WithCancel(context.Background())
	m.cancel = wcancel
	m.wg.Add(2)
	go func() { defer m.wg.Done(); s.follow(wctx) }()
	go func() { defer m.wg.Done(); s.retryQueued(wctx) }()
	return s, nil
}

// checkMirrorSchema initialises an empty Remote (through a shared write, so two agents
// starting at once agree) and checks the schema of a non-empty one.
func (s *Store) checkMirrorSchema() error {
	var fresh bool
	err := s.view(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			fresh = true
			return nil
		}
		n, err := strconv.Atoi(string(meta.Get(keySchema)))
		if err != nil || n != schemaVersion {
			return fmt.Errorf("shared knowledge %s has schema %q but this fairy reads version %d; use a matching fairy or move the knowledge with export/import: %w", s.path, meta.Get(keySchema), schemaVersion, ErrSchema)
		}
		return nil
	})
	if err != nil || !fresh {
		return err
	}
	if s.opts.ReadOnly {
		return fmt.Errorf("shared knowledge %s is empty and opened read-only: %w", s.path, ErrNotKnowledge)
	}
	err = s.updateMirror(func(tx *Tx) error {
		if tx.tx.Bucket(bucketMeta) != nil {
			return nil // another agent initialised it first
		}
		return s.initialise(tx.tx)
	}, false)
	if err != nil {
		return fmt.Errorf("initialise shared knowledge %s: %w", s.path, err)
	}
	return nil
}

// closeMirror stops following the Remote, tries the queued writes one last time and
// says how many could not be stored.
func (s *Store) closeMirror() error {
	m := s.mirror
	m.cancel()
	m.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), mirrorFlushWait)
	defer cancel()
	s.flushQueued(ctx)
	m.mu.Lock()
	lost := len(m.queue) + m.dropped
	m.queue = nil
	m.mu.Unlock()
	// No transaction may reopen the replica once it goes.
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.release()
	_ = m.remote.Close()
	_ = os.RemoveAll(m.dir)
	if lost > 0 {
		return fmt.Errorf("%d knowledge writes could not be stored in %s: %w", lost, s.path, ErrRemoteAway)
	}
	return nil
}

// Pending says how many writes wait for the Remote, and how many were dropped because
// too many waited; both are zero for a knowledge file.
func (s *Store) Pending() (queued, dropped int) {
	if s.mirror == nil {
		return 0, 0
	}
	s.mirror.mu.Lock()
	defer s.mirror.mu.Unlock()
	return len(s.mirror.queue), s.mirror.dropped
}
