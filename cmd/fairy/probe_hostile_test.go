package main

import (
	"bytes"
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
