package adb

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// BenchmarkShell compares one shell command through this layer with exec'ing the adb
// binary (`adb -s SERIAL shell …`, as most Python agents do), against the virtual phone.
// layer talks to the real adb server the adb binary uses; layer-hostface straight to the
// phone's host face.
func BenchmarkShell(b *testing.B) {
	p := newPhone(b, sim.Config{})
	srv, serial := realADB(b, p)
	viaADB := openDevice(b, Config{Port: srv.Port, Serial: serial})
	host, port := hostFace(b, p)
	viaHost := openDevice(b, Config{Host: host, Port: port})
	ctx := context.Background()
	layer := func(d *Device) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				if out, err := d.sh(ctx, "echo hi", false); err != nil || out != "hi\n" {
					b.Fatalf("sh = %q, %v", out, err)
				}
			}
		}
	}
	var perOp = map[string]float64{}
	b.Run("layer", func(b *testing.B) {
		layer(viaADB)(b)
		perOp["layer"] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("layer-hostface", layer(viaHost))
	b.Run("adb-exec", func(b *testing.B) {
		adbtest.Binary(b)
		for b.Loop() {
			out, _, err := srv.Exec(ctx, nil, "-s", serial, "shell", "echo", "hi")
			if err != nil || !bytes.Equal(out, []byte("hi\n")) {
				b.Fatalf("adb shell = %q, %v", out, err)
			}
		}
		perOp["adb-exec"] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		if l := perOp["layer"]; l > 0 {
			b.ReportMetric(perOp["adb-exec"]/l, "x-slower-than-layer")
		}
	})
}

// BenchmarkObserve compares dump + screenshot taken concurrently and one after the other,
// through the real adb server, on a phone answering each command after 30 ms (a USB
// phone's typical latency).
func BenchmarkObserve(b *testing.B) {
	p := newPhone(b, sim.Config{Faults: sim.Faults{Slow: 30 * time.Millisecond}})
	srv, serial := realADB(b, p)
	d := openDevice(b, Config{Port: srv.Port, Serial: serial})
	ctx := context.Background()
	b.Run("concurrent", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.Observe(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sequential", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.ObserveSequential(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
