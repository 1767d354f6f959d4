package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestColorWriter(t *testing.T) {
	var b bytes.Buffer
	w := colored(&b, true)
	for _, chunk := range []string{"▶ Order a tea\n", "◆ plan:\n   1. [shop] Order\n", "  step 1 · Tap(4)\n", "✓ task 1 ", "done after 1 step\n✗ failed\n", "  ? When?\n"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	want := "\x1b[1m▶ Order a tea\x1b[0m\n\x1b[36m◆ plan:\x1b[0m\n   1. [shop] Order\n  step 1 · Tap(4)\n" +
		"\x1b[32m✓ task 1 done after 1 step\x1b[0m\n\x1b[31m✗ failed\x1b[0m\n\x1b[33m  ? When?\x1b[0m\n"
	if b.String() != want {
		t.Errorf("colored:\n%q\nwant\n%q", b.String(), want)
	}
	var plain bytes.Buffer
	if colored(&plain, false) != &plain {
		t.Error("colored(w, false) is not w itself")
	}
	for _, env := range []map[string]string{{"NO_COLOR": "1"}, {"TERM": "dumb"}, {}} {
		if useColor(&plain, envMap(env)) {
			t.Errorf("useColor on a buffer with %v", env)
		}
	}
}

// colorChildEnv names the runs directory of the `fairy demo` that TestColorChild runs.
const colorChildEnv = "FAIRY_TEST_COLOR_DEMO_RUNS"

// TestColorChild is `fairy demo` writing to the process's own stdout, for TestColorOnlyOnATerminal.
func TestColorChild(t *testing.T) {
	runs := os.Getenv(colorChildEnv)
	if runs == "" {
		t.Skip("helper process for TestColorOnlyOnATerminal")
	}
	env := map[string]string{"HOME": runs, "NO_COLOR": os.Getenv("NO_COLOR"), "TERM": os.Getenv("TERM")}
	root := newRootCmd(strings.NewReader(""), os.Stdout, os.Stderr, envMap(env))
	root.SetArgs([]string{"demo", "--runs", runs, "--knowledge", filepath.Join(runs, "knowledge.db")})
	os.Exit(exitStatus(context.Background(), root.ExecuteContext(context.Background()), os.Stderr))
}

// TestColorOnlyOnATerminal runs `fairy demo` on a terminal (a pseudo-terminal made by
// util-linux `script`) and through a pipe: colour on the terminal, none with NO_COLOR or
// through the pipe, and the same words every time.
func TestColorOnlyOnATerminal(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("script (util-linux) is needed: %v", err)
		}
		t.Skip("script (util-linux) not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := func(onTerminal bool, extraEnv ...string) string {
		t.Helper()
		child := self + " -test.run=^TestColorChild$"
		var cmd *exec.Cmd
		if onTerminal {
			cmd = exec.CommandContext(t.Context(), script, "-qec", child, "/dev/null")
		} else {
			cmd = exec.CommandContext(t.Context(), self, "-test.run=^TestColorChild$")
		}
		cmd.Env = append(os.Environ(), colorChildEnv+"="+t.TempDir(), "TERM=xterm", "NO_COLOR=")
		cmd.Env = append(cmd.Env, extraEnv...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("fairy demo (terminal %v, %v): %v\n%s", onTerminal, extraEnv, err, out)
		}
		return strings.ReplaceAll(string(out), "\r\n", "\n")
	}
	term := run(true)
	if !strings.Contains(term, "\x1b[32m✓ done") || !strings.Contains(term, "\x1b[1m▶ ") {
		t.Errorf("on a terminal the progress has no colour:\n%q", term)
	}
	noColor := run(true, "NO_COLOR=1")
	piped := run(false)
	for name, out := range map[string]string{"NO_COLOR": noColor, "piped": piped} {
		if strings.Contains(out, "\x1b[") {
			t.Errorf("%s output has escape sequences:\n%q", name, out)
		}
		if !strings.Contains(out, "✓ done") {
			t.Errorf("%s output:\n%s", name, out)
		}
	}
	strip := strings.NewReplacer(ansiReset, "", ansiBold, "", ansiGreen, "", ansiRed, "", ansiYellow, "", ansiCyan, "")
	if a, b := lineCount(strip.Replace(term)), lineCount(piped); a != b {
		t.Errorf("terminal output has %d lines, piped %d", a, b)
	}
}

func lineCount(s string) int { return strings.Count(s, "\n") }
