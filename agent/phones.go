package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// Phones are virtual phones (sim, a test double) served on the adb host protocol on a
// free loopback port, as phones behind an adb server are: a run reaches them through the
// real device layer (OpenDevice with Host and Port, Virtual set).
type Phones struct {
	Host   string
	Port   int
	phones []*sim.Phone
	srv    *wire.HostServer
	done   chan error
}

// ServePhones serves phones until Close.
func ServePhones(log *slog.Logger, phones ...*sim.Phone) (*Phones, error) {
	devs := make([]wire.Device, len(phones))
	for i, p := range phones {
		devs[i] = p
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: devs, Addr: "127.0.0.1:0", Logger: log})
	if err != nil {
		return nil, fmt.Errorf("virtual phones: %w", err)
	}
	p := &Phones{phones: phones, srv: hs, done: make(chan error, 1)}
	go func() { p.done <- hs.Serve(context.Background()) }()
	host, port, err := net.SplitHostPort(hs.Addr().String())
	if err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("virtual phones: %w", err)
	}
	p.Host = host
	p.Port, _ = strconv.Atoi(port)
	return p, nil
}

// Phones returns the served phones.
func (p *Phones) Phones() []*sim.Phone { return p.phones }

// Device is the DeviceConfig that reaches one of the phones.
func (p *Phones) Device(serial string, log *slog.Logger) DeviceConfig {
	return DeviceConfig{Host: p.Host, Port: p.Port, Serial: serial, Virtual: true, Logger: log}
}

// Close stops serving the phones and waits for the server.
func (p *Phones) Close() error {
	err := p.srv.Close()
	if serr := <-p.done; serr != nil && !errors.Is(serr, wire.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
