// Package etcdtest starts a real etcd server (Debian's etcd-server package, binary etcd)
// for tests: on free ports, with a temporary data directory, stopped when the test ends.
package etcdtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/fairy-go/fairy/internal/testenv"
)

// Server is a running etcd.
type Server struct {
	// Endpoint is the client address, HOST:PORT.
	Endpoint string
	args     []string // the command line, for Restart
	cmd      *exec.Cmd
	done     chan struct{}
	log      *os.File
}

// Start starts an etcd server for t. Under -short the test is skipped (etcd belongs to the
// full tier, scripts/test.sh). Without the etcd binary the test fails when CI is set and is
// skipped otherwise (scripts/test.sh installs etcd-server).
func Start(t testing.TB) *Server {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts a real etcd")
	bin := testenv.MustHaveProgram(t, "etcd")
	dir := t.TempDir()
	logf, err := os.Create(filepath.Join(dir, "etcd.log"))
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{log: logf}
	t.Cleanup(func() { s.Kill(); _ = logf.Close() })
	// The free ports are found by listening and closing, so another test process may take
	// one before etcd binds it: then etcd exits with "address already in use" and we try
	// other ports.
	for attempt := 1; ; attempt++ {
		client, peer := freePort(t), freePort(t)
		cu, pu := "http://"+client, "http://"+peer
		s.Endpoint = client
		s.args = []string{bin, "--name", "t", "--data-dir", filepath.Join(dir, fmt.Sprintf("data%d", attempt)),
			"--listen-client-urls", cu, "--advertise-client-urls", cu,
			"--listen-peer-urls", pu, "--initial-advertise-peer-urls", pu,
			"--initial-cluster", "t=" + pu, "--max-txn-ops", "100000", "--max-request-bytes", "33554432",
			"--logger", "zap", "--log-level", "error"}
		err := s.run()
		if err == nil {
			return s
		}
		out, _ := os.ReadFile(logf.Name())
		if attempt < 5 && bytes.Contains(out, []byte("address already in use")) {
			_ = logf.Truncate(0)
			_, _ = logf.Seek(0, 0)
			continue
		}
		t.Fatalf("etcd did not start: %v\n%s", err, out)
	}
}

// start runs the server's command line and waits until it answers, or fails t.
func (s *Server) start(t testing.TB) {
	t.Helper()
	if err := s.run(); err != nil {
		out, _ := os.ReadFile(s.log.Name())
		t.Fatalf("etcd did not start: %v\n%s", err, out)
	}
}

// run runs the server's command line and waits until it answers; a server that does not
// is killed.
func (s *Server) run() error {
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start etcd: %w", err)
	}
	done := make(chan struct{})
	s.cmd, s.done = cmd, done
	go func() { _ = cmd.Wait(); close(done) }()
	if err := s.waitReady(15 * time.Second); err != nil {
		s.Kill()
		return err
	}
	return nil
}

// Restart starts a killed server again, on the same ports and data: the cluster is back.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Kill()
	s.start(t)
}

// Kill stops the server at once (SIGKILL), as a crash or a lost host would; a second
// Kill is harmless.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Kill()
	<-s.done
}

// URL is the server as a knowledge location with prefix.
func (s *Server) URL(prefix string) string { return "etcd://" + s.Endpoint + "/" + prefix }

func (s *Server) waitReady(wait time.Duration) error {
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + s.Endpoint}, DialTimeout: time.Second, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer cli.Close()
	deadline := time.Now().Add(wait)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := cli.Get(ctx, "ready")
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("etcd exited")
		default:
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
