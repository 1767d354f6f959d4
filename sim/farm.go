package sim

import (
	"fmt"
	"sync"
)

// FarmConfig describes several phones.
type FarmConfig struct {
	// Phones is how many phones (default 1).
	Phones int
	// Base is the template of every phone; Serial and Seed are set per phone.
	Base Config
	// FirstPort numbers the serials "emulator-PORT", "emulator-PORT+2", … (default 5554).
	FirstPort int
	// UIServer is how many phones, the first ones, have the resident UI server installed
	// (Config.UIServer); the others have it only if Base says so.
	UIServer int
}

// Farm hosts several phones with distinct serials and seeds (Base.Seed + index).
type Farm struct {
	mu     sync.RWMutex
	phones []*Phone
}

// NewFarm builds the phones of cfg.
func NewFarm(cfg FarmConfig) (*Farm, error) {
	if cfg.Phones <= 0 {
		cfg.Phones = 1
	}
	if cfg.Phones > 64 {
		return nil, fmt.Errorf("%w: %d phones (at most 64)", errConfig, cfg.Phones)
	}
	if cfg.FirstPort == 0 {
		cfg.FirstPort = 5554
	}
	f := &Farm{}
	for i := 0; i < cfg.Phones; i++ {
		c := cfg.Base
		c.Serial = fmt.Sprintf("emulator-%d", cfg.FirstPort+2*i)
		c.Seed = cfg.Base.Seed + uint64(i)
		c.UIServer = c.UIServer || i < cfg.UIServer
		if cfg.Base.Apps != nil {
			apps, err := cloneApps(cfg.Base.Apps)
			if err != nil {
				return nil, err
			}
			c.Apps = apps
		}
		p, err := New(c)
		if err != nil {
			return nil, fmt.Errorf("new farm: phone %d: %w", i, err)
		}
		f.phones = append(f.phones, p)
	}
	return f, nil
}

// cloneApps shares the (read-only) declarations: phones never mutate an AppSpec.
func cloneApps(apps []*AppSpec) ([]*AppSpec, error) {
	out := make([]*AppSpec, len(apps))
	copy(out, apps)
	return out, nil
}

// Phones returns the phones in serial order.
func (f *Farm) Phones() []*Phone {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return append([]*Phone(nil), f.phones...)
}

// Phone returns the phone with a serial.
func (f *Farm) Phone(serial string) (*Phone, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, p := range f.phones {
		if p.Serial() == serial {
			return p, nil
		}
	}
	return nil, fmt.Errorf("farm phone %q: %w", serial, errUnknownSerial)
}

// Reset factory-resets every phone.
func (f *Farm) Reset() error {
	for _, p := range f.Phones() {
		if err := p.Reset(); err != nil {
			return err
		}
	}
	return nil
}
