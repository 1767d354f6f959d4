package walkthrough_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// TestWalkNavigate: a walk step with navigate answers Navigate when the decider's prompt
// holds a replayable App Map hint toward the named page, and its own actions otherwise —
// with a hint toward another page, or a hint that offers no replay.
func TestWalkNavigate(t *testing.T) {
	const instruction = "Turn off notifications for Maps"
	walk := []walkthrough.Task{{
		App: "com.android.settings",
		Steps: []walkthrough.Step{{Screen: `item "Apps"`, Subgoal: "Open the notifications of Maps",
			Navigate: `Notifications: [^"]*notifications`, Do: []string{`Tap "Apps"`}}},
	}}
	rules, err := walkthrough.Rules(instruction, walk, false)
	if err != nil {
		t.Fatal(err)
	}
	m := serveRules(t, rules)
	stepRules, err := walkthrough.Rules(instruction, walk, true)
	if err != nil {
		t.Fatal(err)
	}
	step := serveRules(t, stepRules)
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	prompt := func(hint string) prompts.Prompt {
		p, err := set.Decide(prompts.DeciderData{Instruction: instruction, Task: event.AppTask{App: "com.android.settings", Task: instruction},
			Subgoal: "Open the notifications of Maps", Hint: hint, Navigate: hint != "",
			Screen: "- [1] item \"Network & internet\"\n- [2] item \"Apps\""})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	const path = `The App Map knows a path from this page (p1 "Settings") to page p7 "Notifications: Navigate up, All Maps notifications" in 4 steps: 1. tap "Apps"; 2. tap "See all apps"; 3. tap id=app_row "Maps"; 4. tap "Notifications".`
	tests := []struct {
		name, hint string
		want       event.Action
	}{
		{"no hint", "", event.Action{Type: event.Tap, Index: 2}},
		{"replayable hint", path + ` It is reliable: Navigate("p7") replays it without deciding each step.`, event.Action{Type: event.Navigate, Target: "p7"}},
		{"partial replay", path + ` Its first 2 steps are reliable: Navigate("p5") replays them without deciding each step, up to page p5 "All apps"; go on from there step by step.`, event.Action{Type: event.Navigate, Target: "p5"}},
		{"no replay offered", path, event.Action{Type: event.Tap, Index: 2}},
		{"another page", `The App Map knows a path from this page (p1 "Settings") to page p3 "Display: Dark theme" in 1 step: 1. tap "Display". It is reliable: Navigate("p3") replays it without deciding each step.`, event.Action{Type: event.Tap, Index: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := prompt(tc.hint)
			resp, err := m.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, System: p.System, Schema: &p.Schema,
				Messages: []llm.Message{{Role: "user", Text: p.User}}})
			if err != nil {
				t.Fatal(err)
			}
			var d prompts.DeciderAnswer
			if err := json.Unmarshal([]byte(resp.Text), &d); err != nil || len(d.Actions) != 1 || d.Actions[0] != tc.want || d.Expect == "" {
				t.Errorf("decider answered %s (%v), want %+v", resp.Text, err, tc.want)
			}
			// WithoutNavigate: the same prompt is answered step by step, hint or not.
			resp, err = step.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, System: p.System, Schema: &p.Schema,
				Messages: []llm.Message{{Role: "user", Text: p.User}}})
			if err != nil {
				t.Fatal(err)
			}
			d = prompts.DeciderAnswer{}
			if err := json.Unmarshal([]byte(resp.Text), &d); err != nil || len(d.Actions) != 1 || d.Actions[0] != (event.Action{Type: event.Tap, Index: 2}) {
				t.Errorf("without Navigate the decider answered %s (%v), want Tap 2", resp.Text, err)
			}
		})
	}
}

