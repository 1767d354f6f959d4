package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/electricbubble/gadb"
)

// startHost serves devs on a host face until the test ends.
func startHost(t testing.TB, devs ...Device) *HostServer {
	t.Helper()
	srv, err := NewHostServer(HostConfig{Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background()) }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return srv
}

func gadbClient(t testing.TB, addr net.Addr) gadb.Client {
	t.Helper()
	a := addr.(*net.TCPAddr)
	c, err := gadb.NewClientWith(a.IP.String(), a.Port)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func gadbDevice(t testing.TB, c gadb.Client, serial string) gadb.Device {
	t.Helper()
	devs, err := c.DeviceList()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range devs {
		if d.Serial() == serial {
			return d
		}
	}
	t.Fatalf("device %s not in DeviceList (%d devices)", serial, len(devs))
	return gadb.Device{}
}

// exerciseGadb drives every gadb call the agent uses against one device.
func exerciseGadb(t *testing.T, c gadb.Client, serial string) {
	d := gadbDevice(t, c, serial)
	if m, err := d.Model(); err != nil || m != "Fairy_Phone_1" {
		t.Errorf("Model() = %q, %v; want Fairy_Phone_1", m, err)
	}
	if p, err := d.Product(); err != nil || p != "sdk_fairy" {
		t.Errorf("Product() = %q, %v", p, err)
	}
	if st, err := d.State(); err != nil || st != gadb.StateOnline {
		t.Errorf("State() = %q, %v", st, err)
	}
	out, err := d.RunShellCommand("echo", "hello", "world")
	if err != nil || out != "hello world\n" {
		t.Errorf("echo = %q, %v", out, err)
	}
	want := blob(3<<20 + 17)
	raw, err := d.RunShellCommandWithBytes("blob " + strconv.Itoa(len(want)))
	if err != nil || !bytes.Equal(raw, want) {
		t.Errorf("blob: %d bytes (want %d), equal=%v, err %v", len(raw), len(want), bytes.Equal(raw, want), err)
	}
	out, err = d.RunShellCommand("frobnicate")
	if err != nil || out != "/system/bin/sh: frobnicate: not found\n" {
		t.Errorf("unknown command = %q, %v", out, err)
	}

	data := blob(1<<20 + 4321)
	mtime := time.Unix(1710000000, 0)
	if err := d.Push(bytes.NewReader(data), "/data/local/tmp/big.bin", mtime); err != nil {
		t.Fatalf("Push: %v", err)
	}
	var got bytes.Buffer
	if err := d.Pull("/data/local/tmp/big.bin", &got); err != nil || !bytes.Equal(got.Bytes(), data) {
		t.Errorf("Pull: %d bytes, equal=%v, err %v", got.Len(), bytes.Equal(got.Bytes(), data), err)
	}
	if err := d.Pull("/nope", io.Discard); err == nil || !strings.Contains(err.Error(), "No such file") {
		t.Errorf("Pull missing file: %v", err)
	}
	if err := d.Push(strings.NewReader("x"), "/no/dir/x", mtime); err == nil {
		t.Errorf("Push to a missing directory: no error")
	}
	list, err := d.List("/data/local/tmp")
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
		if e.Name == "big.bin" && (e.Size != uint32(len(data)) || !e.LastModified.Equal(mtime) || e.Mode.Perm() != 0o664 || e.IsDir()) {
			t.Errorf("List entry %+v", e)
		}
	}
	if all := strings.Join(names, ","); !strings.HasPrefix(all, ".,..,") || !strings.Contains(all, ",big.bin") {
		t.Errorf("List names = %v", names)
	}
}

func TestHostGadb(t *testing.T) {
	dev := newTestDoubleDevice("emulator-5554")
	srv := startHost(t, dev)
	c := gadbClient(t, srv.Addr())
	if v, err := c.ServerVersion(); err != nil || v != hostVersion {
		t.Errorf("ServerVersion = %d, %v", v, err)
	}
	if serials, err := c.DeviceSerialList(); err != nil || len(serials) != 1 || serials[0] != "emulator-5554" {
		t.Errorf("DeviceSerialList = %v, %v", serials, err)
	}
	exerciseGadb(t, c, dev.Serial())
}

