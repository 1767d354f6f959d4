package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// corpusDir holds real device captures (see ../testdata/android-corpus/SOURCES.md).
const corpusDir = "../testdata/android-corpus"

func readCorpus(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, rel))
	if err != nil {
		testenv.Missing(t, "corpus missing: %v", err)
	}
	return string(b)
}

// TestOutputFormatsMatchCorpus holds each output of the phone to the format of a real
// capture: the same regular expression must match the capture's line(s) and the phone's.
func TestOutputFormatsMatchCorpus(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.settings")
	tests := []struct {
		name, corpus, grep string // grep: keep only corpus lines containing it
		cmd                string
		re                 string
	}{
		{"wm size", "shell/wm-size.txt", "", "wm size", `^Physical size: \d+x\d+\n$`},
		{"wm size override", "shell/wm-size-with-override.txt", "", "wm size 480x1024; wm size", `^Physical size: \d+x\d+\nOverride size: \d+x\d+\n$`},
		{"wm density", "shell/wm-density.txt", "", "wm size reset; wm density", `^Physical density: \d+\n$`},
		{"wm density override", "shell/wm-density-with-override.txt", "", "wm density 160; wm density", `^Physical density: \d+\nOverride density: \d+\n$`},
		{"getprop", "shell/getprop-ro.build.version.release.txt", "", "getprop ro.build.version.release", `^[\d.]+\n$`},
		{"uiautomator dump", "shell/uiautomator-dump-stdout-windows-cmd.txt", "UI hierchary", "uiautomator dump", `^UI hierchary dumped to: /sdcard/window_dump\.xml\r?\n$`},
		{"pm list packages", "shell/pm-list-packages-head-awesome-adb.txt", "", "pm list packages", `^(package:[A-Za-z0-9_.]+\n)+$`},
		{"pm list packages -f", "shell/pm-list-packages-f-genymotion-truncated.txt", "", "pm list packages -f", `^(package:/\S+\.apk=[A-Za-z0-9_.]+\n)+$`},
		{"pm path", "shell/pm-path-old-style.txt", "", "pm path com.fairy.maps", `^package:/[^\s]+\.apk\n$`},
		{"mCurrentFocus", "shell/dumpsys-window-windows-grep-focus-android8.txt", "mCurrentFocus", "dumpsys window | grep mCurrentFocus", `^\s*mCurrentFocus=Window\{[0-9a-f]+ u0 [\w.]+/[\w.$]+\}\n$`},
		{"mFocusedApp", "shell/dumpsys-activity-activities-grep-mCurrentFocus.derived.txt", "mFocusedApp", "dumpsys window | grep mFocusedApp", `^\s*mFocusedApp=ActivityRecord\{[0-9a-f]+ u0 [\w.]+/[\w.$]+\} t\d+\}\n$`},
		{"ResumedActivity", "shell/dumpsys-activity-activities-grep-ResumedActivity-android12plus.derived.txt", "", "dumpsys activity activities | grep ' ResumedActivity'", `^\s*ResumedActivity: ActivityRecord\{[0-9a-f]+ u0 [\w.]+/[\w.$]+\} t\d+\}\n$`},
		{"activities header", "shell/dumpsys-activity-activities-mediatek-480x800.txt", "ACTIVITY MANAGER", "dumpsys activity activities | head -n 1", `^ACTIVITY MANAGER ACTIVITIES \(dumpsys activity activities\)\n$`},
		{"activities task", "shell/dumpsys-activity-activities-mediatek-480x800.txt", "* Task{", "dumpsys activity activities | grep -F '* Task{' | head -n 1", `^  \* Task\{[0-9a-f]+ #\d+ type=\w+ A=\d+:[\w.]+ U=0 visible=(true|false) visibleRequested=(true|false) mode=fullscreen translucent=false sz=\d+\}\n$`},
		{"activities hist", "shell/dumpsys-activity-activities-mediatek-480x800.txt", "* Hist", "dumpsys activity activities | grep Hist | head -n 1", `^    \* Hist  #\d+: ActivityRecord\{[0-9a-f]+ u0 [\w.]+/[\w.$]+\} t\d+\}\n$`},
		{"windows header", "shell/dumpsys-window-windows-head-androidtv-kodi.txt", "WINDOW MANAGER", "dumpsys window | head -n 1", `^WINDOW MANAGER WINDOWS \(dumpsys window windows\)\n$`},
		{"window entry", "shell/dumpsys-window-windows-head-androidtv-kodi.txt", "  Window #0", "dumpsys window | grep -F '  Window #' | head -n 1", `^  Window #\d+ Window\{[0-9a-f]+ u0 [\w.$/ ]+\}:\n$`},
		{"activity bad command", "shell/dumpsys-activity-pkg-not-running-error.txt", "", "dumpsys activity com.funnyenglish.app", `^Unknown command: [\w.]+\nBad activity command, or no activities match: [\w.]+\nUse -h for help\.\n$`},
		{"package unknown", "shell/dumpsys-package-unable-to-find-error.txt", "", "dumpsys package com.funnyenglish.app", `^Unable to find package: [\w.]+\n$`},
		{"package MAIN", "shell/dumpsys-package-grep-A1-MAIN.derived.txt", "", "dumpsys package com.fairy.maps | grep -A 3 android.intent.action.MAIN:", `^      android\.intent\.action\.MAIN:\n        [0-9a-f]+ [\w.]+/[\w.]+ filter [0-9a-f]+\n          Action: "android\.intent\.action\.MAIN"\n          Category: "android\.intent\.category\.LAUNCHER"\n$`},
		{"resolve-activity", "shell/cmd-package-resolve-activity-launcher-android11-truncated.txt", "", "cmd package resolve-activity -c android.intent.category.LAUNCHER com.fairy.maps | head -n 12",
			`^priority=0 preferredOrder=0 match=0x[0-9a-f]+ specificIndex=-1 isDefault=(true|false)\nActivityInfo:\n  name=[\w.]+\n  packageName=[\w.]+\n  labelRes=0x[0-9a-f]+ nonLocalizedLabel=null icon=0x[0-9a-f]+ banner=0x0\n  enabled=true exported=true directBootAware=false\n  taskAffinity=[\w.]+ targetActivity=null persistableMode=PERSIST_ROOT_ONLY\n  launchMode=\d flags=0x[0-9a-f]+ privateFlags=0x0 theme=0x[0-9a-f]+\n  screenOrientation=-?\d configChanges=0x[0-9a-f]+ softInputMode=0x[0-9a-f]+\n  lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT\n  resizeMode=RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION\n  ApplicationInfo:\n$`},
		{"input usage", "shell/input-usage-awesome-adb.txt", "Usage:", "input", `^Usage: input \[<source>\].*<command> \[<arg>\.\.\.\]\n$`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			re := regexp.MustCompile(tc.re)
			real := strings.ReplaceAll(readCorpus(t, tc.corpus), "\r\n", "\n")
			if strings.HasPrefix(real, "$ ") || strings.HasPrefix(real, "C:\\") || strings.HasPrefix(real, "❯") || strings.HasPrefix(real, "adb ") {
				real = real[strings.IndexByte(real, '\n')+1:]
			}
			if tc.grep != "" {
				var keep []string
				lines := strings.SplitAfter(real, "\n")
				for i, l := range lines {
					if strings.Contains(l, tc.grep) {
						keep = append(keep, l)
						if tc.name == "activity bad command" {
							keep = lines[i:]
							break
						}
					}
				}
				real = strings.Join(keep[:1], "")
			}
			if tc.name == "resolve-activity" {
				real = strings.Join(strings.SplitAfter(real, "\n")[:12], "")
			}
			if tc.name == "package MAIN" || tc.name == "pm list packages -f" || tc.name == "pm list packages" {
				// captures may be cut mid-line; keep whole lines
				if i := strings.LastIndexByte(real, '\n'); i >= 0 {
					real = real[:i+1]
				}
			}
			if !strings.HasSuffix(real, "\n") {
				real += "\n"
			}
			if !re.MatchString(real) {
				t.Fatalf("the format does not match the real capture %s:\n%q", tc.corpus, real)
			}
			out, _ := sh(t, p, tc.cmd)
			if tc.name == "input usage" {
				out = out[:strings.IndexByte(out, '\n')+1]
			}
			if !re.MatchString(out) {
				t.Fatalf("phone output does not match the format of %s:\n%q", tc.corpus, out)
			}
		})
	}
	t.Run("idle error", func(t *testing.T) {
		real := readCorpus(t, "shell/uiautomator-dump-error-idle-state.txt")
		ph := newPhone(t, func(c *Config) { c.Faults = Faults{Idle: 1} })
		out, st := sh(t, ph, "uiautomator dump /dev/tty")
		if out != real || st != 0 {
			t.Fatalf("idle error %q (status %d), real %q", out, st, real)
		}
	})
}

