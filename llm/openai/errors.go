package openai

import (
	"errors"
	"fmt"

	"github.com/fairy-go/fairy/llm"
)

var (
	// ErrConfig means the Config cannot work (no base URL, no model for a role, bad mode).
	ErrConfig = errors.New("llm openai: bad config")
	// errModeRejected means the endpoint refused the structured-output mode; the error text
	// names the setting to change.
	errModeRejected = errors.New("llm openai: endpoint rejected the structured-output mode")
	// errRateLimited means the endpoint kept answering 429 until the retries ran out.
	errRateLimited = errors.New("llm openai: rate limited")
	// errServer means the endpoint kept failing (5xx or broken connections) until the retries ran out.
	errServer = errors.New("llm openai: endpoint failing")
	// errTimeout means attempts kept timing out until the retries ran out.
	errTimeout = errors.New("llm openai: timed out")
	// ErrRejected means the endpoint refused the request (4xx other than 429); not retried.
	ErrRejected = errors.New("llm openai: request rejected")
	// ErrAuth means the endpoint refused the credentials (401 or 403); not retried. It wraps
	// ErrRejected.
	ErrAuth = fmt.Errorf("%w: the endpoint refused the API key", ErrRejected)
	// errBadAnswer means the answer held no usable JSON object even after the repair retries.
	errBadAnswer = errors.New("llm openai: unusable answer")
	// errImageTooLarge means an image stayed over the size limit after re-encoding and downscaling.
	errImageTooLarge = errors.New("llm openai: image too large")
	// errResponseTooLarge is wrapped by every [*ResponseTooLargeError].
	errResponseTooLarge = errors.New("llm openai: response too large")
)

// responseTooLargeError means a response body (an answer or an error) ran past
// Config.MaxResponseBytes. Reading stopped at the cap, so memory stays bounded; the call is
// not retried.
type responseTooLargeError struct {
	Limit   int64    // the cap, in bytes
	Setting string   // the configuration key that sets it
	Role    llm.Role // the role the call was for ("" outside Generate)
	Model   string   // the model asked
}

// Error implements error.
func (e *responseTooLargeError) Error() string {
	who := ""
	if e.Role != "" || e.Model != "" {
		who = fmt.Sprintf(" (role %q, model %q)", e.Role, e.Model)
	}
	return fmt.Sprintf("llm openai: the endpoint's response is larger than %s%s, reading stopped: "+
		"check the endpoint, or raise %s if such answers are expected", byteSize(e.Limit), who, e.Setting)
}

// Unwrap returns [ErrResponseTooLarge], so errors.Is(err, ErrResponseTooLarge) holds.
func (e *responseTooLargeError) Unwrap() error { return errResponseTooLarge }

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
