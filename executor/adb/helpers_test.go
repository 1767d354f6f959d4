package adb

import (
	"context"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

// phone is a virtual phone that records every command line it receives and can pretend
// another connection state.
type phone struct {
	*sim.Phone
	mu    sync.Mutex
	cmds  []string
	state string
}

func (p *phone) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	p.mu.Lock()
	p.cmds = append(p.cmds, cmdline)
	p.mu.Unlock()
	return p.Phone.Shell(ctx, cmdline, w)
}

func (p *phone) ConnState() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != "" {
		return p.state
	}
	return p.Phone.ConnState()
}

// commands returns and forgets the command lines received so far.
func (p *phone) commands() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := slices.Clone(p.cmds)
	p.cmds = nil
	return c
}

func newPhone(t testing.TB, cfg sim.Config) *phone {
	t.Helper()
	if cfg.Seed == 0 {
		cfg.Seed = 7
	}
	p, err := sim.New(cfg)
	if err != nil {
		t.Fatalf("sim.New: %v", err)
	}
	return &phone{Phone: p}
}

// hostFace serves devices on a wire.HostServer (the adb host protocol, no adb server).
func hostFace(t testing.TB, devices ...wire.Device) (host string, port int) {
	t.Helper()
	srv, err := wire.NewHostServer(wire.HostConfig{Devices: devices})
	if err != nil {
		t.Fatalf("NewHostServer: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(context.Background())
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return splitAddr(t, srv.Addr().String())
}

func splitAddr(t testing.TB, addr string) (string, int) {
	t.Helper()
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(p)
	return h, port
}

// deviceFace serves dev on a wire.DeviceServer, for a real adb server to connect to.
func deviceFace(t testing.TB, dev wire.Device) string {
	t.Helper()
	srv, err := wire.NewDeviceServer(wire.DeviceConfig{Device: dev})
	if err != nil {
		t.Fatalf("NewDeviceServer: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(context.Background())
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return srv.Addr().String()
}

// realADB starts a private real adb server connected to dev; it returns the server and
// the device's serial there.
func realADB(t testing.TB, dev wire.Device) (*adbtest.Server, string) {
	t.Helper()
	srv := adbtest.Start(t)
	serial := srv.Connect(t, deviceFace(t, dev))
	return srv, serial
}

func fastSleep(ctx context.Context, d time.Duration) error {
	return sleepCtx(ctx, d/20)
}

func openDevice(t testing.TB, cfg Config) *Device {
	t.Helper()
	if cfg.Sleep == nil {
		cfg.Sleep = fastSleep
	}
	d, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close(context.Background()) })
	return d
}

// face is one way of reaching a phone: straight through the host face, or through the
// real adb server.
type face struct {
	name string
	open func(t testing.TB, p *phone, cfg Config) *Device
}

var faces = []face{
	{"host-face", func(t testing.TB, p *phone, cfg Config) *Device {
		cfg.Host, cfg.Port = hostFace(t, p)
		return openDevice(t, cfg)
	}},
	{"real-adb", func(t testing.TB, p *phone, cfg Config) *Device {
		srv, serial := realADB(t, p)
		cfg.Host, cfg.Port, cfg.Serial = "127.0.0.1", srv.Port, serial
		return openDevice(t, cfg)
	}},
}
