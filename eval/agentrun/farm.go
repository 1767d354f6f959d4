package agentrun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// Farm is a set of virtual phones served on the adb host protocol on a loopback port, as
// phones behind an adb server are: the agent reaches them through the real device layer.
type Farm struct {
	farm *sim.Farm
	host *wire.HostServer
	done chan error
}

// ServeFarm builds the phones of cfg and serves them until Close.
func ServeFarm(cfg sim.FarmConfig, log *slog.Logger) (*Farm, error) {
	f, err := sim.NewFarm(cfg)
	if err != nil {
		return nil, fmt.Errorf("agentrun: virtual phones: %w", err)
	}
	var devs []wire.Device
	for _, p := range f.Phones() {
		devs = append(devs, p)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: devs, Addr: "127.0.0.1:0", Logger: log})
	if err != nil {
		return nil, fmt.Errorf("agentrun: virtual phones: %w", err)
	}
	fm := &Farm{farm: f, host: hs, done: make(chan error, 1)}
	go func() { fm.done <- hs.Serve(context.Background()) }()
	return fm, nil
}

// Devices returns the phones as evaluation devices.
func (f *Farm) Devices() []eval.Device {
	host, port, _ := net.SplitHostPort(f.host.Addr().String())
	n, _ := strconv.Atoi(port)
	var out []eval.Device
	for _, p := range f.farm.Phones() {
		out = append(out, eval.Device{Serial: p.Serial(), Host: host, Port: n, Sim: p})
	}
	return out
}

// Close stops serving the phones.
func (f *Farm) Close() error {
	err := f.host.Close()
	if serr := <-f.done; serr != nil && !errors.Is(serr, wire.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
