package knowledge

import (
	"path/filepath"
	"testing"
	"time"
)

// fakeClock returns a clock that advances one second per call from a fixed start.
func fakeClock() func() time.Time {
	t := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func openTemp(t testing.TB, opts Options) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "knowledge.db")
	if opts.Clock == nil {
		opts.Clock = fakeClock()
	}
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}
