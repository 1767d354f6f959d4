package event

import (
	"sync"
	"time"
)

// Handler receives the events of a bus, one at a time, in publication order. A handler must
// not publish on the bus it listens to and should return quickly.
type Handler func(Record)

// Bus is a run's in-process event bus. Publication is synchronous: when Publish returns,
// every subscriber has seen the event, so a trace is complete the moment a run ends. It is
// safe for concurrent use; events from concurrent publishers are delivered one at a time.
type Bus struct {
	mu   sync.Mutex
	now  func() time.Time
	seq  int64
	next int
	subs map[int]Handler
	ord  []int
}

// NewBus returns a bus stamping events with now (time.Now when nil).
func NewBus(now func() time.Time) *Bus {
	if now == nil {
		now = time.Now
	}
	return &Bus{now: now, subs: map[int]Handler{}}
}

// Subscribe adds h; the returned function removes it.
func (b *Bus) Subscribe(h Handler) (unsubscribe func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	b.subs[id] = h
	b.ord = append(b.ord, id)
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.subs, id)
		for i, o := range b.ord {
			if o == id {
				b.ord = append(b.ord[:i:i], b.ord[i+1:]...)
				break
			}
		}
	}
}

// Publish delivers e to every subscriber. A nil bus drops the event, so parts can run
// without one in tests.
func (b *Bus) Publish(e Event) {
	if b == nil || e == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	r := Record{Seq: b.seq, Time: b.now(), Event: e}
	for _, id := range b.ord {
		b.subs[id](r)
	}
}