var nodeTagRe = regexp.MustCompile(`<node [^>]*?/?>`)
var attrNameRe = regexp.MustCompile(`([\w-]+)="`)

// TestDumpMatchesCorpusStructure compares the dump with a real stock dump of a recent phone
// (a Pixel 8 Pro/9 Pro-class home screen, Android 14+): header, root, attribute names and
// order (the classic set, then drawing-order and hint), leaf syntax, no trailing newline.
func TestDumpMatchesCorpusStructure(t *testing.T) {
	real := readCorpus(t, "dumps/pixel-launcher-home-widgets-1344x2992.xml")
	p := newPhone(t)
	launch(t, p, "com.android.settings")
	ours := string(p.Dump())
	for _, doc := range []string{real, ours} {
		if !strings.HasPrefix(doc, `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" `) {
			t.Fatalf("header: %.120q", doc)
		}
		if !strings.HasSuffix(doc, "</node></hierarchy>") {
			t.Fatalf("trailer: %q", doc[len(doc)-40:])
		}
	}
	attrs := func(tag string) string {
		var names []string
		for _, m := range attrNameRe.FindAllStringSubmatch(tag, -1) {
			names = append(names, m[1])
		}
		return strings.Join(names, " ")
	}
	want := attrs(nodeTagRe.FindString(real))
	if want != "index text resource-id class package content-desc checkable checked clickable enabled focusable focused scrollable long-clickable password selected bounds drawing-order hint" {
		t.Fatalf("corpus attribute order changed: %s", want)
	}
	for _, tag := range nodeTagRe.FindAllString(ours, -1) {
		if got := attrs(tag); got != want {
			t.Fatalf("attribute order\n got %s\nwant %s", got, want)
		}
	}
	if !strings.Contains(real, `" />`) || !strings.Contains(ours, `" />`) {
		t.Fatal("leaf syntax differs")
	}
	// index counts children from 0 within each parent
	nodes := parseDump(t, []byte(ours))
	if nodes[0].Index != "0" {
		t.Fatal("first index")
	}
}

func TestDumpEscaping(t *testing.T) {
	app, err := ParseApp([]byte(`
package: com.example.esc
label: Esc
screens:
  - id: main
    elements:
      - {type: text, id: t, text: "a & b < c > d \"q\" 'apos' line1\nline2 😘 é 中文 \u0007bell"}
`))
	if err != nil {
		t.Fatal(err)
	}
	launcher, _ := DefaultApps()
	p := newPhone(t, func(c *Config) { c.Apps = append(launcher[:1], app) })
	launch(t, p, "com.example.esc")
	out := string(p.Dump())
	want := `text="a &amp; b &lt; c &gt; d &quot;q&quot; 'apos' line1&#10;line2 &#128536; é 中文 .bell"`
	if !strings.Contains(out, want) {
		t.Fatalf("escaping: want %s in\n%s", want, out)
	}
	// the corpus shows the same conventions
	real := readCorpus(t, "dumps/google-messages-emoji-charrefs.xml")
	if !strings.Contains(real, "&#128536;") || !strings.Contains(real, "&#10;") {
		t.Fatal("corpus conventions changed")
	}
}
