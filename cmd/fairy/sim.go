package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// simServeOptions are the flags of `fairy sim serve`.
type simServeOptions struct {
	host    string
	adbd    string
	phones  int
	seed    uint64
	faults  string
	profile string
	apps    string
}

// newSimCmd is `fairy sim`, the virtual phone.
func newSimCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "The virtual phone: a simulated Android device on the real ADB protocols",
	}
	cmd.AddCommand(newSimServeCmd())
	return cmd
}

func newSimServeCmd() *cobra.Command {
	var o simServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve virtual phones to adb and to fairy until interrupted",
		Long: `Serve one or more virtual phones (a simulated device, not a real phone).

Each phone has two faces:
  --host  the adb host protocol, what an adb server offers on port 5037: fairy and gadb
          connect to it directly (fairy --adb-port PORT …)
  --adbd  the adbd device protocol: the real adb server connects to it with
          'adb connect ADDR'; with several phones the faces take consecutive ports.
          (Not an emulator's port 5555-5585, which every adb server would connect by
          itself.)

--apps DIR installs the apps declared in DIR's YAML files next to the built-in ones (the
format: docs/apps.md). A file whose package is a built-in app's replaces it only when it
says "override: true".`,
		Example: `  fairy sim serve
  fairy sim serve --apps examples/apps --phones 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serveSim(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.host, "host", "127.0.0.1:5038", "address of the adb-host-protocol face (empty: none)")
	// Neither default is a port an adb server takes by itself: 5037 is its own, and it
	// connects any adbd on 5555-5585 as an emulator, so a phone there would join every adb
	// server on the machine (a test's private one too) without an `adb connect`.
	f.StringVar(&o.adbd, "adbd", "127.0.0.1:5039", "address of the first adbd device face (empty: none)")
	f.IntVar(&o.phones, "phones", 1, "number of phones")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the first phone (each next phone adds 1)")
	f.StringVar(&o.faults, "faults", "", "faults, e.g. idle=0.3,slow=200ms,drop=0.05,deadtap=0.1,dialog=0.1,nonascii")
	f.StringVar(&o.profile, "profile", "instant", "timing: instant, pixel (a recent phone's latencies) or slow "+
		"(an older phone's)")
	f.StringVar(&o.apps, "apps", "", "also install the apps declared in this `DIR`'s YAML files (docs/apps.md)")
	_ = cmd.MarkFlagDirname("apps")
	return cmd
}

// serveSim runs the phones' faces until ctx ends. What goes wrong in an app while it runs
// (a template that fails on the state it meets) is a warning on errOut.
func serveSim(ctx context.Context, out, errOut io.Writer, o simServeOptions) error {
	if o.phones < 1 {
		return withExit(2, fmt.Errorf("--phones must be at least 1, got %d", o.phones))
	}
	if o.host == "" && o.adbd == "" {
		return withExit(2, errors.New("nothing to serve: give --host, --adbd or both"))
	}
	faults, err := sim.ParseFaults(o.faults)
	if err != nil {
		return withExit(2, fmt.Errorf("--faults: %w", err))
	}
	profile, err := sim.ParseProfile(o.profile)
	if err != nil {
		return withExit(2, fmt.Errorf("--profile: %w", err))
	}
	apps, extra, err := simApps(o.apps)
	if err != nil {
		return withExit(2, fmt.Errorf("--apps: %w", err))
	}
	warn := slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelWarn})) // quotes what it logs: no raw controls
	farm, err := sim.NewFarm(sim.FarmConfig{Phones: o.phones, Base: sim.Config{Seed: o.seed, Faults: faults,
		Profile: profile, Apps: apps, Logger: warn}})
	if err != nil {
		return err
	}
	phones := farm.Phones()
	devices := make([]wire.Device, len(phones))
	for i, p := range phones {
		devices[i] = p
	}
	log := slog.New(slog.DiscardHandler)

	g, ctx := errgroup.WithContext(ctx)
	fmt.Fprintf(out, "fairy sim: %d virtual phone(s) — simulated devices, not real phones\n", len(phones))
	if len(extra) > 0 {
		fmt.Fprintf(out, "apps from %s: %s\n", table.Escape(o.apps), table.Escape(strings.Join(extra, ", ")))
	}
	if o.host != "" {
		hs, err := wire.NewHostServer(wire.HostConfig{Devices: devices, Addr: o.host, Logger: log})
		if err != nil {
			return fmt.Errorf("sim serve: host face on %s: %w", o.host, err)
		}
		defer hs.Close()
		host, port, _ := net.SplitHostPort(hs.Addr().String())
		fmt.Fprintf(out, "\nadb host protocol on %s\n", hs.Addr())
		fmt.Fprintf(out, "  fairy:  fairy devices --adb-host %s --adb-port %s\n", host, port)
		fmt.Fprintf(out, "  adb:    ADB_SERVER_SOCKET=tcp:%s adb devices -l   (a client of this face)\n", hs.Addr())
		g.Go(func() error { return hs.Serve(ctx) })
	}
	if o.adbd != "" {
		dg, err := wire.NewDeviceGroup(wire.DeviceGroupConfig{Devices: devices, Addr: o.adbd, Logger: log})
		if err != nil {
			return fmt.Errorf("sim serve: device faces from %s: %w", o.adbd, err)
		}
		defer dg.Close()
		fmt.Fprintf(out, "\nadbd device protocol (connect the real adb server):\n")
		for i, s := range dg.Servers() {
			addr := s.Addr().String()
			fmt.Fprintf(out, "  %s  adb connect %s && adb -s %s exec-out screencap -p > s.png\n",
				phones[i].Serial(), addr, addr)
		}
		fmt.Fprintf(out, "  then:   fairy devices   (fairy through the real adb server)\n")
		g.Go(func() error { return dg.Serve(ctx) })
	}
	fmt.Fprintf(out, "\nPhone serials: ")
	for i, p := range phones {
		if i > 0 {
			fmt.Fprint(out, ", ")
		}
		fmt.Fprint(out, strconv.Quote(p.Serial()))
	}
	fmt.Fprintf(out, "\nServing until interrupted (Ctrl-C).\n")
	if err := g.Wait(); err != nil && !errors.Is(err, wire.ErrServerClosed) {
		return err
	}
	return nil
}

// simApps is the virtual phone's app catalogue with the apps declared under dir (none when
// dir is ""): nil means the built-in apps alone. extra lists the added apps as "label (package)".
func simApps(dir string) (apps []*sim.AppSpec, extra []string, err error) {
	if dir == "" {
		return nil, nil, nil
	}
	more, err := sim.LoadAppDir(dir)
	if err != nil {
		return nil, nil, err
	}
	base, err := sim.DefaultApps()
	if err != nil {
		return nil, nil, err
	}
	if apps, err = sim.MergeApps(base, more); err != nil {
		return nil, nil, err
	}
	for _, a := range more {
		what := fmt.Sprintf("%s (%s)", a.Label, a.Package)
		if a.Override {
			what += " replacing the built-in one"
		}
		extra = append(extra, what)
	}
	return apps, extra, nil
}
