package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// When a call fails: retries with backoff, the backup model, timeouts, cancellation, and
// errors that are not retried.

func TestRetries(t *testing.T) {
	ok := reply{content: `{"action":"tap","index":1}`}
	tests := []struct {
		name       string
		replies    []reply
		wantSleeps []time.Duration
	}{
		{"429 with Retry-After seconds", []reply{
			{status: 429, header: map[string]string{"Retry-After": "7"},
				body: `{"error":{"message":"slow down","type":"rate_limit"}}`},
			ok}, []time.Duration{7 * time.Second}},
		{"429 with Retry-After date", []reply{
			{status: 429, body: `{"error":{"message":"slow down"}}`,
				header: map[string]string{"Retry-After": time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)}},
			ok}, []time.Duration{60 * time.Second}}, // capped at MaxRetryAfter
		{"429 without Retry-After", []reply{apiError(429, "slow"), ok}, []time.Duration{750 * time.Millisecond}},
		{"500 then success", []reply{apiError(500, "boom"), ok}, []time.Duration{750 * time.Millisecond}},
		{"502 non-JSON twice then success",
			[]reply{{status: 502, body: "<html>bad gateway</html>"}, {status: 503, body: "down"}, ok},
			[]time.Duration{750 * time.Millisecond, 1500 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(n int, _ wireReq) reply { return tt.replies[min(n, len(tt.replies))-1] })
			h := newClient(t, e.srv.URL, nil)
			resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.Text != ok.content {
				t.Errorf("text = %q", resp.Text)
			}
			if got := h.sleeps.all(); fmt.Sprint(got) != fmt.Sprint(tt.wantSleeps) {
				t.Errorf("sleeps = %v, want %v", got, tt.wantSleeps)
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	tests := []struct {
		name string
		r    reply
		want error
	}{
		{"429", apiError(429, "slow"), errRateLimited},
		{"500", apiError(500, "boom"), errServer},
		{"401 not retried", apiError(401, "bad key"), ErrRejected},
		{"401 is an auth error", apiError(401, "bad key"), ErrAuth},
		{"403 is an auth error", apiError(403, "no access"), ErrAuth},
		{"400 is not an auth error", apiError(400, "bad request"), ErrRejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(int, wireReq) reply { return tt.r })
			h := newClient(t, e.srv.URL, func(c *Config) { c.MaxRetries = 2 })
			_, err := h.c.Generate(t.Context(), deciderRequest("x"))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if strings.HasPrefix(tt.name, "400") && errors.Is(err, ErrAuth) {
				t.Errorf("err = %v, an auth error for a status that is not 401 or 403", err)
			}
			wantCalls := 3
			if errors.Is(tt.want, ErrRejected) {
				wantCalls = 1
			}
			if e.n() != wantCalls {
				t.Errorf("calls = %d, want %d", e.n(), wantCalls)
			}
		})
	}
}

func TestBackupModel(t *testing.T) {
	e := newEndpoint(t, func(_ int, r wireReq) reply {
		if r.Model == "backup-model" {
			return reply{content: `{"action":"tap","index":2}`}
		}
		return apiError(503, "overloaded")
	})
	h := newClient(t, e.srv.URL, func(c *Config) { c.BackupModel = "backup-model"; c.FailoverAfter = 2 })
	resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if resp.Model != "backup-model" || e.n() != 3 {
		t.Errorf("model %q after %d calls, want backup-model after 3", resp.Model, e.n())
	}
	if !strings.Contains(h.logs.String(), "backup") {
		t.Errorf("switch to the backup model not logged:\n%s", h.logs)
	}
}

func TestTimeout(t *testing.T) {
	e := newEndpoint(t, func(n int, _ wireReq) reply {
		if n == 1 {
			return reply{block: true}
		}
		return reply{content: `{"action":"tap","index":1}`}
	})
	h := newClient(t, e.srv.URL, func(c *Config) { c.Timeout = 100 * time.Millisecond })
	start := time.Now()
	resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if resp.Text == "" || e.n() != 2 || len(h.sleeps.all()) != 1 {
		t.Errorf("resp %+v after %d calls and sleeps %v", resp, e.n(), h.sleeps.all())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}

	// Every attempt timing out ends in ErrTimeout.
	e2 := newEndpoint(t, func(int, wireReq) reply { return reply{block: true} })
	h2 := newClient(t, e2.srv.URL, func(c *Config) { c.Timeout = 50 * time.Millisecond; c.MaxRetries = 1 })
	if _, err := h2.c.Generate(t.Context(), deciderRequest("x")); !errors.Is(err, errTimeout) {
		t.Errorf("err = %v, want ErrTimeout", err)
	}
}

func TestCancellation(t *testing.T) {
	e := newEndpoint(t, func(int, wireReq) reply { return reply{block: true} })
	h := newClient(t, e.srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := h.c.Generate(ctx, deciderRequest("x"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if len(h.sleeps.all()) != 0 {
		t.Errorf("a cancelled call must not retry: sleeps %v", h.sleeps.all())
	}
}

func TestModeRejected(t *testing.T) {
	e := newEndpoint(t, func(int, wireReq) reply {
		return apiError(400, "response_format type json_schema is not supported by this model")
	})
	h := newClient(t, e.srv.URL, func(c *Config) { c.ModeSetting = "models.mode" })
	_, err := h.c.Generate(t.Context(), deciderRequest("x"))
	if !errors.Is(err, errModeRejected) {
		t.Fatalf("err = %v, want ErrModeRejected", err)
	}
	for _, want := range []string{"models.mode", `"json_object"`, `"text"`, "not supported"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if e.n() != 1 {
		t.Errorf("calls = %d, want 1 (not retried)", e.n())
	}
}