// Screens of the virtual phone's Messages app, as perception writes them.
const (
	messagesList = `- "Messages"
- [1] item "Alice Chen" id=swipeableContainer
  - "You: Sounds good!"
- [2] item "Carol Diaz" id=swipeableContainer
  - "Thanks for the photos!"
- [3] button "Start chat" id=start_chat_fab`
	messagesPicker = `- [1] button "Navigate up"
- "New conversation"
- [2] input "Type a name, phone number, or email" id=recipient_text_view
- [3] list id=contact_picker_list scroll-vertical
  - [4] item "Alice Chen" id=contact_picker_row
    - "+1 415-555-0132"
  - [5] item "Alice Wong" id=contact_picker_row
    - "+1 650-555-0178"
  - [6] item "Bob Smith" id=contact_picker_row
    - "+1 415-555-0199"`
	messagesThread = `- [1] button "Navigate up"
- "Alice Chen"
- [2] button "Call" id=action_call
- "Sounds good!"
- [3] input "Text message" id=compose_message_text
- [4] button "Send SMS" id=send_message_button_icon`
	rateDialog = `- "Rate this app"
- [1] button "Not now" id=not_now
- [2] button "Rate" id=rate`
	locationDialog = `- "Allow Maps to access this device’s location?"
- [1] button "While using the app" id=permission_allow_foreground_only_button
- [2] button "Only this time" id=permission_allow_one_time_button
- [3] button "Don’t allow" id=permission_deny_and_dont_ask_again_button`
)

// exchange is one request of a walkthrough to the scripted model: a prompt rendered from a
// template set and a check of the answer.
type exchange struct {
	name   string
	role   llm.Role
	prompt func(*prompts.Set) (prompts.Prompt, error)
	check  func(text string) error
}

// answer decodes a typed answer and checks it.
func answer[T any](check func(a T) error) func(string) error {
	return func(text string) error {
		var a T
		if err := json.Unmarshal([]byte(text), &a); err != nil {
			return err
		}
		return check(a)
	}
}

func wantReplan(result, subgoal string, interaction int) func(string) error {
	return answer(func(a prompts.ReplannerAnswer) error {
		if a.Result != result || a.Subgoal != subgoal || a.Interaction != interaction {
			return fmt.Errorf("answered %s %q interaction %d, want %s %q interaction %d", a.Result, a.Subgoal, a.Interaction, result, subgoal, interaction)
		}
		return nil
	})
}

func wantActions(want ...event.Action) func(string) error {
	return answer(func(a prompts.DeciderAnswer) error {
		if fmt.Sprint(a.Actions) != fmt.Sprint(want) || a.Expect == "" {
			return fmt.Errorf("answered %v expecting %q, want %v and an expectation", a.Actions, a.Expect, want)
		}
		return nil
	})
}