func TestHostGadbConcurrentClients(t *testing.T) {
	devs := []Device{newTestDoubleDevice("phone-1"), newTestDoubleDevice("phone-2")}
	srv := startHost(t, devs...)
	c := gadbClient(t, srv.Addr())
	want := blob(200 << 10)
	var wg sync.WaitGroup
	errs := make(chan error, 16*4)
	for i := range 16 {
		wg.Go(func() {
			serial := devs[i%2].Serial()
			list, err := c.DeviceList()
			if err != nil || len(list) != 2 {
				errs <- fmt.Errorf("client %d: DeviceList %d, %v", i, len(list), err)
				return
			}
			d := list[i%2]
			for j := range 4 {
				out, err := d.RunShellCommand("echo", strconv.Itoa(i), strconv.Itoa(j))
				if err != nil || out != fmt.Sprintf("%d %d\n", i, j) {
					errs <- fmt.Errorf("client %d on %s: echo %q, %v", i, serial, out, err)
				}
			}
			raw, err := d.RunShellCommandWithBytes("blob " + strconv.Itoa(len(want)))
			if err != nil || !bytes.Equal(raw, want) {
				errs <- fmt.Errorf("client %d: blob %d bytes, %v", i, len(raw), err)
			}
			name := fmt.Sprintf("/sdcard/c%d", i)
			if err := d.Push(bytes.NewReader(want[:i*1000]), name, time.Now()); err != nil {
				errs <- fmt.Errorf("client %d: push: %v", i, err)
			}
			var got bytes.Buffer
			if err := d.Pull(name, &got); err != nil || !bytes.Equal(got.Bytes(), want[:i*1000]) {
				errs <- fmt.Errorf("client %d: pull %d bytes, %v", i, got.Len(), err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// hostQuery sends one request on a fresh connection and returns everything answered.
func hostQuery(t *testing.T, addr net.Addr, reqs ...string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	// Like a real client, wait for each transport switch's OKAY before the next request.
	var got []byte
	for i, r := range reqs {
		fmt.Fprintf(c, "%04x%s", len(r), r)
		if i == len(reqs)-1 {
			break
		}
		status := make([]byte, 4)
		if _, err := io.ReadFull(c, status); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		got = append(got, status...)
		if string(status) != "OKAY" {
			break
		}
		if strings.HasPrefix(r, "host:tport:") {
			id := make([]byte, 8)
			if _, err := io.ReadFull(c, id); err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			got = append(got, id...)
		}
	}
	b, _ := io.ReadAll(c)
	return string(append(got, b...))
}

func hex4(s string) string { return fmt.Sprintf("%04x%s", len(s), s) }

func TestHostProtocol(t *testing.T) {
	online := newTestDoubleDevice("127.0.0.1:5555")
	offline := newTestDoubleDevice("offline-1")
	offline.state = stateOffline
	unauth := newTestDoubleDevice("unauth-1")
	unauth.state = stateUnauthorized
	srv := startHost(t, online, offline, unauth)
	single := startHost(t, newTestDoubleDevice("solo"))

	tests := []struct {
		name string
		addr net.Addr
		reqs []string
		want string
	}{
		{"version", srv.Addr(), []string{"host:version"}, "OKAY" + hex4("0029")},
		{"devices", srv.Addr(), []string{"host:devices"}, "OKAY" + hex4("127.0.0.1:5555\tdevice\noffline-1\toffline\nunauth-1\tunauthorized\n")},
		{"devices-l", srv.Addr(), []string{"host:devices-l"}, "OKAY" + hex4(
			"127.0.0.1:5555         device product:sdk_fairy model:Fairy_Phone_1 device:fairy transport_id:1\n"+
				"offline-1              offline transport_id:2\n"+
				"unauth-1               unauthorized transport_id:3\n")},
		{"unknown serial", srv.Addr(), []string{"host:transport:nope"}, "FAIL" + hex4("device 'nope' not found")},
		{"offline", srv.Addr(), []string{"host:transport:offline-1"}, "FAIL" + hex4("device offline")},
		{"unauthorized", srv.Addr(), []string{"host:transport:unauth-1"}, "FAIL" + hex4("device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.")},
		{"transport-any ambiguous", srv.Addr(), []string{"host:transport-any"}, "FAIL" + hex4("more than one device/emulator")},
		{"transport-any single", single.Addr(), []string{"host:transport-any", "shell:echo hi"}, "OKAYOKAYhi\n"},
		{"transport-usb", single.Addr(), []string{"host:transport-usb"}, "FAIL" + hex4("no devices/emulators found")},
		{"tport", srv.Addr(), []string{"host:tport:serial:127.0.0.1:5555", "exec:echo x"}, "OKAY\x01\x00\x00\x00\x00\x00\x00\x00OKAYx\n"},
		{"get-state with colon serial", srv.Addr(), []string{"host-serial:127.0.0.1:5555:get-state"}, "OKAY" + hex4("device")},
		{"get-state offline", srv.Addr(), []string{"host-serial:offline-1:get-state"}, "OKAY" + hex4("offline")},
		{"get-state unknown", srv.Addr(), []string{"host-serial:zz:get-state"}, "FAIL" + hex4("device 'zz' not found")},
		{"get-serialno any", single.Addr(), []string{"host:get-serialno"}, "OKAY" + hex4("solo")},
		{"features", srv.Addr(), []string{"host-serial:unauth-1:features"}, "OKAY" + hex4("shell_v2,cmd")},
		{"unknown host service", srv.Addr(), []string{"host:frobnicate"}, "FAIL" + hex4("unknown host service")},
		{"unknown device service", single.Addr(), []string{"host:transport:solo", "reboot:"}, "OKAYFAIL" + hex4("closed")},
		{"shell exit code v2", single.Addr(), []string{"host:transport:solo", "shell,v2,raw:exit 3"}, "OKAYOKAY\x03\x01\x00\x00\x00\x03"},
		{"shell v1 no CRLF", single.Addr(), []string{"host:transport:solo", "shell:echo a"}, "OKAYOKAYa\n"},
		{"kill", single.Addr(), []string{"host:kill"}, "OKAY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hostQuery(t, tt.addr, tt.reqs...); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestHostShellV2Interactive(t *testing.T) {
	srv := startHost(t, newTestDoubleDevice("solo"))
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(c, hex4("host:transport:solo")+hex4("shell,v2,raw:"))
	// stdin: two commands, then close stdin.
	in := "echo one\nexit\n"
	pkt := append([]byte{0}, byte(len(in)), 0, 0, 0)
	c.Write(append(pkt, in...))
	b, _ := io.ReadAll(c)
	want := "OKAYOKAY\x01\x04\x00\x00\x00one\n\x03\x01\x00\x00\x00\x00"
	if string(b) != want {
		t.Errorf("got %q want %q", b, want)
	}
}

// TestHostBadInput sends each kind of bad input; the connection ends, and the server keeps
// serving other clients.
func TestHostBadInput(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	srv := startHost(t, dev)
	tests := []struct {
		name      string
		send      []byte
		halfClose bool // the client stops sending (it cannot be told apart from a slow one)
	}{
		{"garbage length", []byte("zzzzhost:version"), false},
		{"zero length", []byte("0000"), false},
		{"negative length", []byte("-001"), false},
		{"oversized request", []byte("ffff" + strings.Repeat("a", 100)), true},
		{"truncated", []byte("0010host:"), true},
		{"binary garbage", bytes.Repeat([]byte{0xff, 0x00, 0x13}, 1000), false},
		{"sync bad command", []byte(hex4("host:transport:solo") + hex4("sync:") + "ZZZZ\x00\x00\x00\x00"), false},
		{"sync oversized path", []byte(hex4("host:transport:solo") + hex4("sync:") + "STAT\xff\xff\xff\x00"), false},
		{"sync oversized data", []byte(hex4("host:transport:solo") + hex4("sync:") + "SEND\x0d\x00\x00\x00/sdcard/x,420" + "DATA\x00\x00\x10\x00"), false},
		{"sync bad mode", []byte(hex4("host:transport:solo") + hex4("sync:") + "SEND\x0d\x00\x00\x00/sdcard/x,4z0"), false},
		{"vanish mid-sync-send", []byte(hex4("host:transport:solo") + hex4("sync:") + "SEND\x0d\x00\x00\x00/sdcard/x,420" + "DATA\x10\x00\x00\x00abc"), false},
		{"vanish mid-shell", []byte(hex4("host:transport:solo") + hex4("shell:blob 9000000")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", srv.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			_ = c.SetDeadline(time.Now().Add(5 * time.Second))
			_, _ = c.Write(tt.send)
			if tt.halfClose {
				_ = c.(*net.TCPConn).CloseWrite()
			}
			if strings.HasPrefix(tt.name, "vanish") {
				if _, err := io.ReadFull(c, make([]byte, len("OKAYOKAY"))); err != nil {
					t.Errorf("service not started: %v", err)
				}
				c.Close()
			} else {
				// The server ends the connection: the read reaches EOF.
				if _, err := io.Copy(io.Discard, c); err != nil {
					t.Errorf("connection not ended by the server: %v", err)
				}
				c.Close()
			}
			if got := hostQuery(t, srv.Addr(), "host:transport:solo", "shell:echo ok"); got != "OKAYOKAYok\n" {
				t.Errorf("server unusable after bad input: %q", got)
			}
		})
	}
}

func TestHostCancelAndDrop(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	srv := startHost(t, dev)

	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(c, hex4("host:transport:solo")+hex4("shell:sleep 1"))
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); err != nil || line != "OKAYOKAYsleeping\n" {
		t.Fatalf("sleep started: %q, %v", line, err)
	}
	c.Close()
	select {
	case got := <-dev.cancelled:
		if got != "sleep 1" {
			t.Errorf("cancelled %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the client did not cancel the command")
	}

	// A drop fault: the client sees the partial output and then a reset, not an orderly end.
	c, err = net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, hex4("host:transport:solo")+hex4("shell:drop"))
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	b, err := io.ReadAll(c)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("drop fault: read %q, err %v; want a connection reset", b, err)
	}
}

func TestServerLifecycle(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewHostServer(HostConfig{Devices: []Device{dev}, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Addr().String() != ln.Addr().String() {
		t.Errorf("Addr %v, listener %v", srv.Addr(), ln.Addr())
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	// A command in flight when the server stops is cancelled and waited for.
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, hex4("host:transport:solo")+hex4("shell:sleep 2"))
	if _, err := io.ReadFull(c, make([]byte, len("OKAYOKAYsleeping\n"))); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	if err := srv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-dev.cancelled:
	default:
		t.Error("Close returned before the running command ended")
	}
	if err := srv.Serve(t.Context()); !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve after Close = %v", err)
	}
	if _, err := NewHostServer(HostConfig{}); !errors.Is(err, errNoDevice) {
		t.Errorf("NewHostServer without devices = %v", err)
	}
	if _, err := NewHostServer(HostConfig{Devices: []Device{dev, dev}}); err == nil {
		t.Error("NewHostServer with a serial twice: no error")
	}
}

// TestHostPushFromFile checks gadb's PushFile path (an *os.File source) byte-exact.
func TestHostPushFromFile(t *testing.T) {
	dev := newTestDoubleDevice("solo")
	srv := startHost(t, dev)
	d := gadbDevice(t, gadbClient(t, srv.Addr()), "solo")
	name := filepath.Join(t.TempDir(), "f.bin")
	data := blob(70000)
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := d.PushFile(f, "/sdcard/f.bin"); err != nil {
		t.Fatal(err)
	}
	if got, _ := dev.ReadFile("/sdcard/f.bin"); !bytes.Equal(got, data) {
		t.Errorf("pushed %d bytes, want %d", len(got), len(data))
	}
}

func BenchmarkHostShell(b *testing.B) {
	srv := startHost(b, newTestDoubleDevice("solo"))
	d := gadbDevice(b, gadbClient(b, srv.Addr()), "solo")
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		out, err := d.RunShellCommand("echo", "hi")
		if err != nil || out != "hi\n" {
			b.Fatalf("echo = %q, %v", out, err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/roundtrip")
}

// decodeV2 splits a shell-v2 stream into stdout text and the exit status (-1 if none).
func decodeV2(t *testing.T, b []byte) (string, int) {
	t.Helper()
	var out strings.Builder
	status := -1
	for len(b) >= 5 {
		n := int(b[1]) | int(b[2])<<8 | int(b[3])<<16 | int(b[4])<<24
		if len(b) < 5+n {
			t.Fatalf("truncated v2 packet")
		}
		switch b[0] {
		case 1:
			out.Write(b[5 : 5+n])
		case 3:
			status = int(b[5])
		}
		b = b[5+n:]
	}
	return out.String(), status
}

func TestHostShellV2Pty(t *testing.T) {
	srv := startHost(t, newTestDoubleDevice("solo"))
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(c, hex4("host:transport:solo")+hex4("shell,v2,TERM=xterm,pty:"))
	in := "echo hx\x7fi\rexit\r"
	c.Write(append([]byte{0, byte(len(in)), 0, 0, 0}, in...))
	b, _ := io.ReadAll(c)
	if !bytes.HasPrefix(b, []byte("OKAYOKAY")) {
		t.Fatalf("got %q", b)
	}
	out, status := decodeV2(t, b[8:])
	want := "fairy:/ $ echo hx\b \bi\r\nhi\r\nfairy:/ $ exit\r\n"
	if out != want || status != 0 {
		t.Errorf("pty session %q (status %d), want %q", out, status, want)
	}
}
