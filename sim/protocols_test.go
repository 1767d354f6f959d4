package sim_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"image/png"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electricbubble/gadb"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// These tests hold the virtual phone (not a test double) to issue 2's promises through the
// two real clients: the real adb server on the device face, and gadb on the host face.

// center finds the node whose text or content-desc is label in a dump and returns its center.
func center(t *testing.T, dump, label string) (int, int) {
	t.Helper()
	re := regexp.MustCompile(`<node [^>]*(?:text|content-desc)="` + regexp.QuoteMeta(label) + `"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"`)
	m := re.FindStringSubmatch(dump)
	if m == nil {
		t.Fatalf("no node labelled %q in dump:\n%.400s…", label, dump)
	}
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return (n[0] + n[2]) / 2, (n[1] + n[3]) / 2
}

func TestPhoneThroughRealADBServer(t *testing.T) {
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1})
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

	if out := string(srv.Run(t, "devices", "-l")); !strings.Contains(out, serial) || !strings.Contains(out, "model:sdk_gphone64_x86_64") {
		t.Errorf("adb devices -l does not show the phone's model:\n%s", out)
	}

	dump := string(srv.Run(t, "-s", serial, "shell", "uiautomator", "dump", "/dev/tty"))
	if !strings.HasPrefix(dump, "<?xml") || !strings.Contains(dump, "<hierarchy") || !strings.Contains(dump, "UI hierchary dumped to: /dev/tty") {
		t.Fatalf("uiautomator dump /dev/tty through adb is not a dump:\n%.300s", dump)
	}

	shot := srv.Run(t, "-s", serial, "exec-out", "screencap", "-p")
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screencap -p is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 2400 {
		t.Errorf("screenshot is %dx%d, want the screen size 1080x2400", b.Dx(), b.Dy())
	}

	// A tap on the launcher's Settings icon opens Settings in the next dump.
	x, y := center(t, dump, "Settings")
	srv.Run(t, "-s", serial, "shell", "input", "tap", strconv.Itoa(x), strconv.Itoa(y))
	after := string(srv.Run(t, "-s", serial, "shell", "uiautomator", "dump", "/dev/tty"))
	if !strings.Contains(after, `package="com.android.settings"`) {
		t.Errorf("after adb shell input tap %d %d the dump shows no Settings:\n%.400s", x, y, after)
	}

	// push and pull round-trip a file byte-exact.
	dir := t.TempDir()
	data := make([]byte, 700*1024+13)
	rand.Read(data)
	src, dst := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Run(t, "-s", serial, "push", src, "/sdcard/Download/in.bin")
	srv.Run(t, "-s", serial, "pull", "/sdcard/Download/in.bin", dst)
	got, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("pull returned %d bytes that differ from the %d pushed", len(got), len(data))
	}
}

func TestPhonesThroughGadbHostFace(t *testing.T) {
	farm, err := sim.NewFarm(sim.FarmConfig{Phones: 2, Base: sim.Config{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	var devices []wire.Device
	for _, p := range farm.Phones() {
		devices = append(devices, p)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: devices})
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(t.Context())
	t.Cleanup(func() { hs.Close() })
	client, err := gadb.NewClientWith("127.0.0.1", hs.Addr().(*net.TCPAddr).Port)
	if err != nil {
		t.Fatal(err)
	}
	list, err := client.DeviceList()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("DeviceList has %d devices, want 2", len(list))
	}
	for _, d := range list {
		if model, _ := d.Model(); model != "sdk_gphone64_x86_64" {
			t.Errorf("%s: model %q", d.Serial(), model)
		}
	}
	d := list[0]
	if out, err := d.RunShellCommand("wm size"); err != nil || strings.TrimSpace(out) != "Physical size: 1080x2400" {
		t.Errorf("wm size = %q, %v", out, err)
	}
	want, err := farm.Phones()[0].Screenshot()
	if err != nil {
		t.Fatal(err)
	}

	// 16 clients at once: shell, binary screencap and dumps, on both phones.
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := list[i%2]
			switch i % 4 {
			case 0:
				shot, err := d.RunShellCommandWithBytes("screencap -p")
				if err != nil {
					errs <- fmt.Errorf("client %d screencap: %w", i, err)
					return
				}
				if _, err := png.Decode(bytes.NewReader(shot)); err != nil {
					errs <- fmt.Errorf("client %d: screencap is not a PNG: %w", i, err)
				}
				if i%2 == 0 && !bytes.Equal(shot, want) {
					errs <- fmt.Errorf("client %d: screencap bytes differ from the phone's screenshot", i)
				}
			case 1:
				out, err := d.RunShellCommand("uiautomator dump /dev/tty")
				if err != nil || !strings.Contains(out, "<hierarchy") {
					errs <- fmt.Errorf("client %d dump: %v %.80q", i, err, out)
				}
			default:
				out, err := d.RunShellCommand("echo", fmt.Sprintf("client-%d", i))
				if err != nil || strings.TrimSpace(out) != fmt.Sprintf("client-%d", i) {
					errs <- fmt.Errorf("client %d echo: %q, %v", i, out, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestAdbShellThroughHostFaceDeliversEveryByte runs the real adb client against the phone's
// host face (`adb -P PORT shell …`, as against `fairy sim serve --host`) with stdin at EOF:
// the client then sends the shell-v2 close-stdin packet while output is arriving. Every run
// of each long command must deliver every byte the phone writes, and the exit status.
func TestAdbShellThroughHostFaceDeliversEveryByte(t *testing.T) {
	fixed := time.Date(2025, 6, 11, 9, 41, 0, 0, time.UTC)
	p, err := sim.New(sim.Config{Serial: "emulator-5554", Seed: 1, Clock: func() time.Time { return fixed }})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{p}})
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(t.Context())
	t.Cleanup(func() { hs.Close() })
	client := adbtest.Client(t, hs.Addr().(*net.TCPAddr).Port)

	const runs = 100
	commands := []string{"pm list packages", "settings list global", "getprop", "uiautomator dump /dev/tty"}
	type job struct{ cmd, want string }
	jobs := make(chan job)
	errs := make(chan error, len(commands)*runs)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				out, errOut, err := client.Exec(t.Context(), nil, append([]string{"shell"}, strings.Fields(j.cmd)...)...)
				if err != nil || string(out) != j.want {
					errs <- fmt.Errorf("adb shell %s: %d of %d bytes, %d of %d lines, err %v, stderr %q",
						j.cmd, len(out), len(j.want), strings.Count(string(out), "\n"), strings.Count(j.want, "\n"), err, errOut)
				}
			}
		}()
	}
	for _, cmd := range commands {
		var want strings.Builder
		if st, err := p.Shell(t.Context(), cmd, &want); err != nil || st != 0 {
			t.Fatalf("%s on the phone: status %d, %v", cmd, st, err)
		}
		if strings.Count(want.String(), "\n") < 10 && want.Len() < 4096 {
			t.Fatalf("%s writes %d bytes: not a long output", cmd, want.Len())
		}
		for range runs {
			jobs <- job{cmd, want.String()}
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed <= 5 {
			t.Error(err)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d runs (%d of each of %d commands) lost output", failed, runs*len(commands), runs, len(commands))
	}
}
