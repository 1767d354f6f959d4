package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge/internal/boltfile"
)

// Damage. A knowledge file can be cut short (a full disk, a copy that stopped), have pages
// overwritten or bits flipped. bbolt reads pages through a memory map and trusts them, so
// such a file makes it panic or fault. Three things keep fairy standing:
//
//   - Open verifies an existing file with the bounds-checked reader of knowledge/internal/boltfile before
//     bbolt reads a page of it: the meta record, the file's length, every page of every
//     bucket (type, size, key order, each page reached once) and the freelist. This is
//     bbolt's own consistency check (Tx.Check) done without trusting the pages;
//     BenchmarkOpenVerified measures it.
//   - Every read and write runs under guard, which turns a panic or a memory fault inside
//     bbolt into a *DamageError, should a page be damaged after Open, and then refuses
//     further writes.
//   - A record that does not decode is reported as damage too, naming the record.
//
// A *DamageError names the file and says what to do: Repair copies what still reads into
// a new file.

// maxProblems is how many problems a DamageError keeps.
const maxProblems = 20

// Log attribute keys.
const (
	keyFile  = "file"
	keyPanic = "panic"
	keyStack = "stack"
)

// verifyFile checks the whole file at path as verify does.
func verifyFile(path string) error {
	d, err := boltfile.Read(path)
	switch {
	case d == nil && errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("open knowledge file %s: %w", path, err)
	case d == nil:
		return &DamageError{File: path, Problems: []string{err.Error()}, Unreadable: true}
	}
	var problems []string
	if err != nil {
		problems = append(problems, table.Escape(err.Error()))
	}
	if problems = append(problems, boltfile.Verify(d, maxProblems)...); len(problems) > 0 {
		return &DamageError{File: path, Problems: problems}
	}
	return nil
}

// classify explains why bbolt refused the file at path (boltErr): a knowledge file whose
// meta pages are damaged (the rest still looks like bbolt's), or not a bbolt file at all.
func classify(path string, boltErr error) error {
	ps := int64(os.Getpagesize())
	head := make([]byte, 3*ps)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open knowledge file %s: %w", path, err)
	}
	n, _ := io.ReadFull(f, head)
	_ = f.Close()
	head = head[:n]
	if !boltfile.LooksLikeBolt(head, ps) {
		return notKnowledge(path, boltErr)
	}
	problem := boltErr.Error()
	if _, err := boltfile.Parse(head, int64(n)); err != nil {
		problem = err.Error()
	}
	return &DamageError{File: path, Problems: []string{problem}, Unreadable: true}
}

// notKnowledgeError is ErrNotKnowledge with the file and bbolt's reason, saying so once.
type notKnowledgeError struct{ msg string }

func (e *notKnowledgeError) Error() string { return e.msg }
func (e *notKnowledgeError) Unwrap() error { return ErrNotKnowledge }

// notKnowledge reports that bbolt did not read path as its file (why).
func notKnowledge(path string, why error) error {
	return &notKnowledgeError{fmt.Sprintf("knowledge file %s is not a fairy knowledge file (%v): move it away, or name another file with --knowledge", path, why)}
}

// openError maps bbolt's error opening path to this package's.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return fmt.Errorf("knowledge file %s is in use by another fairy process; close it or pass --knowledge OTHER: %w", path, ErrInUse)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), strings.Contains(err.Error(), "file size too small"):
		return classify(path, err)
	case errors.Is(err, bolterrors.ErrVersionMismatch):
		return notKnowledge(path, err)
	}
	return fmt.Errorf("open knowledge file %s: %w", path, err)
}

// tryOpenBolt opens the bbolt file if its lock is free now (ErrInUse if not; openBolt
// waits), mapping bbolt's errors to this package's.
func tryOpenBolt(path string, opts Options, readOnly bool) (db *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		// bbolt reads the freelist while opening for writing; Open verified it, but not
		// against a file damaged since. The half-open file cannot be closed here.
		if r := recover(); r != nil {
			db, err = nil, &DamageError{File: path, Problems: []string{fmt.Sprintf("bbolt failed to open it: %v", r)}}
		}
	}()
	// A timeout shorter than bbolt's retry interval: one try of the lock, no wait.
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Nanosecond, ReadOnly: readOnly, NoSync: opts.noSync})
	if err != nil {
		return nil, openError(path, err)
	}
	return db, nil
}

// openVerified opens an existing, non-empty file: under a shared lock, so that no writer
// changes it meanwhile, it verifies the file before bbolt reads any page, then reopens it
// for writing unless opts.ReadOnly.
func openVerified(path string, opts Options) (*bolt.DB, error) {
	db, err := openBolt(path, opts, true)
	if err != nil {
		return nil, err
	}
	if err := verifyFile(path); err != nil {
		_ = db.Close()
		return nil, err
	}
	if opts.ReadOnly {
		return db, nil
	}
	if err := db.Close(); err != nil {
		return nil, fmt.Errorf("open knowledge file %s: %w", path, err)
	}
	return openBolt(path, opts, false)
}

