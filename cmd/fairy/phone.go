package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// agentPhone adapts the device layer to the agent core: the executor's device methods come
// from the embedded *adb.Device, Apps gives the Global Planner labelled apps.
type agentPhone struct {
	*adb.Device
	// Describe, if set, returns a learned description of what an app does ("" if none).
	Describe func(ctx context.Context, pkg string) string
}

// Apps lists the launchable apps for the planner. Devices often expose no label through
// adb (the localized label needs the app's resources), so a missing label is made from the
// package name: com.fairy.shop → "Shop".
func (p agentPhone) Apps(ctx context.Context) ([]global.App, error) {
	list, err := p.Device.Apps(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]global.App, 0, len(list))
	for _, a := range list {
		app := global.App{Package: a.Package, Label: a.Label}
		if app.Label == "" {
			app.Label = labelFromPackage(a.Package)
		}
		if p.Describe != nil {
			app.Description = p.Describe(ctx, a.Package)
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

// closeDevice closes an agent device when it can be closed; a failure only matters to logs.
func closeDevice(ctx context.Context, d agentDevice) {
	if c, ok := d.(interface{ Close(context.Context) error }); ok {
		_ = c.Close(context.WithoutCancel(ctx))
	}
}

// virtualPhone is an in-process virtual phone (sim) served on the adb host protocol on a
// free loopback port and reached through the real device layer, as a phone behind an adb
// server would be.
type virtualPhone struct {
	Phone  *sim.Phone
	Device *adb.Device
	host   *wire.HostServer
	done   chan error
}

// startVirtualPhone starts a virtual phone; Close stops it.
func startVirtualPhone(ctx context.Context, cfg sim.Config, log *slog.Logger) (*virtualPhone, error) {
	p, err := sim.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("virtual phone: %w", err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{p}, Addr: "127.0.0.1:0", Logger: log})
	if err != nil {
		return nil, fmt.Errorf("virtual phone: %w", err)
	}
	v := &virtualPhone{Phone: p, host: hs, done: make(chan error, 1)}
	go func() { v.done <- hs.Serve(context.WithoutCancel(ctx)) }()
	host, port, err := net.SplitHostPort(hs.Addr().String())
	if err != nil {
		_ = v.Close()
		return nil, fmt.Errorf("virtual phone: %w", err)
	}
	n, _ := strconv.Atoi(port)
	// The virtual phone answers at once: short settle pauses keep the demo quick.
	v.Device, err = adb.Open(ctx, adb.Config{Host: host, Port: n, Serial: p.Serial(), Logger: log,
		SettleInterval: 20 * time.Millisecond, DumpBackoff: 20 * time.Millisecond})
	if err != nil {
		_ = v.Close()
		return nil, fmt.Errorf("virtual phone: %w", err)
	}
	return v, nil
}

// Close stops the phone's server and waits for it.
func (v *virtualPhone) Close() error {
	if v.Device != nil {
		_ = v.Device.Close(context.Background())
	}
	err := v.host.Close()
	if serr := <-v.done; serr != nil && !errors.Is(serr, wire.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// scriptedEndpoint is the scripted model served over HTTP on a free loopback port, so the
// agent reaches it through the real OpenAI adapter.
type scriptedEndpoint struct {
	Script *scripted.Server
	URL    string // base URL, ".../v1"
	hs     *http.Server
	done   chan error
}

// startScripted serves rules on 127.0.0.1; Close stops the server.
func startScripted(rules []scripted.Rule, log *slog.Logger) (*scriptedEndpoint, error) {
	srv, err := scripted.NewServer(rules, scripted.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scripted model: listen: %w", err)
	}
	e := &scriptedEndpoint{Script: srv, URL: "http://" + ln.Addr().String() + "/v1",
		hs: &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}, done: make(chan error, 1)}
	go func() { e.done <- e.hs.Serve(ln) }()
	return e, nil
}

// Close stops the server.
func (e *scriptedEndpoint) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.hs.Shutdown(ctx)
	if serr := <-e.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
