package adb

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// Sentinel errors. Errors returned by this package wrap one of them (or ctx's error) with
// the operation named.
var (
	// ErrServerDown: the adb server does not answer on its host:port.
	// The error that wraps it says how to start the server on the port that was asked.
	ErrServerDown = errors.New("adb: server not reachable")
	// ErrNoDevice: the adb server lists no device.
	ErrNoDevice = errors.New("adb: no device: connect one (USB debugging on) or pass --serial")
	// ErrMultipleDevices: several devices are listed and none was chosen.
	ErrMultipleDevices = errors.New("adb: more than one device: choose one with --serial or ANDROID_SERIAL")
	// ErrDeviceNotFound: the chosen serial is not listed by the adb server.
	ErrDeviceNotFound = errors.New("adb: device not found")
	// ErrOffline: the device is listed as offline (or in another state than "device").
	ErrOffline = errors.New("adb: device offline: reconnect it or restart adb on the device")
	// ErrUnauthorized: the device has not accepted this computer's adb key.
	ErrUnauthorized = errors.New("adb: device unauthorized: accept the USB debugging prompt on the phone")
	// errConnLost: the connection ended before the command's status marker arrived (device
	// vanished, connection dropped or output truncated).
	errConnLost = errors.New("adb: connection lost before the command finished")
	// errProtocol: the adb server answered something this package does not understand.
	errProtocol = errors.New("adb: protocol error")
	// errCommandFailed is wrapped by *ExitError: a device command exited with a non-zero
	// status or reported an error.
	errCommandFailed = errors.New("adb: command failed")
	// errDump is wrapped by *DumpError: uiautomator could not dump the UI.
	errDump = errors.New("adb: ui dump failed")
	// errIdle is wrapped by *DumpError when the dumper reported "could not get idle state".
	errIdle = errors.New("adb: screen never idle")
	// errScreenshot: the screenshot is not a valid PNG.
	errScreenshot = errors.New("adb: bad screenshot")
	// ErrTextRefused: the text cannot be typed safely (invalid UTF-8, NUL or other control
	// characters, too long).
	ErrTextRefused = errors.New("adb: text refused")
	// errNoADBKeyboard: the text needs ADB Keyboard, which is not installed.
	errNoADBKeyboard = errors.New("adb: cannot type this text: install ADB Keyboard (com.android.adbkeyboard, " +
		"https://github.com/senzhk/ADBKeyBoard) on the device")
	// errTextMismatch is wrapped by *TextError: the field does not hold the typed text.
	errTextMismatch = errors.New("adb: typed text not in the field")
	// errDenied: a technician shell command outside the allow-list.
	errDenied = errors.New("adb: shell command denied")
	// ErrUnknownKey: a key name that is neither known nor a key code.
	ErrUnknownKey = errors.New("adb: unknown key")
	// ErrNoLauncher: the package has no launcher activity (or is not installed).
	ErrNoLauncher = errors.New("adb: no launcher activity")
	// errNotSettled: the screen kept changing until the settle bound.
	errNotSettled = errors.New("adb: screen did not settle")
	// ErrBadArgument: an argument out of range (negative coordinate, empty package, …).
	ErrBadArgument = errors.New("adb: bad argument")
	// errClosed: the Device was closed.
	errClosed = errors.New("adb: device closed")
)

// exitError is a device command that failed: non-zero exit status, or an error message
// from a command that exits 0 anyway.
type exitError struct {
	Serial  string
	Command string // the command line as sent (without the status marker)
	Status  int
	Output  string // combined output, trimmed to a few hundred bytes
}

func (e *exitError) Error() string {
	return fmt.Sprintf("adb %s: %q exited with status %d: %s", e.Serial, abbreviate(e.Command, 80), e.Status,
		abbreviate(strings.TrimSpace(e.Output), 300))
}

// Unwrap returns ErrCommandFailed.
func (e *exitError) Unwrap() error { return errCommandFailed }

// dumpError is a UI dump that failed after its retries.
type dumpError struct {
	Serial   string
	Attempts int
	Message  string // the dumper's message, e.g. "ERROR: could not get idle state."
	Idle     bool   // the idle-state error
}

func (e *dumpError) Error() string {
	return fmt.Sprintf("adb %s: ui dump failed after %d attempts: %s", e.Serial, e.Attempts, abbreviate(e.Message, 200))
}

// Unwrap returns ErrDump, and ErrIdle for the idle-state error.
func (e *dumpError) Unwrap() []error {
	if e.Idle {
		return []error{errDump, errIdle}
	}
	return []error{errDump}
}

// TextError reports that the focused field does not hold the typed text.
type TextError struct {
	Want string // the text typed
	Got  string // the focused field's text after typing ("" when no field was focused)
	Note string // why, when known
}

func (e *TextError) Error() string {
	msg := fmt.Sprintf("adb type text: field holds %q, want it to end with %q", abbreviate(e.Got, 120),
		abbreviate(e.Want, 120))
	if e.Note != "" {
		msg += " (" + e.Note + ")"
	}
	return msg
}

// Unwrap returns ErrTextMismatch.
func (e *TextError) Unwrap() error { return errTextMismatch }

func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// serverDown wraps ErrServerDown for the server at addr with how to start it there: `adb
// start-server` listens on 5037 only, so another port needs `adb -P PORT start-server`.
func serverDown(addr string, err error) error {
	start := "adb start-server"
	if _, port, perr := net.SplitHostPort(addr); perr == nil && port != "5037" {
		start = "adb -P " + port + " start-server"
	}
	return fmt.Errorf("%w (%s: %v): start it with `%s` or check --adb-host/--adb-port", ErrServerDown, addr, err, start)
}
