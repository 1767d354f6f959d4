package interop

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// interopFile returns a file of the npm packages scripts/test.sh installs (under
// $FAIRY_INTEROP_DIR/node_modules), skipping t without it (failing it under CI).
func interopFile(t *testing.T, rel string) string {
	t.Helper()
	dir := os.Getenv("FAIRY_INTEROP_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatalf("no home directory for ~/.cache/fairy/interop: %v", err)
		}
		dir = filepath.Join(home, ".cache", "fairy", "interop")
	}
	path := filepath.Join(dir, "node_modules", rel)
	if _, err := os.Stat(path); err != nil {
		testenv.Missing(t, "%s missing (bash scripts/test.sh installs it with npm): %v", path, err)
	}
	return path
}

const uiServerAPKs = "appium-uiautomator2-server/apks/"

// TestADBInstall installs real APKs (appium-uiautomator2-server's, from npm) with the real
// adb client through the real adb server: `adb install` streams the APK to `cmd package
// install -S SIZE` on the exec service, `adb install-multiple` goes through an install
// session (install-create, install-write, install-commit), and `adb shell … < FILE` feeds
// the v2 shell's stdin. The packages then list, their manifests' versions show in dumpsys,
// and a file that is no APK fails with pm's reason and a non-zero status.
func TestADBInstall(t *testing.T) {
	server := interopFile(t, uiServerAPKs+"appium-uiautomator2-server-v10.6.6.apk")
	test := interopFile(t, uiServerAPKs+"appium-uiautomator2-server-debug-androidTest.apk")
	srv := adbtest.Start(t)
	p, serial := phoneOnADB(t, srv)

	out, errOut, err := srv.Exec(t.Context(), nil, "-s", serial, "install", "-r", "-g", server)
	if err != nil || !strings.Contains(string(out), "Success") {
		t.Fatalf("adb install %s: %v\nstdout: %s\nstderr: %s", filepath.Base(server), err, out, errOut)
	}
	out, errOut, err = srv.Exec(t.Context(), nil, "-s", serial, "install-multiple", "-r", test)
	if err != nil || !strings.Contains(string(out), "Success") {
		t.Fatalf("adb install-multiple %s: %v\nstdout: %s\nstderr: %s", filepath.Base(test), err, out, errOut)
	}
	list := string(srv.Run(t, "-s", serial, "shell", "pm", "list", "packages", "-3"))
	for _, pkg := range []string{"io.appium.uiautomator2.server", "io.appium.uiautomator2.server.test"} {
		if !strings.Contains(list, "package:"+pkg+"\n") {
			t.Errorf("pm list packages -3 lacks %s:\n%s", pkg, list)
		}
	}
	if dump := string(srv.Run(t, "-s", serial, "shell", "dumpsys", "package", "io.appium.uiautomator2.server")); !strings.Contains(dump, "versionName=10.6.6") {
		t.Errorf("dumpsys package shows no versionName=10.6.6:\n%s", dump)
	}
	// The installed runner starts the emulated server.
	if _, _, err := srv.Exec(t.Context(), nil, "-s", serial, "shell", "am instrument -w io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner >/dev/null 2>&1 &"); err != nil {
		t.Fatalf("am instrument: %v", err)
	}
	if _, running := p.UIServerStarts(); !running {
		t.Error("the installed server does not run after am instrument")
	}

	// The v2 shell's stdin: cmd package install -S SIZE < FILE.
	fi, err := os.Stat(server)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(server)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, errOut, err = srv.Exec(t.Context(), f, "-s", serial, "shell", "cmd", "package", "install", "-r", "-S", strconv.FormatInt(fi.Size(), 10))
	if err != nil || strings.TrimSpace(string(out)) != "Success" {
		t.Errorf("adb shell cmd package install -S < APK: %v\nstdout: %q\nstderr: %s", err, out, errOut)
	}

	bad := filepath.Join(t.TempDir(), "notes.apk")
	if err := os.WriteFile(bad, []byte("not a zip file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err = srv.Exec(t.Context(), nil, "-s", serial, "install", bad)
	if err == nil || !strings.Contains(string(out)+string(errOut), "INSTALL_PARSE_FAILED_NOT_APK") {
		t.Errorf("adb install of a text file: %v\nstdout: %s\nstderr: %s", err, out, errOut)
	}
}
