package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairy-go/fairy/llm"
)

const testKey = "sk-test-SECRET0123456789abcdef"

var deciderSchema = &llm.Schema{
	Name: "decider",
	JSON: json.RawMessage(`{"type":"object","properties":{"action":{"type":"string"},"index":{"type":"integer"}},` +
		`"required":["action","index"]}`),
}

// wireReq is what the fake endpoints read from a request.
type wireReq struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict bool            `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
	MaxTokens   int     `json:"max_tokens"`
	Temperature float32 `json:"temperature"`
}

func (w wireReq) text(i int) string {
	var s string
	_ = json.Unmarshal(w.Messages[i].Content, &s)
	return s
}

func (w wireReq) last() string { return w.text(len(w.Messages) - 1) }

// endpoint is a fake OpenAI-compatible server driven by a function per call.
type endpoint struct {
	t     *testing.T
	mu    sync.Mutex
	calls []wireReq
	auth  []string
	srv   *httptest.Server
}

type reply struct {
	status  int
	header  map[string]string
	body    string // raw body when set
	content string // assistant content
	model   string
	usage   [2]int
	block   bool // wait until the client goes away
}

func newEndpoint(t *testing.T, answer func(n int, r wireReq) reply) *endpoint {
	t.Helper()
	e := &endpoint{t: t}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireReq
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("endpoint: bad request body: %v", err)
		}
		e.mu.Lock()
		e.calls = append(e.calls, req)
		e.auth = append(e.auth, r.Header.Get("Authorization"))
		n := len(e.calls)
		e.mu.Unlock()
		rp := answer(n, req)
		if rp.block {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		if rp.status == 0 {
			rp.status = 200
		}
		w.WriteHeader(rp.status)
		if rp.body != "" {
			_, _ = io.WriteString(w, rp.body)
			return
		}
		if rp.model == "" {
			rp.model = req.Model
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "x", "object": "chat.completion", "model": rp.model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": rp.content}}},
			"usage": map[string]int{"prompt_tokens": rp.usage[0], "completion_tokens": rp.usage[1],
				"total_tokens": rp.usage[0] + rp.usage[1]},
		})
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) n() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.calls)
}

func (e *endpoint) call(i int) wireReq {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls[i]
}

func apiError(status int, msg string) reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
	return reply{status: status, body: string(b)}
}

// sleeps records the back-off delays instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

type harness struct {
	c      *Client
	sleeps *sleeps
	logs   *bytes.Buffer
}

func newClient(t *testing.T, url string, mod func(*Config)) harness {
	t.Helper()
	h := harness{sleeps: &sleeps{}, logs: &bytes.Buffer{}}
	cfg := Config{
		BaseURL:      url + "/v1",
		APIKey:       testKey,
		DefaultModel: "test-model",
		Models:       map[llm.Role]string{llm.RolePlanner: "plan-model"},
		Sleep:        h.sleeps.sleep,
		Rand:         func() float64 { return 0.5 },
		Logger:       slog.New(slog.NewTextHandler(&lockedWriter{w: h.logs}, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("openai.New: %v", err)
	}
	h.c = c
	return h
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func deciderRequest(prompt string) llm.Request {
	return llm.Request{
		Role:     llm.RoleDecider,
		System:   "You decide the next action.",
		Messages: []llm.Message{{Role: "user", Text: prompt}},
		Schema:   deciderSchema,
	}
}

func TestStructuredModes(t *testing.T) {
	const answer = `{"action":"tap","index":3}`
	tests := []struct {
		mode  Mode
		check func(t *testing.T, r wireReq)
	}{
		{ModeJSONSchema, func(t *testing.T, r wireReq) {
			f := r.ResponseFormat
			if f == nil || f.Type != "json_schema" || f.JSONSchema == nil ||
				f.JSONSchema.Name != "decider" || !strings.Contains(string(f.JSONSchema.Schema), `"required"`) {
				t.Errorf("response_format = %+v, want json_schema named decider with the schema", r.ResponseFormat)
			}
			if r.ResponseFormat != nil && r.ResponseFormat.JSONSchema != nil && !r.ResponseFormat.JSONSchema.Strict {
				t.Error("json_schema mode is not strict by default")
			}
			if strings.Contains(r.text(0), llm.RoleMarker) {
				t.Errorf("json_schema mode should not add the role marker: %q", r.text(0))
			}
		}},
		{ModeJSONObject, func(t *testing.T, r wireReq) {
			if r.ResponseFormat == nil || r.ResponseFormat.Type != "json_object" {
				t.Errorf("response_format = %+v, want json_object", r.ResponseFormat)
			}
			if sys := r.text(0); !strings.Contains(sys, `"required"`) || !strings.Contains(sys, llm.RoleMarker+"decider") {
				t.Errorf("system prompt lacks schema or role marker: %q", sys)
			}
		}},
		{ModeText, func(t *testing.T, r wireReq) {
			if r.ResponseFormat != nil {
				t.Errorf("response_format = %+v, want none", r.ResponseFormat)
			}
			if sys := r.text(0); !strings.Contains(sys, "JSON schema") || !strings.Contains(sys, llm.RoleMarker+"decider") {
				t.Errorf("system prompt lacks schema or role marker: %q", sys)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			e := newEndpoint(t, func(int, wireReq) reply { return reply{content: answer, usage: [2]int{10, 5}} })
			h := newClient(t, e.srv.URL, func(c *Config) { c.Mode = tt.mode })
			temp := float32(0.2)
			req := deciderRequest("screen")
			req.Temperature, req.MaxTokens = &temp, 256
			resp, err := h.c.Generate(t.Context(), req)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			wantUsage := llm.Usage{PromptTokens: 10, CompletionTokens: 5}
			if resp.Text != answer || resp.Model != "test-model" || resp.Usage != wantUsage {
				t.Errorf("response = %+v", resp)
			}
			if resp.Latency <= 0 {
				t.Errorf("latency = %v, want > 0", resp.Latency)
			}
			r := e.call(0)
			if r.Messages[0].Role != "system" || r.Messages[1].Role != "user" || r.last() != "screen" {
				t.Errorf("messages = %+v, want system then a plain-string user message", r.Messages)
			}
			if r.MaxTokens != 256 || math.Abs(float64(r.Temperature-0.2)) > 1e-6 {
				t.Errorf("max_tokens %d temperature %v", r.MaxTokens, r.Temperature)
			}
			if e.auth[0] != "Bearer "+testKey {
				t.Errorf("authorization header = %q", e.auth[0])
			}
			tt.check(t, r)
		})
	}
}

func TestRolesPickModels(t *testing.T) {
	e := newEndpoint(t, func(int, wireReq) reply { return reply{content: "free text answer"} })
	h := newClient(t, e.srv.URL, nil)
	for _, tc := range []struct {
		role  llm.Role
		model string
	}{{llm.RolePlanner, "plan-model"}, {llm.RoleJudge, "test-model"}} {
		resp, err := h.c.Generate(t.Context(), llm.Request{Role: tc.role, Messages: []llm.Message{{Text: "hi"}}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Model != tc.model || resp.Text != "free text answer" {
			t.Errorf("role %s: response %+v, want model %s", tc.role, resp, tc.model)
		}
	}
	// Without a schema the role still travels as a marker, for the scripted model.
	if sys := e.call(0).text(0); sys != llm.RoleMarker+"planner" {
		t.Errorf("system = %q", sys)
	}
}

func TestTolerantExtraction(t *testing.T) {
	const obj = `{"action":"tap","index":3}`
	tests := []struct{ name, content string }{
		{"fenced", "```json\n" + obj + "\n```"},
		{"fence no tag", "```\n" + obj + "\n```"},
		{"prose around", "Sure! Here is my answer: " + obj + " Let me know."},
		{"prose and fence", "I will tap.\n```json\n" + obj + "\n```\nDone."},
		{"braces in prose first", "Use {curly} things. " + obj},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(int, wireReq) reply { return reply{content: tt.content} })
			h := newClient(t, e.srv.URL, func(c *Config) { c.Mode = ModeText })
			resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.Text != obj {
				t.Errorf("text = %q, want %q", resp.Text, obj)
			}
			if e.n() != 1 {
				t.Errorf("calls = %d, want 1 (no repair needed)", e.n())
			}
		})
	}
}

func TestRepair(t *testing.T) {
	tests := []struct {
		name, bad, wantHint string
	}{
		{"invalid json", `{"action": "tap", "index": }`, "no JSON object"},
		{"missing key", `{"action": "tap"}`, `missing required key(s) "index"`},
		{"not an object", `[1,2,3]`, "no JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEndpoint(t, func(n int, r wireReq) reply {
				if n == 1 {
					return reply{content: tt.bad, usage: [2]int{100, 10}}
				}
				return reply{content: `{"action":"back","index":0}`, usage: [2]int{150, 12}}
			})
			h := newClient(t, e.srv.URL, func(c *Config) {
				c.Prices = llm.PriceTable{"test-model": {PromptPerM: 1, CompletionPerM: 2}}
			})
			resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if resp.Text != `{"action":"back","index":0}` {
				t.Errorf("text = %q", resp.Text)
			}
			if e.n() != 2 {
				t.Fatalf("calls = %d, want 2", e.n())
			}
			r := e.call(1)
			if n := len(r.Messages); n != 4 || r.Messages[2].Role != "assistant" || r.text(2) != tt.bad {
				t.Fatalf("repair call messages = %+v, want the bad answer echoed as assistant", r.Messages)
			}
			if hint := r.last(); !strings.Contains(hint, tt.wantHint) || !strings.Contains(hint, "could not be used") {
				t.Errorf("repair prompt = %q, want it to say %q", hint, tt.wantHint)
			}
			if want := (llm.Usage{PromptTokens: 250, CompletionTokens: 22}); resp.Usage != want {
				t.Errorf("usage = %+v, want %+v (both calls)", resp.Usage, want)
			}
			if want := (250*1 + 22*2) / 1e6; math.Abs(resp.Cost-want) > 1e-12 {
				t.Errorf("cost = %v, want %v", resp.Cost, want)
			}
		})
	}
}

func TestRepairBounded(t *testing.T) {
	e := newEndpoint(t, func(int, wireReq) reply { return reply{content: "I refuse to answer in JSON."} })
	h := newClient(t, e.srv.URL, func(c *Config) { c.RepairRetries = 2 })
	_, err := h.c.Generate(t.Context(), deciderRequest("x"))
	if !errors.Is(err, errBadAnswer) {
		t.Fatalf("err = %v, want ErrBadAnswer", err)
	}
	if e.n() != 3 {
		t.Errorf("calls = %d, want 1 + 2 repairs", e.n())
	}
	if !strings.Contains(err.Error(), "I refuse") {
		t.Errorf("error should quote the answer: %v", err)
	}
}

func TestCost(t *testing.T) {
	prices := llm.PriceTable{
		"gpt-4o":      {PromptPerM: 2.5, CompletionPerM: 10},
		"gpt-4o-mini": {PromptPerM: 0.15, CompletionPerM: 0.6},
	}
	tests := []struct {
		asked, answered string
		usage           [2]int
		want            float64
	}{
		{"gpt-4o", "gpt-4o", [2]int{1000, 200}, 0.0045},
		{"gpt-4o", "gpt-4o-2024-08-06", [2]int{1_000_000, 1_000_000}, 12.5},
		{"gpt-4o-mini", "gpt-4o-mini-2024-07-18", [2]int{2000, 1000}, 0.0009},
		{"local", "llama3", [2]int{5000, 5000}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.answered, func(t *testing.T) {
			e := newEndpoint(t, func(int, wireReq) reply {
				return reply{content: "ok", model: tt.answered, usage: tt.usage}
			})
			h := newClient(t, e.srv.URL, func(c *Config) { c.DefaultModel = tt.asked; c.Prices = prices })
			resp, err := h.c.Generate(t.Context(), llm.Request{Role: llm.RoleJudge, Messages: []llm.Message{{Text: "x"}}})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(resp.Cost-tt.want) > 1e-12 {
				t.Errorf("cost = %v, want %v", resp.Cost, tt.want)
			}
		})
	}
}

func TestConcurrencyLimit(t *testing.T) {
	var inFlight, peak atomic.Int32
	e := newEndpoint(t, func(int, wireReq) reply {
		n := inFlight.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
		inFlight.Add(-1)
		return reply{content: "ok"}
	})
	h := newClient(t, e.srv.URL, func(c *Config) { c.Concurrency = 2 })
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			req := llm.Request{Role: llm.RoleJudge, Messages: []llm.Message{{Text: "x"}}}
			if _, err := h.c.Generate(t.Context(), req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Errorf("peak in flight = %d, want 2", p)
	}
}

func TestRequestsPerSecond(t *testing.T) {
	e := newEndpoint(t, func(int, wireReq) reply { return reply{content: "ok"} })
	h := newClient(t, e.srv.URL, func(c *Config) { c.RequestsPerSecond = 2 })
	for range 3 {
		req := llm.Request{Role: llm.RoleJudge, Messages: []llm.Message{{Text: "x"}}}
		if _, err := h.c.Generate(t.Context(), req); err != nil {
			t.Fatal(err)
		}
	}
	// The first call goes at once; the others wait about 500ms, 1s after it.
	got := h.sleeps.all()
	if len(got) != 2 || got[0] < 400*time.Millisecond || got[1] < 900*time.Millisecond {
		t.Errorf("rate-limit sleeps = %v, want ~[500ms 1s]", got)
	}
}

func TestKeyNeverLeaks(t *testing.T) {
	tests := []struct {
		name string
		mk   func(auth string) reply
		mod  func(*Config)
	}{
		{"401 echoing the key", func(a string) reply { return apiError(401, "Incorrect API key provided: "+a) }, nil},
		{"500 echoing the key", func(a string) reply { return apiError(500, "upstream saw "+a) }, nil},
		{"non-JSON body echoing the key", func(a string) reply { return reply{status: 502, body: "proxy: " + a} }, nil},
		{"400 mode echoing the key",
			func(a string) reply { return apiError(400, "json_schema unsupported for key "+a) }, nil},
		{"bad answer echoing the key", func(a string) reply { return reply{content: "no json, key " + a} }, nil},
		{"timeout", func(string) reply { return reply{block: true} }, func(c *Config) { c.Timeout = 30 * time.Millisecond }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Handlers run on the server's goroutines, and a timed-out attempt's handler may
			// still be running when Generate returns: the header travels through an atomic.
			var lastAuth atomic.Value
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body) // lets the server notice the client going away
				auth := r.Header.Get("Authorization")
				lastAuth.Store(auth)
				rp := tt.mk(strings.TrimPrefix(auth, "Bearer "))
				if rp.block {
					select {
					case <-r.Context().Done():
					case <-time.After(5 * time.Second):
					}
					return
				}
				if rp.status == 0 {
					rp.status = 200
				}
				if rp.body == "" {
					msg := map[string]any{"role": "assistant", "content": rp.content}
					b, _ := json.Marshal(map[string]any{"model": "m", "choices": []any{map[string]any{"message": msg}}})
					rp.body = string(b)
				}
				w.WriteHeader(rp.status)
				_, _ = io.WriteString(w, rp.body)
			}))
			defer srv.Close()
			h := newClient(t, srv.URL, func(c *Config) {
				c.MaxRetries = 1
				if tt.mod != nil {
					tt.mod(c)
				}
			})
			_, err := h.c.Generate(t.Context(), deciderRequest("x"))
			if err == nil {
				t.Fatal("want an error")
			}
			if got, _ := lastAuth.Load().(string); got != "Bearer "+testKey {
				t.Fatalf("the key was not sent: %q", got)
			}
			for what, s := range map[string]string{"error": err.Error(), "logs": h.logs.String()} {
				if strings.Contains(s, testKey) || strings.Contains(s, "SECRET") {
					t.Errorf("%s contains the key: %s", what, s)
				}
			}
		})
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []Config{
		{DefaultModel: "m"},
		{BaseURL: "http://x"},
		{BaseURL: "http://x", DefaultModel: "m", Mode: "xml"},
	}
	for _, cfg := range tests {
		if _, err := New(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("New(%+v) err = %v, want ErrConfig", cfg, err)
		}
	}
}
