package knowledge

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Callers test them with errors.Is; the messages a user sees
// wrap them with the file, app or ID concerned.
var (
	// ErrInUse reports that another process holds the knowledge file's lock.
	ErrInUse = errors.New("knowledge: file in use by another process")
	// ErrSchema reports a knowledge file written with another schema version.
	ErrSchema = errors.New("knowledge: schema version mismatch")
	// ErrNotKnowledge reports a file that is not a fairy knowledge file.
	ErrNotKnowledge = errors.New("knowledge: not a fairy knowledge file")
	// errReadOnly reports a write on a store opened read-only.
	errReadOnly = errors.New("knowledge: store is read-only")
	// ErrClosed reports use of a closed store.
	ErrClosed = errors.New("knowledge: store is closed")
	// ErrNotFound reports a trick, app, page or run that does not exist.
	ErrNotFound = errors.New("knowledge: not found")
	// ErrAmbiguous reports a page reference that matches more than one page.
	ErrAmbiguous = errors.New("knowledge: ambiguous reference")
	// ErrNoPath reports that the App Map knows no path between two pages.
	ErrNoPath = errors.New("knowledge: no known path")
	// ErrInvalid reports a value that cannot be stored (missing field, bad kind).
	ErrInvalid = errors.New("knowledge: invalid value")
	// ErrFormat reports an import document in an unknown format or version.
	ErrFormat = errors.New("knowledge: unknown export format")
	// ErrDamaged reports a knowledge file whose pages or records do not read back as they
	// were written: cut short, overwritten, bit-rotted. The error is a *DamageError.
	ErrDamaged = errors.New("knowledge: file is damaged")
	// ErrTooLarge reports an import document, or a text in it, over one of the import caps.
	ErrTooLarge = errors.New("knowledge: input too large")
	// ErrRemoteCompacted reports a watch asked to start at a revision the Remote no longer
	// keeps; the mirror loads everything again.
	ErrRemoteCompacted = errors.New("knowledge: remote revision compacted")
	// ErrRemoteUnreachable reports a Remote that did not answer in time when the store was
	// opened: a run may go on without its knowledge.
	ErrRemoteUnreachable = errors.New("knowledge: shared store unreachable")
	// ErrRemoteAway reports a write the Remote did not take because it could not be reached;
	// the write is queued and retried (MirrorOptions).
	ErrRemoteAway = errors.New("knowledge: shared store unreachable, write queued for retry")
)

// sentinelError is an error whose message says all there is to say and that matches a
// sentinel through errors.Is, without the sentinel's own words as a tail
// ("trick: empty text", not "trick: empty text: knowledge: invalid value").
type sentinelError struct {
	msg string
	is  error
}

func (e *sentinelError) Error() string { return e.msg }

// Unwrap returns the sentinel.
func (e *sentinelError) Unwrap() error { return e.is }

// invalidf is an error matching ErrInvalid whose message is the formatted text alone.
func invalidf(format string, a ...any) error {
	return &sentinelError{msg: fmt.Sprintf(format, a...), is: ErrInvalid}
}

// notFoundf is an error matching ErrNotFound whose message is the formatted text alone.
func notFoundf(format string, a ...any) error {
	return &sentinelError{msg: fmt.Sprintf(format, a...), is: ErrNotFound}
}

// DamageError is a damaged knowledge file: which file, and what is wrong with it. It
// wraps ErrDamaged, and its message says what to do.
type DamageError struct {
	File string
	// Problems says what is wrong, one finding each (at most a few dozen).
	Problems []string
	// Unreadable is true when not even the file's meta pages read, so that Repair cannot
	// save anything from it either.
	Unreadable bool
	// Shared is true for shared knowledge (File is its etcd:// location): its records do
	// not agree, and there is no file to repair.
	Shared bool
}

func (e *DamageError) Error() string {
	what := strings.Join(e.Problems[:min(len(e.Problems), 3)], "; ")
	if n := len(e.Problems) - 3; n > 0 {
		what += fmt.Sprintf("; and %d more", n)
	}
	if e.Shared {
		return fmt.Sprintf("shared knowledge %s holds records that do not agree (%s): copy what reads to a new location with 'fairy knowledge export FILE' and 'fairy knowledge import FILE', or delete its prefix to start afresh", e.File, what)
	}
	if e.Unreadable {
		return fmt.Sprintf("knowledge file %s is damaged beyond reading (%s): move it away to start afresh, or restore it from a backup or an export", e.File, what)
	}
	return fmt.Sprintf("knowledge file %s is damaged (%s): save what still reads with 'fairy knowledge repair %s --out NEW' and use NEW, or move it away to start afresh", e.File, what, e.File)
}

// Unwrap makes errors.Is(err, ErrDamaged) hold.
func (e *DamageError) Unwrap() error { return ErrDamaged }
