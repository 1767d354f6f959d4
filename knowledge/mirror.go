package knowledge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
// Remote) and commits them to the Remote only if nothing was written there since the
// replica's revision (compare-and-swap). When another agent wrote first, the replica
// rolls back, catches up with the Remote and the function runs again on the new state:
// two agents counting a page visit end with both visits counted. Only a committed
// Remote transaction commits the replica's.
//
// When the Remote is away, reads go on from the replica; writes are queued (at most
// mirrorQueueCap) and retried in the background, and Close says what could not be stored.

// Remote is where a mirrored Store's records live; *etcdstore.Client satisfies it. Keys
// are the store's own encoding of bbolt's buckets, keys and sequences (recordKey), with no
// prefix: a Remote adds its own.
type Remote interface {
	// Load returns every record and the revision they were read at.
	Load(ctx context.Context) ([]Record, int64, error)
	// Watch sends each change after revision after, in revision order, until ctx ends or
	// the watch fails (it returns ErrRemoteCompacted when after is no longer kept).
	Watch(ctx context.Context, after int64, changes chan<- Change) error
	// Commit writes changes if nothing was committed after revision base. It returns the
	// new revision and true, or the Remote's current revision and false on a conflict.
	Commit(ctx context.Context, base int64, changes []Record) (rev int64, ok bool, err error)
	// Revision returns the Remote's current revision: a cheap call that says whether it
	// can be reached.
	Revision(ctx context.Context) (int64, error)
	// String names the Remote for messages (no credentials).
	String() string
	// Close ends the use of the Remote.
	Close() error
}

// Record is one record of a mirrored store: a bbolt key, a bucket or a bucket's sequence.
type Record struct {
	Key     string
	Value   []byte
	Deleted bool
}

// Change is the records one Remote transaction wrote, at revision Rev.
type Change struct {
	Rev     int64
	Records []Record
}

// ErrRemoteCompacted reports a watch asked to start at a revision the Remote no longer
// keeps; the mirror loads everything again.
var ErrRemoteCompacted = errors.New("knowledge: remote revision compacted")

// ErrRemoteUnreachable reports a Remote that did not answer in time when the store was
// opened: a run may go on without its knowledge.
var ErrRemoteUnreachable = errors.New("knowledge: shared store unreachable")

// ErrRemoteAway reports a write the Remote did not take because it could not be reached;
// the write is queued and retried (MirrorOptions).
var ErrRemoteAway = errors.New("knowledge: shared store unreachable, write queued for retry")

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
		if err != nil || n != SchemaVersion {
			return fmt.Errorf("shared knowledge %s has schema %q but this fairy reads version %d; use a matching fairy or move the knowledge with export/import: %w", s.path, meta.Get(keySchema), SchemaVersion, ErrSchema)
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
// Remote at the replica's revision, the replica committed only if the Remote took them.
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
			var changes []Record
			for k, v := range loaded {
				if old, ok := m.records[k]; !ok || !bytes.Equal(old, v) {
					changes = append(changes, Record{Key: k, Value: v})
				}
			}
			for k := range m.records {
				if _, ok := loaded[k]; !ok {
					changes = append(changes, Record{Key: k, Deleted: true})
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

// Record keys. A bucket is "@name", a nested one "@outer/@inner"; a key in it is
// "@outer/@inner/=key" and its sequence "@outer/@inner/#seq". Names and keys are
// escaped (escapeSegment), so a '/' in an app package or page key cannot split them.
const seqSegment = "#seq"

func escapeSegment(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	return sb.String()
}

func unescapeSegment(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+2 >= len(s) {
			return nil, fmt.Errorf("record key segment %q: cut escape", s)
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("record key segment %q: %w", s, err)
		}
		out = append(out, byte(v))
		i += 2
	}
	return out, nil
}

// parsedKey is a record key taken apart.
type parsedKey struct {
	buckets [][]byte
	key     []byte // nil for a bucket marker or a sequence
	seq     bool
}

func parseKey(k string) (parsedKey, error) {
	var p parsedKey
	parts := strings.Split(k, "/")
	for i, part := range parts {
		last := i == len(parts)-1
		switch {
		case strings.HasPrefix(part, "@"):
			b, err := unescapeSegment(part[1:])
			if err != nil {
				return p, err
			}
			p.buckets = append(p.buckets, b)
		case last && part == seqSegment:
			p.seq = true
		case last && strings.HasPrefix(part, "="):
			b, err := unescapeSegment(part[1:])
			if err != nil {
				return p, err
			}
			p.key = b
		default:
			return p, fmt.Errorf("record key %q: bad segment %q: %w", k, part, ErrInvalid)
		}
	}
	if len(p.buckets) == 0 {
		return p, fmt.Errorf("record key %q: no bucket: %w", k, ErrInvalid)
	}
	return p, nil
}

// diffRecords walks tx and returns the records that differ from old.
func diffRecords(tx *bolt.Tx, old map[string][]byte) ([]Record, error) {
	var changes []Record
	seen := make(map[string]struct{}, len(old))
	note := func(k string, v []byte) {
		seen[k] = struct{}{}
		if ov, ok := old[k]; !ok || !bytes.Equal(ov, v) {
			changes = append(changes, Record{Key: k, Value: bytes.Clone(v)})
		}
	}
	var walk func(path string, b *bolt.Bucket) error
	walk = func(path string, b *bolt.Bucket) error {
		note(path, nil)
		if seq := b.Sequence(); seq != 0 {
			note(path+"/"+seqSegment, []byte(strconv.FormatUint(seq, 10)))
		}
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				if nb := b.Bucket(k); nb != nil {
					return walk(path+"/@"+escapeSegment(k), nb)
				}
			}
			note(path+"/="+escapeSegment(k), v)
			return nil
		})
	}
	err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		return walk("@"+escapeSegment(name), b)
	})
	if err != nil {
		return nil, err
	}
	for k := range old {
		if _, ok := seen[k]; !ok {
			changes = append(changes, Record{Key: k, Deleted: true})
		}
	}
	return changes, nil
}

