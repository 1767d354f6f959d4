package interaction

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
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
	sp := event.Specifics{To: "Bob Smith", Text: "Heads up: the meeting moved to 3pm"}
	spec := `to: Bob Smith; text: "Heads up: the meeting moved to 3pm"`
	res, err := it.Resolve(t.Context(), Need{Type: 2, Reason: `tap "Send SMS" (send) — ` + spec, Category: "send",
		Action: "tap Send SMS", Subject: `tap "Send SMS"`, Specifics: sp})
	if err != nil {
		t.Fatal(err)
	}
	asked := d.Asked()
	if len(asked) != 1 || !strings.Contains(asked[0].Question.Text, spec) || !strings.Contains(asked[0].Question.Covers, spec) {
		t.Fatalf("asked %+v: the question and what it covers must name %q", asked, spec)
	}
	if !asked[0].Question.Specifics.Equal(sp) {
		t.Fatalf("the question carries specifics %+v, want %+v (whoever answers reads them typed)", asked[0].Question.Specifics, sp)
	}
	if !res.Refused() || res.Answer != "No, I meant Carol Diaz" {
		t.Fatalf("result %+v: want a refusal with the person's words", res)
	}
}
