// Package adb is fairy's device layer: every phone operation the agent needs, spoken to
// an adb server (local or remote) over the adb host protocol.
//
// It is the only package that imports gadb (github.com/electricbubble/gadb), and it adds
// what gadb v0.1.0 lacks:
//
//   - a context on every call: a call's connection is closed when its context ends, so
//     deadlines and cancellation take effect at once;
//   - exit status and truncation: each shell command line is followed by a status marker
//     with a per-call nonce, so a device vanishing mid-command is ErrConnLost, never an
//     empty success, and a failing command is an *ExitError;
//   - typed errors for the adb server and device states (ErrServerDown, ErrNoDevice,
//     ErrMultipleDevices, ErrOffline, ErrUnauthorized, …), listing devices in every state,
//     which gadb's DeviceList drops;
//   - quoting: every argument reaches the device shell as one word, exactly as given; text
//     to type is untrusted and is typed verbatim (ASCII through `input text`, anything else
//     through ADB Keyboard's base64 broadcast) or refused with an error;
//   - observation with retries: `uiautomator dump` errors that exit 0 ("could not get idle
//     state") are detected and retried with back-off, screenshots are validated PNGs and an
//     all-black frame is flagged as a secure screen;
//   - a resident UI server (Appium's UiAutomator2 server, which InstallUIServer puts on the
//     phone for `fairy device setup`): when installed it is started and used for the page
//     source, the screenshot, the keyboard state, the idle wait of Settle, taps and key
//     presses, restarted when it dies and given up (one warning) for the classic commands;
//   - device time: every call is metered by operation (DeviceTime).
//
// Open a device with Open; *Device satisfies the executor's Device interface.
package adb
