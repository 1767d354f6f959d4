package sim_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// topLevel returns the package of each top-level <node> of a dump (children of <hierarchy>).
func topLevel(t *testing.T, dump string) []string {
	t.Helper()
	var pkgs []string
	depth := 0
	for _, m := range regexp.MustCompile(`<node [^>]*?(/?)>|</node>`).FindAllStringSubmatch(dump, -1) {
		switch {
		case m[0] == "</node>":
			depth--
		default:
			if depth == 0 {
				pkgs = append(pkgs, regexp.MustCompile(`package="([^"]*)"`).FindStringSubmatch(m[0])[1])
			}
			if m[1] == "" {
				depth++
			}
		}
	}
	return pkgs
}

// The classic dump writes the active window only — the app, or the dialog in front of it —
// to a file and to /dev/tty, as every classic capture of the corpus; the all-windows dump of
// the uiautomator2 server holds the status bar, the app, the keyboard and the navigation bar.
func TestClassicDumpIsActiveWindowOnly(t *testing.T) {
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	run := func(cmd string) string {
		var b bytes.Buffer
		if _, err := p.Shell(t.Context(), cmd, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	tty := strings.TrimSuffix(run("uiautomator dump /dev/tty"), "UI hierchary dumped to: /dev/tty\n")
	if got := topLevel(t, tty); len(got) != 1 || got[0] == "com.android.systemui" {
		t.Fatalf("classic /dev/tty dump has top-level windows %v, want the launcher's only", got)
	}
	if out := run("uiautomator dump"); out != "UI hierchary dumped to: /sdcard/window_dump.xml\n" {
		t.Fatalf("uiautomator dump said %q", out)
	}
	file, err := p.ReadFile("/sdcard/window_dump.xml")
	if err != nil || string(file) != tty {
		t.Fatalf("the file dump differs from the /dev/tty dump (%v)", err)
	}

	run("am start -n com.android.contacts/.activities.PeopleActivity")
	all := string(p.DumpAllWindows())
	if got := topLevel(t, all); strings.Join(got, ",") != "com.android.systemui,com.android.contacts,com.android.systemui" {
		t.Errorf("all-windows dump has top-level windows %v, want status bar, app, navigation bar", got)
	}
	// The openatx signature: visible-to-user before bounds, drawing-order, hint, display-id
	// after; two spaces a level; no trailing newline.
	first := regexp.MustCompile(`(?m)^  <node [^>]*>`).FindString(all)
	sig := regexp.MustCompile(`(\S+)="[^"]*"`).FindAllStringSubmatch(first, -1)
	var names []string
	for _, a := range sig {
		names = append(names, a[1])
	}
	corpus, err := os.ReadFile("../testdata/android-corpus/dumps/google-tasks-tablet-2windows-display-id.xml")
	if err != nil {
		t.Fatal(err)
	}
	real := regexp.MustCompile(`(\S+)="[^"]*"`).FindAllStringSubmatch(regexp.MustCompile(`<node [^>]*>`).FindString(string(corpus)), -1)
	var want []string
	for _, a := range real {
		want = append(want, a[1])
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("all-windows attributes\n got %v\nwant %v (the corpus's uiautomator2 capture)", names, want)
	}
	if !strings.HasPrefix(all, "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy rotation=\"0\">\n  <node ") || !strings.HasSuffix(all, "</node>\n</hierarchy>") {
		t.Errorf("all-windows layout differs from the uiautomator2 captures:\n%.200s … %s", all, all[len(all)-40:])
	}
	// A focused search field brings the keyboard: its window is in the all-windows dump, never
	// in the classic one.
	run("input tap 540 400")
	if cls := run("uiautomator dump /dev/tty"); strings.Contains(cls, "inputmethod") {
		t.Error("classic dump holds the keyboard window")
	}
}

// rpc posts one JSON-RPC call to a uiautomator2 server at addr and returns its result.
func rpc(t *testing.T, addr, method string) string {
	t.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":[false,50]}`, method)
	resp, err := http.Post("http://"+addr+"/jsonrpc/0", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("jsonrpc %s: %v", method, err)
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage
		Error  *struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("jsonrpc %s: %v", method, err)
	}
	if out.Error != nil {
		t.Fatalf("jsonrpc %s: %s", method, out.Error.Message)
	}
	var s string
	if err := json.Unmarshal(out.Result, &s); err != nil {
		return string(out.Result)
	}
	return s
}

// Through the real adb server: `adb forward` to the uiautomator2 port gives the all-windows
// dump over JSON-RPC; a forward to a port nobody listens on is refused (the connection
// closes with no byte); forward --list and --remove; reverse keeps its rules on the device;
// the framebuffer: service sends a version-2 header and the screen's pixels.
func TestSocketsThroughRealADBServer(t *testing.T) {
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
	srv := adbtest.Start(t)
	serial := srv.Connect(t, face.Addr().String())

	port := strings.TrimSpace(string(srv.Run(t, "-s", serial, "forward", "tcp:0", "tcp:9008")))
	if _, err := strconv.Atoi(port); err != nil {
		t.Fatalf("adb forward tcp:0 answered %q, want the port", port)
	}
	addr := "127.0.0.1:" + port
	if dump := rpc(t, addr, "dumpWindowHierarchy"); !bytes.Equal([]byte(dump), p.DumpAllWindows()) {
		t.Errorf("dumpWindowHierarchy through adb forward differs from the all-windows dump:\n%.300s", dump)
	}
	dead := strings.TrimSpace(string(srv.Run(t, "-s", serial, "forward", "tcp:0", "tcp:4444")))
	assertRefused(t, "127.0.0.1:"+dead)
	list := string(srv.Run(t, "forward", "--list"))
	if !strings.Contains(list, serial+" tcp:"+port+" tcp:9008\n") || !strings.Contains(list, " tcp:4444\n") {
		t.Errorf("adb forward --list:\n%s", list)
	}
	srv.Run(t, "-s", serial, "forward", "--remove", "tcp:"+dead)
	// The remote port ends its line; the local one, tcp:0's pick, may be 44443.
	if list := string(srv.Run(t, "forward", "--list")); strings.Contains(list, " tcp:4444\n") {
		t.Errorf("forward --remove left:\n%s", list)
	}

	srv.Run(t, "-s", serial, "reverse", "tcp:8081", "tcp:8081")
	if list := string(srv.Run(t, "-s", serial, "reverse", "--list")); !strings.Contains(list, "tcp:8081 tcp:8081") {
		t.Errorf("adb reverse --list:\n%s", list)
	}
	srv.Run(t, "-s", serial, "reverse", "--remove-all")
	if list := string(srv.Run(t, "-s", serial, "reverse", "--list")); strings.TrimSpace(list) != "" {
		t.Errorf("reverse --remove-all left:\n%s", list)
	}

	checkFramebuffer(t, framebufferVia(t, srv.Addr(), serial), p)
}

// assertRefused checks that a forwarded connection is closed before any byte comes back.
func assertRefused(t *testing.T, addr string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return // refused at connect: fine too
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = c.Write([]byte("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n"))
	if n, err := c.Read(make([]byte, 16)); err == nil || n > 0 {
		t.Errorf("a forward to a port nobody listens on answered (%d bytes, %v); want the connection closed", n, err)
	}
}

// framebufferVia opens framebuffer: on serial through the adb host protocol at hostAddr.
func framebufferVia(t *testing.T, hostAddr, serial string) []byte {
	t.Helper()
	c, err := net.Dial("tcp", hostAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	for _, req := range []string{"host:transport:" + serial, "framebuffer:"} {
		if _, err := fmt.Fprintf(c, "%04x%s", len(req), req); err != nil {
			t.Fatal(err)
		}
		st := make([]byte, 4)
		if _, err := io.ReadFull(c, st); err != nil || string(st) != "OKAY" {
			t.Fatalf("%s: %q %v", req, st, err)
		}
	}
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkFramebuffer checks the version-2 header and that the pixels are the screenshot's.
func checkFramebuffer(t *testing.T, b []byte, p *sim.Phone) {
	t.Helper()
	if len(b) < 56 {
		t.Fatalf("framebuffer: %d bytes", len(b))
	}
	h := make([]uint32, 14)
	for i := range h {
		h[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	want := []uint32{2, 32, 1, 1080 * 2400 * 4, 1080, 2400, 0, 8, 16, 8, 8, 8, 24, 8}
	if fmt.Sprint(h) != fmt.Sprint(want) {
		t.Fatalf("framebuffer header %v, want %v", h, want)
	}
	if len(b) != 56+int(h[3]) {
		t.Fatalf("framebuffer: %d pixel bytes, header says %d", len(b)-56, h[3])
	}
	shot, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range [][2]int{{10, 10}, {540, 1200}, {1000, 2350}} {
		r, g, bl, a := img.At(pt[0], pt[1]).RGBA()
		off := 56 + (pt[1]*1080+pt[0])*4
		got := b[off : off+4]
		if got[0] != byte(r>>8) || got[1] != byte(g>>8) || got[2] != byte(bl>>8) || got[3] != byte(a>>8) {
			t.Errorf("pixel %v: framebuffer %v, screencap %v", pt, got, []uint32{r >> 8, g >> 8, bl >> 8, a >> 8})
		}
	}
}

// The host face (what gadb reaches directly) answers forward, list-forward, killforward and
// framebuffer: as the adb server does.
func TestHostFaceForward(t *testing.T) {
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	host, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{p}})
	if err != nil {
		t.Fatal(err)
	}
	go host.Serve(t.Context())
	t.Cleanup(func() { host.Close() })
	query := func(req string) string {
		c, err := net.Dial("tcp", host.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "%04x%s", len(req), req)
		b, _ := io.ReadAll(c)
		return string(b)
	}
	got := query("host-serial:emulator-5554:forward:tcp:0;tcp:9008")
	m := regexp.MustCompile(`^OKAYOKAY[0-9a-f]{4}(\d+)$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("forward tcp:0 answered %q", got)
	}
	if dump := rpc(t, "127.0.0.1:"+m[1], "dumpWindowHierarchy"); !strings.Contains(dump, `package="com.android.systemui"`) {
		t.Errorf("dump through the host face's forward has no status bar:\n%.300s", dump)
	}
	if got := query("host:list-forward"); !strings.Contains(got, "emulator-5554 tcp:"+m[1]+" tcp:9008\n") {
		t.Errorf("list-forward answered %q", got)
	}
	if got := query("host-serial:emulator-5554:forward:norebind:tcp:" + m[1] + ";tcp:1"); !strings.HasPrefix(got, "FAIL") || !strings.Contains(got, "cannot rebind existing socket") {
		t.Errorf("forward norebind on a bound port answered %q", got)
	}
	if got := query("host-serial:emulator-5554:killforward:tcp:" + m[1]); got != "OKAYOKAY" {
		t.Errorf("killforward answered %q", got)
	}
	if got := query("host-serial:emulator-5554:killforward:tcp:1"); !strings.Contains(got, "listener 'tcp:1' not found") {
		t.Errorf("killforward of no listener answered %q", got)
	}
	if _, err := net.DialTimeout("tcp", "127.0.0.1:"+m[1], time.Second); err == nil {
		t.Error("the forward port still accepts after killforward")
	}
	checkFramebuffer(t, framebufferVia(t, host.Addr().String(), "emulator-5554"), p)
}
