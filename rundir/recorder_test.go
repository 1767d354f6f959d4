package rundir

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/tmpfstest"
)

// fillDisk takes every free byte of the file system holding dir.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("fill the disk: %v", err)
			}
			break
		}
	}
	// The last pages of a partly written chunk are taken, the rest is refused: now even one
	// byte more does not fit.
	for n := len(chunk) / 2; n > 0; n /= 2 {
		_, _ = f.Write(chunk[:n])
	}
	if _, err := f.Write([]byte{0}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("the disk is not full: %v", err)
	}
}

// publish hands rec a run's first events, with the instruction padded to pad bytes.
func publish(rec *Recorder, pad int) {
	bus := event.NewBus(func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) })
	bus.Subscribe(rec.Handle)
	bus.Publish(event.RunStarted{RunID: "r", Instruction: "Order a tea" + strings.Repeat(" please", pad/7)})
	bus.Publish(event.StepStarted{Step: 1, App: "com.fairy.shop"})
	bus.Publish(event.RunFinished{Outcome: event.OutcomeDone, Reason: "ordered"})
}

// leftovers lists the run directory's files other than the trace and the screenshots.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if n := e.Name(); n != TraceFile && n != "filler" && !strings.HasPrefix(n, "step-") {
			out = append(out, n)
		}
	}
	return out
}

// TestRecorderStopsTheRunAtAFailedWrite: a trace that cannot be written (here trace.jsonl
// is /dev/full, a real device that answers every write with ENOSPC) ends the run's
// context with the failed write as its cause, writes nothing more, and still writes a
// summary that says why the run failed.
func TestRecorderStopsTheRunAtAFailedWrite(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		tmpfstest.Needs(t, "/dev/full", err)
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/full", filepath.Join(dir, TraceFile)); err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := rec.Context(t.Context())
	defer cancel()
	if ctx.Err() != nil {
		t.Fatal("the run's context ended before anything was written")
	}
	publish(rec, 0)
	var rerr *RecordError
	if !errors.As(context.Cause(ctx), &rerr) || rerr.File != TraceFile || !errors.Is(rerr, syscall.ENOSPC) {
		t.Fatalf("cause = %v, want a failed trace write", context.Cause(ctx))
	}
	if !strings.HasPrefix(rerr.Error(), "cannot record the run: write ") || !strings.HasSuffix(rerr.Error(), "no space left on device") {
		t.Errorf("reason %q", rerr.Error())
	}
	if err := rec.Err(); err != rerr {
		t.Errorf("Err() = %v, want the first failed write", err)
	}
	// A context made after the failure is over at once.
	if late, stop := rec.Context(t.Context()); late.Err() == nil || context.Cause(late) != rerr {
		t.Errorf("a later context is not ended: %v", context.Cause(late))
	} else {
		stop()
	}
	if err := rec.Close(); err != rerr {
		t.Errorf("Close() = %v, want %v", err, rerr)
	}
	if !rec.Written() {
		t.Fatal("the summary was not written though its directory can take it")
	}
	var s Summary
	if b, err := os.ReadFile(filepath.Join(dir, SummaryFile)); err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("summary.json: %v: %s", err, b)
	}
	if s.Outcome != event.OutcomeFailed || s.Reason != rerr.Error() || s.Steps != 1 {
		t.Errorf("summary outcome %s, reason %q, %d steps; want failed with the write", s.Outcome, s.Reason, s.Steps)
	}
	if got := rec.Summary(); got.Outcome != event.OutcomeFailed || got.Reason != rerr.Error() {
		t.Errorf("Summary() = %s %q", got.Outcome, got.Reason)
	}
}

