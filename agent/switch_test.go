package agent

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
)

// switchRules plan "Turn bluetooth on." in Settings, open Connected devices, and answer
// "Switch Bluetooth on" with a tap on the Bluetooth row whatever it shows — as a decider
// that does not read the switch would — then finish once the Re-Planner is asked again on
// that page.
const switchRules = `
  - name: plan settings
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"com.android.settings","task":"Turn bluetooth on.","produces":""}],"next":0,"progress":"","reason":""}'
  - name: done after a refused tap
    role: replanner
    match: ['Bluetooth is already on']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Finished"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: on the connected devices page
    role: replanner
    match: ['\[\d+\] \S+ "Bluetooth"']
    answer: '{"result":"A","reflection":"","progress":"","plan":["Switch Bluetooth on"],"subgoal":"Switch Bluetooth on","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: open connected devices
    role: replanner
    answer: '{"result":"","reflection":"","progress":"","plan":["Open Connected devices","Switch Bluetooth on"],"subgoal":"Open Connected devices","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: tap connected devices
    role: decider
    match: ['Current sub-goal: Open Connected devices']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Connected devices"}}}],"expect":""}'
  - name: tap the switch unread
    role: decider
    match: ['Current sub-goal: Switch Bluetooth on']
    answer: '{"thought":"","actions":[{"type":"Tap","index":{{index "Bluetooth"}}}],"expect":""}'
`

// TestSwitchAlreadyInTheWantedState: a tap on a switch the sub-goal wants on, already on,
// is not made whatever the decider answered (it would turn Bluetooth off); the Re-Planner
// hears it is already on, and the run finishes with Bluetooth still on. Off at the start,
// the same tap is made and turns it on (the decider's second tap is then refused).
func TestSwitchAlreadyInTheWantedState(t *testing.T) {
	for _, start := range []string{"1", "0"} {
		t.Run("bluetooth_on="+start, func(t *testing.T) {
			g := rig{rules: switchRules, setup: func(t *testing.T, ctx context.Context, r *rigRun) {
				if _, err := r.phone.Shell(ctx, "settings put global bluetooth_on "+start, io.Discard); err != nil {
					t.Fatal(err)
				}
			}}
			r := g.run(t, "Turn bluetooth on.")
			if got := r.phone.Setting("global/bluetooth_on"); got != "1" {
				t.Errorf("bluetooth_on = %q after the run, want 1 (outcome %s: %s)", got, r.res.Outcome, r.res.Reason)
			}
			if r.res.Outcome != event.OutcomeDone {
				t.Errorf("outcome %s (%s), want done", r.res.Outcome, r.res.Reason)
			}
			tapped := strings.Contains(string(r.trace), `"kind":"ActionExecuted","event":{"step":2,`)
			skipped := strings.Contains(string(r.trace), "Bluetooth is already on")
			if start == "1" && (tapped || !skipped) {
				t.Errorf("Bluetooth already on: tapped %v, refused %v; want the tap refused", tapped, skipped)
			}
			if start == "0" && !tapped {
				t.Errorf("Bluetooth off: the tap that turns it on was not made")
			}
		})
	}
}
