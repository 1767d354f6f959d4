package global

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/memory"
)

// TestProgressReadsForAPerson: an adjustment that leaves the plan as it was is not shown
// again, a changed plan is; a step's result is said in words, not a letter; actions name
// their elements by label, not by index; a routine's replayed steps are listed as replayed,
// then the routine; counts take the singular.
func TestProgressReadsForAPerson(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b)
	shop := memory.AppTask{App: "com.fairy.shop", Task: "Order a bubble tea"}
	cal := memory.AppTask{App: "com.google.android.calendar", Task: "Add the delivery time"}
	for _, e := range []memory.Event{
		memory.GlobalPlanned{Tasks: []memory.AppTask{shop, cal}},
		memory.Reflected{Step: 2, Result: "A", Reflection: "the menu is open"},
		memory.Reflected{Step: 3, Result: "D"},
		memory.Reflected{Step: 4, Result: "B", Reflection: "half way"},
		memory.Reflected{Step: 5, Result: "C"},
		memory.Planned{Step: 5, Subgoal: "Open the bubble tea"},
		memory.ActionsDecided{Step: 5, Actions: []memory.Action{{Type: memory.Tap, Index: 4}, {Type: memory.Input, Index: 3, Text: "18:00"}}},
		memory.ActionExecuted{Step: 5, Action: memory.Action{Type: memory.Tap, Index: 4}, Element: &memory.ElementRef{Label: "Bubble tea ¥15"}},
		memory.ActionExecuted{Step: 5, Action: memory.Action{Type: memory.Input, Index: 3, Text: "18:00"}, Element: &memory.ElementRef{Label: "Time"}, Err: "the field is gone"},
		memory.ActionGuarded{Step: 6, Action: memory.Action{Type: memory.Tap, Index: 14}, Category: "payment", Target: "Pay ¥15"},
		memory.Planned{Step: 7, Subgoal: "Run the learned routine"},
		memory.ActionExecuted{Step: 7, Action: memory.Action{Type: memory.Tap, Index: 2}, Element: &memory.ElementRef{Label: "加入购物车"}},
		memory.ActionExecuted{Step: 8, Action: memory.Action{Type: memory.Back}},
		memory.RoutineRan{Step: 7, Name: "Order a tea", Planned: 3, Replayed: 2, Stopped: "step 3 of 3: the page was not what it learned"},
		memory.Planned{Step: 9, Subgoal: "Open the cart"},
		memory.ActionsDecided{Step: 9, Actions: []memory.Action{{Type: memory.Navigate, Target: "Cart"}}},
		memory.ActionExecuted{Step: 9, Action: memory.Action{Type: memory.Tap, Index: 13}, Element: &memory.ElementRef{Label: "购物车"}},
		memory.TaskFinished{Index: 0, Outcome: memory.OutcomeDone, Steps: 1},
		memory.GlobalPlanned{Tasks: []memory.AppTask{shop, cal}, Next: 1, Adjusted: true},
		memory.TaskFinished{Index: 1, Outcome: memory.OutcomeDone, Steps: 4},
		memory.GlobalPlanned{Tasks: []memory.AppTask{shop, cal, {App: "com.notes", Task: "Note it"}}, Next: 2, Adjusted: true},
	} {
		p.Handle(memory.Record{Event: e})
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

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 steps", 1: "1 step", 2: "2 steps"} {
		if got := Count(n, "step", "steps"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
