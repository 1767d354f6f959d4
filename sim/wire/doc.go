// Package wire implements the two ADB wire faces of the virtual phone for any set of
// Device values:
//
//   - HostServer speaks the adb host protocol, i.e. what an adb server offers on TCP 5037
//     (host:version, host:devices[-l], host:transport:SERIAL, host-serial:SERIAL:get-state, …,
//     then shell:, exec: and sync: on the selected device). gadb connects straight to it.
//   - DeviceServer speaks the adbd device protocol (CNXN/OPEN/OKAY/WRTE/CLSE packets) over TCP,
//     so the real adb server can `adb connect` to it.
//
// The package knows nothing of apps: a Device runs command lines and serves files.
package wire
