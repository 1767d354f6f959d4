package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// TestEvalAndroidWorldCalendarAnswers runs the calendar's nine information-retrieval
// families (75 noise events each, answers cast as the benchmark casts them) with the
// scripted model on a seed nobody tuned for: every instance passes, so each walkthrough
// answers in the layout the benchmark accepts (the meeting as "October 17 2023 20:00",
// not the app's 2023-10-17 20:00) within the family's step budget.
func TestEvalAndroidWorldCalendarAnswers(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs nine calendar families end to end (eval/androidworld tests their checks)")
	t.Parallel()
	families := "SimpleCalendarLocationOfEvent,SimpleCalendarNextEvent,SimpleCalendarEventsOnDate,SimpleCalendarAnyEventsOnDate," +
		"SimpleCalendarNextMeetingWithPerson,SimpleCalendarFirstEventAfterStartTime,SimpleCalendarEventsInNextWeek," +
		"SimpleCalendarEventsInTimeRange,SimpleCalendarEventOnDateAtTime"
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--seed", "11", "--family", families, "--out", t.TempDir(), "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if text := stdout.String(); !strings.Contains(text, "Success: 9/9 (100%) over 9 families") {
		t.Errorf("not every calendar answer passed:\n%s", text)
	}
}
