package live

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
)

// maxScreenText bounds the screen text a step's message carries (the compact form the
// models read); the trace has it whole.
const maxScreenText = 6000

// Panel is one phone's part of the live page. Its Handle receives the run's events (pass
// it as agent.Run.Watch); as an interaction.Dialoger it puts the run's questions on the
// page and returns the page's answer.
type Panel struct {
	s    *Server
	id   int
	name string

	mu      sync.Mutex
	nextQ   int
	pending map[int]chan string

	// The hand-over (handover.go).
	phone    Phone
	turn     int           // the hand-over under way (0: the phone is the agent's)
	back     chan struct{} // the page gave the phone back
	tapped   chan struct{} // a tap was forwarded (capacity 1)
	lastLook []byte
	clear    bool // the last screen held no secret: its stream may be shown (stream.go)
}

// Panel adds a panel named name (the phone's serial, a task) to the page.
func (s *Server) Panel(name string) *Panel {
	s.mu.Lock()
	p := &Panel{s: s, id: len(s.panels), name: name, pending: map[int]chan string{}, tapped: make(chan struct{}, 1)}
	s.panels = append(s.panels, p)
	s.mu.Unlock()
	s.add(message{Panel: p.id, Kind: "Panel", Data: map[string]string{"name": name}})
	return p
}

// Rename gives the panel a new name (an evaluation's next task on the same phone).
func (p *Panel) Rename(name string) {
	p.s.add(message{Panel: p.id, Kind: "Panel", Data: map[string]string{"name": name}})
}

// Handle sends a run's event to the page. It returns quickly: it encodes the event and
// keeps the step's pictures.
func (p *Panel) Handle(r event.Record) {
	m := message{Panel: p.id, Kind: r.Event.Kind(), Seq: r.Seq, Time: r.Time, Data: r.Event}
	switch e := r.Event.(type) {
	case event.ScreenPerceived:
		p.setClear(!e.Secret && !e.Secure)
		d := screenData{ScreenPerceived: e}
		if len(d.Text) > maxScreenText {
			d.Text = cutUTF8(d.Text, maxScreenText) + "\n…"
		}
		if len(e.Picture) > 0 {
			d.Picture = fmt.Sprintf("%d-%d-%d", p.id, r.Seq, 0)
			p.s.putPicture(d.Picture, e.Picture, e.PictureMIME)
		}
		if len(e.Marked) > 0 {
			d.Marked = fmt.Sprintf("%d-%d-%d", p.id, r.Seq, 1)
			p.s.putPicture(d.Marked, e.Marked, e.MarkedMIME)
		}
		m.Data = d
		m.Line = fmt.Sprintf("saw %s (%d elements)", cmp.Or(e.Activity, e.Package, e.Signature), e.Elements)
	case event.ActionsDecided:
		m.Line = "decided: " + actions(e.Actions)
	case event.ActionExecuted:
		m.Line = "done: " + e.Action.String()
		if e.Element != nil && e.Element.Label != "" {
			m.Line += " on “" + e.Element.Label + "”"
		}
		if e.Err != "" {
			m.Line += " — failed: " + e.Err
		}
	case event.ActionGuarded:
		m.Line = fmt.Sprintf("guarded: %s (%s) needs your consent", e.Action.String(), e.Category)
		if sp := e.Specifics.String(); sp != "" {
			m.Line += " — " + sp
		}
	case event.ActionRejected:
		m.Line = fmt.Sprintf("rejected: %s: %s", e.Action.String(), e.Reason)
	case event.Reflected:
		if e.Result != "" {
			m.Line = "result " + e.Result + ": " + e.Reflection
		}
	case event.HandOver:
		p.setClear(false) // until a step sees the screen the person gave back
		switch {
		case e.Ended.IsZero():
			m.Line = "handed over: the screen needs " + e.Reason
		case e.Error != "":
			m.Line = fmt.Sprintf("not taken (%s): %s", e.Reason, e.Error)
		default:
			m.Line = fmt.Sprintf("given back after %.0f s (%s)", e.Duration.Seconds(), e.Reason)
		}
	case event.Navigated:
		m.Line = fmt.Sprintf("App Map path to %s: %d of %d steps replayed", e.Target, e.Replayed, e.Planned)
	}
	p.s.add(m)
}

// screenData is a ScreenPerceived as the page gets it: the keys of its pictures.
type screenData struct {
	event.ScreenPerceived
	Picture string `json:"picture,omitempty"`
	Marked  string `json:"marked,omitempty"`
}

// MarshalJSON keeps the embedded event's fields beside the picture keys (the event's own
// JSON leaves its images out).
func (d screenData) MarshalJSON() ([]byte, error) {
	ev, err := json.Marshal(d.ScreenPerceived)
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(ev, &fields); err != nil {
		return nil, err
	}
	if d.Picture != "" {
		fields["picture"] = d.Picture
	}
	if d.Marked != "" {
		fields["marked"] = d.Marked
	}
	return json.Marshal(fields)
}

// questionData is a question as the page shows it.
type questionData struct {
	ID       int                  `json:"id"`
	Question interaction.Question `json:"question"`
}

// closedData withdraws a question from the page.
type closedData struct {
	ID     int    `json:"id"`
	Answer string `json:"answer,omitempty"`
	OnPage bool   `json:"on_page,omitempty"`
}

// Ask implements interaction.Dialoger: the question appears on the page until the page
// answers it (the answer is returned) or ctx ends (it is withdrawn).
func (p *Panel) Ask(ctx context.Context, q interaction.Question) (string, error) {
	p.mu.Lock()
	p.nextQ++
	id := p.nextQ
	ch := make(chan string, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	p.s.add(message{Panel: p.id, Kind: "Question", Data: questionData{ID: id, Question: q}})
	select {
	case a := <-ch:
		p.s.add(message{Panel: p.id, Kind: "QuestionClosed", Data: closedData{ID: id, Answer: a, OnPage: true}})
		return a, nil
	case <-ctx.Done():
		p.withdraw(id)
		return "", ctx.Err()
	case <-p.s.done:
		p.withdraw(id)
		return "", errClosed
	}
}

func (p *Panel) withdraw(id int) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
	p.s.add(message{Panel: p.id, Kind: "QuestionClosed", Data: closedData{ID: id}})
}

// answer gives the open question id its answer; false when it is not open.
func (p *Panel) answer(id int, a string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch, ok := p.pending[id]
	if !ok {
		return false
	}
	delete(p.pending, id)
	ch <- strings.TrimSpace(a)
	return true
}

// actions is a batch in one line.
func actions(as []event.Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.String()
	}
	return strings.Join(parts, "; ")
}

// cutUTF8 cuts s to at most n bytes, at a rune boundary.
func cutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}
