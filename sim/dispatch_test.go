package sim

import (
	"testing"
	"time"
)

// lockProbe is a client's output stream that, on each write, checks that the phone still
// answers another client: a write that waits for the client (adbd's flow control) while the
// phone's lock is held would stall every other connection, and the one carrying the
// client's OKAY with them.
type lockProbe struct {
	p       *Phone
	blocked bool
}

func (w *lockProbe) Write(b []byte) (int, error) {
	done := make(chan struct{})
	go func() {
		w.p.Foreground()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		// The goroutine ends when the command releases the lock.
		w.blocked = true
	}
	return len(b), nil
}

// TestOutputOutsideLock: a command's output reaches the client after the phone's lock is
// released (Appium's session start opens forwarded sockets while a dumpsys is writing).
func TestOutputOutsideLock(t *testing.T) {
	p := newPhone(t)
	for _, line := range []string{"dumpsys window", "pm list packages", "getprop ro.product.model", "echo hi"} {
		w := &lockProbe{p: p}
		if _, err := p.Shell(t.Context(), line, w); err != nil {
			t.Fatal(err)
		}
		if w.blocked {
			t.Errorf("%s wrote its output with the phone's lock held", line)
		}
	}
}
