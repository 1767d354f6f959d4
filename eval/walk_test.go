package eval

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
)

// TestWalkNavigate: a walk step with navigate answers Navigate when the decider's prompt
// holds a replayable App Map hint toward the named page, and its own actions otherwise —
// with a hint toward another page, or a hint that offers no replay.
func TestWalkNavigate(t *testing.T) {
	task := &Task{ID: "t", Instruction: "Turn off notifications for Maps", Walk: []WalkTask{{
		App: "com.android.settings",
		Steps: []WalkStep{{Screen: `item "Apps"`, Subgoal: "Open the notifications of Maps",
			Navigate: `Notifications: [^"]*notifications`, Do: []string{`Tap "Apps"`}}},
	}}}
	rules, err := walkRules(task)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	m, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", DefaultModel: scripted.ModelName})
	if err != nil {
		t.Fatal(err)
	}
	prompt := func(hint string) string {
		p := "App task in com.android.settings: Turn off notifications for Maps\n\nCurrent sub-goal: Open the notifications of Maps\n\n"
		if hint != "" {
			p += "<<<HINT\n" + hint + "\nHINT>>>\n\n"
		}
		return p + "<<<SCREEN\n- [1] item \"Network & internet\"\n- [2] item \"Apps\"\nSCREEN>>>\n"
	}
	const path = `The App Map knows a path from this page (p1 "Settings") to page p7 "Notifications: Navigate up, All Maps notifications" in 4 steps: 1. tap "Apps"; 2. tap "See all apps"; 3. tap id=app_row "Maps"; 4. tap "Notifications".`
	tests := []struct {
		name, hint string
		want       memoryAction
	}{
		{"no hint", "", memoryAction{Type: "Tap", Index: 2}},
		{"replayable hint", path + ` It is reliable: Navigate("p7") replays it without deciding each step.`, memoryAction{Type: "Navigate", Target: "p7"}},
		{"partial replay", path + ` Its first 2 steps are reliable: Navigate("p5") replays them without deciding each step, up to page p5 "All apps"; go on from there step by step.`, memoryAction{Type: "Navigate", Target: "p5"}},
		{"no replay offered", path, memoryAction{Type: "Tap", Index: 2}},
		{"another page", `The App Map knows a path from this page (p1 "Settings") to page p3 "Display: Dark theme" in 1 step: 1. tap "Display". It is reliable: Navigate("p3") replays it without deciding each step.`, memoryAction{Type: "Tap", Index: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := m.Generate(t.Context(), llm.Request{Role: llm.RoleDecider, Schema: &llm.Schema{Name: "decider", JSON: json.RawMessage(`{"type":"object"}`)},
				Messages: []llm.Message{{Role: "user", Text: prompt(tc.hint)}}})
			if err != nil {
				t.Fatal(err)
			}
			var d struct{ Actions []memoryAction }
			if err := json.Unmarshal([]byte(resp.Text), &d); err != nil || len(d.Actions) != 1 || d.Actions[0] != tc.want {
				t.Errorf("decider answered %s (%v), want %+v", resp.Text, err, tc.want)
			}
		})
	}
}

// memoryAction is the part of a decider action the test compares.
type memoryAction struct {
	Type   string `json:"type"`
	Index  int    `json:"index,omitempty"`
	Target string `json:"target,omitempty"`
}
