package memory

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestManagerStacks(t *testing.T) {
	bus := NewBus(func() time.Time { return time.Unix(0, 0) })
	m := NewManager()
	defer m.Attach(bus)()

	pay := Action{Type: Tap, Index: 7}
	for _, e := range []Event{
		RunStarted{Instruction: "order tea then note the time"},
		AppTaskStarted{Instruction: "order tea then note the time", Task: AppTask{App: "shop", Task: "order tea"}, Context: []Fact{{Key: "size", Value: "large"}}},
		StepStarted{Step: 1},
		ScreenPerceived{Step: 1, Signature: "s1", Text: "- [1] button \"Tea\""},
		Planned{Step: 1, Plan: []string{"pick", "pay"}, Subgoal: "pick"},
		ActionsDecided{Step: 1, Actions: []Action{{Type: Tap, Index: 1}}},
		ActionExecuted{Step: 1, Action: Action{Type: Tap, Index: 1}, Signature: "s1"},
		ContextCollected{Step: 1, Facts: []Fact{{Key: "price", Value: "¥18"}, {Key: "size", Value: "medium"}}},
		StepStarted{Step: 2},
		Reflected{Step: 2, Result: "A", Reflection: "picked", Progress: "tea chosen"},
		InteractionAsked{Step: 2, Type: 1, Question: "Pay ¥18?"},
		InteractionAnswered{Step: 2, Answer: "yes"},
	} {
		bus.Publish(e)
	}
	if got := m.Turns(); len(got) != 1 || got[0].Answer != "yes" {
		t.Fatalf("turns during interaction = %+v", got)
	}
	bus.Publish(InteractionEnded{Step: 2, Settled: true, Summary: "The user agrees to pay ¥18.", Consent: &Consent{Granted: true, Category: "payment", Action: "pay@s2"}})

	if got := m.Turns(); len(got) != 0 {
		t.Errorf("interaction stack not cleared: %+v", got)
	}
	wantIns := []Instruction{{Text: "order tea", Source: "task"}, {Text: "The user agrees to pay ¥18.", Source: "user", Consent: &Consent{Granted: true, Category: "payment", Action: "pay@s2"}}}
	if d := cmp.Diff(wantIns, m.Instructions()); d != "" {
		t.Errorf("instructions (-want +got):\n%s", d)
	}
	if _, ok := m.Consent("payment", "pay@s2"); !ok {
		t.Fatal("payment consent not found")
	}
	if _, ok := m.Consent("delete", "pay@s2"); ok {
		t.Fatal("payment consent covers delete")
	}
	if _, ok := m.Consent("payment", "other-pay@s2"); ok {
		t.Fatal("payment consent covers another payment action")
	}
	bus.Publish(ActionExecuted{Step: 2, Action: pay, Consent: "payment", ConsentFor: "other-pay@s2"})
	if _, ok := m.Consent("payment", "pay@s2"); !ok {
		t.Fatal("another action spent the consent")
	}
	bus.Publish(ActionExecuted{Step: 2, Action: pay, Consent: "payment", ConsentFor: "pay@s2"})
	if _, ok := m.Consent("payment", "pay@s2"); ok {
		t.Error("consent still available after it was spent")
	}
	fs := m.Frames()
	if len(fs) != 2 || fs[0].Result != "A" || fs[0].Subgoal != "pick" || fs[0].Signature != "s1" || len(fs[0].Executed) != 1 {
		t.Errorf("frames = %+v", fs)
	}
	wantFacts := []Fact{{Key: "price", Value: "¥18"}, {Key: "size", Value: "medium"}}
	if d := cmp.Diff(wantFacts, m.KeyContext()); d != "" {
		t.Errorf("key context (-want +got):\n%s", d)
	}
	if m.Progress() != "tea chosen" {
		t.Errorf("progress = %q", m.Progress())
	}

	// A new app task resets the per-task stacks and keeps the key context.
	bus.Publish(AppTaskStarted{Index: 1, Task: AppTask{App: "calendar", Task: "add event"}})
	if len(m.Frames()) != 0 || len(m.Instructions()) != 1 || len(m.KeyContext()) != 2 {
		t.Errorf("after new task: frames %d instructions %d facts %d", len(m.Frames()), len(m.Instructions()), len(m.KeyContext()))
	}
}

// TestVagueConsentCoversNothing: a yes to a question that named no category or no action
// (the Re-Planner's own "may I go on?") authorises no sensitive action.
func TestVagueConsentCoversNothing(t *testing.T) {
	bus := NewBus(nil)
	m := NewManager()
	defer m.Attach(bus)()
	bus.Publish(AppTaskStarted{Task: AppTask{App: "shop", Task: "order tea"}})
	bus.Publish(InteractionEnded{Settled: true, Summary: "The person says go on.", Consent: &Consent{Granted: true}})
	bus.Publish(InteractionEnded{Settled: true, Summary: "The person allows paying.", Consent: &Consent{Granted: true, Category: "payment"}})
	bus.Publish(InteractionEnded{Settled: true, Summary: "The person refused.", Consent: &Consent{Granted: false, Category: "payment", Action: "pay@s1"}})
	for _, c := range [][2]string{{"payment", "pay@s1"}, {"payment", ""}, {"", ""}, {"delete", "del@s1"}} {
		if got, ok := m.Consent(c[0], c[1]); ok {
			t.Errorf("Consent(%q, %q) = %+v: a vague or refused consent authorised it", c[0], c[1], got)
		}
	}
}

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
		if err != nil && !errors.Is(err, ErrBadAction) {
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

// TestConsentSpentByAFailedAttempt: an action that failed after it may have run (a lost
// connection after the tap) still uses up its consent.
func TestConsentSpentByAFailedAttempt(t *testing.T) {
	bus := NewBus(nil)
	m := NewManager()
	defer m.Attach(bus)()
	bus.Publish(AppTaskStarted{Task: AppTask{App: "shop", Task: "pay"}})
	bus.Publish(InteractionEnded{Settled: true, Summary: "yes", Consent: &Consent{Granted: true, Category: "payment", Action: "pay@s1"}})
	bus.Publish(ActionExecuted{Step: 1, Action: Action{Type: Tap, Index: 1}, Consent: "payment", ConsentFor: "pay@s1", Err: "connection lost"})
	if _, ok := m.Consent("payment", "pay@s1"); ok {
		t.Error("a failed attempt left the consent for a second payment")
	}
}
