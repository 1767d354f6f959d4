package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/fairy-go/fairy/interaction"
)

// Hand-over on the page: while the run has given the phone to the person (Panel.HandOver),
// the panel says "your turn", shows the phone's screen as it is now (Phone.Look, masked as
// the trace's pictures are, refreshed while the person acts and after each tap), forwards a
// tap on that picture to the phone, and has a "give it back" button that ends the
// hand-over. Taps reach the phone only during a hand-over: at any other time the phone is
// the agent's.

// Phone is the phone of a panel, for the page's hand-over.
type Phone interface {
	// Tap taps the screen at x, y (screen pixels, as the phone is turned now).
	Tap(ctx context.Context, x, y int) error
	// Size is the screen's size in pixels, as the phone is turned now.
	Size(ctx context.Context) (w, h int, err error)
	// Look is a picture of the screen as it is now with every secret field painted over
	// (as the trace's pictures are); an error when it cannot be masked (then none is shown).
	Look(ctx context.Context) (pic []byte, mime string, err error)
}

// lookEvery is how often the picture of a handed-over phone is taken anew.
const lookEvery = 700 * time.Millisecond

// SetPhone gives the panel its phone: during a hand-over the page shows its screen and
// forwards taps on the picture to it. Without a phone the page shows "your turn" only.
func (p *Panel) SetPhone(ph Phone) {
	p.mu.Lock()
	p.phone = ph
	p.mu.Unlock()
	_, stream := ph.(frameSource)
	p.s.add(message{Panel: p.id, Kind: "Phone", Data: phoneData{Stream: stream}})
}

// turnData is a hand-over as the page shows it.
type turnData struct {
	ID     int    `json:"id"`
	Step   int    `json:"step"`
	App    string `json:"app,omitempty"`
	Reason string `json:"reason"`
	Taps   bool   `json:"taps"` // a tap on the picture reaches the phone
}

// turnEnded ends a hand-over on the page.
type turnEnded struct {
	ID     int  `json:"id"`
	OnPage bool `json:"on_page,omitempty"` // given back with the page's button
}

// lookData is a fresh picture of the handed-over phone.
type lookData struct {
	ID      int    `json:"id"`
	Picture string `json:"picture"`
}

// HandOver implements interaction.Hander: the page says it is the person's turn until its
// "give it back" button is pressed (nil is returned) or ctx ends (the terminal was first).
func (p *Panel) HandOver(ctx context.Context, h interaction.HandOver) error {
	p.mu.Lock()
	p.nextQ++
	id := p.nextQ
	back := make(chan struct{}, 1)
	p.turn, p.back = id, back
	p.clear = false // until a step sees the screen the person gave back
	ph := p.phone
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		if p.turn == id {
			p.turn, p.back = 0, nil
		}
		p.mu.Unlock()
	}()
	p.s.add(message{Panel: p.id, Kind: "YourTurn", Data: turnData{ID: id, Step: h.Step, App: h.App, Reason: h.Reason,
		Taps: ph != nil}})
	lctx, stopLooking := context.WithCancel(ctx)
	defer stopLooking()
	if ph != nil {
		go p.keepLooking(lctx, ph, id)
	}
	select {
	case <-back:
		p.s.add(message{Panel: p.id, Kind: "TurnEnded", Data: turnEnded{ID: id, OnPage: true}})
		return nil
	case <-ctx.Done():
		p.s.add(message{Panel: p.id, Kind: "TurnEnded", Data: turnEnded{ID: id}})
		return ctx.Err()
	case <-p.s.done:
		return errClosed
	}
}

// keepLooking shows the handed-over phone's screen until ctx ends: now, every lookEvery and
// soon after each tap forwarded.
func (p *Panel) keepLooking(ctx context.Context, ph Phone, id int) {
	t := time.NewTicker(lookEvery)
	defer t.Stop()
	n := 0
	for {
		p.look(ctx, ph, id, &n)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.tapped:
		}
	}
}

