package perception

import (
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by [Parse] and the set-of-mark code.
var (
	// errEmpty means the dump held no bytes other than white space.
	errEmpty = errors.New("perception: empty dump")
	// errNoHierarchy means the input has markup but no UI hierarchy in it.
	errNoHierarchy = errors.New("perception: no UI hierarchy in dump")
	// errDumper is wrapped by every [*DumperError].
	errDumper = errors.New("perception: dumper reported an error")
	// errImage means a screenshot could not be decoded or encoded.
	errImage = errors.New("perception: bad screenshot")
	// errTruncated is wrapped by a [*SyntaxError] for a dump that ends inside an element,
	// a tag or a comment: it was cut short (a dropped connection, a partial copy).
	errTruncated = errors.New("perception: dump cut short")
	// errMalformed is wrapped by a [*SyntaxError] for a broken tag (an invalid character in
	// a name, a '<' that starts no tag).
	errMalformed = errors.New("perception: malformed dump")
	// errNotXML is wrapped by every [*NotXMLError].
	errNotXML = errors.New("perception: not XML")
)

// SyntaxError is returned by [Parse] when the dump is cut short or a tag in it is broken.
// Dumping again is usually the fix.
type SyntaxError struct {
	// Offset is where the problem is, in bytes from the start of the input given to Parse
	// (for a cut-short dump, its end).
	Offset int
	// Problem says what is wrong, naming the element concerned.
	Problem string
	// Truncated is set when the input ends inside markup; Unwrap then gives ErrTruncated,
	// else ErrMalformed.
	Truncated bool
}

// Error implements error.
func (e *SyntaxError) Error() string {
	if e.Truncated {
		return fmt.Sprintf("perception: the dump is cut short at byte %d: %s", e.Offset, e.Problem)
	}
	return fmt.Sprintf("perception: malformed dump at byte %d: %s", e.Offset, e.Problem)
}

// Unwrap returns [ErrTruncated] or [ErrMalformed].
func (e *SyntaxError) Unwrap() error {
	if e.Truncated {
		return errTruncated
	}
	return errMalformed
}

// NotXMLError is returned by [Parse] when the input is no UI dump at all: binary data (an
// image, an archive) or text without markup that no dumper prints. Its message never
// holds the input's bytes beyond a short quoted head of a text.
type NotXMLError struct {
	// Looks says what the input looks like: "a PNG image", "gzip data", "binary data",
	// "UTF-16 text", "plain text".
	Looks string
	// Head is the start of a text input, quoted in the message; empty for binary data.
	Head string
}

// Error implements error.
func (e *NotXMLError) Error() string {
	if e.Head != "" {
		return fmt.Sprintf("perception: not XML (looks like %s: %q)", e.Looks, e.Head)
	}
	return fmt.Sprintf("perception: not XML (looks like %s)", e.Looks)
}

// Unwrap returns [ErrNotXML], so errors.Is(err, ErrNotXML) holds.
func (e *NotXMLError) Unwrap() error { return errNotXML }

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
func (e *DumperError) Unwrap() error { return errDumper }
