package global_test

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/prompts"
)

// TestPlannerSaysThePhoneClock: the Global Planner's prompt says the phone's date, weekday
// and time, read from the virtual phone's clock through the real adb path; a planner rule
// that answers only when it sees them ends the run with its reason.
func TestPlannerSaysThePhoneClock(t *testing.T) {
	seen := scripted.Rule{Name: "planner sees the clock", Role: prompts.NamePlanner,
		Match:  []string{`(?m)^` + prompts.MarkClock + `(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}, \d{4}, \d\d:\d\d \(\S+\)$`},
		Answer: `{"thought":"","status":"impossible","tasks":[],"next":0,"progress":"","reason":"the planner saw the phone's clock"}`}
	o := scenario{rules: "calendar.yaml", extra: []scripted.Rule{seen}}.run(t, "Add a dentist appointment next Monday at 10:00 to my calendar")
	if o.res.Outcome != event.OutcomeFailed || !strings.Contains(o.res.Reason, "the planner saw the phone's clock") {
		t.Fatalf("outcome %s (%s): the planner's prompt does not say the phone's clock", o.res.Outcome, o.res.Reason)
	}
}
