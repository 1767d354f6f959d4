package openai

import (
	"errors"
	"fmt"

	"github.com/fairy-go/fairy/llm"
)

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
	// ErrAuth means the endpoint refused the credentials (401 or 403); not retried. It wraps
	// ErrRejected.
	ErrAuth = fmt.Errorf("%w: the endpoint refused the API key", ErrRejected)
	// ErrBadAnswer means the answer held no usable JSON object even after the repair retries.
	ErrBadAnswer = errors.New("llm openai: unusable answer")
	// ErrImageTooLarge means an image stayed over the size limit after re-encoding and downscaling.
	ErrImageTooLarge = errors.New("llm openai: image too large")
	// ErrResponseTooLarge is wrapped by every [*ResponseTooLargeError].
	ErrResponseTooLarge = errors.New("llm openai: response too large")
)

// ResponseTooLargeError means a response body (an answer or an error) ran past
// Config.MaxResponseBytes. Reading stopped at the cap, so memory stays bounded; the call is
// not retried.
type ResponseTooLargeError struct {
	Limit   int64    // the cap, in bytes
	Setting string   // the configuration key that sets it
	Role    llm.Role // the role the call was for ("" outside Generate)
	Model   string   // the model asked
}

// Error implements error.
func (e *ResponseTooLargeError) Error() string {
	who := ""
	if e.Role != "" || e.Model != "" {
		who = fmt.Sprintf(" (role %q, model %q)", e.Role, e.Model)
	}
	return fmt.Sprintf("llm openai: the endpoint's response is larger than %s%s, reading stopped: "+
		"check the endpoint, or raise %s if such answers are expected", byteSize(e.Limit), who, e.Setting)
}

// Unwrap returns [ErrResponseTooLarge], so errors.Is(err, ErrResponseTooLarge) holds.
func (e *ResponseTooLargeError) Unwrap() error { return ErrResponseTooLarge }

// byteSize writes n in the largest binary unit that divides it, else in bytes.
func byteSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
