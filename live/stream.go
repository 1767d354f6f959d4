package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// The phone's screen between steps: where the phone has a live stream (the resident UI
// server's MJPEG frames), the page shows it (GET /stream, multipart/x-mixed-replace, behind
// the same token and Origin/Host checks as every request); elsewhere, the steps'
// screenshots. The frames cannot be masked as the steps' pictures are, so they are sent
// only while the panel's last screen holds no secret field (a password, a one-time code)
// and the phone is not handed over: a stream stops at the first frame after a step saw a
// secret or a hand-over began, and none starts until a later step's screen is clear.

// frameSource is a Phone that can stream its screen (see adb.Device.Frames).
type frameSource interface {
	Frames(ctx context.Context, each func(jpg []byte) error) error
}

// maxStreams bounds the streams a server serves at once (each costs the phone captures).
const maxStreams = 4

// streamBoundary separates the stream's frames.
const streamBoundary = "fairyframe"

// errNotClear stops a stream: the screen may show a secret now.
var errNotClear = errors.New("live: the screen may show a secret: step screenshots only")

// phoneData tells the page what the panel's phone can do.
type phoneData struct {
	Stream bool `json:"stream"` // it may have a live stream (GET /stream)
}

// setClear records whether the panel's screen may be streamed.
func (p *Panel) setClear(clear bool) {
	p.mu.Lock()
	p.clear = clear
	p.mu.Unlock()
}

// streamable reports whether frames of the panel's phone may be sent now.
func (p *Panel) streamable() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.clear && p.turn == 0
}

func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("panel"))
	s.mu.Lock()
	var p *Panel
	if err == nil && n >= 0 && n < len(s.panels) {
		p = s.panels[n]
	}
	s.mu.Unlock()
	if p == nil {
		http.Error(w, "no such panel", http.StatusNotFound)
		return
	}
	p.mu.Lock()
	src, ok := p.phone.(frameSource)
	p.mu.Unlock()
	if !ok {
		http.Error(w, "this phone has no live stream: the page shows the steps' screenshots", http.StatusNotFound)
		return
	}
	if !p.streamable() {
		http.Error(w, errNotClear.Error(), http.StatusConflict)
		return
	}
	if s.streams.Add(1) > maxStreams {
		s.streams.Add(-1)
		http.Error(w, fmt.Sprintf("at most %d live streams at once: close another page", maxStreams),
			http.StatusTooManyRequests)
		return
	}
	defer s.streams.Add(-1)
	fl, _ := w.(http.Flusher)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	started := false
	err = src.Frames(ctx, func(jpg []byte) error {
		if !p.streamable() {
			return errNotClear
		}
		if !started {
			started = true
			h := w.Header()
			h.Set("Content-Type", "multipart/x-mixed-replace; boundary="+streamBoundary)
			h.Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusOK)
		}
		head := fmt.Sprintf("--%s\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", streamBoundary, len(jpg))
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		if _, err := w.Write(jpg); err != nil {
			return err
		}
		if _, err := w.Write([]byte("\r\n")); err != nil {
			return err
		}
		if fl != nil {
			fl.Flush()
		}
		return nil
	})
	if !started {
		status := http.StatusNotFound
		if errors.Is(err, errNotClear) {
			status = http.StatusConflict
		}
		http.Error(w, fmt.Sprintf("no live stream: %v: the page shows the steps' screenshots", err), status)
	}
}
