package inject

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm"
)

// cannedModel stands in for a model endpoint (which cannot exist in a unit test): it
// answers each call with the next of its answers.
type cannedModel struct {
	answers []string
	n       int
}

func (c *cannedModel) Generate(_ context.Context, _ llm.Request) (llm.Response, error) {
	if c.n >= len(c.answers) {
		return llm.Response{}, errors.New("canned model: no answer left")
	}
	c.n++
	return llm.Response{Text: c.answers[c.n-1], Model: "canned"}, nil
}

const screen = `SCREEN:
- [1] button "Back"
- [2] row "Alice Chen"
- [3] row "Carol Diaz"
- [4] edit "Message" id=msg
- [5] button "Send SMS"
`

func req(role llm.Role) llm.Request {
	return llm.Request{Role: role, Messages: []llm.Message{{Role: "user", Text: "Sub-goal: open Alice's chat\n" + screen}}}
}

// run wraps answers with one kind at rate 1 and returns the answers and the injections.
func run(t *testing.T, rates Rates, role llm.Role, answers ...string) ([]string, []Injection) {
	t.Helper()
	var got []Injection
	w := Wrap(&cannedModel{answers: answers}, rates, 7, func(i Injection) { got = append(got, i) })
	var out []string
	for range answers {
		resp, err := w.Generate(context.Background(), req(role))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp.Text)
	}
	return out, got
}

func actions(t *testing.T, text string) []map[string]any {
	t.Helper()
	var a struct {
		Actions []map[string]any `json:"actions"`
	}
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		t.Fatalf("answer %q: %v", text, err)
	}
	return a.Actions
}

func TestGroundingTapsAnotherElementOfTheScreen(t *testing.T) {
	out, inj := run(t, Rates{grounding: 1}, llm.RoleDecider, `{"thought":"t","actions":[{"type":"Tap","index":2}],"expect":"chat"}`)
	acts := actions(t, out[0])
	idx := int(acts[0]["index"].(float64))
	if idx == 2 || idx < 1 || idx > 5 {
		t.Fatalf("grounding tapped %d: want another element of the screen (1,3,4,5)", idx)
	}
	if len(inj) != 1 || inj[0].Kind != grounding || !strings.Contains(inj[0].Change, `"Alice Chen"`) {
		t.Fatalf("injections %+v: want one grounding naming the intended element", inj)
	}
	if !strings.Contains(out[0], `"expect":"chat"`) {
		t.Fatalf("the other keys are lost: %s", out[0])
	}
}

func TestGroundingLeavesUntargetedAnswersAndOtherRolesAlone(t *testing.T) {
	back := `{"actions":[{"type":"Back"}]}`
	out, inj := run(t, Rates{grounding: 1}, llm.RoleDecider, back)
	if out[0] != back || len(inj) != 0 {
		t.Fatalf("a Back has no element to misplace: got %s, %+v", out[0], inj)
	}
	rp := `{"result":"A","subgoal":"Tap 2"}`
	out, inj = run(t, Rates{grounding: 1}, llm.RoleReplanner, rp)
	if out[0] != rp || len(inj) != 0 {
		t.Fatalf("grounding is the decider's: got %s, %+v", out[0], inj)
	}
}

func TestIndexIsNotOnTheScreen(t *testing.T) {
	out, inj := run(t, Rates{index: 1}, llm.RoleDecider, `{"actions":[{"type":"Input","index":4,"text":"hi"}]}`)
	idx := int(actions(t, out[0])[0]["index"].(float64))
	if idx <= 5 {
		t.Fatalf("index %d is on the screen (1–5)", idx)
	}
	if len(inj) != 1 || inj[0].Kind != index {
		t.Fatalf("injections %+v", inj)
	}
}

func TestTypoChangesOneCharacter(t *testing.T) {
	out, inj := run(t, Rates{Typo: 1}, llm.RoleDecider, `{"actions":[{"type":"Input","index":4,"text":"See you at 5"}]}`)
	typed := actions(t, out[0])[0]["text"].(string)
	if typed == "See you at 5" || len(typed) != len("See you at 5") {
		t.Fatalf("typed %q: want one character changed", typed)
	}
	diff := 0
	for i := range typed {
		if typed[i] != "See you at 5"[i] {
			diff++
		}
	}
	if diff != 1 || len(inj) != 1 || inj[0].Kind != Typo {
		t.Fatalf("typed %q (%d changed), injections %+v", typed, diff, inj)
	}
}

func TestRepeatAnswersTheLastActionAgain(t *testing.T) {
	out, inj := run(t, Rates{repeatKind: 1}, llm.RoleDecider,
		`{"actions":[{"type":"Tap","index":2}]}`, `{"actions":[{"type":"Input","index":4,"text":"hi"},{"type":"Tap","index":5}]}`)
	if out[0] != `{"actions":[{"type":"Tap","index":2}]}` {
		t.Fatalf("the first answer has no last action to repeat: %s", out[0])
	}
	acts := actions(t, out[1])
	if len(acts) != 1 || acts[0]["type"] != "Tap" || acts[0]["index"].(float64) != 2 {
		t.Fatalf("second answer %s: want the last action (Tap 2) again", out[1])
	}
	if len(inj) != 1 || inj[0].Kind != repeatKind {
		t.Fatalf("injections %+v", inj)
	}
}

func TestStaleAnswersThePreviousAnswer(t *testing.T) {
	first, second := `{"result":"","subgoal":"Open the chat"}`, `{"result":"A","subgoal":"Type the message"}`
	out, inj := run(t, Rates{stale: 1}, llm.RoleReplanner, first, second)
	if out[0] != first || out[1] != first {
		t.Fatalf("answers %q: want the first answer twice", out)
	}
	if len(inj) != 1 || inj[0].Kind != stale || inj[0].Role != "replanner" {
		t.Fatalf("injections %+v", inj)
	}
}

