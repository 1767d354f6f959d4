package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// uiServerAPKsForTest returns the real APKs of appium-uiautomator2-server from the npm
// cache scripts/test.sh fills (FAIRY_INTEROP_DIR), skipping (failing under CI) without it.
func uiServerAPKsForTest(t *testing.T) []string {
	t.Helper()
	dir := os.Getenv("FAIRY_INTEROP_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "fairy", "interop")
	}
	apks := filepath.Join(dir, "node_modules", "appium-uiautomator2-server", "apks")
	out := []string{filepath.Join(apks, "appium-uiautomator2-server-v"+uiServerVersion+".apk"), filepath.Join(apks, "appium-uiautomator2-server-debug-androidTest.apk")}
	for _, f := range out {
		if _, err := os.Stat(f); err != nil {
			testenv.Missing(t, "%v (bash scripts/test.sh installs appium-uiautomator2-server@%s with npm)", err, uiServerVersion)
		}
	}
	return out
}

// TestDeviceSetup: `fairy device setup --apk … --apk …` installs the real APKs of Appium's
// UiAutomator2 server on the virtual phone through the real adb server (push, pm install),
// starts it (am instrument -w under nohup) and checks it through `adb forward`; a device
// opened afterwards reads the screen through the server without starting it again.
func TestDeviceSetup(t *testing.T) {
	apks := uiServerAPKsForTest(t)
	srv := adbtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	serial := servePhone(t, srv, phone)
	target := func() deviceTarget { return deviceTarget{Host: "127.0.0.1", Port: srv.Port, Serial: serial} }

	setup := func(args ...string) (string, error) {
		cmd := newDeviceCmd(target)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(append([]string{"setup"}, args...))
		err := cmd.ExecuteContext(t.Context())
		return out.String(), err
	}
	var ee *exitError
	if _, err := setup("--apk", apks[0]); !errors.As(err, &ee) || ee.code != exitUsage {
		t.Errorf("setup with one APK = %v, want a usage error", err)
	}
	if starts, _ := phone.UIServerStarts(); starts != 0 {
		t.Fatalf("server started %d times before setup", starts)
	}
	out, err := setup("--apk", apks[0], "--apk", apks[1])
	if err != nil {
		t.Fatalf("setup: %v\n%s", err, out)
	}
	if !strings.Contains(out, "installed "+adb.UIServerPackage) || !strings.Contains(out, "tcp:"+strconv.Itoa(adb.UIServerPort)+" answers /status") {
		t.Errorf("setup said:\n%s", out)
	}
	starts, running := phone.UIServerStarts()
	if starts != 1 || !running {
		t.Fatalf("after setup: starts %d running %v, want 1 true (resident after the command ended)", starts, running)
	}
	forwards, _, err := srv.Exec(t.Context(), nil, "-s", serial, "forward", "--list")
	if err != nil || !strings.Contains(string(forwards), "tcp:"+strconv.Itoa(adb.UIServerPort)) {
		t.Errorf("adb forward --list = %q, %v", forwards, err)
	}

	d, err := adb.Open(t.Context(), adbConfig(target()))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(context.Background())
	if _, err := d.Dump(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !d.UIServerActive() {
		t.Error("the device does not read through the server setup started")
	}
	if starts, _ := phone.UIServerStarts(); starts != 1 {
		t.Errorf("the device started the resident server again (%d starts)", starts)
	}

	// A file that is not an APK is refused with the phone's answer, nothing installed.
	bad := filepath.Join(t.TempDir(), "not.apk")
	if err := os.WriteFile(bad, []byte("not a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := setup("--apk", bad, "--apk", apks[1]); err == nil || !strings.Contains(err.Error(), "INSTALL_PARSE_FAILED_NOT_APK") {
		t.Errorf("setup with a broken APK = %v\n%s", err, out)
	}
}
