package interop

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/testenv"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// nodeModules returns node's path and the node_modules directory holding the clients,
// skipping t (failing it under CI) when either is missing.
func nodeModules(t *testing.T) (node, modules string) {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts node and the real adb")
	missing := func(format string, a ...any) {
		t.Helper()
		testenv.Missing(t, format+" (bash scripts/test.sh installs it)", a...)
	}
	node = testenv.MustHaveProgram(t, "node")
	dir := os.Getenv("FAIRY_INTEROP_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			missing("no home directory for ~/.cache/fairy/interop: %v", err)
		}
		dir = filepath.Join(home, ".cache", "fairy", "interop")
	}
	modules = filepath.Join(dir, "node_modules")
	for _, pkg := range []string{"@devicefarmer/adbkit", "@mobilenext/mobile-mcp", "@modelcontextprotocol/sdk"} {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			missing("npm package %s not installed in %s", pkg, modules)
		}
	}
	return node, modules
}

// phoneOnADB serves a fresh phone on the adbd face and connects srv to it.
func phoneOnADB(t *testing.T, srv *adbtest.Server) (*sim.Phone, string) {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: p})
	if err != nil {
		t.Fatal(err)
	}
	go face.Serve(t.Context())
	t.Cleanup(func() { face.Close() })
	return p, srv.Connect(t, face.Addr().String())
}

// runNode runs a testdata script against the adb server at port and decodes its JSON line.
func runNode(t *testing.T, node, modules, script string, port int, extra []string, into any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", script))
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ADB_") && !strings.HasPrefix(kv, "ANDROID_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "NODE_PATH=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "NODE_PATH="+modules, "HOME="+t.TempDir(),
		"ADB_PORT="+strconv.Itoa(port), "ANDROID_ADB_SERVER_PORT="+strconv.Itoa(port))
	cmd.Env = append(cmd.Env, extra...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		t.Fatalf("node %s: %v\nstdout: %s\nstderr: %s", script, err, stdout.String(), stderr.String())
	}
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), into); err != nil {
		t.Fatalf("node %s printed no result: %v\nstdout: %s\nstderr: %s", script, err, stdout.String(), stderr.String())
	}
}

// adbkitResult is what testdata/adbkit.js prints.
type adbkitResult struct {
	Devices    []string
	Properties struct{ Release, Model, SDK string }
	Features   struct {
		Count       int
		Touchscreen bool
		GLES        string
	}
	Packages []string
	Shell    string
	Dump     struct {
		Head    string
		Trailer bool
	}
	Screencap struct {
		PNG           string
		Width, Height int
	}
	Framebuffer struct {
		Version, BPP, Bytes int
		PixelsSHA256        string
	}
	Push int
	Stat struct {
		Size   int
		ShMode string
		ShSize int
	}
	Pull struct {
		Bytes int
		Equal bool
	}
	Readdir        []string
	StartActivity  bool
	Focus          string
	Forward        []string
	Reverse        []string
	OpenTcpRefused string
	ProcStat       []string
}

