package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

func TestDeviceCmds(t *testing.T) {
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{p}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(context.Background()) }()
	t.Cleanup(func() { _ = srv.Close() })
	host, portText, _ := net.SplitHostPort(srv.Addr().String())
	port, _ := strconv.Atoi(portText)
	target := func() deviceTarget { return deviceTarget{Host: host, Port: port} }

	run := func(cmd *cobra.Command, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(t.Context()); err != nil {
			t.Fatalf("%s %v: %v\n%s", cmd.Name(), args, err, out.String())
		}
		return out.String()
	}
	if out := run(newDevicesCmd(target)); !strings.Contains(out, "emulator-5554  device") {
		t.Errorf("devices:\n%s", out)
	}
	if out := run(newAppsCmd(target)); !strings.Contains(out, "com.fairy.shop") {
		t.Errorf("apps:\n%s", out)
	}
	run(newActCmd(actDeps{Target: target}), "launch", "com.fairy.shop")
	if pkg, _ := p.Foreground(); pkg != "com.fairy.shop" {
		t.Errorf("after launch: %s in front", pkg)
	}
	dir := t.TempDir()
	xml, png := filepath.Join(dir, "w.xml"), filepath.Join(dir, "s.png")
	if out := run(newScreenCmd(target), "--xml", xml, "--png", png); !strings.Contains(out, "- [1] ") {
		t.Errorf("screen:\n%s", out)
	}
	for _, f := range []string{xml, png} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	run(newActCmd(actDeps{Target: target}), "key", "back")
	cmd := newActCmd(actDeps{Target: target})
	cmd.SetArgs([]string{"tap", "x", "1"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	if err := cmd.ExecuteContext(t.Context()); err == nil {
		t.Errorf("tap x 1 succeeded")
	}
}