// whichAlice is the conversation of builtin:sim's messages-which-alice with the model, and
// the suite's recovery from a rating dialog or a permission dialog on its way, as the
// agent's prompts render them.
func whichAlice() (walk, recover []exchange) {
	const (
		app         = "com.google.android.apps.messaging"
		instruction = "Send Alice a message saying: see you at 7"
		reason      = "two contacts are named Alice"
	)
	task := event.AppTask{App: app, Task: instruction}
	plan := []string{"Start a new conversation", "Find Alice", "Pick the right Alice", "Write the message", "Send the message"}
	stack := func(answer string) []memory.Instruction {
		ins := []memory.Instruction{{Text: instruction, Source: "task"}}
		if answer != "" {
			ins = append(ins, memory.Instruction{Text: reason + walkthrough.AnsweredMarker + answer, Source: "user"})
		}
		return ins
	}
	replan := func(step int, subgoal, change, screen, answer string) func(*prompts.Set) (prompts.Prompt, error) {
		return func(s *prompts.Set) (prompts.Prompt, error) {
			return s.Replan(prompts.ReplannerData{Instruction: instruction, Task: task, Instructions: stack(answer), Step: step, First: step == 1,
				Plan: plan, Subgoal: subgoal, LastActions: []string{`Tap(3) on button "Start chat": ok`}, Expect: "the next screen", Change: change, Screen: screen})
		}
	}
	decide := func(subgoal, screen, answer string) func(*prompts.Set) (prompts.Prompt, error) {
		return func(s *prompts.Set) (prompts.Prompt, error) {
			return s.Decide(prompts.DeciderData{Instruction: instruction, Task: task, Instructions: stack(answer), Plan: plan, Subgoal: subgoal, Screen: screen})
		}
	}
	interact := func(answer string) func(*prompts.Set) (prompts.Prompt, error) {
		return func(s *prompts.Set) (prompts.Prompt, error) {
			d := prompts.InteractorData{Instruction: instruction, Task: task, Instructions: stack(""), Subgoal: "Pick the right Alice",
				Type: 3, Kind: "options", Reason: reason, Screen: messagesPicker, MaxTurns: 3}
			if answer != "" {
				d.Turns = []memory.Turn{{Question: "Which Alice: Alice Chen or Alice Wong?", Options: []string{"Alice Chen", "Alice Wong"}, Answer: answer}}
			}
			return s.Interact(d)
		}
	}
	recover = []exchange{
		{"rating dialog", llm.RoleReplanner, replan(5, "Write the message", "new screen", rateDialog, "Alice Chen"), wantReplan("C", "Dismiss the rating dialog", 0)},
		{"dismiss it", llm.RoleDecider, decide("Dismiss the rating dialog", rateDialog, "Alice Chen"), wantActions(event.Action{Type: event.Tap, Index: 1})},
		{"location permission", llm.RoleReplanner, replan(2, "Start a new conversation", "new screen", locationDialog, ""), wantReplan("B", "Answer the location permission dialog", 0)},
		{"while using the app", llm.RoleDecider, decide("Answer the location permission dialog", locationDialog, ""), wantActions(event.Action{Type: event.Tap, Index: 1})},
	}
	return []exchange{
		{"plan", llm.RolePlanner, func(s *prompts.Set) (prompts.Prompt, error) {
			return s.Plan(prompts.PlannerData{Phase: prompts.PhasePlan, Instruction: instruction, Apps: []event.App{{Package: app, Label: "Messages"}}})
		}, answer(func(a prompts.PlannerAnswer) error {
			if a.Status != prompts.StatusContinue || len(a.Tasks) != 1 || a.Tasks[0].App != app {
				return fmt.Errorf("planned %+v", a)
			}
			return nil
		})},
		{"first step", llm.RoleReplanner, replan(1, "", "", messagesList, ""), wantReplan("A", "Start a new conversation", 0)},
		{"start the chat", llm.RoleDecider, decide("Start a new conversation", messagesList, ""), wantActions(event.Action{Type: event.Tap, Index: 3})},
		{"a dead tap", llm.RoleReplanner, replan(2, "Start a new conversation", prompts.ChangeNone, messagesList, ""), wantReplan("D", "Start a new conversation", 0)},
		{"two Alices", llm.RoleReplanner, replan(3, "Start a new conversation", "new screen", messagesPicker, ""), wantReplan("B", "Pick the right Alice", 3)},
		{"the question", llm.RoleInteractor, interact(""), answer(func(a prompts.InteractorAnswer) error {
			if a.Status != "B" || fmt.Sprint(a.Options) != "[Alice Chen Alice Wong]" {
				return fmt.Errorf("asked %+v", a)
			}
			return nil
		})},
		{"the person's answer", llm.RoleInteractor, interact("Alice Chen, the one from the meetup"), answer(func(a prompts.InteractorAnswer) error {
			if a.Status != "A" || a.Summary != reason+walkthrough.AnsweredMarker+"Alice Chen, the one from the meetup" {
				return fmt.Errorf("settled %+v", a)
			}
			return nil
		})},
		{"answered", llm.RoleReplanner, replan(4, "Pick the right Alice", "same screen", messagesPicker, "Alice Chen, the one from the meetup"), wantReplan("A", "Pick the right Alice", 0)},
		{"pick Alice Chen", llm.RoleDecider, decide("Pick the right Alice", messagesPicker, "Alice Chen, the one from the meetup"), wantActions(event.Action{Type: event.Tap, Index: 4})},
		{"pick Alice Wong", llm.RoleDecider, decide("Pick the right Alice", messagesPicker, "alice wong please"), wantActions(event.Action{Type: event.Tap, Index: 5})},
		{"write", llm.RoleDecider, decide("Write the message", messagesThread, "Alice Chen"), wantActions(event.Action{Type: event.Input, Index: 3, Text: "see you at 7"})},
		{"wrong page", llm.RoleReplanner, replan(6, "Write the message", "new screen", messagesList, "Alice Chen"), wantReplan("C", "Start a new conversation", 0)},
		{"adjust", llm.RolePlanner, func(s *prompts.Set) (prompts.Prompt, error) {
			return s.Plan(prompts.PlannerData{Phase: prompts.PhaseAdjust, Instruction: instruction, Tasks: []event.AppTask{task},
				Done: []event.TaskResult{{Index: 0, Task: task, Outcome: event.OutcomeDone}}})
		}, answer(func(a prompts.PlannerAnswer) error {
			if a.Status != prompts.StatusDone {
				return fmt.Errorf("adjusted %+v", a)
			}
			return nil
		})},
	}, recover
}

