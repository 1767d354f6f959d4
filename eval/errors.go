package eval

import "errors"

var (
	// ErrSuite means a suite file cannot be read or is invalid.
	ErrSuite = errors.New("eval: invalid suite")
	// ErrConfig means an evaluation was started with a missing or bad part.
	ErrConfig = errors.New("eval: bad configuration")
	// ErrNoAnswer means a simulated user has no answer for a question.
	ErrNoAnswer = errors.New("eval: simulated user has no answer")
	// ErrCrashed marks a task whose run panicked; the suite goes on.
	ErrCrashed = errors.New("eval: task crashed")
)
