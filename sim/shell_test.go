package sim

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestShellInterpreter(t *testing.T) {
	tests := []struct {
		name, line, want string
		status           int
	}{
		{"echo", "echo hello world", "hello world\n", 0},
		{"echo -n", "echo -n hi", "hi", 0},
		{"single quotes", `echo 'a  b' "c"`, "a  b c\n", 0},
		{"escaped quote", `echo 'it'\''s'`, "it's\n", 0},
		{"double quotes keep $?", `false; echo "__FAIRY_EXIT:$?"`, "__FAIRY_EXIT:1\n", 0},
		{"status after success", `true; echo "x$?"`, "x0\n", 0},
		{"and", "true && echo yes", "yes\n", 0},
		{"and short-circuits", "false && echo yes", "", 1},
		{"or", "false || echo no", "no\n", 0},
		{"semicolons", "echo a; echo b;", "a\nb\n", 0},
		{"backslash", `echo a\ b\$c`, "a b$c\n", 0},
		{"dollar in single quotes", `echo '$?'`, "$?\n", 0},
		{"braces", `echo ${HOME}x`, "/x\n", 0},
		{"unknown command", "frobnicate --x", "/system/bin/sh: frobnicate: not found\n", 127},
		{"unknown then status", "frobnicate; echo $?", "/system/bin/sh: frobnicate: not found\n127\n", 0},
		{"unterminated quote", `echo 'oops`, "/system/bin/sh: no closing quote\n", 1},
		{"redirect and cat", "echo saved > /sdcard/a.txt; cat /sdcard/a.txt", "saved\n", 0},
		{"append", "echo 1 > /sdcard/b; echo 2 >> /sdcard/b; cat /sdcard/b", "1\n2\n", 0},
		{"stderr to null", "cat /nope 2>/dev/null; echo $?", "1\n", 0},
		{"pipe grep", "echo -n 'a\nb'; printf x | cat", "", -1},
		{"pipe", "getprop | grep ro.product.model", "[ro.product.model]: [sdk_gphone64_x86_64]\n", 0},
		{"sh -c", `sh -c 'echo inner; exit 3'; echo $?`, "inner\n3\n", 0},
		{"cat missing", "cat /sdcard/missing.xml", "cat: /sdcard/missing.xml: No such file or directory\n", 1},
		{"rm missing", "rm /sdcard/missing.xml", "rm: /sdcard/missing.xml: No such file or directory\n", 1},
		{"rm -f missing", "rm -f /sdcard/missing.xml", "", 0},
		{"ls", "mkdir -p /sdcard/x/y; touch /sdcard/x/f; ls /sdcard/x", "f\ny\n", 0},
		{"comment", "echo a # b", "a\n", 0},
		{"variable", "A=5; echo $A", "5\n", 0},
		{"syntax", "&& echo x", "/system/bin/sh: syntax error: '&&' unexpected\n", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPhone(t)
			out, st := sh(t, p, tc.line)
			if tc.status < 0 {
				return // only must not fail
			}
			if out != tc.want || st != tc.status {
				t.Errorf("%s\n got %q (status %d)\nwant %q (status %d)", tc.line, out, st, tc.want, tc.status)
			}
		})
	}
}

func TestInputTextRules(t *testing.T) {
	tests := []struct{ in, want string }{
		{"hello", "hello"},
		{"hello%sworld", "hello world"},
		{"100%", "100%"},
		{"%%s", "% "},
		{"a%sb%sc", "a b c"},
	}
	for _, tc := range tests {
		if got := androidText(tc.in); got != tc.want {
			t.Errorf("androidText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

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

// TestQueryActivitiesLauncher: the launchable apps as Android prints them, one ActivityInfo
// block each with the app's label as nonLocalizedLabel; never the launcher itself.
func TestQueryActivitiesLauncher(t *testing.T) {
	p := newPhone(t)
	out, st := sh(t, p, "cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER")
	if st != 0 {
		t.Fatalf("status %d: %s", st, out)
	}
	head := regexp.MustCompile(`^(\d+) activities found:\n  Activity #0:\n    priority=0 `).FindStringSubmatch(out)
	if head == nil {
		t.Fatalf("output starts %q", out[:min(len(out), 120)])
	}
	block := regexp.MustCompile(`(?m)^  Activity #\d+:\n    priority=.*\n    ActivityInfo:\n      name=(\S+)\n      packageName=(\S+)\n      labelRes=0x0 nonLocalizedLabel=(.+) icon=0x`)
	got := map[string]string{}
	for _, m := range block.FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], m[2]+".") {
			t.Errorf("activity %s of package %s", m[1], m[2])
		}
		got[m[2]] = m[3]
	}
	if n, _ := strconv.Atoi(head[1]); n != len(got) || n < 7 {
		t.Errorf("%s activities announced, %d blocks read: %v", head[1], len(got), got)
	}
	for pkg, label := range map[string]string{"com.android.settings": "Settings", "com.fairy.shop": "FoodShop 外卖", "com.fairy.maps": "Maps"} {
		if got[pkg] != label {
			t.Errorf("%s: label %q, want %q", pkg, got[pkg], label)
		}
	}
	if _, ok := got["com.android.launcher3"]; ok {
		t.Error("the launcher is listed")
	}
}

func TestSettingsPutGet(t *testing.T) {
	p := newPhone(t)
	sh(t, p, "settings put global bluetooth_on 1")
	if out, _ := sh(t, p, "settings get global bluetooth_on"); out != "1\n" {
		t.Fatalf("got %q", out)
	}
	if p.Setting("global/bluetooth_on") != "1" || p.Setting("bluetooth_on") != "1" {
		t.Fatal("Setting does not see the put")
	}
}

func TestAmStartAndForeground(t *testing.T) {
	p := newPhone(t)
	out, st := sh(t, p, "am start -n com.android.settings/.Settings")
	if st != 0 || out != "Starting: Intent { cmp=com.android.settings/.Settings }\n" {
		t.Fatalf("am start: %d %q", st, out)
	}
	if pkg, act := p.Foreground(); pkg != "com.android.settings" || act != ".Settings" {
		t.Fatalf("foreground %s %s", pkg, act)
	}
	out, _ = sh(t, p, "am start -n com.android.settings/.Settings")
	if !strings.Contains(out, "Warning: Activity not started, its current task has been brought to the front") {
		t.Fatalf("second am start: %q", out)
	}
	out, _ = sh(t, p, "dumpsys activity activities | grep mResumedActivity")
	if !strings.Contains(out, "u0 com.android.settings/.Settings} t") {
		t.Fatalf("mResumedActivity: %q", out)
	}
	sh(t, p, "am force-stop com.android.settings")
	if pkg, _ := p.Foreground(); pkg != "com.android.launcher3" {
		t.Fatalf("after force-stop foreground is %s", pkg)
	}
	// an inner activity
	sh(t, p, "am start -n com.android.settings/.Settings\\$DisplaySettingsActivity")
	if p.ScreenID() != "display" {
		t.Fatalf("screen %s", p.ScreenID())
	}
}
