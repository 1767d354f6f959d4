// Package interop holds the interoperability tests of the virtual phone: third-party adb
// clients from npm — @devicefarmer/adbkit and @mobilenext/mobile-mcp with both of its robots
// (its adb robot and mobilecli) — drive a phone through the real adb server, as they would
// drive a device, and every operation they report is checked against the phone; the real
// `adb install` installs real APKs, and a real Appium 3 server with its UiAutomator2 driver
// runs a session on the phone (TestAppium). The node
// scripts are in testdata; scripts/test.sh installs node's packages into
// ~/.cache/fairy/interop (or $FAIRY_INTEROP_DIR). The tests skip locally without node or the
// packages and fail when CI is set.
package interop
