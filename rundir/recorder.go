package rundir

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/fairy-go/fairy/event"
)

// Recorder writes a run directory: trace.jsonl (one event a line: seq, time, kind, event,
// and image for a step's set-of-mark screenshot file), the screenshots, and summary.json
// on Close. Secrets given to it never reach the files.
//
// An agent that cannot record does not act: the first write that fails (a full disk, an
// I/O error) ends the contexts made by Context with a *RecordError as their cause, so the
// run stops before its next action, and nothing more is written to the trace. Each trace
// line is written whole with one write, so a killed process leaves only whole lines; the
// trace is synced to disk at every step boundary. summary.json is replaced atomically or
// left as it was.
type Recorder struct {
	mu      sync.Mutex
	dir     string
	f       *os.File
	size    int64 // bytes of whole lines in the trace
	redact  *strings.Replacer
	tally   *tally
	err     error                     // the first failed write, a *RecordError
	halts   []context.CancelCauseFunc // what Context handed out
	shots   int
	summary bool // summary.json was written
}

// NewRecorder creates dir (and parents) and opens its trace. Each string in secrets is
// replaced by "[redacted]" wherever it would appear.
func NewRecorder(dir string, secrets ...string) (*Recorder, error) {
	if dir == "" {
		return nil, errors.New("rundir: no run directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("rundir: create run directory: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, TraceFile))
	if err != nil {
		return nil, fmt.Errorf("rundir: create trace: %w", err)
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, fmt.Errorf("rundir: create trace: %w", err)
	}
	var pairs []string
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	for _, s := range secrets {
		if len(s) >= 4 { // a short "secret" would redact ordinary words
			pairs = append(pairs, s, "[redacted]")
		}
	}
	return &Recorder{dir: dir, f: f, redact: strings.NewReplacer(pairs...), tally: newTally()}, nil
}

// Dir is the run directory.
func (r *Recorder) Dir() string { return r.dir }

// Context returns a copy of parent that ends, with the recorder's *RecordError as its
// cause (context.Cause), the moment a write fails — at once if one has failed already.
// Running the agent with it stops the run before its next action: the executor checks its
// context before every state and the device layer refuses calls on an ended context.
// cancel releases the context when the run is over.
func (r *Recorder) Context(parent context.Context) (ctx context.Context, cancel context.CancelFunc) {
	ctx, halt := context.WithCancelCause(parent)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		halt(r.err)
	} else {
		r.halts = append(r.halts, halt)
	}
	return ctx, func() { halt(nil) }
}

// Err is the first write that failed, a *RecordError, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// fail keeps the first failed write and ends the contexts made by Context.
func (r *Recorder) fail(file string, err error) {
	if r.err != nil {
		return
	}
	r.err = &RecordError{File: file, Err: err}
	for _, halt := range r.halts {
		halt(r.err)
	}
	r.halts = nil
}

// Handle writes one event: its screenshot, if any, then its trace line. After a failed
// write it writes nothing more (the summary still counts every event).
func (r *Recorder) Handle(rec event.Record) {
	r.tally.Handle(rec)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil || r.f == nil {
		return
	}
	kind := rec.Event.Kind()
	ev, err := json.Marshal(rec.Event)
	if err != nil {
		r.fail(TraceFile, fmt.Errorf("encode %s: %w", kind, err))
		return
	}
	line := traceLine{Seq: rec.Seq, Time: rec.Time, Kind: kind, Event: ev}
	if sp, ok := rec.Event.(event.ScreenPerceived); ok && len(sp.Marked) > 0 {
		ext := ".png"
		if sp.MarkedMIME == "image/jpeg" {
			ext = ".jpg"
		}
		r.shots++
		name := fmt.Sprintf("step-%03d-%02d%s", sp.Step, r.shots, ext)
		// Synced before the line that names it, so the trace never points at a lost image.
		if err := writeSynced(filepath.Join(r.dir, name), sp.Marked); err != nil {
			r.fail(name, err)
			return
		}
		line.Image = name
	}
	b, err := json.Marshal(line)
	if err != nil {
		r.fail(TraceFile, fmt.Errorf("encode %s: %w", line.Kind, err))
		return
	}
	if err := r.writeLine(append([]byte(r.redact.Replace(string(b))), '\n')); err != nil {
		r.fail(TraceFile, err)
		return
	}
	switch rec.Event.(type) {
	case event.StepStarted, event.TaskFinished, event.RunFinished:
		// A step boundary: what the run did so far survives a crash of the machine too.
		if err := syncFile(r.f); err != nil {
			r.fail(TraceFile, err)
		}
	}
}

// writeLine appends one line with one write. A write cut short (the disk filled up
// mid-line) is undone, so the trace holds whole lines only.
func (r *Recorder) writeLine(b []byte) error {
	n, err := r.f.Write(b)
	if err != nil {
		if n > 0 {
			_ = r.f.Truncate(r.size)
		}
		return err
	}
	r.size += int64(n)
	return nil
}

// Summary returns the summary so far; once a write has failed, its outcome is failed and
// its reason the failed write.
func (r *Recorder) Summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.summaryLocked()
}

func (r *Recorder) summaryLocked() Summary {
	s := r.tally.Summary()
	if r.err != nil {
		s.Outcome, s.Reason = event.OutcomeFailed, r.err.Error()
	}
	return s
}

// Written reports whether Close wrote summary.json.
func (r *Recorder) Written() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.summary
}

// Close syncs and closes the trace and writes summary.json atomically: the file is either
// the whole new summary or, when that cannot be written, what it was before (usually no
// file). It returns the first failed write, a *RecordError, or nil.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return r.err
	}
	if r.err == nil {
		if err := syncFile(r.f); err != nil {
			r.fail(TraceFile, err)
		}
	}
	if err := r.f.Close(); err != nil {
		r.fail(TraceFile, err)
	}
	r.f = nil
	b, err := json.MarshalIndent(r.summaryLocked(), "", "  ")
	if err != nil {
		r.fail(SummaryFile, fmt.Errorf("encode summary: %w", err))
		return r.err
	}
	if err := writeAtomic(r.dir, SummaryFile, append([]byte(r.redact.Replace(string(b))), '\n')); err != nil {
		r.fail(SummaryFile, err)
	} else {
		r.summary = true
	}
	r.halts = nil
	return r.err
}

// writeAtomic replaces dir/name with data: a temporary file in dir, written, synced and
// renamed over name, then the directory synced. On failure name is untouched and the
// temporary file removed.
func writeAtomic(dir, name string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = syncFile(f); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// writeSynced writes a new file and syncs it; a file that could not be written whole is
// removed.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// syncFile flushes f to disk. A file that cannot be synced by nature (a pipe, a device, a
// file system without fsync) is not an error.
func syncFile(f *os.File) error {
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// syncDir makes the directory's entries (a new or renamed file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = syncFile(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
