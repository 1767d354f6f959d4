package agent

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
)

// finishAtOnce plans an app task in app and has the Re-Planner answer Finished on every
// screen; with home, the decider presses Home first (the run then judges the launcher).
func finishAtOnce(app, task string, home bool) string {
	quoted := strings.ReplaceAll(task, "'", "''") // inside a YAML single-quoted string
	rules := `
  - name: plan
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"` + app + `","task":"` + quoted + `","produces":""}],"next":0,"progress":"","reason":""}'
`
	if home {
		rules += `
  - name: finish on the launcher
    role: replanner
    match: ['Tap an app to open it']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Finished"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: go home
    role: replanner
    answer: '{"result":"","reflection":"","progress":"","plan":["Leave the app"],"subgoal":"Leave the app","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: press home
    role: decider
    answer: '{"thought":"","actions":[{"type":"Home"}],"expect":""}'
`
	} else {
		rules += `
  - name: finish
    role: replanner
    answer: '{"result":"A","reflection":"","progress":"","plan":["Finished"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
`
	}
	return rules
}

// TestDoneNeedsTheDeedAndTheApp: a run may not say done, whatever the model judges, on a
// task that asks to delete (or send) when nothing was deleted (sent) under the person's
// consent, nor on another app's screen (the launcher after a Home) — the finish check
// names why, and the run ends not done.
func TestDoneNeedsTheDeedAndTheApp(t *testing.T) {
	tests := []struct {
		name, app, task string
		home            bool
		why             string
	}{
		{"delete never done", "com.fairy.notes", "Delete the note in Notes named groceries.", false, "asks to delete and nothing was deleted"},
		{"send never done", "com.google.android.apps.messaging", "Send a text message using Messages to +15551234567 with message: hi", false, "asks to send and nothing was sent"},
		{"finished on the launcher", "com.android.settings", "Turn bluetooth on.", true, "not the task's app com.android.settings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rig{rules: finishAtOnce(tc.app, tc.task, tc.home), maxSteps: 6}.run(t, tc.task)
			if r.res.Outcome == event.OutcomeDone {
				t.Fatalf("outcome done: the run said done on %q", tc.task)
			}
			if !strings.Contains(string(r.trace), tc.why) {
				t.Errorf("no finish check says %q; trace:\n%s", tc.why, r.trace)
			}
		})
	}
}

// TestDoneRefusesARecordSavedTwice: a Save tapped before the form was filled stores a
// record, and the model, not seeing it, fills a new form and saves again; the list then
// shows two events of the title where the task adds one (the benchmark's check counts the
// rows). However sure the model is, the finish check names the extra record and the run
// does not say done.
func TestDoneRefusesARecordSavedTwice(t *testing.T) {
	const app, title = "com.google.android.calendar", "Standup with Ana"
	task := "In Calendar, create a calendar event on 2023-10-20 at 10h with the title '" + title + "' and the description 'Daily sync.'."
	quoted := strings.ReplaceAll(task, "'", "''") // inside a YAML single-quoted string
	rules := `
  - name: plan
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"` + app + `","task":"` + quoted + `","produces":""}],"next":0,"progress":"","reason":""}'
  - name: the model thinks it is done once it saw the event saved twice
    role: replanner
    answer: '{{if and (has "Create new event") (has "` + title + `") (ge .Times 5)}}{"result":"A","reflection":"","progress":"","plan":["Finished"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}{{else}}{"result":"A","reflection":"","progress":"","plan":["Add the event"],"subgoal":"Add the event","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}{{end}}'
  - name: open a new form, or type the title and save (the first time too early)
    role: decider
    answer: '{{if has "Add title"}}{"thought":"","actions":[{"type":"Input","index":{{index "Add title"}},"text":"` + title + `"},{"type":"Input","index":{{index "Description"}},"text":"Daily sync."},{"type":"Tap","index":{{index "Save"}}}],"expect":""}{{else}}{"thought":"","actions":[{"type":"Tap","index":{{index "Create new event"}}}],"expect":""}{{end}}'
`
	r := rig{rules: rules, maxSteps: 10}.run(t, task)
	if r.res.Outcome == event.OutcomeDone {
		t.Fatalf("outcome done with the event %q saved twice", title)
	}
	if why := `records titled \"` + title + `\" where there were 0`; !strings.Contains(string(r.trace), why) {
		t.Errorf("no finish check says %q; trace:\n%s", why, r.trace)
	}
}

// TestDoneRefusesARecordOfAnotherDate: the model fills the title and the description and
// saves, never setting the date or the hour the task names; the list then shows the event
// on the form's default day. However sure the model is, the finish check names what the
// row shows against what the task names, and the run does not say done.
func TestDoneRefusesARecordOfAnotherDate(t *testing.T) {
	const app, title = "com.google.android.calendar", "Standup with Ana"
	task := "In Calendar, create a calendar event on 2023-10-20 at 10h with the title '" + title + "' and the description 'Daily sync.'."
	quoted := strings.ReplaceAll(task, "'", "''") // inside a YAML single-quoted string
	rules := `
  - name: plan
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"` + app + `","task":"` + quoted + `","produces":""}],"next":0,"progress":"","reason":""}'
  - name: the model thinks it is done once it sees the event saved
    role: replanner
    answer: '{{if and (has "Create new event") (has "` + title + `")}}{"result":"A","reflection":"","progress":"","plan":["Finished"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}{{else}}{"result":"A","reflection":"","progress":"","plan":["Add the event"],"subgoal":"Add the event","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}{{end}}'
  - name: open a new form, or type the title and the description and save
    role: decider
    answer: '{{if has "Add title"}}{"thought":"","actions":[{"type":"Input","index":{{index "Add title"}},"text":"` + title + `"},{"type":"Input","index":{{index "Description"}},"text":"Daily sync."},{"type":"Tap","index":{{index "Save"}}}],"expect":""}{{else}}{"thought":"","actions":[{"type":"Tap","index":{{index "Create new event"}}}],"expect":""}{{end}}'
`
	r := rig{rules: rules, maxSteps: 8}.run(t, task)
	if r.res.Outcome == event.OutcomeDone {
		t.Fatalf("outcome done with the event %q saved on another day", title)
	}
	if why := `and the task names 2023-10-20 at 10h`; !strings.Contains(string(r.trace), why) {
		t.Errorf("no finish check says %q; trace:\n%s", why, r.trace)
	}
}
