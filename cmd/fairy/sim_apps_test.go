package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// exampleApps is the worked example of docs/apps.md.
var exampleApps = filepath.Join("..", "..", "examples", "apps")

// TestSimServeExtraApps: `fairy sim serve --apps examples/apps` installs the Wallet example
// next to the built-in apps, and fairy drives it through the real adb server connected to
// the phone's adbd face: `fairy screen` shows its screens, `fairy act` taps, types and
// slides to send — after asking the person, who may say no — and the phone records the
// transfer.
func TestSimServeExtraApps(t *testing.T) {
	out := startSimServe(t, "--apps", exampleApps)
	if !strings.Contains(out.String(), "apps from "+exampleApps+": Wallet (com.example.wallet)") {
		t.Errorf("sim serve does not say which apps it added:\n%s", out)
	}
	m := regexp.MustCompile(`adb connect (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no device face address in output:\n%s", out)
	}
	srv := adbtest.Start(t)
	serial := srv.Connect(t, m[1])
	// answering runs fairy with answer on its standard input (the person at the terminal).
	answering := func(answer string, args ...string) (stdout, stderr string, err error) {
		t.Helper()
		var o, e bytes.Buffer
		root := newRootCmd(strings.NewReader(answer), &o, &e, envMap(nil))
		root.SetArgs(append([]string{"--adb-port", strconv.Itoa(srv.Port), "--serial", serial}, args...))
		err = root.ExecuteContext(t.Context())
		return o.String(), e.String(), err
	}
	fairy := func(args ...string) string {
		t.Helper()
		out, errOut, err := answering("", args...)
		if err != nil {
			t.Fatalf("fairy %v: %v\n%s", args, err, errOut)
		}
		return out
	}
	type element struct {
		Label  string `json:"label"`
		Role   string `json:"role"`
		Center [2]int `json:"center"`
		Bounds [4]int `json:"bounds"`
	}
	screen := func() map[string]element {
		t.Helper()
		var s struct{ Elements []element }
		if err := json.Unmarshal([]byte(fairy("screen", "--format", "json")), &s); err != nil {
			t.Fatal(err)
		}
		els := map[string]element{}
		for _, e := range s.Elements {
			els[e.Label] = e
		}
		return els
	}
	tap := func(label string) {
		t.Helper()
		e, ok := screen()[label]
		if !ok {
			t.Fatalf("%q is not on the screen:\n%s", label, fairy("screen"))
		}
		fairy("act", "tap", strconv.Itoa(e.Center[0]), strconv.Itoa(e.Center[1]))
	}

	if apps := fairy("apps"); !strings.Contains(apps, "com.example.wallet") || !strings.Contains(apps, "com.android.settings") {
		t.Fatalf("fairy apps does not list Wallet next to the built-in apps:\n%s", apps)
	}
	fairy("act", "launch", "com.example.wallet")
	if text := fairy("screen"); !strings.Contains(text, `"Balance ¥120.00"`) || !strings.Contains(text, `item "Bob Li"`) {
		t.Fatalf("Wallet's first screen:\n%s", text)
	}
	tap("Bob Li")
	tap("Amount (¥)")
	fairy("act", "text", "20")
	fairy("act", "key", "back")
	slider, ok := screen()["Slide to send ¥20"]
	if !ok || slider.Role != "slider" {
		t.Fatalf("no slider %+v on\n%s", slider, fairy("screen"))
	}
	b := slider.Bounds
	w, y := b[2]-b[0], strconv.Itoa(slider.Center[1])
	// Half way: the thumb snaps back, nothing is sent. The guard cannot know the swipe
	// stops short: it asks, and the person allows it.
	if _, errOut, err := answering("yes\n", "act", "swipe", strconv.Itoa(b[0]+w/20), y, strconv.Itoa(b[0]+w/2), y); err != nil {
		t.Fatalf("a half slide the person allowed: %v\n%s", err, errOut)
	}
	type wallet struct {
		Vars    map[string]string              `json:"vars"`
		Records map[string][]map[string]string `json:"records"`
	}
	state := func() wallet {
		t.Helper()
		var app wallet
		if err := json.Unmarshal(srv.Run(t, "-s", serial, "shell", "fairy-sim", "state", "com.example.wallet"), &app); err != nil {
			t.Fatalf("fairy-sim state: %v", err)
		}
		return app
	}
	if app := state(); len(app.Records["transfers"]) != 0 {
		t.Fatalf("a half swipe sent money: %+v", app)
	}
	// The full slide sends money: `fairy act` asks the person first, like every other way
	// to act, and a no (or no answer at all) sends nothing.
	full := []string{"act", "swipe", strconv.Itoa(b[0] + w/20), y, strconv.Itoa(b[2] - 2), y}
	for _, answer := range []string{"no\n", ""} {
		_, errOut, err := answering(answer, full...)
		if err == nil || !strings.Contains(err.Error(), "nothing was done") || !strings.Contains(errOut, "Slide to send ¥20") {
			t.Errorf("a full slide answered %q: err %v, want a refusal; the question:\n%s", answer, err, errOut)
		}
		if app := state(); len(app.Records["transfers"]) != 0 {
			t.Fatalf("a slide the person refused (%q) sent money: %+v", answer, app)
		}
	}
	if _, errOut, err := answering("yes\n", full...); err != nil {
		t.Fatalf("a full slide the person allowed: %v\n%s", err, errOut)
	}
	if text := fairy("screen"); !strings.Contains(text, `"¥20.00 sent to Bob Li"`) {
		t.Errorf("after the slide:\n%s", text)
	}
	app := state()
	if tr := app.Records["transfers"]; len(tr) != 1 || tr[0]["to"] != "Bob Li" || tr[0]["amount"] != "20.00" || app.Vars["balance"] != "100" {
		t.Errorf("wallet state after the slide: %+v", app)
	}
}

// TestSimServeBadApps: a bad app file stops `fairy sim serve --apps` with a usage error
// that names the file, the line and what is wrong; so does a built-in package.
func TestSimServeBadApps(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	clash := filepath.Join(dir, "clash")
	for d, body := range map[string]string{
		bad:   "package: com.example.bad\nscreens:\n  - id: home\n    elements:\n      - {type: buton, text: Pay}\n",
		clash: "package: com.android.settings\nscreens: [{id: home}]\n",
	} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "app.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ dir, want string }{
		{bad, filepath.Join(bad, "app.yaml") + `:5: com.example.bad/home: element "" has unknown type "buton"`},
		{clash, filepath.Join(clash, "app.yaml") + `:1: package com.android.settings is a built-in app (sim/apps/10-settings.yaml)`},
		{filepath.Join(dir, "missing"), "no directory " + filepath.Join(dir, "missing") + ": give the directory"},
	} {
		root := newRootCmd(bytes.NewReader(nil), io.Discard, io.Discard, envMap(nil))
		root.SetArgs([]string{"sim", "serve", "--host", "127.0.0.1:0", "--adbd", "", "--apps", tc.dir})
		err := root.Execute()
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--apps %s: err = %v, want exit 2 with %q", tc.dir, err, tc.want)
		}
	}
}

// TestEvalSuiteWithApps: a suite's apps: installs the Wallet example on the virtual phones;
// the agent (scripted model) sends the money by sliding, and the records check holds.
func TestEvalSuiteWithApps(t *testing.T) {
	suite := filepath.Join("..", "..", "examples", "wallet-suite.yaml")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", suite, "--sim", "1", "--out", out, "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	rep, err := eval.ReadReport(filepath.Join(out, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != 1 || rep.Totals.Tasks != 1 {
		t.Errorf("totals %+v\n%s", rep.Totals, stdout.String())
	}
	root = newRootCmd(strings.NewReader(""), io.Discard, io.Discard, envMap(nil))
	root.SetArgs([]string{"eval", suite, "--devices", "emulator-5554", "--out", t.TempDir(), "--runs", t.TempDir()})
	err = root.ExecuteContext(t.Context())
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "install on virtual phones") {
		t.Errorf("apps: on real devices: %v", err)
	}
}
