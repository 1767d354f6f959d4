package main

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// Colour on a terminal only: progress lines get colour when stdout is a terminal, NO_COLOR
// is not set (https://no-color.org) and TERM is not "dumb"; piped or redirected output
// stays plain lines, byte for byte what a terminal shows without the colour.

// useColor says whether output to w may carry colour.
func useColor(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
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

// ANSI styles of the progress view's lines.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiGreen  = "\x1b[32m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
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
}

// colorWriter colours whole lines written to w by their first characters; everything else
// passes through unchanged. Safe for concurrent use.
type colorWriter struct {
	mu        sync.Mutex
	w         io.Writer
	midLine   bool // the last write ended inside a line: its rest is not a line start
	openStyle bool // a style is open on the current line
}

// colored returns w itself when color is false, else a colorWriter over w.
func colored(w io.Writer, color bool) io.Writer {
	if !color {
		return w
	}
	return &colorWriter{w: w}
}

func (c *colorWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out bytes.Buffer
	rest := p
	for len(rest) > 0 {
		line, tail, nl := bytes.Cut(rest, []byte("\n"))
		if !c.midLine {
			for _, s := range lineStyles {
				if bytes.HasPrefix(line, s.prefix) {
					out.WriteString(s.style)
					c.openStyle = true
					break
				}
			}
		}
		out.Write(line)
		if !nl {
			c.midLine = true
			break
		}
		if c.openStyle {
			out.WriteString(ansiReset)
			c.openStyle = false
		}
		out.WriteByte('\n')
		c.midLine = false
		rest = tail
	}
	if _, err := c.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}
