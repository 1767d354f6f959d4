package interaction

import (
	"strings"
	"testing"
)

// TestConsentQuestionShowsSpecifics: whatever the interactor model writes, a consent
// question shows the specifics the guard read from the screen (recipient and text), so a
// person can see that the message goes to the wrong contact; the answer is in the result.
func TestConsentQuestionShowsSpecifics(t *testing.T) {
	d, err := NewCanned([]Rule{{Pattern: "bob smith", Reply: "No, I meant Carol Diaz"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	model := &fakeModel{answers: []string{`{"status":"B","question":"May I send it?"}`}}
	it, _ := newInteractor(t, model, d)
	spec := `to: Bob Smith; text: "Heads up: the meeting moved to 3pm"`
	res, err := it.Resolve(t.Context(), Need{Type: 2, Reason: `tap "Send SMS" (send) — ` + spec, Category: "send",
		Action: "tap Send SMS", Subject: `tap "Send SMS"`, Specifics: spec})
	if err != nil {
		t.Fatal(err)
	}
	asked := d.Asked()
	if len(asked) != 1 || !strings.Contains(asked[0].Question.Text, spec) || !strings.Contains(asked[0].Question.Covers, spec) {
		t.Fatalf("asked %+v: the question and what it covers must name %q", asked, spec)
	}
	if !res.Refused() || res.Answer != "No, I meant Carol Diaz" {
		t.Fatalf("result %+v: want a refusal with the person's words", res)
	}
}
