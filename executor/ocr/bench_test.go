package ocr_test

import (
	"context"
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// BenchmarkReadWebViewRegion is the per-step cost of reading an uncovered WebView region
// that was not read before (TeaHouse's checkout: a cold cache each time): find the lines,
// build the strip, run tesseract once, assemble. Figure: ms/read (≤ 400 on the 2-core
// machine is the goal).
func BenchmarkReadWebViewRegion(b *testing.B) {
	tess := newTesseract(b)
	screens := pixelScreens(b)
	ps := screens[0] // teahouse order
	for b.Loop() {
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
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/read")
}

// BenchmarkReadCachedRegion is the cost of a region shown again: a hash of its pixels.
func BenchmarkReadCachedRegion(b *testing.B) {
	tess := newTesseract(b)
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
	tess := newTesseract(b)
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
