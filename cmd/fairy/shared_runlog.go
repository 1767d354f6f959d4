package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/fairy-go/fairy/internal/table"
)

// runLogFile is the log of a run, in its run directory.
const runLogFile = "run.log"

// runLog is where one invocation's log records go. By default they go to stderr. A
// command that shows a run's transcript (run, demo) holds them from its start and sends
// them to the run directory's run.log once it exists, so that no warning lands between
// the transcript's lines; the transcript ends with one line that counts them.
type runLog struct {
	mu     sync.Mutex
	stderr io.Writer
	held   *bytes.Buffer // records waiting for the run directory; nil: not holding
	file   *os.File
	path   string
	// written: a record reached the file (it is kept after a later failed write).
	written bool
	warns   int    // records at WARN or above since hold
	first   string // the first of them
}

// newRunLog returns a log writing to stderr.
func newRunLog(stderr io.Writer) *runLog { return &runLog{stderr: stderr} }

// logger is a logger at level writing to l.
func (l *runLog) logger(level slog.Level) *slog.Logger {
	return slog.New(countingHandler{slog.NewTextHandler(l, &slog.HandlerOptions{Level: level}), l})
}

// Write implements io.Writer for the text handler: one record a call.
func (l *runLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held != nil && l.path != "" {
		l.open()
	}
	switch {
	case l.file != nil:
		n, err := l.file.Write(p)
		if err == nil {
			l.written = true
			return n, nil
		}
		l.drop(err)
		return l.stderr.Write(p) // a full disk: the record is not lost
	case l.held != nil:
		return l.held.Write(p)
	}
	return l.stderr.Write(p)
}

// hold keeps the records from now on for the run directory.
func (l *runLog) hold() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil && l.file == nil {
		l.held = &bytes.Buffer{}
	}
}

// attach sends the held records, and those to come, to run.log in dir; the file is made
// with the first record (a run with none has none). A log that cannot be made there leaves
// them on stderr: a log never stops a run.
func (l *runLog) attach(dir string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil || l.path != "" {
		return
	}
	l.path = filepath.Join(dir, runLogFile)
	if l.held.Len() > 0 {
		l.open()
	}
}

// open makes the run's log file and writes the held records to it; l.mu is held.
func (l *runLog) open() {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(l.stderr, "fairy: cannot write the run's log (%v): it goes to stderr\n", err)
		_, _ = l.held.WriteTo(l.stderr)
		l.held, l.path = nil, ""
		return
	}
	l.file = f
	if l.held.Len() > 0 {
		if _, err := f.Write(l.held.Bytes()); err != nil {
			l.drop(err)
			return
		}
		l.written = true
	}
	l.held = nil
}

// drop gives up the run's log file after a failed write (a full disk): the records go to
// stderr from now on, and an empty file is removed. l.mu is held.
func (l *runLog) drop(err error) {
	fmt.Fprintf(l.stderr, "fairy: cannot write the run's log (%v): it goes to stderr\n", err)
	_ = l.file.Close()
	if !l.written {
		_ = os.Remove(l.path)
	}
	if l.held != nil {
		_, _ = l.held.WriteTo(l.stderr)
	}
	l.file, l.held, l.path = nil, nil, ""
}

// summary is the transcript's line about the run's log: how many warnings it holds and
// where; "" when there are none.
func (l *runLog) summary() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.warns == 0 || l.path == "" {
		return ""
	}
	return fmt.Sprintf("log: %s (the first: %s) in %s", table.Count(l.warns, "warning", "warnings"), l.first, l.path)
}

// close ends the run's log: records held for a run directory that never came go to
// stderr, and later records too.
func (l *runLog) close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		_ = l.file.Close()
		l.file = nil
	}
	if l.held != nil {
		_, _ = l.held.WriteTo(l.stderr)
		l.held = nil
	}
}

func (l *runLog) warned(msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil && l.file == nil {
		return // straight to stderr: the person sees it
	}
	if l.warns == 0 {
		l.first = fmt.Sprintf("%q", msg)
	}
	l.warns++
}

// countingHandler counts the warnings of a runLog.
type countingHandler struct {
	slog.Handler
	l *runLog
}

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.l.warned(r.Message)
	}
	return h.Handler.Handle(ctx, r)
}

func (h countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return countingHandler{h.Handler.WithAttrs(as), h.l}
}

func (h countingHandler) WithGroup(name string) slog.Handler {
	return countingHandler{h.Handler.WithGroup(name), h.l}
}
