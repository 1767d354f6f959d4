package global_test

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
)

// The message of the typing scenarios: longer than the compose field's hint ("Text
// message"), so deleting a hint's length of it leaves a remnant.
const typedMessage = "On my way, see you at the coffee place at six"

// typingRules script "text Alice" in Messages. The decider is naive on purpose: whenever
// the sub-goal is to send, it types the whole message again and taps Send, in one batch.
// Send is guarded, so the first such batch types, is held at Send, and asks.
const typingRules = `
rules:
  - name: plan
    role: planner
    match: ['Phase: plan', '(?m)^- (com\.google\.android\.apps\.messaging) —']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"{{match 1}}","task":"Text Alice Chen the message","produces":""}],"next":0,"progress":"","reason":""}'
  - name: adjust done
    role: planner
    match: ['Phase: adjust', '— done']
    answer: '{"thought":"","status":"done","tasks":[],"next":-1,"progress":"done","reason":"sent"}'
  - name: adjust failed
    role: planner
    match: ['Phase: adjust']
    answer: '{"thought":"","status":"impossible","tasks":[],"next":-1,"progress":"","reason":"the message was not sent"}'

  - name: sent
    role: replanner
    match: ['(?m)^- "On my way[^"\n]*"\n- "You · ']
    answer: '{"result":"A","reflection":"","progress":"sent","plan":["Open the chat with Alice","Send the message"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: thread
    role: replanner
    match: ['\[\d+\] input "[^"\n]*" id=compose_message_text']
    answer: '{"result":"B","reflection":"","progress":"chat open","plan":["Open the chat with Alice","Send the message"],"subgoal":"Send the message","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: conversations
    role: replanner
    match: ['\[\d+\] item "Alice Chen"']
    answer: '{"result":"","reflection":"","progress":"","plan":["Open the chat with Alice","Send the message"],"subgoal":"Open the chat with Alice","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: open chat
    role: decider
    match: ['Current sub-goal: Open the chat with Alice']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Alice Chen"}}}],"expect":""}'
  - name: type and send
    role: decider
    match: ['Current sub-goal: Send the message']
    answer: '{"thought":"","actions":[{"type":"Input","index":{{index "compose_message_text"}},"text":"On my way, see you at the coffee place at six"},{"type":"Tap","index":{{index "Send SMS"}}}],"expect":""}'

  - name: consent given
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)', '(?m)^Person: ']
    answer: '{"status":"A","question":"","options":[],"summary":{{json (printf "The person agreed: %s." (match 1))}},"consent":"granted"}'
  - name: ask consent
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)']
    answer: '{"status":"B","question":{{json (printf "May I %s?" (match 1))}},"options":[],"summary":"","consent":""}'

  - name: no facts
    role: extractor
    answer: '{"facts":[]}'
  - name: check
    role: checker
    answer: '{"passed":true,"reason":"sent"}'
`

// sentTexts are the outgoing messages to Alice Chen that the run sent (the phone starts
// with a conversation: its messages are left out).
func sentTexts(t *testing.T, o outcome) []string {
	t.Helper()
	fresh, err := sim.New(sim.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	before := len(fresh.Messages())
	var out []string
	for _, m := range o.phone.Messages()[before:] {
		if m.Outgoing && m.To == "Alice Chen" {
			out = append(out, m.Text)
		}
	}
	return out
}

// screenAfterConsent is the text of the first screen perceived after the interaction.
func screenAfterConsent(t *testing.T, o outcome) string {
	t.Helper()
	ended := false
	for _, r := range o.events {
		switch e := r.Event.(type) {
		case event.InteractionEnded:
			ended = true
		case event.ScreenPerceived:
			if ended {
				return e.Text
			}
		}
	}
	t.Fatal("no screen perceived after the interaction")
	return ""
}

// TestHeldSendRereadsTheScreen: in the batch Input(text), Tap(Send) the guard holds Send
// back after the text was typed. After the consent the next step must see the typed text
// (a fresh screen, not the one from before the batch), and the message sent holds the
// text exactly once.
func TestHeldSendRereadsTheScreen(t *testing.T) {
	o := scenario{script: typingRules, user: []interaction.Rule{{Pattern: `Send`, Reply: "yes"}}}.
		run(t, "Text Alice: "+typedMessage)
	if o.err != nil || o.res.Outcome != event.OutcomeDone {
		t.Fatalf("run: %v, %+v", o.err, o.res)
	}
	if got := sentTexts(t, o); len(got) != 1 || got[0] != typedMessage {
		t.Errorf("sent %q, want exactly [%q]", got, typedMessage)
	}
	if g := eventsOf[event.ActionGuarded](o); len(g) != 1 || g[0].Category != "send" || g[0].Target != "Send SMS" {
		t.Errorf("guarded = %+v, want one hold of Send SMS", g)
	}
	if s := screenAfterConsent(t, o); !strings.Contains(s, `input "`+typedMessage+`" id=compose_message_text`) {
		t.Errorf("the step after the consent saw a stale screen:\n%s", s)
	}
}

// TestClearInBatchEmptiesTheField: a batch that types, clears and types again into the
// compose field, whose hint ("Text message") the empty field reports as its text. Clear
// acts on the field as it is then, not on the screen read before the batch: nothing of the
// first text may be left.
func TestClearInBatchEmptiesTheField(t *testing.T) {
	o := scenario{script: typingRules, user: []interaction.Rule{{Pattern: `Send`, Reply: "yes"}}, extra: []scripted.Rule{
		{Name: "retype", Role: "decider", Match: scripted.Patterns{"Current sub-goal: Send the message"}, Times: 1,
			Answer: `{"thought":"","actions":[{"type":"Input","index":{{index "compose_message_text"}},"text":"Running late, sorry about that, see you soon"},` +
				`{"type":"Clear","index":{{index "compose_message_text"}}},` +
				`{"type":"Input","index":{{index "compose_message_text"}},"text":"` + typedMessage + `"},{"type":"Tap","index":{{index "Send SMS"}}}],"expect":""}`},
	}}.run(t, "Text Alice: "+typedMessage)
	if o.err != nil || o.res.Outcome != event.OutcomeDone {
		t.Fatalf("run: %v, %+v", o.err, o.res)
	}
	if s := screenAfterConsent(t, o); !strings.Contains(s, `input "`+typedMessage+`" id=compose_message_text`) {
		t.Errorf("the compose field after the batch is not exactly the last text typed:\n%s", s)
	}
	if got := sentTexts(t, o); len(got) != 1 || got[0] != typedMessage {
		t.Errorf("sent %q, want exactly [%q]", got, typedMessage)
	}
}