// adbkit drives the phone through the real adb server: devices, properties, features,
// packages, shell, dump, screencap, framebuffer, 1 MiB push/stat/pull byte-exact, readdir,
// startActivity, forward/reverse with their lists, a refused device socket, /proc/stat.
func TestAdbkit(t *testing.T) {
	node, modules := nodeModules(t)
	srv := adbtest.Start(t)
	p, serial := phoneOnADB(t, srv)
	fb, err := p.Framebuffer()
	if err != nil {
		t.Fatal(err)
	}
	launcherPixels := sha256.Sum256(fb.Pix)

	var r adbkitResult
	runNode(t, node, modules, "adbkit.js", srv.Port, []string{"SERIAL=" + serial}, &r)

	if !slices.Contains(r.Devices, serial+" device") {
		t.Errorf("listDevices: %q", r.Devices)
	}
	if r.Properties.Release != "14" || r.Properties.SDK != "34" || r.Properties.Model != "sdk_gphone64_x86_64" {
		t.Errorf("getProperties: %+v", r.Properties)
	}
	if r.Features.Count < 40 || !r.Features.Touchscreen || r.Features.GLES != "0x30000" {
		t.Errorf("getFeatures: %+v", r.Features)
	}
	for _, pkg := range []string{"com.android.contacts", "com.fairy.shop", "com.android.settings"} {
		if !slices.Contains(r.Packages, pkg) {
			t.Errorf("getPackages lacks %s: %q", pkg, r.Packages)
		}
	}
	if r.Shell != "hello from adbkit\n" {
		t.Errorf("shell: %q", r.Shell)
	}
	if !strings.HasPrefix(r.Dump.Head, "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node ") || !r.Dump.Trailer {
		t.Errorf("uiautomator dump through shell: %+v", r.Dump)
	}
	if r.Screencap.PNG != "PNG" || r.Screencap.Width != 1080 || r.Screencap.Height != 2400 {
		t.Errorf("screencap: %+v", r.Screencap)
	}
	// adbkit reads a version-1 header (52 bytes); a version-2 frame has 56, so 4 header
	// bytes lead what it returns as pixels.
	if r.Framebuffer.Version != 2 || r.Framebuffer.BPP != 32 || r.Framebuffer.Bytes != 1080*2400*4+4 ||
		r.Framebuffer.PixelsSHA256 != hex.EncodeToString(launcherPixels[:]) {
		t.Errorf("framebuffer raw: %+v, want version 2, 32 bpp, the launcher's %d pixel bytes", r.Framebuffer, 1080*2400*4)
	}
	if r.Push != 1<<20 || r.Stat.Size != 1<<20 || !r.Pull.Equal || r.Pull.Bytes != 1<<20 {
		t.Errorf("push/stat/pull 1 MiB: push %d, stat %d, pull %+v", r.Push, r.Stat.Size, r.Pull)
	}
	if r.Stat.ShMode != "755" || r.Stat.ShSize == 0 {
		t.Errorf("sync stat /system/bin/sh: %+v", r.Stat)
	}
	if !slices.Contains(r.Readdir, "adbkit.bin") {
		t.Errorf("readdir /data/local/tmp: %q", r.Readdir)
	}
	if pkg, _ := p.Foreground(); !r.StartActivity || pkg != "com.android.contacts" || !strings.Contains(r.Focus, "com.android.contacts/") {
		t.Errorf("startActivity: %v, focus %q, phone shows %s", r.StartActivity, r.Focus, pkg)
	}
	if !slices.ContainsFunc(r.Forward, regexp.MustCompile(`^`+regexp.QuoteMeta(serial)+` tcp:\d+ tcp:9008$`).MatchString) {
		t.Errorf("forward + listForwards: %q", r.Forward)
	}
	if !slices.Contains(r.Reverse, "tcp:8081 tcp:8082") {
		t.Errorf("reverse + listReverses: %q", r.Reverse)
	}
	if !strings.HasPrefix(r.OpenTcpRefused, "refused:") {
		t.Errorf("openTcp to a device port nobody listens on: %s", r.OpenTcpRefused)
	}
	if !slices.Equal(r.ProcStat, []string{"cpu0", "cpu1", "cpu2", "cpu3"}) {
		t.Errorf("openProcStat loads: %q", r.ProcStat)
	}
}

// mcpResult is what testdata/mcp.js prints.
type mcpResult struct {
	Devices  string
	ListApps struct {
		Error bool
		Text  string
	}
	Orientation    string
	SaveScreenshot string
	ScreenshotFile struct {
		PNG           string
		Width, Height int
	}
	TakeScreenshot *struct {
		MimeType string
		Bytes    int
	}
	Launch                   string
	ForegroundAfterLaunch    string
	Elements                 []string
	Tap, Type                string
	ElementsAfterTyping      []string
	Terminate                string
	ForegroundAfterTerminate string
}

// mobile-mcp with both robots: list devices, list apps, orientation, screenshots (saved and
// taken), launch, list elements, tap the search field by element (by ref on mobilecli, by
// its coordinates on the adb robot), type, terminate. mobilecli lists apps with a helper it
// pushes and starts with app_process, which cannot run on a virtual phone: that call must
// end in mobilecli's own clean error ("device server did not start"), not a hang.
func TestMobileMCP(t *testing.T) {
	node, modules := nodeModules(t)
	srv := adbtest.Start(t)
	for _, robot := range []string{"adb", "mobilecli"} {
		t.Run(robot, func(t *testing.T) {
			p, serial := phoneOnADB(t, srv)
			var r mcpResult
			runNode(t, node, modules, "mcp.js", srv.Port, []string{"SERIAL=" + serial, "ROBOT=" + robot}, &r)

			if !strings.Contains(r.Devices, `"id":"`+serial+`"`) || !strings.Contains(r.Devices, `"platform":"android"`) {
				t.Errorf("list devices: %s", r.Devices)
			}
			switch robot {
			case "adb":
				if r.ListApps.Error || !strings.Contains(r.ListApps.Text, "(com.android.contacts)") || !strings.Contains(r.ListApps.Text, "(com.fairy.shop)") {
					t.Errorf("list apps: %+v", r.ListApps)
				}
			case "mobilecli":
				if !r.ListApps.Error || !strings.Contains(r.ListApps.Text, "device server did not start") {
					t.Errorf("list apps: %+v, want mobilecli's own error that its helper did not start", r.ListApps)
				}
			}
			if !strings.Contains(r.Orientation, "portrait") {
				t.Errorf("orientation: %q", r.Orientation)
			}
			if r.ScreenshotFile.PNG != "PNG" || r.ScreenshotFile.Width != 1080 || r.ScreenshotFile.Height != 2400 {
				t.Errorf("save screenshot: %q %+v", r.SaveScreenshot, r.ScreenshotFile)
			}
			if r.TakeScreenshot == nil || r.TakeScreenshot.Bytes < 1000 || !strings.HasPrefix(r.TakeScreenshot.MimeType, "image/") {
				t.Errorf("take screenshot: %+v", r.TakeScreenshot)
			}
			if !strings.Contains(r.Launch, "com.android.contacts") {
				t.Errorf("launch: %q", r.Launch)
			}
			if robot == "mobilecli" && !strings.Contains(r.ForegroundAfterLaunch, "com.android.contacts") {
				t.Errorf("foreground after launch: %q", r.ForegroundAfterLaunch)
			}
			for _, want := range []string{"Search contacts", "Alice Chen", "Bob Smith"} {
				if !slices.Contains(r.Elements, want) {
					t.Errorf("list elements lacks %q: %q", want, r.Elements)
				}
			}
			if !slices.Contains(r.ElementsAfterTyping, "Bob Smith") || slices.Contains(r.ElementsAfterTyping, "Alice Chen") {
				t.Errorf("after tapping the search field (%q) and typing bob (%q) the list shows %q", r.Tap, r.Type, r.ElementsAfterTyping)
			}
			if pkg, _ := p.Foreground(); !strings.Contains(r.Terminate, "com.android.contacts") || pkg == "com.android.contacts" {
				t.Errorf("terminate: %q, phone shows %s", r.Terminate, pkg)
			}
		})
	}
}

