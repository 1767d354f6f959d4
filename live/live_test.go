package live

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
)

func listen(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// TestAccessRefuses: the page answers only a request that names it by a loopback host,
// comes from no other origin and carries the token.
func TestAccessRefuses(t *testing.T) {
	s := listen(t, Config{})
	u, _ := url.Parse(s.URL())
	token := u.Query().Get("t")
	if len(token) != 32 {
		t.Fatalf("token %q: want 32 hex digits", token)
	}
	port := u.Port()
	tests := []struct {
		name   string
		path   string
		method string
		header map[string]string
		host   string
		want   int
	}{
		{"page with token", "/?t=" + token, "GET", nil, "", 200},
		{"localhost name", "/?t=" + token, "GET", nil, "localhost:" + port, 200},
		{"no token", "/", "GET", nil, "", 401},
		{"wrong token", "/?t=" + strings.Repeat("0", 32), "GET", nil, "", 401},
		{"bearer token", "/events", "GET", map[string]string{"Authorization": "Bearer " + token}, "", 200},
		{"DNS rebinding: a foreign Host", "/?t=" + token, "GET", nil, "evil.example:" + port, 403},
		{"another port in Host", "/?t=" + token, "GET", nil, "127.0.0.1:1", 403},
		{"foreign Origin", "/stop?t=" + token, "POST", map[string]string{"Origin": "http://evil.example"}, "", 403},
		{"null Origin", "/stop?t=" + token, "POST", map[string]string{"Origin": "null"}, "", 403},
		{"cross-site fetch", "/picture?k=x&t=" + token, "GET", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 403},
		{"same Origin", "/answer?t=" + token, "POST", map[string]string{"Origin": "http://" + u.Host}, "", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, tc.method, "http://"+u.Host+tc.path, strings.NewReader(""))
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

// TestListenRefusesNonLoopback: an address other machines reach needs a token of the
// person's own.
func TestListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		if _, err := Listen(Config{Addr: addr}); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("Listen(%q) without a token: %v, want ErrNotLoopback", addr, err)
		}
	}
	s := listen(t, Config{Addr: "0.0.0.0:0", Token: "a-token-the-person-chose"})
	if !strings.Contains(s.URL(), "t=a-token-the-person-chose") {
		t.Errorf("URL %s lacks the token", s.URL())
	}
	if _, err := Listen(Config{Addr: "nonsense"}); !errors.Is(err, errAddress) {
		t.Errorf("Listen(nonsense): %v", err)
	}
}

// sse reads the page's event stream.
func sse(t *testing.T, s *Server) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", strings.Replace(s.URL(), "/?", "/events?", 1), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	ch := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				ch <- d
			}
		}
		close(ch)
	}()
	return ch
}

func waitFor(t *testing.T, ch <-chan string, sub string) string {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case m, ok := <-ch:
			if !ok {
				t.Fatalf("stream ended before %q", sub)
			}
			if strings.Contains(m, sub) {
				return m
			}
		case <-timeout:
			t.Fatalf("no message with %q", sub)
		}
	}
}

// TestPanelStreamsAndAsks: a panel's events reach the page, its screenshot is served, and
// a question is answered from the page.
func TestPanelStreamsAndAsks(t *testing.T) {
	stopped := make(chan struct{})
	s := listen(t, Config{Title: "fairy run", Stop: func() { close(stopped) }})
	p := s.Panel("sim-1")
	ch := sse(t, s)
	p.Handle(event.Record{Seq: 1, Event: event.RunStarted{Instruction: "帮我点一杯珍珠奶茶"}})
	p.Handle(event.Record{Seq: 2, Event: event.ScreenPerceived{Step: 1, Package: "com.fairy.shop", Picture: []byte("\x89PNGpicture"), PictureMIME: "image/png"}})
	waitFor(t, ch, "帮我点一杯珍珠奶茶")
	m := waitFor(t, ch, `"picture":"0-2-0"`)
	_ = m
	base := strings.SplitN(s.URL(), "/?", 2)
	resp, err := http.Get(base[0] + "/picture?k=0-2-0&" + base[1])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "\x89PNGpicture" {
		t.Errorf("picture: %q", b)
	}

	answered := make(chan string, 1)
	go func() {
		a, err := p.Ask(t.Context(), interaction.Question{Type: 1, Kind: interaction.YesNo, Text: "Pay ¥15?"})
		if err != nil {
			a = "error: " + err.Error()
		}
		answered <- a
	}()
	waitFor(t, ch, "Pay ¥15?")
	post := func(path, body string) int {
		req, _ := http.NewRequest("POST", base[0]+path+"?"+base[1], strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post("/answer", `{"panel":0,"question":1,"answer":"yes"}`); st != 204 {
		t.Fatalf("answer: status %d", st)
	}
	if a := <-answered; a != "yes" {
		t.Errorf("Ask returned %q", a)
	}
	if st := post("/answer", `{"panel":0,"question":1,"answer":"no"}`); st != 409 {
		t.Errorf("a second answer: status %d, want 409", st)
	}
	if st := post("/stop", ""); st != 204 {
		t.Fatalf("stop: status %d", st)
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop did not call Config.Stop")
	}
}

// slow answers after a delay, or fails at once.
type slow struct {
	after  time.Duration
	answer string
	err    error
	asked  chan error // ctx's error when Ask returned
}

func (s slow) Ask(ctx context.Context, _ interaction.Question) (string, error) {
	if s.err != nil {
		return "", s.err
	}
	select {
	case <-time.After(s.after):
		return s.answer, nil
	case <-ctx.Done():
		if s.asked != nil {
			s.asked <- ctx.Err()
		}
		return "", ctx.Err()
	}
}

// TestFirstAnswerWins: the first answer counts and the other dialoger is withdrawn; one
// that fails leaves the question to the other.
func TestFirstAnswerWins(t *testing.T) {
	withdrawn := make(chan error, 1)
	d := First{slow{after: time.Hour, answer: "terminal", asked: withdrawn}, slow{after: 10 * time.Millisecond, answer: "page"}}
	a, err := d.Ask(t.Context(), interaction.Question{Text: "?"})
	if err != nil || a != "page" {
		t.Fatalf("Ask = %q, %v; want page", a, err)
	}
	if err := <-withdrawn; !errors.Is(err, context.Canceled) {
		t.Errorf("the slower dialoger was not withdrawn: %v", err)
	}
	d = First{slow{err: interaction.ErrNoAnswer}, slow{after: 20 * time.Millisecond, answer: "page"}}
	if a, err := d.Ask(t.Context(), interaction.Question{Text: "?"}); err != nil || a != "page" {
		t.Errorf("with a terminal at end of input: %q, %v", a, err)
	}
	d = First{slow{err: interaction.ErrNoAnswer}, slow{err: errors.New("other")}}
	if _, err := d.Ask(t.Context(), interaction.Question{Text: "?"}); err == nil {
		t.Error("all failed, and Ask succeeded")
	}
}
