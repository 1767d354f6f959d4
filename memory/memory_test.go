package memory

import (
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/google/go-cmp/cmp"
)

func TestStacks(t *testing.T) {
	bus := event.NewBus(func() time.Time { return time.Unix(0, 0) })
	m := NewStacks()
	defer m.Attach(bus)()

	pay := event.Action{Type: event.Tap, Index: 7}
	for _, e := range []event.Event{
		event.RunStarted{Instruction: "order tea then note the time"},
		event.AppTaskStarted{Instruction: "order tea then note the time", Task: event.AppTask{App: "shop", Task: "order tea"}, Context: []event.Fact{{Key: "size", Value: "large"}}},
		event.StepStarted{Step: 1},
		event.ScreenPerceived{Step: 1, Signature: "s1", Text: "- [1] button \"Tea\""},
		event.Planned{Step: 1, Plan: []string{"pick", "pay"}, Subgoal: "pick"},
		event.ActionsDecided{Step: 1, Actions: []event.Action{{Type: event.Tap, Index: 1}}},
		event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Signature: "s1"},
		event.ContextCollected{Step: 1, Facts: []event.Fact{{Key: "price", Value: "¥18"}, {Key: "size", Value: "medium"}}},
		event.StepStarted{Step: 2},
		event.Reflected{Step: 2, Result: "A", Reflection: "picked", Progress: "tea chosen"},
		event.InteractionAsked{Step: 2, Type: 1, Question: "Pay ¥18?"},
		event.InteractionAnswered{Step: 2, Answer: "yes"},
	} {
		bus.Publish(e)
	}
	if got := m.Turns(); len(got) != 1 || got[0].Answer != "yes" {
		t.Fatalf("turns during interaction = %+v", got)
	}
	bus.Publish(event.InteractionEnded{Step: 2, Settled: true, Summary: "The user agrees to pay ¥18.", Consent: &event.Consent{Granted: true, Category: "payment", Action: "pay@s2"}})

	if got := m.Turns(); len(got) != 0 {
		t.Errorf("interaction stack not cleared: %+v", got)
	}
	wantIns := []Instruction{{Text: "order tea", Source: "task"}, {Text: "The user agrees to pay ¥18.", Source: "user", Consent: &event.Consent{Granted: true, Category: "payment", Action: "pay@s2"}}}
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
	bus.Publish(event.ActionExecuted{Step: 2, Action: pay, Consent: "payment", ConsentFor: "other-pay@s2"})
	if _, ok := m.Consent("payment", "pay@s2"); !ok {
		t.Fatal("another action spent the consent")
	}
	bus.Publish(event.ActionExecuted{Step: 2, Action: pay, Consent: "payment", ConsentFor: "pay@s2"})
	if _, ok := m.Consent("payment", "pay@s2"); ok {
		t.Error("consent still available after it was spent")
	}
	fs := m.Frames()
	if len(fs) != 2 || fs[0].Result != "A" || fs[0].Subgoal != "pick" || fs[0].Signature != "s1" || len(fs[0].Executed) != 1 {
		t.Errorf("frames = %+v", fs)
	}
	wantFacts := []event.Fact{{Key: "price", Value: "¥18"}, {Key: "size", Value: "medium"}}
	if d := cmp.Diff(wantFacts, m.KeyContext()); d != "" {
		t.Errorf("key context (-want +got):\n%s", d)
	}
	if m.Progress() != "tea chosen" {
		t.Errorf("progress = %q", m.Progress())
	}

	// A new app task resets the per-task stacks and keeps the key context.
	bus.Publish(event.AppTaskStarted{Index: 1, Task: event.AppTask{App: "calendar", Task: "add event"}})
	if len(m.Frames()) != 0 || len(m.Instructions()) != 1 || len(m.KeyContext()) != 2 {
		t.Errorf("after new task: frames %d instructions %d facts %d", len(m.Frames()), len(m.Instructions()), len(m.KeyContext()))
	}
}

// TestVagueConsentCoversNothing: a yes to a question that named no category or no action
// (the Re-Planner's own "may I go on?") authorises no sensitive action.
func TestVagueConsentCoversNothing(t *testing.T) {
	bus := event.NewBus(nil)
	m := NewStacks()
	defer m.Attach(bus)()
	bus.Publish(event.AppTaskStarted{Task: event.AppTask{App: "shop", Task: "order tea"}})
	bus.Publish(event.InteractionEnded{Settled: true, Summary: "The person says go on.", Consent: &event.Consent{Granted: true}})
	bus.Publish(event.InteractionEnded{Settled: true, Summary: "The person allows paying.", Consent: &event.Consent{Granted: true, Category: "payment"}})
	bus.Publish(event.InteractionEnded{Settled: true, Summary: "The person refused.", Consent: &event.Consent{Granted: false, Category: "payment", Action: "pay@s1"}})
	for _, c := range [][2]string{{"payment", "pay@s1"}, {"payment", ""}, {"", ""}, {"delete", "del@s1"}} {
		if got, ok := m.Consent(c[0], c[1]); ok {
			t.Errorf("Consent(%q, %q) = %+v: a vague or refused consent authorised it", c[0], c[1], got)
		}
	}
}

// TestConsentSpentByAFailedAttempt: an action that failed after it may have run (a lost
// connection after the tap) still uses up its consent.
func TestConsentSpentByAFailedAttempt(t *testing.T) {
	bus := event.NewBus(nil)
	m := NewStacks()
	defer m.Attach(bus)()
	bus.Publish(event.AppTaskStarted{Task: event.AppTask{App: "shop", Task: "pay"}})
	bus.Publish(event.InteractionEnded{Settled: true, Summary: "yes", Consent: &event.Consent{Granted: true, Category: "payment", Action: "pay@s1"}})
	bus.Publish(event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Consent: "payment", ConsentFor: "pay@s1", Err: "connection lost"})
	if _, ok := m.Consent("payment", "pay@s1"); ok {
		t.Error("a failed attempt left the consent for a second payment")
	}
}
