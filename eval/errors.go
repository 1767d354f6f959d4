package eval

import "errors"

var (
	// ErrConfig means an evaluation was started with a missing or bad part.
	ErrConfig = errors.New("eval: bad configuration")
	// errNoAnswer means a simulated user has no answer for a question.
	errNoAnswer = errors.New("eval: simulated user has no answer")
	// errCrashed marks a task whose run panicked; the suite goes on.
	errCrashed = errors.New("eval: task crashed")
)
