package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"
)

// probesFile is where the probe's answers are remembered, in the config directory.
const probesFile = "probes.json"

// probeRecord is what the probe found for one model at one endpoint.
type probeRecord struct {
	Model    string    `json:"model"`
	Endpoint string    `json:"endpoint"`
	Family   string    `json:"family"` // the family whose syntax the answers were in
	Frame    frameKind `json:"frame"`
	// ImageW and ImageH are the size of the picture the probe sent; a run sends the
	// family's size, and frameImage then means that picture's pixels.
	ImageW int       `json:"image_w"`
	ImageH int       `json:"image_h"`
	Hits   int       `json:"hits"`
	Taps   int       `json:"taps"`
	When   time.Time `json:"when"`
}

// probeKey names a model at an endpoint: the same model name served elsewhere (another
// quantisation, another server) is probed again.
func probeKey(model, endpoint string) string {
	return model + " @ " + strings.TrimRight(endpoint, "/")
}

// probeStore is the remembered probes: a small JSON file, written whole and atomically.
type probeStore struct {
	path string
}

// load reads the file; a missing file is no probe yet.
func (s probeStore) load() (map[string]probeRecord, error) {
	m := map[string]probeRecord{}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the remembered probes: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("the remembered probes in %s are damaged (%v): "+
			"delete the file and probe again with 'fairy model probe'", s.path, err)
	}
	return m, nil
}

// get is the record of a model at an endpoint.
func (s probeStore) get(model, endpoint string) (probeRecord, bool, error) {
	m, err := s.load()
	if err != nil {
		return probeRecord{}, false, err
	}
	r, ok := m[probeKey(model, endpoint)]
	return r, ok, nil
}

// put remembers r, keeping the other models' records.
func (s probeStore) put(r probeRecord) error {
	m, err := s.load()
	if err != nil {
		return err
	}
	m[probeKey(r.Model, r.Endpoint)] = r
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("remember the probe: %w", err)
	}
	if err := renameio.WriteFile(s.path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("remember the probe: %w", err)
	}
	return nil
}
