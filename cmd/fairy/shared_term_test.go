package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// TestTermWriterEvalLines: an evaluation's finished-task lines are green or red by their
// mark after the count; its other lines stay plain.
func TestTermWriterEvalLines(t *testing.T) {
	var b bytes.Buffer
	w := termStyle{Color: true}.wrap(&b)
	for _, l := range []string{"[1/3] emulator-5554 ▶ wifi-off\n", "[1/3] ✓ wifi-off on emulator-5554 — done\n", "[2/3] ✗ pay on emulator-5556 — failed\n", "[x] ✓\n"} {
		if _, err := w.Write([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	want := "[1/3] emulator-5554 ▶ wifi-off\n\x1b[32m[1/3] ✓ wifi-off on emulator-5554 — done\x1b[0m\n" +
		"\x1b[31m[2/3] ✗ pay on emulator-5556 — failed\x1b[0m\n\x1b[32m[x] ✓\x1b[0m\n"
	if b.String() != want {
		t.Errorf("dressed:\n%q\nwant\n%q", b.String(), want)
	}
}

func TestTermWriter(t *testing.T) {
	var b bytes.Buffer
	w := termStyle{Live: true, Color: true}.wrap(&b)
	tw := w.(*termWriter)
	for _, chunk := range []string{"▶ Order a tea\n", "◆ plan:\n   1. [shop] Order\n", "  step 1 · Tap(4)\n", "✓ task 1 ", "done after 1 step\n✗ failed\n", "  ? When?\n"} {
		if chunk == "  step 1 · Tap(4)\n" {
			tw.showStatus("⋯ waiting for the decider model")
		}
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	tw.showStatus("⋯ waiting for the planner model")
	tw.clearStatus()
	// A question and its prompt: no status over a prompt that waits for the person; the
	// person's Enter ends the prompt's line, so after the next line a status shows again.
	for _, chunk := range []string{"\n? Pay ¥15?\n  [y/n] > ", "  ↳ answer: yes\n"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
		tw.showStatus("⋯ waiting")
	}
	want := "\x1b[1m▶ Order a tea\x1b[0m\n\x1b[36m◆ plan:\x1b[0m\n   1. [shop] Order\n" +
		"\r\x1b[K\x1b[2m⋯ waiting for the decider model\x1b[0m\r\x1b[K  step 1 · Tap(4)\n" +
		"\x1b[32m✓ task 1 done after 1 step\x1b[0m\n\x1b[31m✗ failed\x1b[0m\n\x1b[33m  ? When?\x1b[0m\n" +
		"\r\x1b[K\x1b[2m⋯ waiting for the planner model\x1b[0m\r\x1b[K" +
		"\n\x1b[33m? Pay ¥15?\x1b[0m\n  [y/n] > " +
		"  ↳ answer: yes\n\r\x1b[K\x1b[2m⋯ waiting\x1b[0m"
	if b.String() != want {
		t.Errorf("dressed:\n%q\nwant\n%q", b.String(), want)
	}
	var plain bytes.Buffer
	if (termStyle{}).wrap(&plain) != &plain {
		t.Error("an undressed style wraps the writer")
	}
	for _, env := range []map[string]string{{"NO_COLOR": "1"}, {"TERM": "dumb"}, {}} {
		if st := styleFor(&plain, envMap(env)); st.Live || st.Color {
			t.Errorf("styleFor a buffer with %v = %+v", env, st)
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
	// Logs (warnings under load) would reach the terminal through stderr and not the pipe:
	// only stdout is compared.
	root := newRootCmd(strings.NewReader(""), os.Stdout, io.Discard, envMap(env))
	root.SetArgs([]string{"demo", "--runs", runs, "--knowledge", filepath.Join(runs, "knowledge.db")})
	os.Exit(exitStatus(context.Background(), root.ExecuteContext(context.Background()), os.Stderr))
}

// TestColorOnlyOnATerminal runs `fairy demo` on a terminal (a pseudo-terminal made by
// util-linux `script`) and through a pipe: colour and a live status line on the terminal,
// the status but no colour with NO_COLOR, plain lines through the pipe — the same lines
// every time.
func TestColorOnlyOnATerminal(t *testing.T) {
	testenv.MustHaveFullTier(t, "starts util-linux script")
	script := testenv.MustHaveProgram(t, "script")
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
	if !strings.Contains(term, ansiClearLine+ansiDim+"⋯ waiting for the planner model"+ansiReset+ansiClearLine) {
		t.Errorf("on a terminal there is no live status while the model answers:\n%q", term)
	}
	noColor := run(true, "NO_COLOR=1")
	if !strings.Contains(noColor, ansiClearLine+"⋯ waiting for the decider model"+ansiClearLine) {
		t.Errorf("with NO_COLOR the live status is gone too:\n%q", noColor)
	}
	piped := run(false)
	for name, out := range map[string]string{"NO_COLOR": noColor, "piped": piped} {
		for _, sgr := range []string{ansiReset, ansiBold, ansiDim, ansiGreen, ansiRed, ansiYellow, ansiCyan} {
			if strings.Contains(out, sgr) {
				t.Errorf("%s output has colour %q:\n%q", name, sgr, out)
			}
		}
		if !strings.Contains(out, "✓ done") {
			t.Errorf("%s output:\n%s", name, out)
		}
	}
	if strings.Contains(piped, "\x1b") || strings.Contains(piped, "waiting for") {
		t.Errorf("piped output is dressed:\n%q", piped)
	}
	// Without the dressing, the terminal shows the same lines as the pipe.
	undress := regexp.MustCompile(`\r\x1b\[K(\x1b\[2m⋯[^\r\n]*\x1b\[0m|⋯[^\r\n]*)?|\x1b\[[0-9]*m`)
	// Run directories and files differ from run to run, and so may the count of warnings
	// in the run's log (a busy machine's), which is not the transcript.
	paths := regexp.MustCompile(`/\S+|(?m)^log: \d+ warnings?.*\n`)
	if got, want := paths.ReplaceAllString(undress.ReplaceAllString(term, ""), "PATH"), paths.ReplaceAllString(piped, "PATH"); got != want {
		t.Errorf("the terminal's lines differ from the pipe's:\n%s\n---\n%s", got, want)
	}
}
