package executor

import (
	"errors"
	"fmt"
)

var (
	// ErrConfig means an Executor was built with a missing or bad part.
	ErrConfig = errors.New("executor: bad configuration")
	// ErrBadAnswer means a model's answer could not be used even after asking again.
	ErrBadAnswer = errors.New("executor: unusable model answer")
	// ErrPerceive means the screen could not be read.
	ErrPerceive = errors.New("executor: cannot read the screen")
	// ErrTypedElsewhere means typed text did not land in the field it was meant for: the
	// focus did not move there, or the field does not hold it afterwards.
	ErrTypedElsewhere = errors.New("typed text did not land in its field")
)

// StepError is a failure inside one step, with the state it happened in.
type StepError struct {
	Step  int
	State State
	Err   error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("executor step %d %s: %v", e.Step, e.State, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }
