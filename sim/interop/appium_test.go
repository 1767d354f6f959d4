package interop

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/adbtest"
)

// appiumResult is what testdata/appium.js prints.
type appiumResult struct {
	Session    struct{ ID, PlatformName, DeviceUDID string }
	Find       map[string]string
	Text       string
	Click      bool
	After      bool
	Back       bool
	FieldClass string
	Typed      string
	Logcat     []string
	Delete     bool
}

// startAppium starts the real Appium server from the interop cache on a free port, with
// the uiautomator2 driver installed next to it (APPIUM_HOME is the cache: Appium finds a
// driver that is a dependency of the project it runs in) and an Android SDK directory
// whose platform-tools hold the adb binary. It is killed when the test ends.
func startAppium(t *testing.T, node, modules string) int {
	t.Helper()
	main := interopFile(t, "appium/index.js")
	interopFile(t, "appium-uiautomator2-driver/package.json")
	adb := adbtest.Binary(t)
	sdk := t.TempDir()
	if err := os.MkdirAll(filepath.Join(sdk, "platform-tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(adb, filepath.Join(sdk, "platform-tools", "adb")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	logPath := filepath.Join(t.TempDir(), "appium.log")
	cmd := exec.Command(node, main, "--address", "127.0.0.1", "--port", strconv.Itoa(port), "--log-level", "debug", "--log", logPath, "--log-no-colors")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADB_") && !strings.HasPrefix(kv, "ANDROID_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "APPIUM_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "APPIUM_HOME="+filepath.Dir(modules), "ANDROID_HOME="+sdk, "ANDROID_SDK_ROOT="+sdk, "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatalf("start appium: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				const tail = 30000
				if len(b) > tail {
					b = b[len(b)-tail:]
				}
				t.Logf("appium log (end):\n%s", b)
			}
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/status", port), nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return port
			}
		}
		select {
		case <-done:
			t.Fatalf("appium exited before it answered /status")
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("appium did not answer /status on port %d within 90 s", port)
		}
	}
}

// TestAppium points a real Appium 3 server with its UiAutomator2 driver at the virtual
// phone through the real adb server, as a user's test suite would: the session starts
// (the driver installs Appium Settings and the server's APKs with adb install, sets app
// ops, allows a notification listener, starts the helper, captures logcat and starts the
// server with am instrument -w behind adb forward), an element is found and clicked and
// the phone's state changes, Back returns to the launcher, text typed into a search field
// lands in the phone's field, the session's logcat holds the phone's log, and the session
// ends.
func TestAppium(t *testing.T) {
	node, modules := nodeModules(t)
	interopFile(t, "webdriver/package.json")
	srv := adbtest.Start(t)
	p, serial := phoneOnADB(t, srv)
	port := startAppium(t, node, modules)

	var r appiumResult
	runNode(t, node, modules, "appium.js", srv.Port, []string{"APPIUM_PORT=" + strconv.Itoa(port), "SERIAL=" + serial}, &r)

	if r.Session.ID == "" || r.Session.PlatformName != "Android" || r.Session.DeviceUDID != serial {
		t.Errorf("session: %+v", r.Session)
	}
	if r.Text != "Settings" {
		t.Errorf("element text %q, want Settings", r.Text)
	}
	if !r.Click || !r.After {
		t.Errorf("click on Settings: %v, source after shows settings %v", r.Click, r.After)
	}
	if pkg, _ := p.Foreground(); pkg != "com.android.contacts" {
		t.Errorf("the phone shows %s at the end, want the contacts the session opened", pkg)
	}
	if !r.Back {
		t.Error("after Back the page source does not show the launcher")
	}
	if r.FieldClass != "android.widget.EditText" || r.Typed != "Ali" {
		t.Errorf("the contacts search field: class %q, text after typing Ali %q", r.FieldClass, r.Typed)
	}
	if dump := string(srv.Run(t, "-s", serial, "shell", "uiautomator", "dump", "/dev/tty")); !strings.Contains(dump, `text="Ali" resource-id="com.android.contacts:id/search_view"`) {
		t.Errorf("the phone's search field does not hold Ali:\n%s", dump)
	}
	if !slices.ContainsFunc(r.Logcat, func(m string) bool {
		return strings.Contains(m, "START u0") && strings.Contains(m, "com.android.settings")
	}) {
		t.Errorf("the session's logcat has no start of Settings: %q", r.Logcat)
	}
	if !r.Delete {
		t.Error("delete session failed")
	}
	if starts, _ := p.UIServerStarts(); starts == 0 {
		t.Error("the driver never started the UiAutomator2 server")
	}
	list := string(srv.Run(t, "-s", serial, "shell", "pm", "list", "packages", "-3"))
	for _, pkg := range []string{"io.appium.settings", "io.appium.uiautomator2.server", "io.appium.uiautomator2.server.test"} {
		if !strings.Contains(list, "package:"+pkg+"\n") {
			t.Errorf("after the session pm list packages -3 lacks %s:\n%s", pkg, list)
		}
	}
}