// webdriverResult is what testdata/webdriver.js prints.
type webdriverResult struct {
	Session  struct{ ID string }
	Status   bool
	Settings int
	Source   struct {
		Head        string
		HasSettings bool
		Bytes       int
	}
	Screenshot struct {
		Magic         string
		Width, Height int
	}
	WindowSize struct{ Width, Height int }
	Text       string
	Rect       struct{ X, Y, Width, Height int }
	Missing    string
	Click      bool
	Keyboard   bool
	After      bool
	Delete     bool
}

// TestWebdriver drives the phone's emulated Appium UiAutomator2 server with webdriverio's
// `webdriver` client: the server is started as Appium starts it (am instrument -w through
// the real adb server) and reached through `adb forward`; the client opens a session,
// changes a setting, reads the page source and a screenshot, finds an element (and fails
// to find a missing one), reads its text and rect, clicks it and closes the session.
func TestWebdriver(t *testing.T) {
	node, modules := nodeModules(t)
	if _, err := os.Stat(filepath.Join(modules, "webdriver", "package.json")); err != nil {
		testenv.Missing(t, "npm package webdriver not installed in %s (bash scripts/test.sh installs it)", modules)
	}
	srv := adbtest.Start(t)
	p, err := sim.New(sim.Config{Seed: 1, UIServer: true})
	if err != nil {
		t.Fatal(err)
	}
	face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: p})
	if err != nil {
		t.Fatal(err)
	}
	go face.Serve(t.Context())
	t.Cleanup(func() { face.Close() })
	serial := srv.Connect(t, face.Addr().String())

	if out, _, err := srv.Exec(t.Context(), nil, "-s", serial, "shell", "nohup am instrument -w -e disableAnalytics true "+sim.UIServerRunner+" >/dev/null 2>&1 &"); err != nil {
		t.Fatalf("am instrument: %v %s", err, out)
	}
	if _, running := p.UIServerStarts(); !running {
		t.Fatal("the server does not run after am instrument")
	}
	out, _, err := srv.Exec(t.Context(), nil, "-s", serial, "forward", "tcp:0", "tcp:"+strconv.Itoa(sim.UIServerPort))
	if err != nil {
		t.Fatalf("adb forward: %v", err)
	}
	port := strings.TrimSpace(string(out))

	var r webdriverResult
	runNode(t, node, modules, "webdriver.js", srv.Port, []string{"UIA2_PORT=" + port}, &r)

	if r.Session.ID == "" || !r.Status || r.Settings != 1500 {
		t.Errorf("session %q, status %v, waitForIdleTimeout %d", r.Session.ID, r.Status, r.Settings)
	}
	if !strings.Contains(r.Source.Head, `<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">`) || !r.Source.HasSettings {
		t.Errorf("page source: %+v", r.Source)
	}
	if r.Screenshot.Magic != "PNG" || r.Screenshot.Width != 1080 || r.Screenshot.Height != 2400 {
		t.Errorf("screenshot: %+v", r.Screenshot)
	}
	if r.WindowSize.Width != 1080 || r.WindowSize.Height != 2400 {
		t.Errorf("window rect: %+v", r.WindowSize)
	}
	if r.Text != "Settings" || r.Rect.Width == 0 || r.Rect.Height == 0 {
		t.Errorf("element text %q rect %+v", r.Text, r.Rect)
	}
	if !strings.Contains(strings.ToLower(r.Missing), "no such element") {
		t.Errorf("finding a missing element: %q, want no such element", r.Missing)
	}
	if pkg, _ := p.Foreground(); !r.Click || pkg != "com.android.settings" || !r.After {
		t.Errorf("click on Settings: %v, phone shows %s, source after shows settings %v", r.Click, pkg, r.After)
	}
	if r.Keyboard || !r.Delete {
		t.Errorf("keyboard shown %v, delete session %v", r.Keyboard, r.Delete)
	}
}