func TestReflectIsAFalseA(t *testing.T) {
	out, inj := run(t, Rates{reflect: 1}, llm.RoleReplanner, `{"result":"C","subgoal":"Go back"}`, `{"result":"A","subgoal":"Send"}`)
	if !strings.Contains(out[0], `"result":"A"`) || !strings.Contains(out[0], `"subgoal":"Go back"`) {
		t.Fatalf("verdict C should read A, the rest unchanged: %s", out[0])
	}
	if out[1] != `{"result":"A","subgoal":"Send"}` {
		t.Fatalf("an A is no false A: %s", out[1])
	}
	if len(inj) != 1 || inj[0].Kind != reflect || inj[0].Change != "result C → A" {
		t.Fatalf("injections %+v", inj)
	}
}

func TestDoneIsAFalseFinish(t *testing.T) {
	out, inj := run(t, Rates{done: 1}, llm.RoleReplanner, `{"result":"B","subgoal":"Type the message","routine":{"name":"x"}}`)
	if !strings.Contains(out[0], `"subgoal":"Finished"`) || strings.Contains(out[0], "routine") {
		t.Fatalf("want a Finished sub-goal and no routine: %s", out[0])
	}
	if len(inj) != 1 || inj[0].Kind != done {
		t.Fatalf("injections %+v", inj)
	}
}

func TestDoneIsAFalsePassOfTheFinishCheck(t *testing.T) {
	out, inj := run(t, Rates{done: 1}, roleChecker, `{"passed":false,"reason":"Wi-Fi is off"}`, `{"passed":true,"reason":"ok"}`)
	if !strings.Contains(out[0], `"passed":true`) || !strings.Contains(out[0], "Wi-Fi is off") {
		t.Fatalf("want a pass with the reason kept: %s", out[0])
	}
	if out[1] != `{"passed":true,"reason":"ok"}` {
		t.Fatalf("a pass is no error to inject: %s", out[1])
	}
	if len(inj) != 1 || inj[0].Kind != done {
		t.Fatalf("injections %+v", inj)
	}
}

func TestFormatBreaksTheJSON(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 30; seed++ {
		var inj []Injection
		w := Wrap(&cannedModel{answers: []string{`{"thought":"t","actions":[{"type":"Back"}],"expect":"x"}`}}, Rates{Format: 1}, seed,
			func(i Injection) { inj = append(inj, i) })
		resp, err := w.Generate(context.Background(), req(llm.RoleDecider))
		if err != nil {
			t.Fatal(err)
		}
		if len(inj) != 1 || inj[0].Kind != Format {
			t.Fatalf("injections %+v", inj)
		}
		var v map[string]any
		strict := json.Unmarshal([]byte(resp.Text), &v) == nil
		switch {
		case strings.HasPrefix(inj[0].Change, "prose"):
			if strict || !strings.Contains(resp.Text, "Sure!") {
				t.Fatalf("prose: %q", resp.Text)
			}
		case strings.HasPrefix(inj[0].Change, "truncated"):
			if _, err := llm.ExtractJSON(resp.Text); err == nil && strict {
				t.Fatalf("truncated JSON still decodes: %q", resp.Text)
			}
		case strings.HasPrefix(inj[0].Change, "key"):
			if !strict || v["actions"] != nil {
				t.Fatalf("missing key: the actions are still there: %q", resp.Text)
			}
		default:
			t.Fatalf("change %q", inj[0].Change)
		}
		seen[strings.Fields(inj[0].Change)[0]] = true
	}
	if len(seen) != 3 {
		t.Fatalf("30 seeds gave only %v of the three format errors", seen)
	}
}

func TestRepairRequestsPassUntouched(t *testing.T) {
	w := Wrap(&cannedModel{answers: []string{`{"result":"C","subgoal":"x"}`}}, Rates{reflect: 1, Format: 1}, 1, nil)
	r := req(llm.RoleReplanner)
	r.Messages = append(r.Messages, llm.Message{Role: "user", Text: "your answer was not JSON"})
	resp, _ := w.Generate(context.Background(), r)
	if resp.Text != `{"result":"C","subgoal":"x"}` {
		t.Fatalf("a repair answer was changed: %s", resp.Text)
	}
}

func TestRatesAreDrawnPerApplicableCall(t *testing.T) {
	answers := make([]string, 2000)
	for i := range answers {
		answers[i] = `{"actions":[{"type":"Tap","index":3}]}`
	}
	_, inj := run(t, Rates{grounding: 0.2}, llm.RoleDecider, answers...)
	if n := len(inj); n < 320 || n > 480 {
		t.Fatalf("%d of 2000 taps misplaced at rate 0.2", n)
	}
	// The same seed draws the same errors.
	_, again := run(t, Rates{grounding: 0.2}, llm.RoleDecider, answers...)
	if len(again) != len(inj) || again[0] != inj[0] {
		t.Fatal("the same seed drew other errors")
	}
}

func TestParseRates(t *testing.T) {
	r, err := ParseRates("grounding=0.2, reflect=5%")
	if err != nil || r[grounding] != 0.2 || r[reflect] != 0.05 || r.String() != "grounding=0.2,reflect=0.05" {
		t.Fatalf("%v %v", r, err)
	}
	for _, bad := range []string{"grounding", "ground=0.1", "grounding=2", "grounding=x", "typo=0.1,typo=0.2", "index=-0.1"} {
		if _, err := ParseRates(bad); !errors.Is(err, ErrSpec) {
			t.Errorf("%q: err %v, want ErrSpec", bad, err)
		}
	}
}
