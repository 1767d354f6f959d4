package executor

import (
	"context"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
)

// TestInstructionFormatNotForAFeedingTask: the person's answer format is for the app task
// that answers the person. An earlier task that reads something for later tasks (its
// Produces set: a phone number for the next app) is not told that format, nor is its
// check: a checker told "an answer must have the form the person asked for" would hold the
// phone number for not being a date.
func TestInstructionFormatNotForAFeedingTask(t *testing.T) {
	const instruction = "Find Bob's number in Contacts, then tell me when my next meeting with him is in the calendar. Express your answer in the format <month name> <day> <year>."
	phone := &fakePhone{pkg: "com.android.contacts", cur: "bob", screens: map[string][]fakeNode{
		"bob": {{kind: "button", text: "Bob"}, {kind: "text", text: "+1 555 0100"}},
	}}
	var decided, checked []string
	m := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string { return plan("", "Read Bob's number", 0, "") },
		llm.RoleDecider: func(n int, u string) string {
			decided = append(decided, u)
			return `{"thought":"","actions":[{"type":"Finish","text":"+1 555 0100"}],"expect":""}`
		},
		RoleChecker: func(_ int, u string) string {
			checked = append(checked, u)
			return `{"passed":true,"reason":"the screen shows it"}`
		},
	}}
	h := newHarness(t, phone, m, nil, nil)
	res, err := h.exec.Run(context.Background(), Assignment{Instruction: instruction,
		Task: event.AppTask{App: phone.pkg, Task: "Read Bob's phone number", Produces: "Bob's phone number"}})
	if err != nil || res.Outcome != event.OutcomeDone {
		t.Fatalf("outcome %s, err %v: %s", res.Outcome, err, res.Reason)
	}
	for _, u := range append(decided, checked...) {
		if strings.Contains(u, prompts.MarkAnswerFormat) {
			t.Errorf("a task feeding later tasks is told the person's answer format:\n%s", u)
		}
	}
}
