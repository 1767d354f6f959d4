package main

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"net"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim/adbtest"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader on two goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startSimServe runs `fairy sim serve` on free ports and returns its output once it says it
// is serving.
func startSimServe(t *testing.T, args ...string) *syncBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out := &syncBuffer{}
	root := newRootCmd(bytes.NewReader(nil), out, io.Discard, envMap(nil))
	root.SetArgs(append([]string{"sim", "serve", "--host", "127.0.0.1:0", "--adbd", "127.0.0.1:0"}, args...))
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("sim serve: %v", err)
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for !bytes.Contains([]byte(out.String()), []byte("Serving until interrupted")) {
		if time.Now().After(deadline) {
			t.Fatalf("sim serve did not start; output:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return out
}

func TestSimServeHostFace(t *testing.T) {
	out := startSimServe(t, "--phones", "2")
	m := regexp.MustCompile(`adb host protocol on (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no host face address in output:\n%s", out)
	}
	conn, err := net.Dial("tcp", m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "000chost:devices"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply, _ := io.ReadAll(conn)
	for _, want := range []string{"OKAY", "emulator-5554\tdevice", "emulator-5556\tdevice"} {
		if !bytes.Contains(reply, []byte(want)) {
			t.Errorf("host:devices reply %q lacks %q", reply, want)
		}
	}
}

func TestSimServeRealADB(t *testing.T) {
	out := startSimServe(t)
	m := regexp.MustCompile(`adb connect (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no device face address in output:\n%s", out)
	}
	srv := adbtest.Start(t)
	serial := srv.Connect(t, m[1])
	shot := srv.Run(t, "-s", serial, "exec-out", "screencap", "-p")
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screencap is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 2400 {
		t.Errorf("screenshot is %v, want 1080x2400", b)
	}
}

func TestSimServeBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "serve", "--phones", "0"},
		{"sim", "serve", "--faults", "bogus=1"},
		{"sim", "serve", "--host", "", "--adbd", ""},
	} {
		root := newRootCmd(bytes.NewReader(nil), io.Discard, io.Discard, envMap(nil))
		root.SetArgs(args)
		err := root.Execute()
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%v: err = %v, want a usage error (exit 2)", args, err)
		}
	}
}

// TestSimServeDefaultPorts: the default faces of `fairy sim serve` keep off the ports an adb
// server takes by itself, 5037 (its own) and 5554-5585 (the emulators it scans for and
// connects on its own), so a phone served by default shows up in no adb server that did not
// `adb connect` it, such as the private one each test starts.
func TestSimServeDefaultPorts(t *testing.T) {
	root := newRootCmd(bytes.NewReader(nil), io.Discard, io.Discard, envMap(nil))
	serve, _, err := root.Find([]string{"sim", "serve"})
	if err != nil {
		t.Fatal(err)
	}
	adbServerPort := func(p int) bool { return p == 5037 || p >= 5554 && p <= 5585 }
	for _, name := range []string{"host", "adbd"} {
		addr := serve.Flags().Lookup(name).DefValue
		_, p, err := net.SplitHostPort(addr)
		if err != nil {
			t.Fatalf("--%s default %q: %v", name, addr, err)
		}
		port, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("--%s default %q: %v", name, addr, err)
		}
		last := port
		if name == "adbd" {
			last = port + 15 // --phones 16: the device faces take consecutive ports
		}
		for q := port; q <= last; q++ {
			if adbServerPort(q) {
				t.Errorf("--%s default %s: port %d is one an adb server takes by itself", name, addr, q)
				break
			}
		}
	}
}
