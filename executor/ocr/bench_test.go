package ocr_test

import (
	"context"
	"testing"
	"time"

	"github.com/fairy-go/fairy/executor/ocr"
	"github.com/fairy-go/fairy/executor/ocr/ocrtest"
	"github.com/fairy-go/fairy/perception"
)

// BenchmarkReadWebViewRegion is the per-step cost of reading an uncovered WebView region
// that was not read before (TeaHouse's checkout: a cold cache each time): find the lines,
// build the strips, have tesseract read them, assemble. The tesseract programs are kept
// between steps, as in a run; "first" also starts them (the first read of a run). The
// Chinese checkout is read with Chinese data too. Figure: ms/read (≤ 400 on the 2-core
// machine is the goal).
func BenchmarkReadWebViewRegion(b *testing.B) {
	screens := pixelScreens(b)
	for _, c := range []struct {
		name  string
		ps    pixelScreen
		first bool
	}{
		{"en", screens[0], false},
		{"zh", screens[2], false},
		{"en-first", screens[0], true},
	} {
		if c.ps.name != "teahouse order" && c.ps.name != "teahouse order zh-CN" {
			b.Fatalf("screen %q is not a checkout", c.ps.name)
		}
		b.Run(c.name, func(b *testing.B) {
			tess := ocrtest.Start(b)
			read := func(tess *ocr.Tesseract) { readScreen(b, tess, c.ps) }
			if !c.first {
				read(tess) // the programs start
			}
			b.ResetTimer()
			for b.Loop() {
				if c.first {
					tess = ocrtest.Start(b)
				}
				read(tess)
				if c.first {
					b.StopTimer()
					tess.Close()
					b.StartTimer()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/read")
		})
	}
}

// BenchmarkReadWebViewRegionCPU is the CPU a read of an uncovered WebView region not read
// before costs — this process's and its tesseract programs' user and system time — which,
// unlike the wall time of BenchmarkReadWebViewRegion, does not grow with what else the
// shared machine runs. The programs' time counts once they end, so a run of N reads after
// the programs' start is compared with a run of one: cpu-ms/read is the difference over
// N-1, cpu-ms/first the run of one (start and load the language data, read once). zh
// reads with two programs at once (Latin and Chinese data): on two idle cores its wall
// time is under its CPU time.
func BenchmarkReadWebViewRegionCPU(b *testing.B) {
	screens := pixelScreens(b)
	for _, c := range []struct {
		name string
		ps   pixelScreen
	}{{"en", screens[0]}, {"zh", screens[2]}} {
		b.Run(c.name, func(b *testing.B) {
			read := func(tess *ocr.Tesseract) { readScreen(b, tess, c.ps) }
			reads := func(n int) time.Duration {
				c0 := cpuTime(b)
				tess := ocrtest.Start(b)
				for range n {
					read(tess)
				}
				tess.Close()
				return cpuTime(b) - c0
			}
			first := reads(1)
			n := 0
			c0 := cpuTime(b)
			tess := ocrtest.Start(b)
			read(tess)
			for b.Loop() {
				read(tess)
				n++
			}
			tess.Close()
			all := cpuTime(b) - c0
			b.ReportMetric(float64((all-first).Microseconds())/float64(max(n, 1))/1000, "cpu-ms/read")
			b.ReportMetric(float64(first.Microseconds())/1000, "cpu-ms/first")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkReadCachedRegion is the cost of a region shown again: a hash of its pixels.
func BenchmarkReadCachedRegion(b *testing.B) {
	tess := ocrtest.Start(b)
	ps := pixelScreens(b)[0]
	r, err := perception.NewPixelReader(tess)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := perception.Parse(ps.dump)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Read(context.Background(), s, ps.shot); err != nil {
			b.Fatal(err)
		}
	}
	if r.Calls() != 1 {
		b.Fatalf("tesseract ran %d times for one region, want 1", r.Calls())
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/read")
}

// BenchmarkRecall reports the share of the labels the phone drew on its canvas screens
// (TeaHouse, SafeBox, 城市地图 with each card) that were read right.
func BenchmarkRecall(b *testing.B) {
	tess := ocrtest.Start(b)
	screens := pixelScreens(b)
	var hit, total int
	for b.Loop() {
		r, err := perception.NewPixelReader(tess)
		if err != nil {
			b.Fatal(err)
		}
		hit, total = recall(b, r, screens, false)
	}
	b.ReportMetric(100*float64(hit)/float64(total), "recall%")
	b.ReportMetric(float64(total), "labels")
}

// readScreen reads the uncovered region of ps with tess, as the agent does on that screen.
func readScreen(b *testing.B, tess *ocr.Tesseract, ps pixelScreen) {
	b.Helper()
	r, err := perception.NewPixelReader(tess)
	if err != nil {
		b.Fatal(err)
	}
	s, err := perception.Parse(ps.dump)
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Read(context.Background(), s, ps.shot); err != nil {
		b.Fatal(err)
	}
	if len(s.Read) == 0 {
		b.Fatal("nothing read")
	}
}