// TestTraceIsWholeLinesOnAFullDisk: the disk fills up in the middle of a trace line; the
// line is undone, so the trace holds whole lines only, and the run is stopped.
func TestTraceIsWholeLinesOnAFullDisk(t *testing.T) {
	disk := tmpfstest.Mount(t, "64k")
	dir := filepath.Join(disk, "run")
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := rec.Context(t.Context())
	defer cancel()
	bus := event.NewBus(nil)
	bus.Subscribe(rec.Handle)
	bus.Publish(event.RunStarted{RunID: "r", Instruction: "Order a tea"})
	bus.Publish(event.StepStarted{Step: 1, App: "com.fairy.shop"})
	fillDisk(t, disk)
	// Lines longer than a page: the first fills the trace's last page and then finds no
	// room, a torn write.
	for i := 0; ctx.Err() == nil && i < 10; i++ {
		bus.Publish(event.ScreenPerceived{Step: 1, Text: strings.Repeat("- [1] button \"支付\"\n", 400)})
	}
	if ctx.Err() == nil {
		t.Fatal("the run was not stopped on a full disk")
	}
	if !errors.Is(context.Cause(ctx), syscall.ENOSPC) {
		t.Errorf("cause %v, want ENOSPC", context.Cause(ctx))
	}
	_ = rec.Close()
	trace, err := os.ReadFile(filepath.Join(dir, TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(trace) == 0 || trace[len(trace)-1] != '\n' {
		t.Fatalf("the trace ends in a torn line: …%q", trace[max(0, len(trace)-40):])
	}
	for i, l := range bytes.Split(bytes.TrimSuffix(trace, []byte("\n")), []byte("\n")) {
		var line struct{ Seq int64 }
		if err := json.Unmarshal(l, &line); err != nil || line.Seq != int64(i+1) {
			t.Errorf("trace line %d: seq %d, %v", i+1, line.Seq, err)
		}
	}
}

// TestSummaryIsAtomic: summary.json is the whole new summary, or what was there before —
// never a 0-byte or torn file — whether the disk is full before the summary or fills up
// in its middle. The disk is a real one (a tmpfs) that runs out of space.
func TestSummaryIsAtomic(t *testing.T) {
	tests := []struct {
		name string
		old  bool // a summary from an earlier run is in the directory
		room int  // bytes freed after filling the disk
		pad  int  // bytes added to the summary (the instruction)
	}{
		{"full disk, no summary before", false, 0, 0},
		{"full disk, old summary kept", true, 0, 0},
		{"disk fills up mid-summary, no summary before", false, 8 << 10, 32 << 10},
		{"disk fills up mid-summary, old summary kept", true, 8 << 10, 32 << 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			disk := tmpfstest.Mount(t, "256k")
			dir := filepath.Join(disk, "run")
			var old []byte
			if tc.old {
				rec, err := NewRecorder(dir)
				if err != nil {
					t.Fatal(err)
				}
				publish(rec, 0)
				if err := rec.Close(); err != nil || !rec.Written() {
					t.Fatalf("first summary: %v", err)
				}
				if old, err = os.ReadFile(filepath.Join(dir, SummaryFile)); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := NewRecorder(dir)
			if err != nil {
				t.Fatal(err)
			}
			publish(rec, tc.pad)
			fillDisk(t, disk)
			if tc.room > 0 {
				filler := filepath.Join(disk, "filler")
				st, err := os.Stat(filler)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(filler, st.Size()-int64(tc.room)); err != nil {
					t.Fatal(err)
				}
			}
			err = rec.Close()
			var rerr *RecordError
			if !errors.As(err, &rerr) || rerr.File != SummaryFile || !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("Close() = %v, want a failed summary write", err)
			}
			if rec.Written() {
				t.Error("Written() after a failed summary write")
			}
			if s := rec.Summary(); s.Outcome != event.OutcomeFailed || !strings.Contains(s.Reason, SummaryFile) {
				t.Errorf("Summary() = %s %q, want failed with the summary's write", s.Outcome, s.Reason)
			}
			got, err := os.ReadFile(filepath.Join(dir, SummaryFile))
			switch {
			case tc.old && !bytes.Equal(got, old):
				t.Errorf("the old summary is gone or changed: %v (%d bytes, was %d)", err, len(got), len(old))
			case !tc.old && !errors.Is(err, os.ErrNotExist):
				t.Errorf("summary.json is there (%d bytes): %v", len(got), err)
			}
			want := []string(nil)
			if tc.old {
				want = []string{SummaryFile}
			}
			if l := leftovers(t, dir); strings.Join(l, ",") != strings.Join(want, ",") {
				t.Errorf("files %v, want %v (no temporary file left)", l, want)
			}
		})
	}
}

// TestTraceLinesAreWrittenAtOnce: each line is on disk as soon as its event is
// handled (no buffer a crash would lose), in whole lines.
func TestTraceLinesAreWrittenAtOnce(t *testing.T) {
	dir := t.TempDir()
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	bus := event.NewBus(nil)
	bus.Subscribe(rec.Handle)
	for i := 1; i <= 50; i++ {
		bus.Publish(event.Reflected{Step: i, Reflection: strings.Repeat("x", 300)})
		trace, err := os.ReadFile(filepath.Join(dir, TraceFile))
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(trace, []byte("\n")); n != i || trace[len(trace)-1] != '\n' {
			t.Fatalf("after %d events the file holds %d lines (ends %q)", i, n, trace[len(trace)-1:])
		}
	}
}