// guard runs fn, turning a panic or memory fault inside bbolt (a page damaged after Open
// verified the file) into a *DamageError; from then on the store writes nothing.
func (s *Store) guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			s.log.Debug("recovered a panic reading the knowledge file", keyFile, s.path, keyPanic, r, keyStack, string(debug.Stack()))
			d := &DamageError{File: s.path, Problems: []string{fmt.Sprintf("bbolt failed reading it: %v", r)}}
			s.damage.CompareAndSwap(nil, d)
			err = d
		}
	}()
	err = fn()
	var re *recordError
	if errors.As(err, &re) {
		return &DamageError{File: s.path, Problems: []string{err.Error()}}
	}
	return err
}

// recordError is a record that does not decode.
type recordError struct {
	what string // "app", "trick", …
	key  []byte
	err  error
}

func (e *recordError) Error() string { return fmt.Sprintf("%s %q: decode: %v", e.what, e.key, e.err) }
func (e *recordError) Unwrap() error { return e.err }

// Check verifies the whole file: its pages as Open does, then bbolt's own consistency
// check (Tx.Check), that every record decodes, that every transition joins two pages of
// its map, and that the trick index and the tricks agree. It returns a *DamageError
// listing what is wrong, or nil. On shared knowledge (OpenMirror) it checks the records
// as loaded from the remote store: there is no file of its own to verify.
func (s *Store) Check() error {
	s.mu.Lock() // no write of this store while the file is read outside a transaction
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	db, err := s.acquire() // held through the check: no other process writes meanwhile
	if err != nil {
		return err
	}
	defer s.release()
	if s.mirror == nil { // a shared store's replica is a private copy: only its records are checked
		if err := verifyFile(s.path); err != nil {
			return err
		}
	}
	var problems []string
	add := func(format string, args ...any) {
		if len(problems) < maxProblems {
			// Names in a problem come from the file: written out, they cannot drive a terminal.
			problems = append(problems, table.Escape(fmt.Sprintf(format, args...)))
		}
	}
	err = s.guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			for err := range tx.Check() { // drain fully: Check's goroutine blocks otherwise
				add("%v", err)
			}
			checkRecords(tx, add)
			return nil
		})
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return &DamageError{File: s.path, Problems: problems, Shared: s.mirror != nil}
	}
	return nil
}

// checkRecords reports, through add, records that do not decode or do not agree.
func checkRecords(tx *bolt.Tx, add func(format string, args ...any)) {
	if meta := tx.Bucket(bucketMeta); meta == nil || meta.Get(keySchema) == nil {
		add("no schema record")
	}
	if b := tx.Bucket(bucketApps); b != nil {
		checkEach[App](b, "app", "", add, nil)
	}
	if b := tx.Bucket(bucketRuns); b != nil {
		checkEach[Run](b, "run", "", add, nil)
	}
	ids := tx.Bucket(bucketTrickIDs)
	if tricks := tx.Bucket(bucketTricks); tricks != nil {
		_ = tricks.ForEachBucket(func(app []byte) error {
			checkEach(tricks.Bucket(app), "trick", " of "+string(app), add, func(k []byte, t Trick) {
				switch {
				case t.ID != string(k) || t.App != string(app):
					add("trick %q of %s calls itself %s of %s", k, app, t.ID, t.App)
				case ids == nil || !bytes.Equal(ids.Get(k), app):
					add("trick %q of %s is missing from the trick index", k, app)
				}
			})
			return nil
		})
		if ids != nil {
			_ = ids.ForEach(func(id, app []byte) error {
				if b := tricks.Bucket(app); b == nil || b.Get(id) == nil {
					add("trick index entry %q points at a missing trick of %s", id, app)
				}
				return nil
			})
		}
	}
	maps := tx.Bucket(bucketMaps)
	if maps == nil {
		return
	}
	_ = maps.ForEachBucket(func(app []byte) error {
		ab := maps.Bucket(app)
		pages, trans := ab.Bucket(bucketPages), ab.Bucket(bucketTrans)
		if pages == nil || trans == nil {
			add("map of %s lacks its pages or transitions", app)
			return nil
		}
		of := " of " + string(app)
		checkEach[Page](pages, "page", of, add, nil)
		checkEach(trans, "transition", of, add, func(k []byte, t Transition) {
			if pages.Get([]byte(t.From)) == nil || pages.Get([]byte(t.To)) == nil {
				add("transition %q of %s refers to a missing page", k, app)
			}
		})
		return nil
	})
}

// checkEach decodes every record of b as a T and hands it to fn (when not nil); it reports
// through add a record that is a bucket or does not decode. of says whose records they are.
func checkEach[T any](b *bolt.Bucket, what, of string, add func(format string, args ...any), fn func(k []byte, x T)) {
	_ = b.ForEach(func(k, v []byte) error {
		var x T
		if v == nil {
			add("%s %q%s is a bucket", what, k, of)
		} else if err := decode(what, k, v, &x); err != nil {
			add("%v%s", err, of)
		} else if fn != nil {
			fn(k, x)
		}
		return nil
	})
}
