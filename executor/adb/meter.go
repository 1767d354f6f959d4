package adb

import (
	"context"
	"strings"
	"sync"
	"time"
)

// DeviceTime is how long the device kept its caller waiting: Busy is the time at least one
// call was in flight (concurrent calls count once); Ops splits the calls by operation
// (concurrent ones each count their own time, so Ops may add up to more than Busy).
type DeviceTime struct {
	Busy time.Duration
	Ops  map[string]OpTime
}

// OpTime is the calls of one operation: how many and their summed duration.
type OpTime struct {
	Calls int
	Time  time.Duration
}

// Operations the meter names.
const (
	opSettle     = "settle"     // Settle, with the dumps or source it ran
	opDump       = "dump"       // uiautomator dump
	OpSource     = "source"     // the resident server's page source
	opScreenshot = "screenshot" // screencap, or the server's screenshot
	opKeyboard   = "keyboard"   // dumpsys input_method, or the server's answer
	opForeground = "foreground" // dumpsys activity/window
	opInput      = "input"      // input tap|swipe|keyevent|text, ADB Keyboard
	opLaunch     = "launch"     // am start, monkey
	opServer     = "ui-server"  // the server's probe, start and session
	opShell      = "shell"      // anything else
)

// meter accumulates DeviceTime.
type meter struct {
	mu       sync.Mutex
	inflight int
	since    time.Time
	busy     time.Duration
	ops      map[string]OpTime
}

// meterKey marks a context whose calls are metered by an enclosing operation (Settle).
type meterKey struct{}

// begin starts metering op; the returned func ends it. Calls under an operation that is
// already metered (ctx marked) are not counted again.
func (d *Device) begin(ctx context.Context, op string) func() {
	if ctx.Value(meterKey{}) != nil {
		return func() {}
	}
	m := &d.meter
	now := time.Now()
	m.mu.Lock()
	if m.inflight == 0 {
		m.since = now
	}
	m.inflight++
	m.mu.Unlock()
	return func() {
		end := time.Now()
		m.mu.Lock()
		defer m.mu.Unlock()
		m.inflight--
		if m.inflight == 0 {
			m.busy += end.Sub(m.since)
		}
		if m.ops == nil {
			m.ops = map[string]OpTime{}
		}
		o := m.ops[op]
		o.Calls++
		o.Time += end.Sub(now)
		m.ops[op] = o
	}
}

// deviceTime returns the device time metered since the device was opened (or the last
// ResetDeviceTime); a call still in flight counts up to now.
func (d *Device) DeviceTime() DeviceTime {
	m := &d.meter
	m.mu.Lock()
	defer m.mu.Unlock()
	t := DeviceTime{Busy: m.busy, Ops: make(map[string]OpTime, len(m.ops))}
	if m.inflight > 0 {
		t.Busy += time.Since(m.since)
	}
	for k, v := range m.ops {
		t.Ops[k] = v
	}
	return t
}

// ResetDeviceTime starts the meter again from zero.
func (d *Device) ResetDeviceTime() {
	m := &d.meter
	m.mu.Lock()
	defer m.mu.Unlock()
	m.busy, m.ops = 0, nil
	if m.inflight > 0 {
		m.since = time.Now()
	}
}

// shellOp names the operation of a shell command line.
func shellOp(cmdline string) string {
	s := strings.TrimSpace(cmdline)
	switch {
	case strings.Contains(s, "uiautomator dump"):
		return opDump
	case strings.HasPrefix(s, "screencap"):
		return opScreenshot
	case strings.Contains(s, "dumpsys input_method"):
		return opKeyboard
	case strings.HasPrefix(s, "dumpsys activity") || strings.HasPrefix(s, "dumpsys window"):
		return opForeground
	case strings.HasPrefix(s, "input ") || strings.Contains(s, "ADB_INPUT"):
		return opInput
	case strings.HasPrefix(s, "am start") || strings.HasPrefix(s, "monkey"):
		return opLaunch
	case strings.Contains(s, UIServerPackage):
		return opServer
	}
	return opShell
}

// serverOp names the operation of a request to the resident server.
func serverOp(path string) string {
	switch {
	case strings.HasSuffix(path, "/source"):
		return OpSource
	case strings.HasSuffix(path, "/screenshot"):
		return opScreenshot
	case strings.HasSuffix(path, "/is_keyboard_shown"):
		return opKeyboard
	case strings.HasSuffix(path, "/click") || strings.HasSuffix(path, "/press_keycode"):
		return opInput
	}
	return opServer
}
