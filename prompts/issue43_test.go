package prompts

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/memory"
)

// TestConsentRuleSaidToEveryRole: the re-planner, the decider and the interactor are told
// one consent rule, word for word the same: what the guard does and what a yes covers.
func TestConsentRuleSaidToEveryRole(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.tmpl.ExecuteTemplate(&b, "consentrule", nil); err != nil {
		t.Fatalf("no shared consent rule: %v", err)
	}
	rule := b.String()
	for _, want := range []string{"guard asks the person", "specifics", "confirmation dialog", "instruction alone is no consent", "never ask twice"} {
		if !strings.Contains(rule, want) {
			t.Errorf("the consent rule does not say %q: %s", want, rule)
		}
	}
	re, _ := s.Replan(ReplannerData{Instruction: "x", Task: task, Step: 2, Plan: []string{"a"}, Subgoal: "a", Screen: screen})
	de, _ := s.Decide(DeciderData{Instruction: "x", Task: task, Plan: []string{"a"}, Subgoal: "a", Screen: screen})
	in, _ := s.Interact(InteractorData{Instruction: "x", Task: task, Type: 2, Kind: "yes/no", Reason: "delete", Screen: screen, MaxTurns: 3})
	for role, p := range map[string]Prompt{"replanner": re, "decider": de, "interactor": in} {
		if strings.Count(p.System, rule) != 1 {
			t.Errorf("%s is not told the consent rule once:\n%s", role, p.System)
		}
		if strings.Contains(p.System, "the agent asks again before another sensitive action") || strings.Contains(p.System, "decide or consent") {
			t.Errorf("%s still carries a consent rule of its own", role)
		}
	}
}

// TestClockInPlanningPrompts: the planner, the re-planner, the decider and the finish check
// say the phone's date, weekday, time and zone; a clock not read says nothing.
func TestClockInPlanningPrompts(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2023, 10, 15, 15, 34, 0, 0, time.FixedZone("CEST", 2*3600))
	const want = "Phone's clock: Sunday, October 15, 2023, 15:34 (CEST)\n"
	render := func(now time.Time) map[string]Prompt {
		pl, _ := s.Plan(PlannerData{Phase: PhasePlan, Instruction: "x", Now: now})
		rf, _ := s.Replan(ReplannerData{Instruction: "x", Task: task, Step: 1, First: true, Now: now, Screen: screen})
		rs, _ := s.Replan(ReplannerData{Instruction: "x", Task: task, Step: 2, Now: now, Plan: []string{"a"}, Subgoal: "a", Screen: screen})
		de, _ := s.Decide(DeciderData{Instruction: "x", Task: task, Now: now, Plan: []string{"a"}, Subgoal: "a", Screen: screen})
		ch, _ := s.Check(CheckerData{Instruction: "x", Task: task, Now: now, Screen: screen})
		return map[string]Prompt{"planner": pl, "replanner first": rf, "replanner": rs, "decider": de, "checker": ch}
	}
	for role, p := range render(at) {
		if !strings.Contains(p.User, want) {
			t.Errorf("%s does not say the phone's clock:\n%s", role, p.User)
		}
	}
	for role, p := range render(time.Time{}) {
		if strings.Contains(p.User, MarkClock) {
			t.Errorf("%s says a clock that was not read:\n%s", role, p.User)
		}
	}
}

// TestAnswerFormat: the format a person asks for is read from the instruction, and an
// answer's form is compared with it.
func TestAnswerFormat(t *testing.T) {
	formats := map[string]string{
		"When is my next meeting with Bob in Simple Calendar Pro? Express your answer in the format <month name> <day> <year> <hour in 24-hour format>:<minutes>.": "in the format <month name> <day> <year> <hour in 24-hour format>:<minutes>",
		"How many tasks do I have due next week in Tasks app? Express your answer as a single integer.":                                                            "as a single integer",
		"What quantity of flour do I need for the recipe 'Pie' in the Joplin app? Express your answer in the format <amount> <unit> without using abbreviations.":  "in the format <amount> <unit> without using abbreviations",
		"How long was my running activity yesterday? Express your answer in minutes as a single integer.":                                                          "in minutes as a single integer",
		"Delete the note Gym Membership": "",
		"Answer the call from Bob":       "",
	}
	for in, want := range formats {
		if got := AnswerFormat(in); got != want {
			t.Errorf("AnswerFormat(%q) = %q, want %q", in, got, want)
		}
	}
	date := "in the format <month name> <day> <year> <hour in 24-hour format>:<minutes>"
	cases := []struct {
		format, answer string
		fits, known    bool
	}{
		{date, "October 27 2023 09:45", true, true},
		{date, "October 27 2023 09:45.", true, true},
		{date, "2023-10-27 09:45", false, true},
		{date, "27 October 2023 09:45", false, true},
		{"as a single integer", "3", true, true},
		{"as a single integer", "3 tasks", false, true},
		{"as just a single number", "12", true, true},
		{"in minutes as a single integer", "45 minutes", false, true},
		{"in the format <amount> <unit> without using abbreviations", "2 cups", true, true},
		{"in a friendly tone", "anything", true, false},
	}
	for _, c := range cases {
		fits, known := FitsFormat(c.format, c.answer)
		if fits != c.fits || known != c.known {
			t.Errorf("FitsFormat(%q, %q) = %v, %v; want %v, %v", c.format, c.answer, fits, known, c.fits, c.known)
		}
	}
}

