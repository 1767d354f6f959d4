package event

import (
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// What the bus promises (bus.go): every subscriber sees every event in publication order,
// subscribers in the order they subscribed; Publish is synchronous, so a slow subscriber
// holds the publisher back (nothing is dropped, nothing buffered); an unsubscribed handler
// sees nothing more; a nil bus or a nil event is dropped.

// tape is a subscriber that remembers what it saw, safe to read while the bus delivers.
type tape struct {
	mu   sync.Mutex
	recs []Record
}

func (l *tape) handle(r Record) { l.mu.Lock(); l.recs = append(l.recs, r); l.mu.Unlock() }

func (l *tape) seen() []Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Record(nil), l.recs...)
}

// TestBusEverySubscriberInPublishOrder: four publishers publish 200 events each at once;
// each of three subscribers sees all 800, numbered 1..800 without a gap, each publisher's
// events in the order it published them, and all three see the same sequence. For each
// event the subscribers are called in the order they subscribed, and the stamp is the
// bus's clock.
func TestBusEverySubscriberInPublishOrder(t *testing.T) {
	var tick atomic.Int64
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	bus := NewBus(func() time.Time { return start.Add(time.Duration(tick.Add(1)) * time.Second) })
	subs := make([]*tape, 3)
	var order []int // which subscriber was called, event after event
	var omu sync.Mutex
	for i := range subs {
		subs[i] = &tape{}
		bus.Subscribe(func(r Record) {
			omu.Lock()
			order = append(order, i)
			omu.Unlock()
			subs[i].handle(r)
		})
	}
	const publishers, each = 4, 200
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Go(func() {
			for n := range each {
				bus.Publish(StepStarted{Step: n, App: fmt.Sprint(p)})
			}
		})
	}
	wg.Wait()

	for i, l := range subs {
		recs := l.seen()
		if len(recs) != publishers*each {
			t.Fatalf("subscriber %d saw %d events, want %d", i, len(recs), publishers*each)
		}
		next := make([]int, publishers)
		for k, r := range recs {
			if r.Seq != int64(k+1) {
				t.Fatalf("subscriber %d: event %d has seq %d, want %d", i, k, r.Seq, k+1)
			}
			if i > 0 && r != subs[0].seen()[k] {
				t.Fatalf("subscriber %d saw %+v as event %d, subscriber 0 saw %+v", i, r, k, subs[0].seen()[k])
			}
			if k > 0 && !r.Time.After(recs[k-1].Time) {
				t.Fatalf("subscriber %d: event %d stamped %v, not after %v: the stamp is not the bus clock's",
					i, k, r.Time, recs[k-1].Time)
			}
			e := r.Event.(StepStarted)
			p, _ := strconv.Atoi(e.App)
			if e.Step != next[p] {
				t.Fatalf("subscriber %d: publisher %d's event %d came where %d was due", i, p, e.Step, next[p])
			}
			next[p]++
		}
	}
	for k := 0; k < len(order); k += len(subs) {
		for i := range subs {
			if order[k+i] != i {
				t.Fatalf("event %d: subscribers called in order %v, want subscription order", k/len(subs)+1, order[k:k+len(subs)])
			}
		}
	}
}

// TestBusSlowSubscriberHoldsThePublisher: back-pressure is blocking. While one subscriber
// is stuck, Publish does not return, a second publisher waits too (no event overtakes, no
// event is buffered for later: a subscriber after the slow one has not seen the event yet),
// and once the subscriber goes on both events arrive, none dropped.
func TestBusSlowSubscriberHoldsThePublisher(t *testing.T) {
	bus := NewBus(nil)
	release := make(chan struct{})
	entered := make(chan int64, 2)
	bus.Subscribe(func(r Record) {
		entered <- r.Seq
		if r.Seq == 1 {
			<-release
		}
	})
	after := &tape{}
	bus.Subscribe(after.handle)

	first := make(chan struct{})
	go func() { bus.Publish(StepStarted{Step: 1}); close(first) }()
	if s := <-entered; s != 1 {
		t.Fatalf("the slow subscriber got seq %d first", s)
	}
	second := make(chan struct{})
	go func() { bus.Publish(StepStarted{Step: 2}); close(second) }()

	// Long enough for a bus that buffered or dropped to have returned.
	select {
	case <-first:
		t.Fatal("Publish returned while a subscriber was still handling the event")
	case <-second:
		t.Fatal("a second Publish went past a subscriber still handling the first event")
	case s := <-entered:
		t.Fatalf("event %d reached the slow subscriber before it finished event 1", s)
	case <-time.After(100 * time.Millisecond):
	}
	if got := after.seen(); len(got) != 0 {
		t.Fatalf("the subscriber after the slow one saw %d events while the first was held", len(got))
	}

	close(release)
	<-first
	<-second
	got := after.seen()
	if len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 2 {
		t.Fatalf("after the slow subscriber went on, the next one saw %+v, want seq 1 and 2", got)
	}
	if got[0].Event.(StepStarted).Step != 1 || got[1].Event.(StepStarted).Step != 2 {
		t.Fatalf("events arrived as %+v: out of publication order", got)
	}
}

