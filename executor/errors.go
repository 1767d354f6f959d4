package executor

import (
	"errors"
	"fmt"
)

var (
	// errConfig means an Executor was built with a missing or bad part.
	errConfig = errors.New("executor: bad configuration")
	// errBadAnswer means a model's answer could not be used even after asking again.
	errBadAnswer = errors.New("executor: unusable model answer")
	// errPerceive means the screen could not be read.
	errPerceive = errors.New("executor: cannot read the screen")
	// errTypedElsewhere means typed text did not land in the field it was meant for: the
	// focus did not move there, or the field does not hold it afterwards.
	errTypedElsewhere = errors.New("typed text did not land in its field")
)

// stepError is a failure inside one step, with the state it happened in.
type stepError struct {
	Step  int
	State State
	Err   error
}

func (e *stepError) Error() string {
	return fmt.Sprintf("executor step %d %s: %v", e.Step, e.State, e.Err)
}

func (e *stepError) Unwrap() error { return e.Err }
