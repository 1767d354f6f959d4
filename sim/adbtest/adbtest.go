// Package adbtest runs a private real adb server for tests: a child process on a free port,
// killed when the test ends. It never touches the default server on port 5037, and it sees
// only the devices its test connects: no emulator, USB or mDNS device of the machine.
//
//	srv := adbtest.Start(t)
//	serial := srv.Connect(t, deviceFace.Addr().String()) // adb connect, wait for "device"
//	out := srv.Run(t, "-s", serial, "shell", "echo", "hi")
//
// Under go test -short the test is skipped: the real adb server belongs to the full tier
// (scripts/test.sh). If the adb binary is not on PATH the test is skipped, or fails when the
// CI environment variable is set.
package adbtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/testenv"
)

// Binary returns the path of the adb binary, skipping (or, under CI, failing) t without one,
// and skipping it under -short.
func Binary(t testing.TB) string {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts the real adb")
	return testenv.MustHaveProgram(t, "adb")
}

// Server is a private adb server owned by one test, or (from Client) a server the test
// does not own.
type Server struct {
	// Port is the server's TCP port on 127.0.0.1 (the adb -P value).
	Port int
	bin  string
	home string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{}
}

// syncBuffer collects the server's log.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Start starts `adb -P PORT server nodaemon` on a free port with a private HOME (its own
// ~/.android keys), waits until it answers, and kills it in t.Cleanup.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	var lastErr error
	for range 3 {
		s, err := start(t, bin)
		if err == nil {
			return s
		}
		lastErr = err
	}
	t.Fatalf("adbtest: start adb server: %v", lastErr)
	return nil
}

// Client runs the real adb client against an adb server protocol that already listens on
// 127.0.0.1:port, such as the virtual phone's host face, without starting or stopping a
// server: `adb -P PORT args...` then talks to that face as it would to its adb server.
func Client(t testing.TB, port int) *Server {
	t.Helper()
	return &Server{Port: port, bin: Binary(t), home: t.TempDir(), log: &syncBuffer{}}
}

func start(t testing.TB, bin string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Port: port, bin: bin, home: t.TempDir(), log: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(bin, "-P", strconv.Itoa(port), "server", "nodaemon")
	s.cmd.Env = s.env()
	s.cmd.Stdout = s.log
	s.cmd.Stderr = s.log
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.done)
	}()
	stop := func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := s.Query("host:version"); err == nil {
			break
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("adb server exited: %s", s.log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("adb server on port %d did not answer: %s", port, s.log.String())
		}
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("adb server log:\n%s", s.log.String())
		}
	})
	return s, nil
}

// isolated is what keeps a private adb server to the devices its test connects. By itself an
// adb server also takes every device it finds: an emulator (any adbd on 127.0.0.1:5555,
// 5557, … 5585, such as a virtual phone served there), a USB device, a phone announced
// over mDNS. The adb of Debian (29.0.6) and of Google's platform-tools skip each kind when
// its variable is "0"; ADB_LOCAL_TRANSPORT_MAX_PORT=0 (the last emulator port scanned,
// below the first) also stops the emulator scan of an adb that ignores ADB_EMU.
var isolated = []string{"ADB_EMU=0", "ADB_LOCAL_TRANSPORT_MAX_PORT=0", "ADB_USB=0", "ADB_MDNS=0"}

// env is the environment of every adb this package runs (the server, and a client, which
// starts a server like its own when none answers): the caller's without its ADB_, ANDROID_
// and ADBHOST variables (ADBHOST makes the emulator scan dial another host), a private HOME
// (its own ~/.android keys), and isolated.
func (s *Server) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ADB") || strings.HasPrefix(kv, "ANDROID_") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+s.home)
	return append(env, isolated...)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Addr is the server's host-protocol address, for gadb.NewClientWith("127.0.0.1", srv.Port).
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// Log is what the server has logged so far.
func (s *Server) Log() string { return s.log.String() }

// Command prepares `adb -P PORT args...` against this server.
func (s *Server) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.bin, append([]string{"-P", strconv.Itoa(s.Port)}, args...)...)
	cmd.Env = s.env()
	return cmd
}

// Run runs `adb -P PORT args...` and returns its stdout; the test fails if adb does.
func (s *Server) Run(t testing.TB, args ...string) []byte {
	t.Helper()
	out, errOut, err := s.Exec(t.Context(), nil, args...)
	if err != nil {
		t.Fatalf("adb %s: %v\nstdout: %q\nstderr: %s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// Exec runs `adb -P PORT args...` with stdin (nil for none) and returns stdout, stderr and
// the error (an *exec.ExitError for a non-zero status).
func (s *Server) Exec(ctx context.Context, stdin io.Reader, args ...string) (stdout, stderr []byte, err error) {
	cmd := s.Command(ctx, args...)
	var o, e bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// Query sends one host-protocol request straight to the server and returns its answer
// (without starting a server as the adb client would when none is running).
func (s *Server) Query(req string) (string, error) {
	c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
	if err != nil {
		return "", fmt.Errorf("adbtest query %s: %w", req, err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(c, "%04x%s", len(req), req); err != nil {
		return "", fmt.Errorf("adbtest query %s: %w", req, err)
	}
	status := make([]byte, 4)
	if _, err := io.ReadFull(c, status); err != nil {
		return "", fmt.Errorf("adbtest query %s: %w", req, err)
	}
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		if string(status) == "OKAY" && errors.Is(err, io.EOF) {
			return "", nil
		}
		return "", fmt.Errorf("adbtest query %s: %w", req, err)
	}
	size, err := strconv.ParseUint(string(n[:]), 16, 32)
	if err != nil {
		return "", fmt.Errorf("adbtest query %s: length %q: %w", req, n, err)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(c, body); err != nil {
		return "", fmt.Errorf("adbtest query %s: %w", req, err)
	}
	if string(status) != "OKAY" {
		return "", fmt.Errorf("adbtest query %s: %s %s", req, status, body)
	}
	return string(body), nil
}

// State is the serial's state in `adb devices` ("" when not listed).
func (s *Server) State(serial string) (string, error) {
	list, err := s.Query("host:devices")
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(list) {
		if f := strings.Fields(line); len(f) == 2 && f[0] == serial {
			return f[1], nil
		}
	}
	return "", nil
}

// WaitState waits up to 10 s until serial is listed in state; the test fails otherwise.
func (s *Server) WaitState(t testing.TB, serial, state string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		var err error
		if got, err = s.State(serial); err == nil && got == state {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("adbtest: %s is %q, want %q", serial, got, state)
}

// Connect runs `adb connect ADDR` (a device face such as a wire.DeviceServer), waits until
// the device is listed as "device" and returns its serial (ADDR).
func (s *Server) Connect(t testing.TB, addr string) string {
	t.Helper()
	return s.ConnectState(t, addr, "device")
}

// ConnectState is Connect waiting for another state ("unauthorized", "offline").
func (s *Server) ConnectState(t testing.TB, addr, state string) string {
	t.Helper()
	// An unauthorized device makes adb connect report "failed to authenticate"; the
	// listed state is what counts.
	out, errOut, err := s.Exec(t.Context(), nil, "connect", addr)
	if state == "device" && (err != nil || !bytes.Contains(out, []byte("connected to"))) {
		t.Fatalf("adb connect %s: %v: %s%s", addr, err, out, errOut)
	}
	s.WaitState(t, addr, state)
	return addr
}
