package live

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

//go:embed page.html
var page []byte

// Limits on what a server keeps for a page that connects late (or reconnects): the
// messages of the run so far, and the latest pictures.
const (
	maxMessages = 20000
	maxPictures = 240
)

// Config is what a live page needs.
type Config struct {
	// Addr is where to listen (host:port); "" is 127.0.0.1 on a free port.
	Addr string
	// Token is the secret in the page's address; "" makes a random one. An address that is
	// not loopback needs a token the person chose (CheckAddr).
	Token string
	// Title heads the page ("fairy run", "fairy eval builtin:sim").
	Title string
	// Stop ends the run as Ctrl-C does; the page's Stop button calls it (again for each
	// run that starts after it, as under `fairy mcp`). nil: the page has no Stop button.
	Stop func()
	// Logger receives the server's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Server serves the live page. Open it with Listen, give each phone a Panel, and Close it
// when the command ends.
type Server struct {
	cfg    Config
	log    *slog.Logger
	access Access
	ln     net.Listener
	hs     *http.Server
	served chan error
	done   chan struct{}

	mu       sync.Mutex
	panels   []*Panel
	msgs     [][]byte      // encoded messages, oldest first
	base     int           // the number of messages dropped from the front of msgs
	changed  chan struct{} // closed and replaced when a message is added
	pics     map[string]picture
	picOrder []string
	streams  atomic.Int32 // the live streams being served (stream.go)
}

type picture struct {
	b    []byte
	mime string
}

// Listen opens the server on cfg.Addr and starts serving.
func Listen(cfg Config) (*Server, error) {
	tokenGiven := cfg.Token != ""
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if err := CheckAddr(cfg.Addr, tokenGiven); err != nil {
		return nil, err
	}
	if !tokenGiven {
		t, err := NewToken()
		if err != nil {
			return nil, err
		}
		cfg.Token = t
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("live: listen on %s: %w (choose another address)", cfg.Addr, err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	s := &Server{cfg: cfg, log: cfg.Logger, ln: ln, served: make(chan error, 1), done: make(chan struct{}),
		changed: make(chan struct{}), pics: map[string]picture{},
		access: Access{Token: cfg.Token, Loopback: IsLoopback(host), Port: port, QueryToken: true}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.servePage)
	mux.HandleFunc("GET /events", s.serveEvents)
	mux.HandleFunc("GET /picture", s.servePicture)
	mux.HandleFunc("POST /answer", s.serveAnswer)
	mux.HandleFunc("POST /stop", s.serveStop)
	mux.HandleFunc("POST /giveback", s.serveGiveBack)
	mux.HandleFunc("POST /tap", s.serveTap)
	mux.HandleFunc("GET /stream", s.serveStream)
	s.hs = &http.Server{Handler: s.access.Protect(mux), ReadHeaderTimeout: 10 * time.Second}
	go func() { s.served <- s.hs.Serve(ln) }()
	s.add(message{Kind: "Page", Data: pageInfo{Title: cfg.Title, Stop: cfg.Stop != nil}})
	return s, nil
}

// pageInfo heads the page.
type pageInfo struct {
	Title string `json:"title"`
	Stop  bool   `json:"stop"`
}

// URL is the page's address with its token, to print for the person.
func (s *Server) URL() string {
	host, port, _ := net.SplitHostPort(s.ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/?t=" + url.QueryEscape(s.cfg.Token)
}

// Close stops serving: the page's event stream ends (the page says the run is over) and
// every question still open on the page is withdrawn.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return nil
	default:
	}
	close(s.done)
	s.mu.Unlock()
	err := s.hs.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = s.hs.Close()
	}
	if serr := <-s.served; err == nil && !errors.Is(serr, http.ErrServerClosed) {
		err = serr
	}
	return err
}

// message is one thing the page is told: an event of a panel's run, a question, a
// picture's arrival.
type message struct {
	Panel int       `json:"panel"`
	Kind  string    `json:"kind"`
	Seq   int64     `json:"seq,omitempty"`
	Time  time.Time `json:"time,omitzero"`
	Line  string    `json:"line,omitempty"` // the event in one line, for a person
	Data  any       `json:"data,omitempty"`
}

// add appends m to what every page is sent.
func (s *Server) add(m message) {
	b, err := json.Marshal(m)
	if err != nil {
		s.log.Warn("live: message not sent", slog.String("kind", m.Kind), slog.Any("err", err))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, b)
	if len(s.msgs) > maxMessages {
		drop := len(s.msgs) - maxMessages
		s.msgs = append(s.msgs[:0:0], s.msgs[drop:]...)
		s.base += drop
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// putPicture keeps a picture for the page, the oldest dropped past maxPictures.
func (s *Server) putPicture(key string, b []byte, mime string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pics[key]; !ok {
		s.picOrder = append(s.picOrder, key)
	}
	s.pics[key] = picture{b: b, mime: mime}
	for len(s.picOrder) > maxPictures {
		delete(s.pics, s.picOrder[0])
		s.picOrder = s.picOrder[1:]
	}
}

func (s *Server) servePage(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "+
		"img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	w.Write(page)
}

// serveEvents streams every message as a server-sent event, from the first (or from the
// one after Last-Event-ID, on a reconnect) until the page goes away or the server closes.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	next := 0
	if id, err := strconv.Atoi(r.Header.Get("Last-Event-ID")); err == nil && id >= 0 {
		next = id + 1
	}
	w.WriteHeader(http.StatusOK)
	fl.Flush()
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		s.mu.Lock()
		if next < s.base {
			next = s.base
		}
		batch := s.msgs[next-s.base:]
		changed := s.changed
		s.mu.Unlock()
		for _, b := range batch {
			if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", next, b); err != nil {
				return
			}
			next++
		}
		fl.Flush()
		select {
		case <-changed:
		case <-keep.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			fmt.Fprint(w, "event: end\ndata: {}\n\n")
			fl.Flush()
			return
		}
	}
}

func (s *Server) servePicture(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	p, ok := s.pics[r.URL.Query().Get("k")]
	s.mu.Unlock()
	if !ok {
		http.Error(w, "no such picture (the page keeps the latest ones)", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", p.mime)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	w.Write(p.b)
}

// answerForm is the page's answer to a question.
type answerForm struct {
	Panel    int    `json:"panel"`
	Question int    `json:"question"`
	Answer   string `json:"answer"`
}

func (s *Server) serveAnswer(w http.ResponseWriter, r *http.Request) {
	var f answerForm
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&f); err != nil {
		http.Error(w, "answer: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	var p *Panel
	if f.Panel >= 0 && f.Panel < len(s.panels) {
		p = s.panels[f.Panel]
	}
	s.mu.Unlock()
	if p == nil {
		http.Error(w, "no such panel", http.StatusNotFound)
		return
	}
	if !p.answer(f.Question, f.Answer) {
		http.Error(w, "that question is no longer open (answered on the terminal, or the run moved on)", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) serveStop(w http.ResponseWriter, _ *http.Request) {
	if s.cfg.Stop == nil {
		http.Error(w, "this page has no Stop: end the run on its terminal", http.StatusNotFound)
		return
	}
	s.add(message{Kind: "Stopping"})
	s.cfg.Stop()
	w.WriteHeader(http.StatusNoContent)
}
