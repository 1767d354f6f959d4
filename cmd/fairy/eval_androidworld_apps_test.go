package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// TestEvalAndroidWorldPickersAndMarkers runs the families whose difficulty is the app's UI
// on the virtual phone with the scripted model: the calendar event is added on the
// editor's date and time pickers (the runs saw the month grid and the time picker's
// fields), the OsmAnd favourite through the context menu's Add favorite dialog and the
// marker from the context menu (the markers bar shows it), and every instance passes.
func TestEvalAndroidWorldPickersAndMarkers(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs 4 androidworld tasks")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "androidworld:sim", "--seed", "52", "--instances", "1",
		"--family", "SimpleCalendarAddOneEventTomorrow,SimpleCalendarAddOneEventInTwoWeeks,OsmAndFavorite,OsmAndMarker", "--out", out, "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "Success: 4/4 (100%)") {
		t.Errorf("not every instance passed:\n%s", stdout.String())
	}
	seen := func(task string) string {
		b, err := os.ReadFile(filepath.Join(out, "runs", task, "trace.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, task := range []string{"SimpleCalendarAddOneEventTomorrow-0", "SimpleCalendarAddOneEventInTwoWeeks-0"} {
		tr := seen(task)
		for _, want := range []string{`checked selected desc=\"`, `id=input_hour`, `Switch to text input mode`} {
			if !strings.Contains(tr, want) {
				t.Errorf("%s: the run never showed %s", task, want)
			}
		}
	}
	if tr := seen("OsmAndFavorite-0"); !strings.Contains(tr, `\"Add favorite\"`) {
		t.Error("OsmAndFavorite: the run never showed the Add favorite dialog")
	}
	if tr := seen("OsmAndMarker-0"); !strings.Contains(tr, `\"Map marker: `) {
		t.Error("OsmAndMarker: the run never showed the markers bar")
	}
}
