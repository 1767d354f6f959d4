package androidworld_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/sim"
)

// TestGuardOpensCalendarEvents: on the virtual phone set up as SimpleCalendarDeleteEvents-0
// (seed 13), the calendar's events "Call with HR" and "Call with Dr. Smith" are records:
// opening one (a tap, or a swipe that scrolls the list from it) asks nothing; the Delete
// event button on the event's page is still held as a delete.
func TestGuardOpensCalendarEvents(t *testing.T) {
	suite, err := androidworld.Load("androidworld:sim", androidworld.Options{Seed: 13, Family: "SimpleCalendarDeleteEvents"})
	if err != nil {
		t.Fatal(err)
	}
	task := suite.Tasks[0]
	phone, err := sim.New(sim.Config{Seed: 1, Apps: suite.SimApps()})
	if err != nil {
		t.Fatal(err)
	}
	spec := task.Phone.Sim
	if err := phone.Reset(); err != nil {
		t.Fatal(err)
	}
	// The agent opens the calendar from the launcher; the test opens it directly.
	cmds := append(spec.Setup[:len(spec.Setup):len(spec.Setup)], "monkey -p com.google.android.calendar -c android.intent.category.LAUNCHER 1")
	for _, c := range cmds {
		var out strings.Builder
		if st, err := phone.Shell(t.Context(), c, &out); err != nil || st != 0 {
			t.Fatalf("%q: status %d, %v: %s", c, st, err, out.String())
		}
	}
	guard, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	screen := func() *perception.Screen {
		t.Helper()
		s, err := perception.Parse(phone.Dump())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	find := func(s *perception.Screen, label string) *perception.Element {
		for i := range s.Elements {
			if s.Elements[i].Label == label {
				return &s.Elements[i]
			}
		}
		return nil
	}
	// Scroll the schedule until the events of 2023-10-17 show.
	s := screen()
	for range 5 {
		if find(s, "Call with HR") != nil && find(s, "Call with Dr. Smith") != nil {
			break
		}
		if _, err := phone.Shell(t.Context(), "input swipe 540 1800 540 900 300", &strings.Builder{}); err != nil {
			t.Fatal(err)
		}
		s = screen()
	}
	var list *perception.Element
	for i := range s.Elements {
		if strings.HasSuffix(s.Elements[i].ResourceID, "/schedule_list") {
			list = &s.Elements[i]
		}
	}
	for _, title := range []string{"Call with HR", "Call with Dr. Smith"} {
		row := find(s, title)
		if row == nil || list == nil {
			t.Fatalf("no event %q or no schedule list on the calendar:\n%s", title, s.Text())
		}
		if v, held := guard.Check(event.Action{Type: event.Tap, Index: row.Index}, row, s); held {
			t.Errorf("tap on the event %q: held as %s (%s)", title, v.Category, v.Subject)
		}
	}
	if v, held := guard.Check(event.Action{Type: event.Swipe, Index: list.Index, Direction: "up"}, list, s); held {
		t.Errorf("swipe on the schedule: held as %s (%s)", v.Category, v.Subject)
	}
	// The event's own page: its Delete event button is the action, and it is held.
	row := find(s, "Call with HR")
	if _, err := phone.Shell(t.Context(), fmt.Sprintf("input tap %d %d", row.Center.X, row.Center.Y), &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	s = screen()
	del := find(s, "Delete event")
	if del == nil {
		t.Fatalf("no Delete event on the event's page:\n%s", s.Text())
	}
	if v, held := guard.Check(event.Action{Type: event.Tap, Index: del.Index}, del, s); !held || v.Category != "delete" {
		t.Errorf("tap on Delete event: held %v as %q, want a delete", held, v.Category)
	}
}
