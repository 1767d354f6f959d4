package wire

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// countingWriter records each Write it gets.
type countingWriter struct {
	mu     sync.Mutex
	writes [][]byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}

func (c *countingWriter) snapshot() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.writes...)
}

func TestBurstWriterGathersSmallWrites(t *testing.T) {
	var cw countingWriter
	b := newBurstWriter(&cw, time.Hour) // the timer never fires: only Flush sends
	for _, s := range []string{"hi\n", "#fairy-status:", "0\n"} {
		if _, err := b.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := cw.snapshot(); len(got) != 0 {
		t.Fatalf("sent %d writes before Flush", len(got))
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	b.Stop()
	got := cw.snapshot()
	if len(got) != 1 || string(got[0]) != "hi\n#fairy-status:0\n" {
		t.Fatalf("writes = %q, want one burst", got)
	}
}

func TestBurstWriterStreamsWithoutFlush(t *testing.T) {
	var cw countingWriter
	b := newBurstWriter(&cw, time.Millisecond)
	defer b.Stop()
	if _, err := b.Write([]byte("progress 1\n")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(cw.snapshot()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("held output never went out on its own")
		}
		time.Sleep(time.Millisecond)
	}
	big := bytes.Repeat([]byte("x"), burstMax)
	if _, err := b.Write(big); err != nil {
		t.Fatal(err)
	}
	if got := cw.snapshot(); len(got) != 2 || len(got[1]) != burstMax {
		t.Fatalf("a burst of burstMax bytes was held back: %d writes", len(got))
	}
}
