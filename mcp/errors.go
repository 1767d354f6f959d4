package mcp

import "errors"

var (
	// ErrConfig means the server was built with a missing part.
	ErrConfig = errors.New("mcp: bad configuration")
	// ErrBusy means a run holds the phone.
	ErrBusy = errors.New("the phone is busy")
	// ErrRefused means a sensitive action was not carried out: the person did not say yes.
	ErrRefused = errors.New("refused")
	// ErrNoKnowledge means there is no knowledge file yet: nothing was learned. Config's
	// OpenKnowledge returns an error wrapping it; the list commands then answer with an
	// empty list.
	ErrNoKnowledge = errors.New("nothing learned yet")
	// ErrBadInput means a tool's arguments do not say what to do.
	ErrBadInput = errors.New("bad arguments")
)