// applyToMap applies changes to records.
func applyToMap(records map[string][]byte, changes []Record) {
	for _, c := range changes {
		if c.Deleted {
			delete(records, c.Key)
		} else {
			records[c.Key] = c.Value
		}
	}
}

// applyRecords writes changes into tx: puts first (creating buckets on the way), then
// deleted keys, then deleted buckets, deepest first.
func applyRecords(tx *bolt.Tx, changes []Record) error {
	var gone []parsedKey
	for _, c := range changes {
		p, err := parseKey(c.Key)
		if err != nil {
			return err
		}
		if c.Deleted {
			gone = append(gone, p)
			continue
		}
		b, err := ensureBucket(tx, p.buckets)
		if err != nil {
			return err
		}
		switch {
		case p.seq:
			n, err := strconv.ParseUint(string(c.Value), 10, 64)
			if err != nil {
				return fmt.Errorf("record %q: sequence: %w", c.Key, err)
			}
			if err := b.SetSequence(n); err != nil {
				return err
			}
		case p.key != nil:
			if err := b.Put(p.key, c.Value); err != nil {
				return err
			}
		}
	}
	sort.SliceStable(gone, func(i, j int) bool { return len(gone[i].buckets) > len(gone[j].buckets) })
	for _, p := range gone {
		if p.key == nil && !p.seq {
			continue
		}
		b := findBucket(tx, p.buckets)
		if b == nil {
			continue
		}
		if p.seq {
			if err := b.SetSequence(0); err != nil {
				return err
			}
		} else if err := b.Delete(p.key); err != nil {
			return err
		}
	}
	for _, p := range gone {
		if p.key != nil || p.seq {
			continue
		}
		n := len(p.buckets)
		var err error
		if n == 1 {
			err = tx.DeleteBucket(p.buckets[0])
		} else if parent := findBucket(tx, p.buckets[:n-1]); parent != nil {
			err = parent.DeleteBucket(p.buckets[n-1])
		}
		if err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
			return err
		}
	}
	return nil
}

func ensureBucket(tx *bolt.Tx, path [][]byte) (*bolt.Bucket, error) {
	b, err := tx.CreateBucketIfNotExists(path[0])
	for _, name := range path[1:] {
		if err != nil {
			return nil, err
		}
		b, err = b.CreateBucketIfNotExists(name)
	}
	return b, err
}

func findBucket(tx *bolt.Tx, path [][]byte) *bolt.Bucket {
	b := tx.Bucket(path[0])
	for _, name := range path[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket(name)
	}
	return b
}
