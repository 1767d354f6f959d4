package global

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/memory"
)

// TestProgressReadsForAPerson: an adjustment that leaves the plan as it was is not shown
// again, a changed plan is; a step's result is said in words; counts take the singular.
func TestProgressReadsForAPerson(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b)
	shop := memory.AppTask{App: "com.fairy.shop", Task: "Order a bubble tea"}
	cal := memory.AppTask{App: "com.google.android.calendar", Task: "Add the delivery time"}
	for _, e := range []memory.Event{
		memory.GlobalPlanned{Tasks: []memory.AppTask{shop, cal}},
		memory.Reflected{Step: 2, Result: "A", Reflection: "the menu is open"},
		memory.Reflected{Step: 3, Result: "D"},
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
		"  step 2 · last step: succeeded (A) · the menu is open\n",
		"  step 3 · last step: changed nothing (D)\n",
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
	if strings.Contains(got, "last result") {
		t.Errorf("progress still says \"last result\":\n%s", got)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 steps", 1: "1 step", 2: "2 steps"} {
		if got := Count(n, "step", "steps"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
