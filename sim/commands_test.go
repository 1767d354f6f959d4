package sim

import (
	"strings"
	"testing"
)

func TestCommandsBasics(t *testing.T) {
	p := newPhone(t)
	tests := []struct {
		line     string
		contains []string
		status   int
	}{
		{"wm size", []string{"Physical size: 1080x2400\n"}, 0},
		{"wm density", []string{"Physical density: 420\n"}, 0},
		{"getprop ro.product.model", []string{"sdk_gphone64_x86_64\n"}, 0},
		{"getprop no.such.prop", []string{"\n"}, 0},
		{"settings get global wifi_on", []string{"1\n"}, 0},
		{"settings get global no_such", []string{"null\n"}, 0},
		{"pm list packages -3", []string{"package:com.fairy.shop\n", "package:com.fairy.maps\n", "package:com.android.adbkeyboard\n"}, 0},
		{"pm path com.fairy.maps", []string{"package:/data/app/"}, 0},
		{"cmd package resolve-activity --brief com.android.settings", []string{"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.android.settings/.Settings\n"}, 0},
		{"cmd package query-activities --components -a android.intent.action.MAIN -c android.intent.category.LAUNCHER", []string{"com.android.settings/.Settings\n", "com.fairy.shop/.MainActivity\n"}, 0},
		{"cmd package query-activities -a android.intent.action.VIEW", []string{"No activities found\n"}, 0},
		{"ime list -s", []string{imeGboard + "\n"}, 0},
		{"ime list -a -s", []string{imeADB + "\n"}, 0},
		{"dumpsys window | grep mCurrentFocus", []string{"  mCurrentFocus=Window{"}, 0},
		{"am force-stop com.fairy.maps", nil, 0},
		{"input foo", []string{"Error: Unknown command: foo"}, 1},
		{"input tap x y", []string{"Error: Invalid arguments for command: tap"}, 1},
		{"input keyevent KEYCODE_NOPE", []string{"Error: Unknown keycode: KEYCODE_NOPE"}, 1},
		{"am start -n com.nope/.Main", []string{"Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n"}, 1},
		{"monkey -p com.nope -c android.intent.category.LAUNCHER 1", []string{"** No activities found to run, monkey aborted.\n"}, 252},
	}
	for _, tc := range tests {
		out, st := sh(t, p, tc.line)
		if st != tc.status {
			t.Errorf("%s: status %d, want %d (%q)", tc.line, st, tc.status, out)
		}
		for _, c := range tc.contains {
			if !strings.Contains(out, c) {
				t.Errorf("%s: output %q lacks %q", tc.line, out, c)
			}
		}
	}
	if out, _ := sh(t, p, "pm list packages -3"); strings.Contains(out, "com.android.settings") {
		t.Errorf("pm list packages -3 lists a system app: %q", out)
	}
}