// look takes one picture of the handed-over phone and puts it on the page, unless it is the
// picture already shown.
func (p *Panel) look(ctx context.Context, ph Phone, id int, n *int) {
	pic, mime, err := ph.Look(ctx)
	if err != nil || len(pic) == 0 {
		if ctx.Err() == nil {
			p.s.log.Debug("live: no picture of the handed-over phone", "err", err)
		}
		return
	}
	p.mu.Lock()
	same := string(pic) == string(p.lastLook)
	p.lastLook = pic
	p.mu.Unlock()
	if same {
		return
	}
	*n++
	key := fmt.Sprintf("%d-look-%d-%d", p.id, id, *n)
	p.s.putPicture(key, pic, mime)
	p.s.add(message{Panel: p.id, Kind: "Look", Data: lookData{ID: id, Picture: key}})
}

// giveBack ends the hand-over id; false when it is not under way.
func (p *Panel) giveBack(id int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.turn == 0 || p.turn != id {
		return false
	}
	p.back <- struct{}{}
	p.turn, p.back = 0, nil
	return true
}

// errNotHanded refuses a tap while the phone is the agent's.
var errNotHanded = fmt.Errorf("%w: the phone is not handed over to you: "+
	"taps reach it only when the page says it is your turn", errRefused)

// tap forwards a tap at (fx, fy), the fractions of the picture's width and height from its
// top left corner, to the phone, during a hand-over only.
func (p *Panel) tap(ctx context.Context, id int, fx, fy float64) error {
	p.mu.Lock()
	ph, turn := p.phone, p.turn
	p.mu.Unlock()
	if turn == 0 || turn != id {
		return errNotHanded
	}
	if ph == nil {
		return fmt.Errorf("%w: this page cannot reach the phone: tap on the phone itself", errRefused)
	}
	if math.IsNaN(fx) || math.IsNaN(fy) || fx < 0 || fx > 1 || fy < 0 || fy > 1 {
		return fmt.Errorf("%w: a tap at (%g, %g) is off the picture: give fractions of its width and height, 0 to 1",
			errBadRequest, fx, fy)
	}
	w, h, err := ph.Size(ctx)
	if err != nil {
		return fmt.Errorf("live: the phone's screen size: %w", err)
	}
	x, y := min(int(fx*float64(w)), w-1), min(int(fy*float64(h)), h-1)
	if err := ph.Tap(ctx, x, y); err != nil {
		return fmt.Errorf("live: tap: %w", err)
	}
	select {
	case p.tapped <- struct{}{}:
	default:
	}
	return nil
}

// turnForm is the page's give-back or tap.
type turnForm struct {
	Panel int     `json:"panel"`
	Turn  int     `json:"turn"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

func (s *Server) turnPanel(w http.ResponseWriter, r *http.Request) (*Panel, turnForm, bool) {
	var f turnForm
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&f); err != nil {
		http.Error(w, "hand-over: "+err.Error(), http.StatusBadRequest)
		return nil, f, false
	}
	s.mu.Lock()
	var p *Panel
	if f.Panel >= 0 && f.Panel < len(s.panels) {
		p = s.panels[f.Panel]
	}
	s.mu.Unlock()
	if p == nil {
		http.Error(w, "no such panel", http.StatusNotFound)
		return nil, f, false
	}
	return p, f, true
}

func (s *Server) serveGiveBack(w http.ResponseWriter, r *http.Request) {
	p, f, ok := s.turnPanel(w, r)
	if !ok {
		return
	}
	if !p.giveBack(f.Turn) {
		http.Error(w, "the phone is not handed over (given back on the terminal, or the run moved on)", http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) serveTap(w http.ResponseWriter, r *http.Request) {
	p, f, ok := s.turnPanel(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	switch err := p.tap(ctx, f.Turn, f.X, f.Y); {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
	case errors.Is(err, errNotHanded):
		http.Error(w, err.Error(), http.StatusConflict)
	case errors.Is(err, errBadRequest):
		http.Error(w, err.Error(), http.StatusBadRequest)
	case errors.Is(err, errRefused):
		http.Error(w, err.Error(), http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}
