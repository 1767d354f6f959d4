package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/llm"
)

// On a terminal only, `fairy run`, `fairy demo` and `fairy eval` dress their progress: lines in colour
// (unless NO_COLOR is set, https://no-color.org) and a live status line while a model is
// being waited for, erased before the next line. Piped or redirected output, or TERM=dumb,
// stays plain lines: byte for byte what the terminal shows without the dressing.

// termStyle is how the output of one command is dressed.
type termStyle struct {
	Live  bool // a transient status line while a model answers
	Color bool // progress lines in colour
}

// styleFor decides the dressing of output to w.
func styleFor(w io.Writer, getenv func(string) string) termStyle {
	if !isTerminal(w) || getenv("TERM") == "dumb" {
		return termStyle{}
	}
	return termStyle{Live: true, Color: getenv("NO_COLOR") == ""}
}

// isTerminal reports whether w is a character device (a terminal), not a pipe or a file.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// wrap returns w itself when there is nothing to dress, else a termWriter over w.
func (st termStyle) wrap(w io.Writer) io.Writer {
	if !st.Live && !st.Color {
		return w
	}
	return &termWriter{w: w, style: st}
}

// ANSI sequences of the dressing.
const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiDim       = "\x1b[2m"
	ansiGreen     = "\x1b[32m"
	ansiRed       = "\x1b[31m"
	ansiYellow    = "\x1b[33m"
	ansiCyan      = "\x1b[36m"
	ansiClearLine = "\r\x1b[K"
)

// lineStyles colour a line by how it starts: the marks of global.Progress.
var lineStyles = []struct {
	prefix []byte
	style  string
}{
	{[]byte("✓"), ansiGreen},
	{[]byte("✗"), ansiRed},
	{[]byte("▶"), ansiBold},
	{[]byte("▸"), ansiBold},
	{[]byte("◆"), ansiCyan},
	{[]byte("  ? "), ansiYellow},
	{[]byte("? "), ansiYellow}, // a question the terminal asks the person
}

// evalMark reports an evaluation's progress line "[3/99] ✓ task …" whose mark, after the
// count, is mark (✓ or ✗).
func evalMark(line, mark []byte) bool {
	if !bytes.HasPrefix(line, []byte("[")) || (string(mark) != "✓" && string(mark) != "✗") {
		return false
	}
	_, rest, ok := bytes.Cut(line, []byte("] "))
	return ok && bytes.HasPrefix(rest, mark)
}

// termWriter dresses whole lines written to w (see termStyle) and shows a transient status
// line that the next write erases. Safe for concurrent use.
type termWriter struct {
	mu        sync.Mutex
	w         io.Writer
	style     termStyle
	midLine   bool // the last write ended inside a line: its rest is not a line start
	openStyle bool // a colour is open on the current line
	status    bool // a status line is shown
	prompt    bool // the last write was a prompt waiting for the person's line
}

func (t *termWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out bytes.Buffer
	if t.status {
		out.WriteString(ansiClearLine)
		t.status = false
	}
	t.prompt = false
	rest := p
	for len(rest) > 0 {
		line, tail, nl := bytes.Cut(rest, []byte("\n"))
		if !t.midLine && t.style.Color {
			for _, s := range lineStyles {
				if bytes.HasPrefix(line, s.prefix) || evalMark(line, s.prefix) {
					out.WriteString(s.style)
					t.openStyle = true
					break
				}
			}
		}
		out.Write(line)
		if !nl {
			// A prompt ("  > ") is ended by the line the person types and the terminal
			// echoes; any other half line is continued by the next write.
			t.prompt = bytes.HasSuffix(line, []byte("> "))
			t.midLine = !t.prompt
			break
		}
		if t.openStyle {
			out.WriteString(ansiReset)
			t.openStyle = false
		}
		out.WriteByte('\n')
		t.midLine = false
		rest = tail
	}
	if _, err := t.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// showStatus replaces the status line with text, unless a line is half written or a
// prompt waits for the person.
func (t *termWriter) showStatus(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.midLine || t.prompt {
		return
	}
	s := ansiClearLine + text
	if t.style.Color {
		s = ansiClearLine + ansiDim + text + ansiReset
	}
	if _, err := io.WriteString(t.w, s); err == nil {
		t.status = true
	}
}

// clearStatus erases the status line, if one is shown.
func (t *termWriter) clearStatus() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.status {
		_, _ = io.WriteString(t.w, ansiClearLine)
		t.status = false
	}
}

// liveModel shows, on the terminal, which role's model is being waited for.
type liveModel struct {
	executor.Model
	out *termWriter
}

func (m liveModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.out.showStatus(fmt.Sprintf("⋯ waiting for the %s model", req.Role))
	defer m.out.clearStatus()
	return m.Model.Generate(ctx, req)
}

// liveModelFor wraps model so that out shows a status line while it answers, when out is a
// terminal with live progress; otherwise it returns model.
func liveModelFor(model executor.Model, out io.Writer) executor.Model {
	t, ok := out.(*termWriter)
	if !ok || !t.style.Live || model == nil {
		return model
	}
	return liveModel{Model: model, out: t}
}