// TestAnswerFormatReachesFinishers: the decider, which writes the Finish answer, and the
// finish check, which judges it, are told the asked format and what it means for them.
func TestAnswerFormatReachesFinishers(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	f := AnswerFormat(asked)
	de, _ := s.Decide(DeciderData{Instruction: asked, Task: task, AnswerFormat: f, Plan: []string{"a"}, Subgoal: "a", Screen: screen})
	ch, _ := s.Check(CheckerData{Instruction: asked, Task: task, AnswerFormat: f, Answer: "2023-10-27 09:45", Screen: screen})
	line := MarkAnswerFormat + `"` + f + `"`
	for role, p := range map[string]Prompt{"decider": de, "checker": ch} {
		if !strings.Contains(p.User, line) {
			t.Errorf("%s is not told the asked format:\n%s", role, p.User)
		}
	}
	if !strings.Contains(ch.System, "another form is not done") {
		t.Errorf("the finish check is not told to hold an answer of another form:\n%s", ch.System)
	}
}

// TestAskedOnlyStep: a step that only asked the person is said as such, with no list of
// actions and no stale expectation, and the re-planner is told there is nothing to judge.
func TestAskedOnlyStep(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Replan(ReplannerData{Instruction: "x", Task: task, Instructions: stack, Step: 4, Plan: []string{"Delete Gym Membership"},
		Subgoal: "Delete Gym Membership", Asked: "delete the note Gym Membership", Expect: "the app task is done", Change: "no action since the last step", Screen: screen})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Last actions:", MarkExpected, "the app task is done"} {
		if strings.Contains(p.User, bad) {
			t.Errorf("an asked-only step says %q:\n%s", bad, p.User)
		}
	}
	if !strings.Contains(p.User, MarkAsked+"delete the note Gym Membership\n") || !strings.Contains(p.User, `Nothing was done on the phone: leave "result" empty.`) {
		t.Errorf("an asked-only step is not said as such:\n%s", p.User)
	}
}

// TestAppListPromise: the app list promises what an app does only where a description is
// known; lists on the screen say how their rows are ordered.
func TestAppListPromise(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	bare, _ := s.Plan(PlannerData{Phase: PhasePlan, Instruction: "x", Apps: []event.App{{Package: "com.a", Label: "A"}}})
	if strings.Contains(bare.User, "what it does") || !strings.Contains(bare.User, "Launchable apps (package — label):\n") {
		t.Errorf("labels alone are promised as what the apps do:\n%s", bare.User)
	}
	told, _ := s.Plan(PlannerData{Phase: PhasePlan, Instruction: "x", Apps: []event.App{{Package: "com.a", Label: "A", Description: "notes"}, {Package: "com.b", Label: "B"}}})
	if !strings.Contains(told.User, "what it does") || !strings.Contains(told.User, "- com.a — A — notes\n") {
		t.Errorf("a learned description is not given:\n%s", told.User)
	}
	de, _ := s.Decide(DeciderData{Instruction: "x", Task: task, Instructions: []memory.Instruction{{Text: "x"}}, Screen: screen})
	if !strings.Contains(de.User, "Current screen (top to bottom; lists in the app's order") {
		t.Errorf("the screen does not say how its lists are ordered:\n%s", de.User)
	}
}

// TestSchemasDescribed: every decider action and field, and the re-planner's plan and
// facts, carry a description; Input's says it replaces the field's text.
func TestSchemasDescribed(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	var dec struct {
		Properties struct {
			Actions struct {
				Items struct {
					Properties map[string]struct {
						Description string `json:"description"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"actions"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(s.Schema(NameDecider).JSON, &dec); err != nil {
		t.Fatal(err)
	}
	props := dec.Properties.Actions.Items.Properties
	for name, p := range props {
		if strings.TrimSpace(p.Description) == "" {
			t.Errorf("decider field %q has no description", name)
		}
	}
	types := props["type"].Description
	for _, a := range event.ActionTypes() {
		if !strings.Contains(types, string(a)) {
			t.Errorf("decider action %s is not described: %s", a, types)
		}
	}
	if !strings.Contains(props["text"].Description, "replaces") || !strings.Contains(types, "Input index, text: replace the field's text") {
		t.Errorf("Input does not say it replaces the field's text: %q / %q", props["text"].Description, types)
	}
	var re struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(s.Schema(NameReplanner).JSON, &re); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(re.Properties["plan"].Description, "naming its object") || !strings.Contains(re.Properties["plan"].Description, "none is left") {
		t.Errorf("the plan's description does not ask for named objects and a last check: %q", re.Properties["plan"].Description)
	}
	if !strings.Contains(re.Properties["facts"].Description, "before deleting") {
		t.Errorf("the re-planner's facts are not described: %q", re.Properties["facts"].Description)
	}
}
