package llm

import "errors"

var (
	// ErrNoJSON means a model's answer holds no JSON object.
	ErrNoJSON = errors.New("llm: no JSON object in the answer")
	// ErrSchema means a JSON answer does not fit the requested schema.
	ErrSchema = errors.New("llm: answer does not fit the schema")
	// ErrReplayMiss means a replayed run asked something the recording does not hold.
	ErrReplayMiss = errors.New("llm: request not in the recording")
	// ErrRecording means a recording file is malformed.
	ErrRecording = errors.New("llm: bad recording")
)
