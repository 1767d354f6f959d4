package interaction

import "errors"

var (
	// ErrNoAnswer means the person gave no answer (end of input).
	ErrNoAnswer = errors.New("interaction: no answer")
	// errConfig means an Interactor or Dialoger was built with a missing or bad part.
	errConfig = errors.New("interaction: bad configuration")
	// errBadAnswer means the interactor model's answer could not be used.
	errBadAnswer = errors.New("interaction: unusable interactor answer")
)
