package llm

import "errors"

var (
	// ErrNoJSON means a model's answer holds no JSON object.
	ErrNoJSON = errors.New("llm: no JSON object in the answer")
	// ErrSchema means a JSON answer does not fit the requested schema.
	ErrSchema = errors.New("llm: answer does not fit the schema")
	// ErrReplayMiss means a replayed run asked something the recording does not hold.
	ErrReplayMiss = errors.New("llm: request not in the recording")
	// ErrPromptChanged means a replayed request differs from the recorded one of its role:
	// the prompts changed since the run was recorded.
	ErrPromptChanged = errors.New("llm replay: the prompt changed since the recording")
	// errRecording means a recording file is malformed.
	errRecording = errors.New("llm: bad recording")
)
