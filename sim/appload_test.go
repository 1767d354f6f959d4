package sim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// walletPhone is a phone with the built-in apps and the worked example of docs/apps.md.
func walletPhone(t *testing.T) *Phone {
	t.Helper()
	extra, err := LoadAppDir(filepath.Join("..", "examples", "apps"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	apps, err := MergeApps(base, extra)
	if err != nil {
		t.Fatal(err)
	}
	return newPhone(t, func(c *Config) { c.Apps = apps })
}

// TestSliderSwipedToItsEnd: a "slide to send" slider runs its on_end only when a swipe
// drags it from its start to its end; a tap, a short swipe or a swipe that starts in the
// middle of the track changes nothing.
func TestSliderSwipedToItsEnd(t *testing.T) {
	p := walletPhone(t)
	launch(t, p, "com.example.wallet")
	tap(t, p, "Bob Li")
	typeInto(t, p, "Amount (¥)", "20")
	sh(t, p, "input keyevent KEYCODE_BACK") // hide the keyboard
	n, ok := find(t, p, "Slide to send ¥20")
	if !ok {
		t.Fatalf("no slider; screen has %s", labels(t, p))
	}
	if n.Class != "android.widget.SeekBar" {
		t.Errorf("slider class %q", n.Class)
	}
	y := (n.Y1 + n.Y2) / 2
	w := n.X2 - n.X1
	for _, c := range []struct{ name, cmd string }{
		{"a tap", fmt.Sprintf("input tap %d %d", n.X1+w/10, y)},
		{"a short swipe", fmt.Sprintf("input swipe %d %d %d %d 300", n.X1+w/10, y, n.X1+w*6/10, y)},
		{"a swipe from the middle", fmt.Sprintf("input swipe %d %d %d %d 300", n.X1+w/2, y, n.X2-5, y)},
		{"a swipe backwards", fmt.Sprintf("input swipe %d %d %d %d 300", n.X2-5, y, n.X1+5, y)},
	} {
		sh(t, p, c.cmd)
		if recs, _ := p.Records("com.example.wallet:transfers"); len(recs) != 0 || p.ScreenID() != "send" {
			t.Fatalf("%s sent: %v, screen %s", c.name, recs, p.ScreenID())
		}
	}
	// What `fairy act`'s and the agent's Swipe right does: 10 % to 90 % of the width.
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", n.X1+w/10, y, n.X1+w*9/10, y))
	recs, err := p.Records("com.example.wallet:transfers")
	if err != nil || len(recs) != 1 || recs[0]["to"] != "Bob Li" || recs[0]["amount"] != "20.00" {
		t.Fatalf("transfers after the slide: %v, %v", recs, err)
	}
	if got := p.Var("com.example.wallet", "balance"); got != "100" {
		t.Errorf("balance %q, want 100", got)
	}
	if !has(t, p, "¥20.00 sent to Bob Li") {
		t.Errorf("no confirmation; screen has %s", labels(t, p))
	}
}

// TestSliderDisabled: a slider whose enabled template is false does not act.
func TestSliderDisabled(t *testing.T) {
	p := walletPhone(t)
	launch(t, p, "com.example.wallet")
	tap(t, p, "Alice Chen")
	typeInto(t, p, "Amount (¥)", "500") // more than the balance
	sh(t, p, "input keyevent KEYCODE_BACK")
	n, ok := find(t, p, "Slide to send ¥500")
	if !ok || !strings.Contains(string(p.Dump()), `text="Slide to send ¥500" resource-id="com.example.wallet:id/slide_to_send" class="android.widget.SeekBar" package="com.example.wallet" content-desc="" checkable="false" checked="false" clickable="true" enabled="false"`) {
		t.Fatalf("slider %+v (found %v), want it disabled in\n%s", n, ok, p.Dump())
	}
	w, y := n.X2-n.X1, (n.Y1+n.Y2)/2
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", n.X1+w/10, y, n.X1+w*9/10, y))
	if recs, _ := p.Records("com.example.wallet:transfers"); len(recs) != 0 {
		t.Fatalf("a disabled slider sent: %v", recs)
	}
}

// TestAppFileErrors: a bad app file is an error that names the file, the line and what is
// wrong.
func TestAppFileErrors(t *testing.T) {
	const head = "package: com.example.x\nscreens:\n  - id: home\n    elements:\n"
	tests := []struct {
		name, yaml string
		want       string // file:line: and a part of the message
	}{
		{"unknown type", head + "      - {type: text, text: hi}\n      - {type: buton, id: pay}\n", `x.yaml:6: com.example.x/home: element "pay" has unknown type "buton"`},
		{"unknown key", head + "      - {type: text, txt: hi}\n", `x.yaml:5: field txt not found in an element`},
		{"unknown screen", head + "      - type: button\n        text: Go\n        on_tap:\n          - {set: {a: b}}\n          - {go: nowhere}\n", `x.yaml:9: com.example.x: home/: unknown screen "nowhere"`},
		{"bad template", head + "      - {type: text, text: hi}\n      - {type: text, id: total, text: '{{moneyy .v.sum}}'}\n", `x.yaml:6: com.example.x: home/total text: template "{{moneyy .v.sum}}": function "moneyy" not defined`},
		{"unclosed template", head + "      - {type: text, id: t, visible: '{{.v.x'}\n", `x.yaml:5: com.example.x: home/t visible: template "{{.v.x": unclosed action`},
		{"bad action template", head + "      - {type: button, text: Go, on_tap: [{set: {a: '{{add 1}'}}]}\n", `x.yaml:5: com.example.x: home/button on_tap set a: template`},
		{"slider without on_end", head + "      - {type: slider, id: s, text: Slide}\n", `x.yaml:5: com.example.x/home: slider "s" needs on_end`},
		{"tab", head + "      - type: text\n\t  text: hi\n", `x.yaml:5: found a tab character that violates indentation`}, // yaml.v3 reports a line near a syntax error
		{"no package", "label: X\nscreens: [{id: a}]\n", `x.yaml:1: package "": give the Android package name`},
		{"wrong shape", "package: com.example.x\nscreens: {id: a}\n", `x.yaml:2: cannot unmarshal map into []*sim.ScreenSpec`},
		{"empty", "", `x.yaml: empty document`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadAppDir(dir)
			if !errors.Is(err, ErrAppSpec) {
				t.Fatalf("err = %v, want ErrAppSpec", err)
			}
			want := filepath.Join(dir, tc.want)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q\nwant it to contain %q", err, want)
			}
		})
	}
}

