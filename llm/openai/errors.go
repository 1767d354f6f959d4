package openai

import "errors"

var (
	// ErrConfig means the Config cannot work (no base URL, no model for a role, bad mode).
	ErrConfig = errors.New("llm openai: bad config")
	// ErrModeRejected means the endpoint refused the structured-output mode; the error text
	// names the setting to change.
	ErrModeRejected = errors.New("llm openai: endpoint rejected the structured-output mode")
	// ErrRateLimited means the endpoint kept answering 429 until the retries ran out.
	ErrRateLimited = errors.New("llm openai: rate limited")
	// ErrServer means the endpoint kept failing (5xx or broken connections) until the retries ran out.
	ErrServer = errors.New("llm openai: endpoint failing")
	// ErrTimeout means attempts kept timing out until the retries ran out.
	ErrTimeout = errors.New("llm openai: timed out")
	// ErrRejected means the endpoint refused the request (4xx other than 429); not retried.
	ErrRejected = errors.New("llm openai: request rejected")
	// ErrBadAnswer means the answer held no usable JSON object even after the repair retries.
	ErrBadAnswer = errors.New("llm openai: unusable answer")
	// ErrImageTooLarge means an image stayed over the size limit after re-encoding and downscaling.
	ErrImageTooLarge = errors.New("llm openai: image too large")
)