// TestBusPublishReturnsAfterEverySubscriber: when Publish returns, every subscriber has
// seen the event (a trace is complete the moment a run ends).
func TestBusPublishReturnsAfterEverySubscriber(t *testing.T) {
	bus := NewBus(nil)
	var a, b atomic.Int64
	bus.Subscribe(func(r Record) { time.Sleep(time.Millisecond); a.Store(r.Seq) })
	bus.Subscribe(func(r Record) { time.Sleep(time.Millisecond); b.Store(r.Seq) })
	for n := int64(1); n <= 20; n++ {
		bus.Publish(StepStarted{Step: int(n)})
		if a.Load() != n || b.Load() != n {
			t.Fatalf("Publish %d returned with subscribers at %d and %d", n, a.Load(), b.Load())
		}
	}
}

// TestBusUnsubscribe: an unsubscribed handler sees nothing more while the others keep
// their order; unsubscribing twice is harmless and removes no one else; a subscriber
// added later sees only what is published after it.
func TestBusUnsubscribe(t *testing.T) {
	bus := NewBus(nil)
	var calls []string
	sub := func(name string) func() {
		return bus.Subscribe(func(r Record) { calls = append(calls, fmt.Sprintf("%s%d", name, r.Seq)) })
	}
	sub("a")
	unB := sub("b")
	sub("c")
	bus.Publish(StepStarted{})
	unB()
	unB()
	bus.Publish(StepStarted{})
	sub("d")
	bus.Publish(StepStarted{})
	want := "[a1 b1 c1 a2 c2 a3 c3 d3]"
	if got := fmt.Sprint(calls); got != want {
		t.Fatalf("deliveries %s, want %s", got, want)
	}
}

// TestBusDropsNothingButNil: a nil event is dropped without taking a number; a nil bus
// drops every event.
func TestBusDropsNothingButNil(t *testing.T) {
	bus := NewBus(nil)
	l := &tape{}
	bus.Subscribe(l.handle)
	bus.Publish(nil)
	bus.Publish(StepStarted{Step: 1})
	if got := l.seen(); len(got) != 1 || got[0].Seq != 1 || got[0].Time.IsZero() {
		t.Fatalf("saw %+v, want one event numbered 1 and stamped", got)
	}
	var none *Bus
	none.Publish(StepStarted{}) // must not panic
}

// TestBusPanickingSubscriber: a subscriber's panic reaches its publisher, and the bus is
// not left locked: the next Publish is delivered.
func TestBusPanickingSubscriber(t *testing.T) {
	bus := NewBus(nil)
	bus.Subscribe(func(r Record) {
		if r.Seq == 1 {
			panic("boom")
		}
	})
	l := &tape{}
	bus.Subscribe(l.handle)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the subscriber's panic did not reach the publisher")
			}
		}()
		bus.Publish(StepStarted{})
	}()
	done := make(chan struct{})
	go func() { bus.Publish(StepStarted{}); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the bus stayed locked after a subscriber panicked")
	}
	if got := l.seen(); len(got) != 1 || got[0].Seq != 2 {
		t.Fatalf("after the panic the next subscriber saw %+v, want event 2", got)
	}
}

// TestBusConcurrentSubscribeAndPublish: subscribing and unsubscribing while others
// publish is safe (run with -race) and a subscriber present throughout sees every event.
func TestBusConcurrentSubscribeAndPublish(t *testing.T) {
	bus := NewBus(nil)
	var steady atomic.Int64
	bus.Subscribe(func(Record) { steady.Add(1) })
	var wg sync.WaitGroup
	const publishers, each = 4, 250
	for range publishers {
		wg.Go(func() {
			for range each {
				bus.Publish(StepStarted{})
			}
		})
	}
	// A handler unsubscribed sees nothing after its unsubscribe returns.
	type gone struct {
		n    *atomic.Int64
		left int64
	}
	var mu sync.Mutex
	var left []gone
	for range 4 {
		wg.Go(func() {
			for range 100 {
				n := &atomic.Int64{}
				un := bus.Subscribe(func(Record) { n.Add(1) })
				un()
				mu.Lock()
				left = append(left, gone{n, n.Load()})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	bus.Publish(StepStarted{})
	for _, g := range left {
		if g.n.Load() != g.left {
			t.Fatalf("an unsubscribed handler saw %d events after it left", g.n.Load()-g.left)
		}
	}
	if got := steady.Load(); got != publishers*each+1 {
		t.Fatalf("the steady subscriber saw %d events, want %d", got, publishers*each+1)
	}
}