// TestMergeApps: an app with a built-in app's package is an error unless it says
// override: true; two files with one package are an error; new apps are installed.
func TestMergeApps(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for n, s := range files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	base, err := DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	const notes = "package: com.fairy.notes\nlabel: My Notes\nscreens: [{id: a, title: Mine}]\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"collision", map[string]string{"n.yaml": notes}, `n.yaml:1: package com.fairy.notes is a built-in app (sim/apps/50-notes.yaml): give your app another package, or add "override: true"`},
		{"twice", map[string]string{"a.yaml": "package: com.example.a\nscreens: [{id: a}]\n", "b.yaml": "package: com.example.a\nscreens: [{id: b}]\n"}, `b.yaml:1: package com.example.a is declared twice (also in `},
		{"override nothing", map[string]string{"a.yaml": "package: com.example.a\noverride: true\nscreens: [{id: a}]\n"}, `a.yaml:1: package com.example.a: override: true, but no built-in app`},
		{"second launcher", map[string]string{"a.yaml": "package: com.example.a\nhome: true\nscreens: [{id: a}]\n"}, `a.yaml:1: package com.example.a: home: true, but the phone has its launcher`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, tc.files)
			extra, err := LoadAppDir(dir)
			if err == nil {
				_, err = MergeApps(base, extra)
			}
			if err == nil || !errors.Is(err, ErrAppSpec) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant one containing %q", err, tc.want)
			}
		})
	}
	dir := write(t, map[string]string{"n.yaml": "override: true\n" + notes})
	extra, err := LoadAppDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := MergeApps(base, extra)
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != len(base) {
		t.Fatalf("%d apps after an override, want %d", len(apps), len(base))
	}
	p := newPhone(t, func(c *Config) { c.Apps = apps })
	launch(t, p, "com.fairy.notes")
	if !has(t, p, "Mine") {
		t.Errorf("the overriding Notes app is not the one that runs: %s", labels(t, p))
	}
	if _, err := LoadAppDir(filepath.Join(dir, "n.yaml")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file for --apps: %v", err)
	}
	if _, err := LoadAppDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no app files") {
		t.Errorf("an empty directory: %v", err)
	}
}

// TestAppDirMissing: a directory that is not there is said so in a sentence with what to
// give, still fs.ErrNotExist ("apps appz: stat appz: no such file or directory" was Go's).
func TestAppDirMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "appz")
	_, err := LoadAppDir(dir)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	if msg := err.Error(); strings.Contains(msg, "stat ") || !strings.Contains(msg, "no directory "+dir) || !strings.Contains(msg, "give the directory") {
		t.Errorf("err = %q, want a sentence naming the missing directory and what to give", msg)
	}
}
