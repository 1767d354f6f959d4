package agent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/knowledge"
)

// Device is the phone as a run needs it: the executor's device methods and the launchable
// apps. *adb.Device is one.
type Device interface {
	executor.Device
	Apps(ctx context.Context) ([]adb.App, error)
}

// DeviceConfig says which phone to open and how.
type DeviceConfig struct {
	Host   string // adb server; "" and 0 are the device layer's defaults
	Port   int
	Serial string   // "" is the only device
	Shell  []string // the technician shell's allow-list
	// Virtual shortens the settle and retry pauses: a virtual phone answers at once.
	Virtual bool
	Logger  *slog.Logger
}

// virtualPause is the settle and dump back-off pause for virtual phones.
const virtualPause = 20 * time.Millisecond

// OpenDevice opens a phone through the device layer; Close it when done.
func OpenDevice(ctx context.Context, c DeviceConfig) (*adb.Device, error) {
	ac := adb.Config{Host: c.Host, Port: c.Port, Serial: c.Serial, ShellAllow: c.Shell, Logger: c.Logger}
	if c.Virtual {
		ac.SettleInterval, ac.DumpBackoff = virtualPause, virtualPause
	}
	d, err := adb.Open(ctx, ac)
	if err != nil {
		if c.Serial == "" {
			return nil, fmt.Errorf("open device (no serial given): %w", err)
		}
		return nil, fmt.Errorf("open device %s: %w", c.Serial, err)
	}
	return d, nil
}

// phoneApps lists the phone's launchable apps for the Global Planner, with the learned
// descriptions from the knowledge file when there is one.
type phoneApps struct {
	dev   Device
	store *knowledge.Store // nil: no descriptions
}

// list is the device's app list with a label on every app. Devices often expose no label
// through adb (the localized label needs the app's resources), so a missing label is made
// from the package name: com.fairy.shop → "Shop".
func (p phoneApps) list(ctx context.Context) ([]adb.App, error) {
	list, err := p.dev.Apps(ctx)
	if err != nil {
		return nil, err
	}
	for i, x := range list {
		if x.Label == "" {
			list[i].Label = labelFromPackage(x.Package)
		}
	}
	return list, nil
}

// Apps implements global.AppSource.
func (p phoneApps) Apps(ctx context.Context) ([]event.App, error) {
	list, err := p.list(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]event.App, 0, len(list))
	for _, x := range list {
		app := event.App{Package: x.Package, Label: x.Label}
		if p.store != nil {
			if k, err := p.store.GetApp(x.Package); err == nil {
				app.Description = k.Description
			}
		}
		out = append(out, app)
	}
	return out, nil
}

// labelFromPackage makes a readable label of a package name's last part.
func labelFromPackage(pkg string) string {
	last := pkg[strings.LastIndex(pkg, ".")+1:]
	if last == "" {
		return pkg
	}
	r := []rune(last)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
