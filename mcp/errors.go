package mcp

import "errors"

var (
	// errConfig means the server was built with a missing part.
	errConfig = errors.New("mcp: bad configuration")
	// errBusy means a run holds the phone.
	errBusy = errors.New("the phone is busy")
	// errRefused means a sensitive action was not carried out: the person did not say yes.
	errRefused = errors.New("refused")
	// ErrNoKnowledge means there is no knowledge file yet: nothing was learned. Config's
	// OpenKnowledge returns an error wrapping it; the list commands then answer with an
	// empty list.
	ErrNoKnowledge = errors.New("nothing learned yet")
	// errBadInput means a tool's arguments do not say what to do.
	errBadInput = errors.New("bad arguments")
)
