package wire

import (
	"bytes"
	"context"
	"errors"
	"github.com/electricbubble/gadb"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/adbtest"
)

// startDevice serves dev on a device face until the test ends.
func startDevice(t testing.TB, dev Device) *DeviceServer {
	t.Helper()
	srv, err := NewDeviceServer(DeviceConfig{Device: dev})
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

func TestDeviceRealAdb(t *testing.T) {
	adbtest.Binary(t) // skips (under -short, or without adb) before the face serves
	dev := newTestDoubleDevice("unused")
	face := startDevice(t, dev)
	adb := adbtest.Start(t)
	serial := adb.Connect(t, face.Addr().String())

	t.Run("devices -l", func(t *testing.T) {
		out := string(adb.Run(t, "devices", "-l"))
		if !strings.Contains(out, serial) || !strings.Contains(out, "model:Fairy_Phone_1") || !strings.Contains(out, "product:sdk_fairy") {
			t.Errorf("adb devices -l:\n%s", out)
		}
	})
	t.Run("shell echo", func(t *testing.T) {
		if out := string(adb.Run(t, "-s", serial, "shell", "echo", "hello")); out != "hello\n" {
			t.Errorf("adb shell echo = %q", out)
		}
	})
	t.Run("shell exit code", func(t *testing.T) {
		_, _, err := adb.Exec(t.Context(), nil, "-s", serial, "shell", "exit 7")
		var ee *exec.ExitError
		if !errors_As(err, &ee) || ee.ExitCode() != 7 {
			t.Errorf("adb shell 'exit 7': %v", err)
		}
	})
	t.Run("shell with commands on stdin", func(t *testing.T) {
		out, errOut, err := adb.Exec(t.Context(), strings.NewReader("echo a\necho b\nexit 0\n"), "-s", serial, "shell")
		if err != nil || string(out) != "a\nb\n" {
			t.Errorf("adb shell < script: %q %q %v", out, errOut, err)
		}
	})
	t.Run("exec-out binary", func(t *testing.T) {
		for _, n := range []int{0, 1, 1 << 20, 3<<20 + 5} {
			want := blob(n)
			if got := adb.Run(t, "-s", serial, "exec-out", "blob "+strconv.Itoa(n)); !bytes.Equal(got, want) {
				t.Errorf("exec-out blob %d: got %d bytes, equal=%v", n, len(got), bytes.Equal(got, want))
			}
		}
	})
	t.Run("many small writes", func(t *testing.T) {
		out := adb.Run(t, "-s", serial, "exec-out", "lines 500")
		if n := bytes.Count(out, []byte("\n")); n != 500 {
			t.Errorf("lines: %d", n)
		}
	})
	t.Run("push pull", func(t *testing.T) {
		dir := t.TempDir()
		for _, n := range []int{0, 100, 64 << 10, 1<<20 + 3, 3 << 20} {
			local := filepath.Join(dir, "in"+strconv.Itoa(n))
			data := blob(n)
			if err := os.WriteFile(local, data, 0o640); err != nil {
				t.Fatal(err)
			}
			remote := "/data/local/tmp/f" + strconv.Itoa(n)
			adb.Run(t, "-s", serial, "push", local, remote)
			if got, err := dev.ReadFile(remote); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("push %d: device has %d bytes, %v", n, len(got), err)
			}
			back := filepath.Join(dir, "out"+strconv.Itoa(n))
			adb.Run(t, "-s", serial, "pull", remote, back)
			if got, err := os.ReadFile(back); err != nil || !bytes.Equal(got, data) {
				t.Errorf("pull %d: %d bytes, %v", n, len(got), err)
			}
		}
		// Push into a directory takes the local base name.
		adb.Run(t, "-s", serial, "push", filepath.Join(dir, "in100"), "/sdcard/")
		if _, err := dev.ReadFile("/sdcard/in100"); err != nil {
			t.Errorf("push into a directory: %v", err)
		}
		out, errOut, err := adb.Exec(t.Context(), nil, "-s", serial, "pull", "/sdcard/missing", dir)
		if err == nil || !strings.Contains(string(out)+string(errOut), "does not exist") {
			t.Errorf("pull of a missing file: %v %q %q", err, out, errOut)
		}
		if out := string(adb.Run(t, "-s", serial, "ls", "/sdcard")); !strings.Contains(out, "hello.txt") {
			t.Errorf("adb ls: %q", out)
		}
	})
	t.Run("host CLSE cancels", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		cmd := adb.Command(ctx, "-s", serial, "exec-out", "sleep 30")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len("sleeping\n"))
		if _, err := io_ReadFull(stdout, buf); err != nil {
			t.Fatalf("sleep did not start: %v", err)
		}
		cancel() // kills the adb client: its server closes the stream with CLSE
		_ = cmd.Wait()
		select {
		case got := <-dev.cancelled:
			if got != "sleep 30" {
				t.Errorf("cancelled %q", got)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the stream's CLSE did not cancel the command")
		}
	})
	t.Run("unknown service", func(t *testing.T) {
		// The real server forwards OPEN; the face answers CLSE(0, id); the server says "closed".
		if got := hostQuery(t, addrOf(t, adb.Addr()), "host:transport:"+serial, "framebuffer:"); got != "OKAYFAIL"+hex4("closed") {
			t.Errorf("unknown service through adb: %q", got)
		}
	})
	t.Run("gadb through the real server", func(t *testing.T) {
		c, err := gadbNewClient(adb.Port)
		if err != nil {
			t.Fatal(err)
		}
		exerciseGadb(t, c, serial)
	})
	// The face serves other phones' work untouched after each kind of bad input.
	if out := string(adb.Run(t, "-s", serial, "shell", "echo", "still")); out != "still\n" {
		t.Errorf("after the tests: %q", out)
	}
}

var (
	errors_As   = errors.As
	io_ReadFull = io.ReadFull
)

func gadbNewClient(port int) (gadb.Client, error) { return gadb.NewClientWith("127.0.0.1", port) }

func addrOf(t *testing.T, s string) net.Addr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestDeviceDropRealAdb: a drop fault cuts the connection; the real server lists the device
// offline, reconnects by itself, and the phone serves again.
func TestDeviceDropRealAdb(t *testing.T) {
	adbtest.Binary(t) // skips (under -short, or without adb) before the face serves
	dev := newTestDoubleDevice("unused")
	face := startDevice(t, dev)
	adb := adbtest.Start(t)
	serial := adb.Connect(t, face.Addr().String())
	out, errOut, _ := adb.Exec(t.Context(), nil, "-s", serial, "shell", "drop")
	if string(out) != "partial" {
		t.Errorf("adb shell drop: %q %q", out, errOut)
	}
	if st, err := adb.State(serial); err != nil || st == "device" {
		t.Errorf("right after the drop the device is %q (%v), want it offline", st, err)
	}
	adb.WaitState(t, serial, "device")
	if out := string(adb.Run(t, "-s", serial, "shell", "echo", "back")); out != "back\n" {
		t.Errorf("after reconnect: %q", out)
	}
}
