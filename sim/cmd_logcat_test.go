package sim

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogcat: the system's log of app starts, printed (-d, -t, filters, formats), cleared
// (-c) and followed until the client goes away, as adb logcat sends it (export first).
func TestLogcat(t *testing.T) {
	p := newPhone(t)
	sh(t, p, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
	out, st := sh(t, p, "logcat -d")
	if st != 0 || !strings.HasPrefix(out, "--------- beginning of system\n") ||
		!strings.Contains(out, " 612   629 I ActivityTaskManager: START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=com.android.settings/") {
		t.Errorf("logcat -d: %d %q", st, out)
	}
	if out, _ := sh(t, p, "logcat -d -v brief *:S"); out != "" {
		t.Errorf("*:S prints %q", out)
	}
	if out, _ := sh(t, p, "logcat -d -b main"); out != "" {
		t.Errorf("the main buffer holds %q", out)
	}
	sh(t, p, "monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1")
	if out, _ := sh(t, p, "logcat -v brief -t 1"); !strings.HasPrefix(out, "--------- beginning of system\nI/ActivityTaskManager(  612): START u0") || strings.Count(out, "START") != 1 || !strings.Contains(out, "com.android.contacts") {
		t.Errorf("logcat -t 1: %q", out)
	}
	if out, st := sh(t, p, "logcat -d -v nosuchformat"); st != 1 || !strings.Contains(out, `Invalid parameter "nosuchformat" to -v`) {
		t.Errorf("a bad format: %d %q", st, out)
	}
	if out, st := sh(t, p, "logcat -c"); st != 0 || out != "" {
		t.Errorf("logcat -c: %d %q", st, out)
	}
	if out, _ := sh(t, p, "logcat -d"); out != "" {
		t.Errorf("after -c: %q", out)
	}

	// Following: a start after logcat began shows up; the command ends with its client.
	ctx, cancel := context.WithCancel(t.Context())
	var buf lockedBuffer
	done := make(chan int)
	go func() {
		st, _ := p.Shell(ctx, `export ANDROID_LOG_TAGS="''" ; exec logcat -v threadtime`, &buf)
		done <- st
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "com.android.settings") {
		sh(t, p, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
		if time.Now().After(deadline) {
			t.Fatalf("following logcat printed %q", buf.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Contains(buf.String(), "not found") {
		t.Errorf("adb logcat's command line: %q", buf.String())
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("logcat did not end when its client went away")
	}
}
