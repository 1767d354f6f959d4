package event

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
)

func TestBusOrderAndUnsubscribe(t *testing.T) {
	bus := NewBus(nil)
	var got []int64
	var mu sync.Mutex
	un := bus.Subscribe(func(r Record) { mu.Lock(); got = append(got, r.Seq); mu.Unlock() })
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() { bus.Publish(StepStarted{Step: 1}) })
	}
	wg.Wait()
	un()
	bus.Publish(StepStarted{Step: 2})
	if len(got) != 50 {
		t.Fatalf("delivered %d events, want 50", len(got))
	}
	for i, s := range got {
		if s != int64(i+1) {
			t.Fatalf("event %d has seq %d: out of order", i, s)
		}
	}
	var nilBus *Bus
	nilBus.Publish(StepStarted{}) // must not panic
}

func TestActionValidateAndString(t *testing.T) {
	tests := []struct {
		a    Action
		str  string
		bad  bool
		ends bool
	}{
		{Action{Type: Tap, Index: 3}, "Tap(3)", false, false},
		{Action{Type: Tap}, "Tap(0)", true, false},
		{Action{Type: Input, Index: 2, Text: "奶茶 \"big\""}, `Input(2, "奶茶 \"big\"")`, false, false},
		{Action{Type: Swipe, Direction: "up"}, "Swipe(screen, up)", false, true},
		{Action{Type: Swipe, Index: 4, Direction: "sideways"}, "Swipe(4, sideways)", true, true},
		{Action{Type: Back}, "Back()", false, true},
		{Action{Type: Wait, Seconds: 99}, "Wait(99)", true, false},
		{Action{Type: OpenApp}, "OpenApp()", true, true},
		{Action{Type: Shell, Command: "getprop ro.build.version.release"}, `Shell("getprop ro.build.version.release")`, false, false},
		{Action{Type: "Explode"}, "Explode()", true, false},
		{Action{Type: Finish, Text: "done"}, `Finish("done")`, false, true},
	}
	for _, tt := range tests {
		err := tt.a.Validate()
		if (err != nil) != tt.bad {
			t.Errorf("%v.Validate() = %v, want bad=%v", tt.a, err, tt.bad)
		}
		if err != nil && !errors.Is(err, errBadAction) {
			t.Errorf("%v.Validate() = %v, not ErrBadAction", tt.a, err)
		}
		if s := tt.a.String(); s != tt.str {
			t.Errorf("String() = %s, want %s", s, tt.str)
		}
		if tt.a.EndsBatch() != tt.ends {
			t.Errorf("%v.EndsBatch() = %v", tt.a, !tt.ends)
		}
	}
}

func TestEventsEncode(t *testing.T) {
	b, err := json.Marshal(ScreenPerceived{Step: 1, Signature: "x", Marked: []byte{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"step":1,"signature":"x","elements":0,"text":""}` {
		t.Errorf("ScreenPerceived JSON = %s (the image must stay out)", b)
	}
}
