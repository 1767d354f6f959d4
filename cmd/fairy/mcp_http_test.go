package main

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/mcp"
	"github.com/fairy-go/fairy/sim"
)

// bearer adds the token to every request of a client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func bearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}}
}

// serveTestMCP serves an MCP server (no phone behind it: the requests here never reach
// one) over HTTP with token and o; it returns the endpoint.
func serveTestMCP(t *testing.T, token string, o mcp.HTTPOptions) (endpoint string, stderr *syncBuffer) {
	t.Helper()
	srv, err := mcp.New(mcpConfig(mcpDeps{}, runConfig{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	stderr = &syncBuffer{}
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveMCPHTTPWith(ctx, srv, "127.0.0.1:0", token, o, stderr, func(a net.Addr) { addrs <- a })
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-addrs:
		return "http://" + a.String() + "/", stderr
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not start")
	}
	return "", nil
}

// initialize sends an MCP initialize request with the headers h; it returns the status.
func initialize(t *testing.T, endpoint string, h map[string]string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), "POST", endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// TestMCPHTTPRefuses: `fairy mcp --http` refuses a request without its token, from a
// foreign Origin (also with a loopback Host), and naming a foreign Host (DNS rebinding);
// it prints the random token it made; and it will not listen where other machines reach
// it without a token the person set.
func TestMCPHTTPRefuses(t *testing.T) {
	endpoint, stderr := serveTestMCP(t, "", mcp.HTTPOptions{})
	m := regexp.MustCompile(`Authorization: Bearer ([0-9a-f]{32})`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no random token printed:\n%s", stderr)
	}
	token := m[1]
	port := endpoint[strings.LastIndex(endpoint, ":")+1 : len(endpoint)-1]
	auth := "Bearer " + token
	tests := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no token (the query's t is not taken here)", nil, 401},
		{"a wrong token", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 32)}, 401},
		{"foreign Origin, loopback Host", map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, 403},
		{"foreign Host (DNS rebinding)", map[string]string{"Authorization": auth, "Host": "evil.example:" + port}, 403},
		{"the token", map[string]string{"Authorization": auth}, 200},
		{"the token, same Origin", map[string]string{"Authorization": auth, "Origin": "http://127.0.0.1:" + port}, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if st, _ := initialize(t, endpoint+"?t="+token, tc.header); st != tc.want {
				t.Errorf("status %d, want %d", st, tc.want)
			}
		})
	}
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		code, _, errOut := execRoot(t, map[string]string{"HOME": t.TempDir()}, "", "mcp", "--http", addr)
		if code != exitUsage || !strings.Contains(errOut, envMCPToken) {
			t.Errorf("mcp --http %s without a token: exit %d: %s", addr, code, errOut)
		}
	}
}

// TestMCPHTTPSessionsBounded: sessions past the cap are refused until one is closed, and
// an idle session expires.
func TestMCPHTTPSessionsBounded(t *testing.T) {
	const max = 4
	endpoint, _ := serveTestMCP(t, "tok", mcp.HTTPOptions{MaxSessions: max, SessionTimeout: 700 * time.Millisecond})
	auth := map[string]string{"Authorization": "Bearer tok"}
	var ids []string
	for i := range 3 * max {
		st, id := initialize(t, endpoint, auth)
		switch {
		case i < max && (st != 200 || id == ""):
			t.Fatalf("session %d: status %d, id %q", i+1, st, id)
		case i >= max && st != http.StatusServiceUnavailable:
			t.Fatalf("session %d past the cap of %d: status %d, want 503", i+1, max, st)
		}
		if id != "" {
			ids = append(ids, id)
		}
	}
	// Closing one makes room for one.
	req, _ := http.NewRequestWithContext(t.Context(), "DELETE", endpoint, nil)
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Mcp-Session-Id", ids[0])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitStatus := func(what string, want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			st, _ := initialize(t, endpoint, auth)
			if st == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: status %d, want %d", what, st, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitStatus("after closing a session", 200)
	if st, _ := initialize(t, endpoint, auth); st != http.StatusServiceUnavailable {
		t.Fatalf("full again: status %d", st)
	}
	// Idle sessions expire: the cap frees itself.
	time.Sleep(time.Second)
	waitStatus("after the idle sessions expired", 200)
}

// TestMCPWatch: `fairy mcp --watch` shows a run the client starts on the live page — a
// panel named by its instruction, its screens with their pictures, and its questions, put
// to the client and to the page at once (the client answered them first, and the page
// took them down).
func TestMCPWatch(t *testing.T) {
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := startMCPOn(t, phone, "", func(msg string, _ any) (string, string) {
		if strings.Contains(msg, "When should") {
			return "accept", "18:00"
		}
		return "accept", "yes"
	}, "--watch")
	m := regexp.MustCompile(`live page: (http://\S+)`).FindStringSubmatch(r.stderr.String())
	if m == nil {
		t.Fatalf("no live page address on stderr:\n%s", r.stderr)
	}
	if out := r.call(t, "run", map[string]any{"instruction": demoInstruction}, false); !strings.HasPrefix(out, "done") {
		t.Fatalf("run: %s", out)
	}
	u, _ := url.Parse(m[1])
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+u.Host+"/events?t="+u.Query().Get("t"), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for sc.Scan() {
		line := sc.Text()
		for _, want := range []string{`"kind":"Panel","data":{"name":` + strconv.Quote(demoInstruction), `"kind":"ScreenPerceived"`, `"picture":"`,
			`"kind":"Question"`, `"kind":"QuestionClosed"`, `"kind":"RunFinished"`} {
			if strings.Contains(line, want) {
				seen[want] = true
			}
		}
		if seen[`"kind":"RunFinished"`] {
			break
		}
	}
	for _, want := range []string{`"kind":"Panel","data":{"name":` + strconv.Quote(demoInstruction), `"kind":"ScreenPerceived"`, `"picture":"`,
		`"kind":"Question"`, `"kind":"QuestionClosed"`, `"kind":"RunFinished"`} {
		if !seen[want] {
			t.Errorf("the live page was never sent %s", want)
		}
	}
}
