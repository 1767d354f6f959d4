package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// evilLabel sets the terminal's window title and clears its screen, if printed raw. Any
// app on a real phone chooses its own label.
const evilLabel = "Esc\x1b]0;PWNED\a\x1b[2J\u009b2J\u202eyap"

// evilLabelShown is how it reads once escaped.
const evilLabelShown = `Esc\x1b]0;PWNED\x07\x1b[2J\u009b2J\u202eyap`

// noRawControls fails t when out holds a control character a terminal obeys. Output to a
// pipe carries no dressing of fairy's own (shared_term.go), so any ESC in it came from outside.
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexFunc(out, func(r rune) bool {
		return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
	}); i >= 0 {
		t.Errorf("%s: a raw control character %q reaches the terminal at byte %d:\n%q", what, out[i:i+1], i, out)
	}
}

// TestOutsideTextIsEscaped: an app label, a suite name and the names the knowledge file
// keeps reach the terminal escaped in `fairy sim serve`, `fairy apps`, `fairy screen`,
// `fairy map list` and `fairy eval`: no window title set, no screen cleared.
func TestOutsideTextIsEscaped(t *testing.T) {
	apps := t.TempDir()
	app := `package: com.evil.label
label: "Esc\e]0;PWNED\a\e[2J\u009b2J\u202Eyap"
activity: .Main
start: main
screens:
  - id: main
    title: "Title\e]0;PWNED\a"
    elements:
      - {type: text, id: t, text: "Text\e[2J\u202E"}
`
	if err := os.WriteFile(filepath.Join(apps, "evil.yaml"), []byte(app), 0o600); err != nil {
		t.Fatal(err)
	}
	serve := startSimServe(t, "--apps", apps)
	noRawControls(t, "fairy sim serve", serve.String())
	if !strings.Contains(serve.String(), evilLabelShown+" (com.evil.label)") {
		t.Errorf("sim serve does not show the label escaped:\n%s", serve)
	}

	m := regexp.MustCompile(`adb connect (\S+)`).FindStringSubmatch(serve.String())
	if m == nil {
		t.Fatalf("no device face address in output:\n%s", serve)
	}
	srv := adbtest.Start(t)
	serial := srv.Connect(t, m[1])
	fairy := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append([]string{"--adb-port", strconv.Itoa(srv.Port), "--serial", serial}, args...))
		if err := root.ExecuteContext(t.Context()); err != nil {
			t.Fatalf("fairy %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	out, errOut := fairy("apps")
	noRawControls(t, "fairy apps", out+errOut)
	if !strings.Contains(out, evilLabelShown) {
		t.Errorf("fairy apps does not show the label escaped:\n%s", out)
	}
	fairy("act", "launch", "com.evil.label")
	out, errOut = fairy("screen")
	noRawControls(t, "fairy screen", out+errOut)
	if !strings.Contains(out, `[2J`) {
		t.Errorf("fairy screen does not show the text:\n%s", out)
	}

	kpath := filepath.Join(t.TempDir(), "k.db")
	s, err := knowledge.Open(kpath, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutApp(knowledge.App{Package: "com.evil.label", Label: evilLabel}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordPage("com.evil.label", knowledge.Page{Activity: ".Main", Signature: "s", Description: "Page\x1b]0;PWNED\a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTrick(knowledge.Trick{App: "com.evil.label", Kind: knowledge.KindAction, Text: "Tap\x1b[2J it"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, errOut = fairy("map", "list", "--knowledge", kpath)
	noRawControls(t, "fairy map list", out+errOut)
	if !strings.Contains(out, evilLabelShown) {
		t.Errorf("fairy map list does not show the label escaped:\n%s", out)
	}
	out, errOut = fairy("map", "show", "com.evil.label", "--knowledge", kpath)
	noRawControls(t, "fairy map show", out+errOut)

	suite, err := os.ReadFile(filepath.Join("..", "..", "examples", "wallet-suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// A suite's apps: stays beside it: the example's apps are copied next to the suite.
	suiteDir := t.TempDir()
	if err := os.CopyFS(filepath.Join(suiteDir, "apps"), os.DirFS(exampleApps)); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(suite), "name: wallet\n", `name: "wallet\e]0;PWNED\a\e[2J"`+"\n", 1)
	suitePath := filepath.Join(suiteDir, "suite.yaml")
	if err := os.WriteFile(suitePath, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", suitePath, "--sim", "1", "--out", t.TempDir(), "--runs", t.TempDir()})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	noRawControls(t, "fairy eval", stdout.String()+stderr.String())
	if !strings.Contains(stdout.String(), `suite wallet\x1b]0;PWNED\x07\x1b[2J:`) {
		t.Errorf("fairy eval does not show the suite name escaped:\n%s", stdout.String())
	}
}
