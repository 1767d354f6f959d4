package table

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Settings":                 "Settings",
		"设置 ⚙":                     "设置 ⚙",
		"Esc\x1b]0;PWNED\a\x1b[2J": `Esc\x1b]0;PWNED\x07\x1b[2J`,
		"a\x9b2Jb":                 `a\x9b2Jb`,   // a lone C1 byte (not UTF-8)
		"a\u009b2Jb":               `a\u009b2Jb`, // C1 CSI as UTF-8
		"pay \u202eredro":          `pay \u202eredro`,
		"x\u2066y\u2069":           `x\u2066y\u2069`,
		"com.\u200fpay\u200e.evil": `com.\u200fpay\u200e.evil`, // RLM, LRM
		"a\u061cb":                 `a\u061cb`,                 // Arabic letter mark
		"one\u2028two\u2029three":  `one\u2028two\u2029three`,  // line and paragraph separators
		"two\nlines\ttab\rdel\x7f": `two\x0alines\x09tab\x0ddel\x7f`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := EscapeLines("a\tb\nc\r\x1b"), "a\tb\nc\\x0d\\x1b"; got != want {
		t.Errorf("EscapeLines = %q, want %q", got, want)
	}
}

// TestWriterEscapes: a table shows names from outside; no control character of a cell
// reaches the terminal, and the columns still line up.
func TestWriterEscapes(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte("LABEL\tPACKAGE\n"))
	w.Write([]byte("Esc\x1b]0;PWNED\a\x1b[2J\tcom.evil\n"))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\a") {
		t.Fatalf("raw control characters in %q", b.String())
	}
	lines := strings.Split(b.String(), "\n")
	if strings.Index(lines[0], "PACKAGE") != strings.Index(lines[1], "com.evil") {
		t.Fatalf("columns out of line:\n%s", b.String())
	}
}

func TestEscapingWriter(t *testing.T) {
	var b bytes.Buffer
	w := EscapingWriter(&b)
	n, err := w.Write([]byte("name: Esc\x1b[2J\n  step\tok\n"))
	if err != nil || n != len("name: Esc\x1b[2J\n  step\tok\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got, want := b.String(), "name: Esc\\x1b[2J\n  step\tok\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}
