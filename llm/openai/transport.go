package openai

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// attemptKey carries an *attemptInfo in a request context so the transport can hand the
// status and Retry-After of an error response back to the retry loop (go-openai's errors do
// not carry headers).
type attemptKey struct{}

type attemptInfo struct {
	status     int
	retryAfter time.Duration
}

// transport wraps the HTTP client's transport to read Retry-After and to cap the response
// body: go-openai reads a body whole (json.Decoder, io.ReadAll), so without the cap an
// endpoint streaming a huge answer takes memory in proportion.
type transport struct {
	base           http.RoundTripper
	maxBody        int64
	maxBodySetting string
}

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	if info, ok := r.Context().Value(attemptKey{}).(*attemptInfo); ok {
		info.status = resp.StatusCode
		info.retryAfter = parseRetryAfter(resp.Header, time.Now())
	}
	tooLarge := &responseTooLargeError{Limit: t.maxBody, Setting: t.maxBodySetting}
	if resp.ContentLength > t.maxBody {
		// Announced too large: refuse before reading any of it.
		_ = resp.Body.Close()
		return nil, tooLarge
	}
	resp.Body = &cappedBody{rc: resp.Body, left: t.maxBody, tooLarge: tooLarge}
	return resp, nil
}

// cappedBody reads at most the cap from rc and fails with tooLarge as soon as rc holds more.
type cappedBody struct {
	rc       io.ReadCloser
	left     int64 // bytes still allowed
	tooLarge error
	err      error // sticky
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// One byte past the cap tells "exactly the cap" from "more than the cap".
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	if int64(n) > b.left {
		n, b.err = int(b.left), b.tooLarge
		b.left = 0
		return n, b.err
	}
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// parseRetryAfter reads Retry-After (seconds or an HTTP date) and the non-standard
// retry-after-ms; 0 when absent or unreadable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// limiter spaces request starts at least interval apart.
type limiter struct {
	mu       sync.Mutex
	next     time.Time
	interval time.Duration
	sleep    func(context.Context, time.Duration) error
}

func (l *limiter) wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	at := now
	if l.next.After(now) {
		at = l.next
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return l.sleep(ctx, d)
	}
	return nil
}
