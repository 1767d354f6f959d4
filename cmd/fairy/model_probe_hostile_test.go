package main

import (
	"bytes"
	"image"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrepareGroundingRefusesAnUnknownFrame: a remembered probe whose frame fairy does not
// know (a damaged or hand-edited probes.json) stops the run with a clear error; read as
// absolute pixels, every point of a 0-1000 model would land in the screen's top left.
func TestPrepareGroundingRefusesAnUnknownFrame(t *testing.T) {
	store := probeStore{path: filepath.Join(t.TempDir(), probesFile)}
	for _, fr := range []frameKind{"0-10000", ""} {
		if err := store.put(probeRecord{Model: "m", Endpoint: "http://localhost:11434/v1", Family: groundingGUIOwl, Frame: fr}); err != nil {
			t.Fatal(err)
		}
		cfg := runConfig{Grounding: groundingSetup{Family: groundingGUIOwl, Model: "m", Endpoint: "http://localhost:11434/v1", Store: store}}
		var out bytes.Buffer
		err := prepareGrounding(t.Context(), &cfg, &out) // cfg.Model is nil: a probe would panic
		if err == nil || !strings.Contains(err.Error(), "probe again") {
			t.Errorf("frame %q: err %v, want a refusal that says to probe again (prepared %+v)", fr, err, cfg.Agent.GroundingFrame)
		}
	}
}

// TestInferFrameFromLyingTaps: answers no frame can hold are refused in words a person
// reads: numbers too large to be points are not "NaN", and one point given for every
// element is said to be that.
func TestInferFrameFromLyingTaps(t *testing.T) {
	boxes := []image.Rectangle{image.Rect(10, 100, 200, 300), image.Rect(500, 800, 700, 1000), image.Rect(800, 2000, 1000, 2200)}
	for _, c := range []struct {
		x, y float64
		want string
		same bool
	}{{1e308, 1e308, "too large", false}, {-1e308, 5, "too large", false}, {600, 900, "same point (600,900)", true}} {
		var taps []probeTap
		for i, b := range boxes {
			k := float64(i+1) / 3 // the huge answers differ from one element to the next
			if c.same {
				k = 1
			}
			taps = append(taps, probeTap{Box: b, X: c.x * k, Y: c.y * k})
		}
		_, err := inferFrame(taps, 1080, 2400, 1080, 2400, frameImage)
		if err == nil || strings.Contains(err.Error(), "NaN") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("taps at (%g,%g): %v; want a refusal saying %q", c.x, c.y, err, c.want)
		}
	}
}
