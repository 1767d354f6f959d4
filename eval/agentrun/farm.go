package agentrun

import (
	"fmt"
	"log/slog"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim"
)

// Farm is a set of virtual phones served on the adb host protocol on a loopback port, as
// phones behind an adb server are: the agent reaches them through the real device layer.
type Farm struct {
	farm   *sim.Farm
	phones *agent.Phones
}

// ServeFarm builds the phones of cfg and serves them until Close.
func ServeFarm(cfg sim.FarmConfig, log *slog.Logger) (*Farm, error) {
	f, err := sim.NewFarm(cfg)
	if err != nil {
		return nil, fmt.Errorf("agentrun: virtual phones: %w", err)
	}
	ps, err := agent.ServePhones(log, f.Phones()...)
	if err != nil {
		return nil, fmt.Errorf("agentrun: %w", err)
	}
	return &Farm{farm: f, phones: ps}, nil
}

// Devices returns the phones as evaluation devices.
func (f *Farm) Devices() []eval.Device {
	var out []eval.Device
	for _, p := range f.farm.Phones() {
		out = append(out, eval.Device{Serial: p.Serial(), Host: f.phones.Host, Port: f.phones.Port, Sim: p})
	}
	return out
}

// Close stops serving the phones.
func (f *Farm) Close() error { return f.phones.Close() }
