package androidworld

import (
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
)

// The task families of Settings.

type switchRow struct {
	key, page, row, label, onSub string
}

var switches = map[string]switchRow{
	"wifi":      {key: "wifi_on", page: "Network & internet", row: "Wi-Fi", label: "Wi-Fi"},
	"bluetooth": {key: "bluetooth_on", page: "Connected devices", row: "Bluetooth", label: "Bluetooth"},
}

// toggle is the _SystemWifiToggle / _SystemBluetoothToggle family: the switch starts in
// state from and must end in want, read with `settings get global KEY`.
func toggle(name, what, want, from string) builder {
	return builder{name: name, app: "Settings", draw: func(g *gen) (*instance, error) {
		sw := switches[what]
		v := map[string]string{"on": "1", "off": "0"}
		wantVals := []string{v[want]}
		if what == "wifi" && want == "on" {
			wantVals = []string{"1", "2"} // 2: on while in airplane mode
		}
		shown := map[string]string{"on": "On", "off": "Off"}
		return &instance{
			params: map[string]string{"on_or_off": want},
			setup:  []string{"settings put global " + sw.key + " " + v[from]},
			checks: []suite.CustomCheck{&settingCheck{Namespace: "global", Key: sw.key, Want: wantVals}},
			walk: []walkthrough.Task{walk(settingsPkg, `item "`+sw.row+`".*\n *- "`+shown[want]+`"`,
				walkthrough.Step{Screen: `item "` + q(sw.page) + `"`, Subgoal: "Open " + sw.page, Do: []string{`Tap "` + sw.page + `"`}},
				walkthrough.Step{Screen: `item "` + sw.row + `".*\n *- "` + shown[from] + `"`, When: `(?i)Turn ` + what + ` ` + want + `\.`,
					Subgoal: "Switch " + sw.label + " " + want, Do: []string{`Tap "` + sw.row + `"`}},
			)},
		}, nil
	}}
}

// wifiOffBluetoothOn is the composite TurnOffWifiAndTurnOnBluetooth: two settings, with
// partial credit.
func wifiOffBluetoothOn(g *gen) (*instance, error) {
	return &instance{
		params: map[string]string{},
		setup:  []string{"settings put global wifi_on 1", "settings put global bluetooth_on 0"},
		checks: []suite.CustomCheck{&allCheck{Parts: []suite.CustomCheck{
			&settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"0"}},
			&settingCheck{Namespace: "global", Key: "bluetooth_on", Want: []string{"1"}},
		}}},
		walk: []walkthrough.Task{walk(settingsPkg, `item "Bluetooth".*\n *- "On"`,
			walkthrough.Step{Screen: `item "Network & internet"\n *- "Wi-Fi is on"`, Subgoal: "Open Network & internet", Do: []string{`Tap "Network & internet"`}},
			walkthrough.Step{Screen: `item "Wi-Fi".*\n *- "On"`, Subgoal: "Switch Wi-Fi off", Do: []string{`Tap "Wi-Fi"`}},
			walkthrough.Step{Screen: `item "Wi-Fi".*\n *- "Off"`, Subgoal: "Go back to Settings for Bluetooth", Do: []string{`Back`}},
			walkthrough.Step{Screen: `item "Network & internet"\n *- "Wi-Fi is off"`, Subgoal: "Open Connected devices", Do: []string{`Tap "Connected devices"`}},
			walkthrough.Step{Screen: `item "Bluetooth".*\n *- "Off"`, Subgoal: "Switch Bluetooth on", Do: []string{`Tap "Bluetooth"`}},
		)},
	}, nil
}