// play sends each exchange's prompt, rendered from set, to the scripted model serving
// builtin:sim's rules for id, and returns the first answer that is not what it should be.
func play(t *testing.T, set *prompts.Set, id string, xs []exchange) error {
	t.Helper()
	s, err := suite.Load("builtin:sim")
	if err != nil {
		t.Fatal(err)
	}
	var task *suite.Task
	for _, x := range s.Tasks {
		if x.ID == id {
			task = x
		}
	}
	rules, err := s.Rules(task)
	if err != nil {
		t.Fatal(err)
	}
	m := serveRules(t, rules)
	for _, x := range xs {
		p, err := x.prompt(set)
		if err != nil {
			t.Fatalf("%s: %v", x.name, err)
		}
		resp, err := m.Generate(t.Context(), llm.Request{Role: x.role, System: p.System, Schema: &p.Schema,
			Messages: []llm.Message{{Role: "user", Text: p.User}}})
		if err == nil {
			err = x.check(resp.Text)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
	}
	return nil
}

// serveRules serves rules with the scripted model behind the real adapter.
func serveRules(t *testing.T, rules []scripted.Rule) *openai.Client {
	t.Helper()
	srv, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	m, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", DefaultModel: scripted.ModelName, MaxRetries: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// changedTemplates loads the prompt templates with old replaced by new in their source.
func changedTemplates(t *testing.T, old, new string) *prompts.Set {
	t.Helper()
	changed := fstest.MapFS{}
	n := 0
	err := fs.WalkDir(prompts.Files(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(prompts.Files(), path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".tmpl") {
			n += strings.Count(string(b), old)
			b = []byte(strings.ReplaceAll(string(b), old, new))
		}
		changed[path] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no template writes %s", old)
	}
	set, err := prompts.LoadFrom(changed)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestWalkFollowsTheTemplates: builtin:sim's rules find their way through the prompts the
// templates render, by the markers; a template that writes one marker differently breaks
// the walkthrough — an answer goes wrong or none comes — so a test fails, never a run
// silently.
func TestWalkFollowsTheTemplates(t *testing.T) {
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	walk, recover := whichAlice()
	conversations := map[string][]exchange{"walk": walk, "recover": recover}
	for name, xs := range conversations {
		if err := play(t, set, "messages-which-alice", xs); err != nil {
			t.Fatalf("%s with the real templates: %v", name, err)
		}
	}
	// Each writes a marker's text differently (a template constant in place of the
	// marker) or renames the screen's data block, and breaks the conversations listed.
	tests := []struct {
		old, new string
		breaks   []string
	}{
		{`mark "Phase"`, `"Stage: "`, []string{"walk"}},
		{`mark "Task"`, `"Task in "`, []string{"walk"}},
		{`mark "Subgoal"`, `"Sub-goal now: "`, []string{"walk", "recover"}},
		{`mark "ScreenChange"`, `"Change on the screen: "`, []string{"walk"}},
		{`mark "WhyAsk"`, `"Reason to ask: "`, []string{"walk"}},
		{`mark "FinishedTasks"`, `"App tasks done:"`, []string{"walk"}},
		{`data "SCREEN"`, `data "SCREEN_TEXT"`, []string{"walk", "recover"}},
	}
	for _, tc := range tests {
		t.Run(tc.old, func(t *testing.T) {
			changed := changedTemplates(t, tc.old, tc.new)
			for _, name := range tc.breaks {
				err := play(t, changed, "messages-which-alice", conversations[name])
				if err == nil {
					t.Fatalf("templates writing %s for %s: the %s conversation still passes", tc.new, tc.old, name)
				}
				t.Logf("templates writing %s for %s: %s: %v", tc.new, tc.old, name, err)
			}
		})
	}
}

// TestWalkReadsValues: ${NAME} in a step's actions reads the named group of its screen or
// when pattern when the model answers; text that looks like a template stays text.
func TestWalkReadsValues(t *testing.T) {
	const instruction = `Note what the {{weather}} is: "sunny"`
	walk := []walkthrough.Task{{
		App: "com.fairy.notes",
		Steps: []walkthrough.Step{{Screen: `"Temperature (?P<temp>\d+)°"`, When: `is: "(?P<word>\w+)"`, Subgoal: "Write it down",
			Do: []string{`Input "body" "${word}, ${temp} degrees {{not a template}}"`, `Finish "It is ${temp}°"`}}},
	}}
	rules, err := walkthrough.Rules(instruction, walk, false)
	if err != nil {
		t.Fatal(err)
	}
	m := serveRules(t, rules)
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := set.Decide(prompts.DeciderData{Instruction: instruction, Task: event.AppTask{App: "com.fairy.notes", Task: instruction},
		Subgoal: "Write it down", Screen: "- \"Temperature 21°\"\n- [1] input \"\" id=body"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, System: p.System, Schema: &p.Schema, Messages: []llm.Message{{Role: "user", Text: p.User}}})
	if err != nil {
		t.Fatal(err)
	}
	var d prompts.DeciderAnswer
	if err := json.Unmarshal([]byte(resp.Text), &d); err != nil {
		t.Fatal(err)
	}
	want := []event.Action{{Type: event.Input, Index: 1, Text: "sunny, 21 degrees {{not a template}}"}, {Type: event.Finish, Text: "It is 21°"}}
	if fmt.Sprint(d.Actions) != fmt.Sprint(want) || d.Expect != "the app task ends with the answer" {
		t.Errorf("decider answered %s, want %v", resp.Text, want)
	}
}

func TestWalkErrors(t *testing.T) {
	step := func(s walkthrough.Step) []walkthrough.Task {
		if s.Screen == "" {
			s.Screen = "x"
		}
		if s.Subgoal == "" {
			s.Subgoal = "y"
		}
		if s.Do == nil {
			s.Do = []string{"Back"}
		}
		return []walkthrough.Task{{App: "a", Steps: []walkthrough.Step{s}}}
	}
	tests := []struct {
		name string
		walk []walkthrough.Task
		want string
	}{
		{"no app", []walkthrough.Task{{Steps: []walkthrough.Step{{Screen: "x", Subgoal: "y", Do: []string{"Back"}}}}}, "no app"},
		{"no subgoal", []walkthrough.Task{{App: "a", Steps: []walkthrough.Step{{Screen: "x", Do: []string{"Back"}}}}}, "needs screen and subgoal"},
		{"bad screen", step(walkthrough.Step{Screen: "("}), "screen"},
		{"unknown value", step(walkthrough.Step{Do: []string{`Finish "${nope}"`}}), "${nope}: no group"},
		{"bad ask", step(walkthrough.Step{Ask: &walkthrough.Ask{Type: 5, Reason: "r"}}), "type 1–4"},
		{"bad ask name", step(walkthrough.Step{Ask: &walkthrough.Ask{Type: 3, Reason: "r", As: "a b"}}), `as "a b"`},
		{"unknown action", step(walkthrough.Step{Do: []string{`Fly "x"`}}), `unknown type "Fly"`},
		{"bad swipe", step(walkthrough.Step{Do: []string{`Swipe sideways`}}), "direction"},
		{"bad slip", step(walkthrough.Step{Slip: []string{`Tap`}}), "slip"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := walkthrough.Rules("i", tc.walk, false); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestWalkFailedTaskCounted: the planner's reason for a failed app task counts the tasks
// from 1, as the transcript does ("task 1 failed after 1 step"), not from 0.
func TestWalkFailedTaskCounted(t *testing.T) {
	walk := []walkthrough.Task{
		{App: "com.a", Steps: []walkthrough.Step{{Screen: "x", Subgoal: "y", Do: []string{"Back"}}}},
		{App: "com.b", Steps: []walkthrough.Step{{Screen: "x", Subgoal: "y", Do: []string{"Back"}}}},
	}
	rules, err := walkthrough.Rules("i", walk, false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"com.a": "app task 1 in com.a failed", "com.b": "app task 2 in com.b failed"}
	seen := 0
	for _, r := range rules {
		if !strings.HasSuffix(r.Name, ": failed") {
			continue
		}
		var a prompts.PlannerAnswer
		if err := json.Unmarshal([]byte(r.Answer), &a); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		ok := false
		for _, w := range want {
			ok = ok || a.Reason == w
		}
		if !ok {
			t.Errorf("%s: reason %q, want one of %q", r.Name, a.Reason, want)
		}
		seen++
	}
	if seen != 2 {
		t.Errorf("%d failed-task rules, want 2", seen)
	}
}

// TestWalkRoutineRule: the scripted Re-Planner takes the routine the prompt says fits the
// task, its name as the prompt quotes it (a line break as \n: the executor reads it back),
// and stops choosing a routine once the prompt says one it chose could not run.
func TestWalkRoutineRule(t *testing.T) {
	const instruction = "Add the following expenses:\nExpense: Dress"
	walk := []walkthrough.Task{{App: "com.fairy.expenses", Steps: []walkthrough.Step{
		{Screen: `item "Add expense"`, Subgoal: "Add the expense", Do: []string{`Tap "Add expense"`}}}}}
	rules, err := walkthrough.Rules(instruction, walk, false)
	if err != nil {
		t.Fatal(err)
	}
	m := serveRules(t, rules)
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	offer := replay.Offer{ID: "r1", Name: "Add the following expenses:\nExpense: {1}", Params: []string{`the "name"`}, Steps: 4, Fit: []string{"Dress"}}
	ask := func(notes []prompts.Note) prompts.ReplannerAnswer {
		t.Helper()
		p, err := set.Replan(prompts.ReplannerData{Instruction: instruction, Task: event.AppTask{App: "com.fairy.expenses", Task: instruction},
			Step: 2, Plan: []string{"Add the expense"}, Subgoal: "Add the expense", Screen: `- [1] item "Add expense"`,
			Routines: []replay.Offer{offer}, Notes: notes})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := m.Generate(t.Context(), llm.Request{Role: llm.RoleReplanner, System: p.System, Schema: &p.Schema,
			Messages: []llm.Message{{Role: "user", Text: p.User}}})
		if err != nil {
			t.Fatal(err)
		}
		var a prompts.ReplannerAnswer
		if err := json.Unmarshal([]byte(resp.Text), &a); err != nil {
			t.Fatalf("answer %s: %v", resp.Text, err)
		}
		return a
	}
	a := ask(nil)
	if u, err := strconv.Unquote(`"` + a.Routine.Name + `"`); err != nil || u != offer.Name || len(a.Routine.Args) != 1 || a.Routine.Args[0] != "Dress" {
		t.Errorf("routine answered %+v, want %q with [Dress]", a.Routine, offer.Name)
	}
	a = ask([]prompts.Note{prompts.NoteRoutineAbsent{Routine: "x"}})
	if a.Routine.Name != "" {
		t.Errorf("after a refusal the routine answered is %+v, want none", a.Routine)
	}
}

// TestWalkFinishCheckReadsTheScreen: the finish check of a walk with a done screen passes
// only where the final screen shows the app task done (and not its unless): "turn Wi-Fi
// on" on a page that shows Wi-Fi off is not done, whatever the suite's fallback answers.
func TestWalkFinishCheckReadsTheScreen(t *testing.T) {
	const app, instruction = "com.android.settings", "Turn wifi on."
	walk := []walkthrough.Task{{App: app, Done: `item "Wi-Fi".*\n *- "On"`, Unless: `Turning on`,
		Steps: []walkthrough.Step{{Screen: `item "Wi-Fi"`, Subgoal: "Switch Wi-Fi on", Do: []string{`Tap "Wi-Fi"`}}}}}
	rules, err := walkthrough.Rules(instruction, walk, false)
	if err != nil {
		t.Fatal(err)
	}
	// The suite's own rule comes after the walk's: it passes anything (the lax fallback).
	rules = append(rules, scripted.Rule{Name: "finish check", Role: prompts.NameChecker, Answer: `{"passed":true,"reason":"lax"}`})
	m := serveRules(t, rules)
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, screen string
		want         bool
	}{
		{"shown done", "- [2] item \"Wi-Fi\" id=switch_row\n  - \"On\"\n  - [3] switch checked", true},
		{"shown not done", "- [2] item \"Wi-Fi\" id=switch_row\n  - \"Off\"\n  - [3] switch unchecked", false},
		{"another page", "- [2] item \"Network & internet\"\n  - \"Wi-Fi is off\"", false},
		{"done but not settled", "- [2] item \"Wi-Fi\" id=switch_row\n  - \"On\"\n- \"Turning on\"", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := set.Check(prompts.CheckerData{Instruction: instruction, Task: event.AppTask{App: app, Task: instruction}, Screen: tc.screen})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Generate(t.Context(), llm.Request{Role: llm.Role(prompts.NameChecker), System: p.System, Schema: &p.Schema,
				Messages: []llm.Message{{Role: "user", Text: p.User}}})
			if err != nil {
				t.Fatal(err)
			}
			var v prompts.CheckerAnswer
			if err := json.Unmarshal([]byte(resp.Text), &v); err != nil || v.Passed != tc.want {
				t.Errorf("checker answered %s (%v), want passed %v", resp.Text, err, tc.want)
			}
		})
	}
}

// TestWalkReadsTheOffTaskNote: told by the executor that the last action acted on another
// row of the list than the task names, the walkthrough's Re-Planner judges a wrong page (C)
// and goes back, as a capable model reading that note would, though the page is one a
// step knows (every note's page looks alike).
func TestWalkReadsTheOffTaskNote(t *testing.T) {
	const instruction = "Delete the note in Notes named groceries."
	walk := []walkthrough.Task{{App: "com.fairy.notes", Steps: []walkthrough.Step{
		{Screen: `button "Delete note"`, Subgoal: "Ask to delete the note", Do: []string{`Tap "Delete note"`}}}}}
	rules, err := walkthrough.Rules(instruction, walk, false)
	if err != nil {
		t.Fatal(err)
	}
	m := serveRules(t, rules)
	set, err := prompts.Load()
	if err != nil {
		t.Fatal(err)
	}
	ask := func(notes []prompts.Note) prompts.ReplannerAnswer {
		t.Helper()
		p, err := set.Replan(prompts.ReplannerData{Instruction: instruction, Task: event.AppTask{App: "com.fairy.notes", Task: instruction},
			Step: 2, Plan: []string{"Ask to delete the note"}, Subgoal: "Ask to delete the note", Screen: `- [1] button "Delete note"`, Notes: notes})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := m.Generate(t.Context(), llm.Request{Role: llm.RoleReplanner, System: p.System, Schema: &p.Schema,
			Messages: []llm.Message{{Role: "user", Text: p.User}}})
		if err != nil {
			t.Fatal(err)
		}
		var a prompts.ReplannerAnswer
		if err := json.Unmarshal([]byte(resp.Text), &a); err != nil {
			t.Fatalf("answer %s: %v", resp.Text, err)
		}
		return a
	}
	if a := ask(nil); a.Result != "A" {
		t.Errorf("on the note's page with no note: result %q, want A", a.Result)
	}
	if a := ask([]prompts.Note{prompts.NoteOffTask{Why: `acted on "shopping", and the task names "groceries", a row of the same list`}}); a.Result != "C" {
		t.Errorf("told the last tap opened another row: result %q (%s), want C", a.Result, a.Reflection)
	}
}
