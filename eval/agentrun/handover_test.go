package agentrun

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// The secrets the simulated person of eval/testdata/handover knows.
const (
	bankPassword = "Quay-Lantern-7£"
	bankCode     = "731905"
)

// TestLoginHandsOverAndResumes (issue 40): the agent reaches Harbor Bank's sign-in, types
// nothing, hands the phone over; the simulated person types the password and the one-time
// code on the phone with their own hands; the run resumes on the accounts page and passes.
// The trace says only that the phone was handed over at step N for M seconds, and nothing
// in the evaluation's output directory — traces, screenshots, reports, knowledge — holds
// either secret.
func TestLoginHandsOverAndResumes(t *testing.T) {
	s, err := suite.Load(filepath.Join("..", "testdata", "handover", "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ServeFarm(sim.FarmConfig{Phones: 1, Base: sim.Config{Seed: 1, Apps: s.SimApps()}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := eval.Run(t.Context(), eval.Config{Suite: s, Agent: a, Devices: f.Devices(), Parallel: 1, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 1 {
		t.Fatalf("%d results, want 1", len(rep.Tasks))
	}
	res := rep.Tasks[0]
	if !res.Pass {
		t.Fatalf("%s: %s — %s %+v", res.ID, res.Outcome, res.Reason, res.Checks)
	}
	tr, err := os.ReadFile(filepath.Join(out, res.RunDir, rundir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(tr, []byte(`"kind":"HandOver"`)); n < 2 {
		t.Errorf("%d HandOver lines in the trace, want the hand-over opened and closed", n)
	}
	if !bytes.Contains(tr, []byte(`"activity":"com.fairy.bank.LoginActivity"`)) || !bytes.Contains(tr, []byte(`"secret":true`)) {
		t.Errorf("the sign-in screen is not marked as holding a secret (no live stream shows it)")
	}
	if !bytes.Contains(tr, []byte(`"reason":"a password"`)) || !bytes.Contains(tr, []byte(`"duration":`)) {
		t.Errorf("the trace does not say what was handed over for how long")
	}
	// Every file of the output directory, whatever its kind, is searched for the secrets
	// and their parts.
	needles := []string{bankPassword, "Quay-Lantern", "Lantern-7", bankCode}
	files := 0
	err = filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, n := range needles {
			if bytes.Contains(b, []byte(n)) || strings.Contains(strings.ToLower(string(b)), strings.ToLower(n)) {
				t.Errorf("%s holds the secret %q", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Errorf("only %d files in %s: nothing to search", files, out)
	}
}
