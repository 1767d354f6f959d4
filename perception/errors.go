package perception

import (
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by [Parse] and the set-of-mark code.
var (
	// ErrEmpty means the dump held no bytes other than white space.
	ErrEmpty = errors.New("perception: empty dump")
	// ErrNoHierarchy means the input has markup but no UI hierarchy in it.
	ErrNoHierarchy = errors.New("perception: no UI hierarchy in dump")
	// ErrDumper is wrapped by every [*DumperError].
	ErrDumper = errors.New("perception: dumper reported an error")
	// ErrImage means a screenshot could not be decoded or encoded.
	ErrImage = errors.New("perception: bad screenshot")
)

// DumperError is returned by [Parse] when the dumper printed a message
// instead of a hierarchy, such as `ERROR: could not get idle state.`, which
// uiautomator writes to stdout while still exiting 0. Retrying the dump after
// the screen settles is usually the fix.
type DumperError struct {
	// Message is the dumper's text, trimmed and cut to a few hundred bytes.
	Message string
}

// Error implements error.
func (e *DumperError) Error() string {
	return fmt.Sprintf("perception: dumper printed a message instead of a UI hierarchy: %q", e.Message)
}

// Unwrap returns [ErrDumper], so errors.Is(err, ErrDumper) holds.
func (e *DumperError) Unwrap() error { return ErrDumper }
