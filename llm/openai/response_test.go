package openai

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairy-go/fairy/llm"
)

// hugeAnswerBytes is the size of the answer that once took the process to 2 GB.
const hugeAnswerBytes = 150 << 20

// streamHuge writes a response of total bytes generated on the fly: a chat completion whose
// content is a run of 'a's (or, for an error status, plain text), without ever holding it.
// It stops when the client goes away and returns what it wrote.
func streamHuge(w http.ResponseWriter, status int, total int64, announce bool) int64 {
	head := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"`
	tail := `"}}]}`
	if status != http.StatusOK {
		head, tail = "upstream error: ", "\n"
	}
	if announce {
		w.Header().Set("Content-Length", strconv.FormatInt(total, 10))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var written int64
	n, err := io.WriteString(w, head)
	written += int64(n)
	if err != nil {
		return written
	}
	chunk := []byte(strings.Repeat("a", 64<<10))
	for left := total - int64(len(head)) - int64(len(tail)); left > 0; {
		c := chunk[:min(int64(len(chunk)), left)]
		n, err := w.Write(c)
		written += int64(n)
		if err != nil {
			return written
		}
		left -= int64(n)
	}
	n, _ = io.WriteString(w, tail)
	return written + int64(n)
}

// memPeak samples the heap in use and the memory obtained from the OS until stop is called.
type memPeak struct {
	heapInuse, sys atomic.Uint64
	done           chan struct{}
	wg             sync.WaitGroup
}

func sampleMemory() *memPeak {
	m := &memPeak{done: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > m.heapInuse.Load() {
				m.heapInuse.Store(ms.HeapInuse)
			}
			if ms.Sys > m.sys.Load() {
				m.sys.Store(ms.Sys)
			}
			select {
			case <-m.done:
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *memPeak) stop() {
	close(m.done)
	m.wg.Wait()
}

// TestHugeResponseIsCut sends a 150 MB answer to the real go-openai client: the call fails
// with a *ResponseTooLargeError naming the setting, the endpoint is asked once, the client
// hangs up long before the end, and memory stays bounded throughout.
func TestHugeResponseIsCut(t *testing.T) {
	const maxMemory = 300 << 20
	tests := []struct {
		name     string
		status   int
		announce bool // Content-Length set: refused before reading
	}{
		{"streamed answer", http.StatusOK, false},
		{"announced answer", http.StatusOK, true},
		{"streamed error body", http.StatusBadGateway, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			var written atomic.Int64
			handlerDone := make(chan struct{}, 4)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer func() { handlerDone <- struct{}{} }()
				_, _ = io.Copy(io.Discard, r.Body)
				calls.Add(1)
				written.Add(streamHuge(w, tt.status, hugeAnswerBytes, tt.announce))
			}))
			defer srv.Close()
			h := newClient(t, srv.URL, func(c *Config) { c.MaxResponseSetting = "model.max-response-bytes" })

			runtime.GC()
			peak := sampleMemory()
			_, err := h.c.Generate(t.Context(), deciderRequest("x"))
			peak.stop()

			var tl *responseTooLargeError
			if !errors.As(err, &tl) || !errors.Is(err, errResponseTooLarge) {
				t.Fatalf("err = %.300v, want a *ResponseTooLargeError", err)
			}
			if tl.Limit != defaultMaxResponseBytes || tl.Role != llm.RoleDecider || tl.Model != "test-model" {
				t.Errorf("error fields = %+v", *tl)
			}
			for _, want := range []string{"8 MiB", "model.max-response-bytes", `role "decider"`} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if len(err.Error()) > 1000 {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("endpoint called %d times, want 1 (a too-large answer is not retried)", n)
			}
			if got := peak.heapInuse.Load(); got > maxMemory {
				t.Errorf("peak heap in use %d MB, want under %d MB", got>>20, maxMemory>>20)
			}
			if got := peak.sys.Load(); got > maxMemory {
				t.Errorf("peak memory from the OS %d MB, want under %d MB", got>>20, maxMemory>>20)
			}
			t.Logf("peak heap in use %d MB, from the OS %d MB", peak.heapInuse.Load()>>20, peak.sys.Load()>>20)
			select {
			case <-handlerDone:
			case <-time.After(10 * time.Second):
				t.Fatal("the endpoint is still writing: the client did not hang up")
			}
			if w := written.Load(); w >= hugeAnswerBytes {
				t.Errorf("endpoint wrote all %d bytes: the client read on past the cap", w)
			}
		})
	}
}

// TestResponseCapBoundary: a body of exactly the cap is read, one byte more is refused.
func TestResponseCapBoundary(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"action\":\"tap\",\"index\":2}"}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		// Flushed first so that the body goes chunked, without a Content-Length.
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		limit int64
		ok    bool
	}{{int64(len(body)), true}, {int64(len(body)) - 1, false}} {
		h := newClient(t, srv.URL, func(c *Config) { c.MaxResponseBytes = tt.limit })
		resp, err := h.c.Generate(t.Context(), deciderRequest("x"))
		if tt.ok {
			if err != nil || resp.Text != `{"action":"tap","index":2}` {
				t.Errorf("cap %d (= body): %q, %v", tt.limit, resp.Text, err)
			}
			continue
		}
		if !errors.Is(err, errResponseTooLarge) || !strings.Contains(err.Error(), strconv.FormatInt(tt.limit, 10)+" bytes") {
			t.Errorf("cap %d (body %d): err = %v, want ErrResponseTooLarge naming the cap", tt.limit, len(body), err)
		}
	}
}

// TestLongErrorBodyQuotedShort: an error body under the cap but long (a proxy's HTML page)
// is quoted by its head only, in the error and in the retry log.
func TestLongErrorBodyQuotedShort(t *testing.T) {
	page := "<html>" + strings.Repeat("gateway trouble ", 20000) + "</html>"
	e := newEndpoint(t, func(int, wireReq) reply { return reply{status: http.StatusBadGateway, body: page} })
	h := newClient(t, e.srv.URL, func(c *Config) { c.MaxRetries = 1 })
	_, err := h.c.Generate(t.Context(), deciderRequest("x"))
	if !errors.Is(err, errServer) || !strings.Contains(err.Error(), "gateway trouble") {
		t.Fatalf("err = %.300v, want ErrServer quoting the body", err)
	}
	if len(err.Error()) > 2000 {
		t.Errorf("error is %d bytes long, want the body's head only", len(err.Error()))
	}
	for line := range strings.SplitSeq(h.logs.String(), "\n") {
		if len(line) > 2000 {
			t.Errorf("log line of %d bytes: %.200s…", len(line), line)
		}
	}
	if e.n() != 2 {
		t.Errorf("%d calls, want 2 (one retry)", e.n())
	}
}
