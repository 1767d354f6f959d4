package grounding

import "errors"

// Errors of the package. A parse or frame error's message is worded for the model: the
// decider sends it back as the reason to answer again.
var (
	// ErrFamily is an unknown family name.
	ErrFamily = errors.New("grounding: unknown model family")
	// ErrSyntax is an answer that holds no action of the family's syntax.
	ErrSyntax = errors.New("the answer is not in the action syntax")
	// ErrOffFrame is a point outside the model's frame or the screen.
	ErrOffFrame = errors.New("the point is off the screen")
)
