package global

import (
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
)

// TestProgressReadsForAPerson: an adjustment that leaves the plan as it was is not shown
// again, a changed plan is; a step's result is said in words, not a letter; actions name
// their elements by label, not by index; a routine's replayed steps are listed as replayed,
// then the routine; counts take the singular.
func TestProgressReadsForAPerson(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b)
	shop := event.AppTask{App: "com.fairy.shop", Task: "Order a bubble tea"}
	cal := event.AppTask{App: "com.google.android.calendar", Task: "Add the delivery time"}
	for _, e := range []event.Event{
		event.GlobalPlanned{Tasks: []event.AppTask{shop, cal}},
		event.Reflected{Step: 2, Result: "A", Reflection: "the menu is open"},
		event.Reflected{Step: 3, Result: "D"},
		event.Reflected{Step: 4, Result: "B", Reflection: "half way"},
		event.Reflected{Step: 5, Result: "C"},
		event.Planned{Step: 5, Subgoal: "Open the bubble tea"},
		event.ActionsDecided{Step: 5, Actions: []event.Action{{Type: event.Tap, Index: 4}, {Type: event.Input, Index: 3, Text: "18:00"}}},
		event.ActionExecuted{Step: 5, Action: event.Action{Type: event.Tap, Index: 4}, Element: &event.ElementRef{Label: "Bubble tea ¥15"}},
		event.ActionExecuted{Step: 5, Action: event.Action{Type: event.Input, Index: 3, Text: "18:00"}, Element: &event.ElementRef{Label: "Time"}, Err: "the field is gone"},
		event.ActionGuarded{Step: 6, Action: event.Action{Type: event.Tap, Index: 14}, Category: "payment", Target: "Pay ¥15"},
		event.Planned{Step: 7, Subgoal: "Run the learned routine"},
		event.ActionExecuted{Step: 7, Action: event.Action{Type: event.Tap, Index: 2}, Element: &event.ElementRef{Label: "加入购物车"}},
		event.ActionExecuted{Step: 8, Action: event.Action{Type: event.Back}},
		event.RoutineRan{Step: 7, Name: "Order a tea", Planned: 3, Replayed: 2, Stopped: "step 3 of 3: the page was not what it learned"},
		event.Planned{Step: 9, Subgoal: "Open the cart"},
		event.ActionsDecided{Step: 9, Actions: []event.Action{{Type: event.Navigate, Target: "Cart"}}},
		event.ActionExecuted{Step: 9, Action: event.Action{Type: event.Tap, Index: 13}, Element: &event.ElementRef{Label: "购物车"}},
		event.HandOver{Step: 9, Reason: "a password", By: "screen"},
		event.HandOver{Step: 9, Reason: "a password", By: "screen", Ended: time.Unix(12, 0), Duration: 12 * time.Second},
		event.TaskFinished{Index: 0, Outcome: event.OutcomeDone, Steps: 1},
		event.GlobalPlanned{Tasks: []event.AppTask{shop, cal}, Next: 1, Adjusted: true},
		event.TaskFinished{Index: 1, Outcome: event.OutcomeDone, Steps: 4},
		event.GlobalPlanned{Tasks: []event.AppTask{shop, cal, {App: "com.notes", Task: "Note it"}}, Next: 2, Adjusted: true},
	} {
		p.Handle(event.Record{Event: e})
	}
	got := b.String()
	for _, want := range []string{
		"◆ plan:\n   1. [com.fairy.shop] Order a bubble tea\n   2. [com.google.android.calendar] Add the delivery time\n",
		"  step 2 · last step: done · the menu is open\n",
		"  step 3 · last step: no change\n",
		"  step 4 · last step: progress · half way\n",
		"  step 5 · last step: wrong result\n",
		"  step 5 · Tap \"Bubble tea ¥15\"\n",
		"  step 5 · Type \"18:00\" into \"Time\" failed: the field is gone\n",
		"  step 6 · held back Tap \"Pay ¥15\": payment needs your consent\n",
		"  step 7 · replayed Tap \"加入购物车\"\n  step 8 · replayed Back\n" +
			"  routine \"Order a tea\": 2 of 3 steps replayed, stopped at step 3 of 3: the page was not what it learned\n",
		"  step 9 · go to \"Cart\" by a known path\n  step 9 · replayed Tap \"购物车\"\n",
		"  step 9 · your turn: the screen needs a password\n  step 9 · the phone is back after 12 s (a password): reading the screen again\n",
		"✓ task 1 done after 1 step\n",
		"✓ task 2 done after 4 steps\n",
		"◆ plan adjusted:\n   1. [com.fairy.shop] Order a bubble tea\n   2. [com.google.android.calendar] Add the delivery time\n   3. [com.notes] Note it\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "◆ plan"); n != 2 {
		t.Errorf("%d plan blocks, want 2 (the unchanged adjustment is not shown):\n%s", n, got)
	}
	for _, never := range []string{"last result", "(A)", "(D)", "Tap(", "Input("} {
		if strings.Contains(got, never) {
			t.Errorf("progress says %q:\n%s", never, got)
		}
	}
}

// TestProgressEscapesOutsideText: what a model says and a phone shows reaches the terminal
// with its control characters written out: no window title set, no screen cleared.
func TestProgressEscapesOutsideText(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b)
	evil := "x\x1b]0;PWNED\a\x1b[2J\u009b\u202e"
	for _, e := range []event.Event{
		event.RunStarted{Instruction: "do " + evil},
		event.Planned{Step: 1, Subgoal: evil},
		event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Element: &event.ElementRef{Label: evil}},
		event.InteractionAsked{Question: evil, Options: []string{evil}},
		event.RunFinished{Outcome: event.OutcomeDone, Reason: evil, Answer: evil},
	} {
		p.Handle(event.Record{Event: e})
	}
	if strings.ContainsAny(b.String(), "\x1b\a\u009b\u202e") {
		t.Fatalf("raw control characters reach the terminal:\n%q", b.String())
	}
	if !strings.Contains(b.String(), `x\x1b]0;PWNED\x07\x1b[2J\u009b\u202e`) {
		t.Fatalf("the text is not shown escaped:\n%s", b.String())
	}
}
