package knowledge

import "errors"

// Sentinel errors. Callers test them with errors.Is; the messages a user sees
// wrap them with the file, app or ID concerned.
var (
	// ErrInUse reports that another process holds the knowledge file's lock.
	ErrInUse = errors.New("knowledge: file in use by another process")
	// ErrSchema reports a knowledge file written with another schema version.
	ErrSchema = errors.New("knowledge: schema version mismatch")
	// ErrNotKnowledge reports a file that is not a fairy knowledge file.
	ErrNotKnowledge = errors.New("knowledge: not a fairy knowledge file")
	// ErrReadOnly reports a write on a store opened read-only.
	ErrReadOnly = errors.New("knowledge: store is read-only")
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
)
