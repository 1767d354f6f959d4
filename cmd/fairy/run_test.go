package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
	"github.com/spf13/cobra"
)

// serveModel runs `fairy model serve` with rules on a free port and returns its base URL.
// servePhone serves phone on the ADB wire protocol for the test's life and connects the
// real adb server adb to it; it returns the phone's serial.
func servePhone(t *testing.T, adb *adbtest.Server, phone *sim.Phone) string {
	t.Helper()
	ds, err := wire.NewDeviceServer(wire.DeviceConfig{Device: phone})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ds.Serve(ctx) }()
	t.Cleanup(func() { cancel(); ds.Close(); <-served })
	return adb.Connect(t, ds.Addr().String())
}

func serveModel(t *testing.T, rules []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rules.yaml")
	if err := os.WriteFile(path, rules, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	out := &syncBuffer{}
	root := newRootCmd(bytes.NewReader(nil), out, &syncBuffer{}, envMap(nil))
	root.SetArgs([]string{"model", "serve", "--rules", path, "--addr", "127.0.0.1:0"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("model serve: %v", err)
		}
	})
	re := regexp.MustCompile(`http://\S+/v1`)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if u := re.FindString(out.String()); u != "" {
			return u
		}
		if time.Now().After(deadline) {
			t.Fatalf("model serve did not start: %s", out.String())
		}
	}
}

// TestRunThroughRealADB carries out the demo task with `fairy run`: the virtual phone is
// reached through the real adb server (`adb connect` to its adbd face), the scripted model
// through `fairy model serve` and the configured OpenAI adapter, and the person answers on
// stdin.
func TestRunThroughRealADB(t *testing.T) {
	adb := adbtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	serial := servePhone(t, adb, phone)

	url := serveModel(t, demoRules)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test-secret-123"})
	root := newRootCmd(strings.NewReader("18:00\nyes\nyes\n"), &out, &errOut, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", runs, "--adb-port", strconv.Itoa(adb.Port), "-s", serial, demoInstruction})
	// The whole task takes a few seconds; a hung device call must not eat the package's time.
	runCtx, stop := context.WithTimeout(t.Context(), 20*time.Second)
	defer stop()
	if err := root.ExecuteContext(runCtx); err != nil {
		t.Fatalf("fairy run: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	sum, rundir := readSummary(t, out.String())
	if sum.Outcome != event.OutcomeDone || sum.Interactions != 3 {
		t.Errorf("outcome %s with %d interactions, want done with 3", sum.Outcome, sum.Interactions)
	}
	orders := phone.Orders()
	if len(orders) != 1 || !orders[0].Paid || orders[0].DeliveryTime != "18:00" {
		t.Errorf("orders = %+v", orders)
	}
	if !strings.Contains(out.String(), "When should the bubble tea arrive?") {
		t.Errorf("the question was not shown on the terminal:\n%s", out.String())
	}
	trace, err := os.ReadFile(filepath.Join(rundir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(trace, []byte("sk-test-secret-123")) {
		t.Error("the API key is in the trace")
	}
	t.Logf("fairy run via the real adb server: %d steps, %.2fs", sum.Steps, sum.WallSeconds)
}

func TestRunWithoutModelIsUsageError(t *testing.T) {
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(map[string]string{"HOME": t.TempDir()}))
	root.SetArgs([]string{"run", "do something"})
	err := root.ExecuteContext(t.Context())
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "fairy demo") || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("err = %v, want exit 2 pointing to OPENAI_API_KEY and the demo", err)
	}
}

func TestModelConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	body := "model:\n  base-url: http://localhost:11434/v1\n  default: qwen2.5\n  roles:\n    Planner: big\n  mode: json_object\n  timeout: 5s\n  prices:\n    big: {prompt_per_m: 2, completion_per_m: 8}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantURL  string
		wantDef  string
		wantOK   bool
		wantErr  string
		wantKey  string
		wantRole string
	}{
		{"nothing configured", nil, nil, "", "", false, "", "", ""},
		{"key only: OpenAI", nil, map[string]string{"OPENAI_API_KEY": "k"}, openAIBaseURL, defaultModelName, true, "", "k", ""},
		{"env base url without model", nil, map[string]string{"OPENAI_BASE_URL": "http://x/v1"}, "", "", false, "no model name", "", ""},
		{"env model", nil, map[string]string{"OPENAI_BASE_URL": "http://x/v1", "FAIRY_MODEL_DEFAULT": "m"}, "http://x/v1", "m", true, "", "", ""},
		{"config file", []string{"--config", cfg}, map[string]string{"OPENAI_BASE_URL": "http://ignored/v1"}, "http://localhost:11434/v1", "qwen2.5", true, "", "", "big"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"HOME": dir}
			for k, v := range tc.env {
				env[k] = v
			}
			s := newSettings(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, envMap(env))
			root := s.rootCmd()
			var got struct {
				ok  bool
				err error
			}
			var url, def, key, role string
			root.RunE = func(cmd *cobra.Command, _ []string) error {
				c, ok, err := s.openAIConfig(cmd)
				got.ok, got.err = ok, err
				url, def, key, role = c.BaseURL, c.DefaultModel, c.APIKey, c.Models["planner"]
				return nil
			}
			root.SetArgs(tc.args)
			if err := root.Execute(); err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" {
				if got.err == nil || !strings.Contains(got.err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", got.err, tc.wantErr)
				}
				return
			}
			if got.err != nil || got.ok != tc.wantOK || url != tc.wantURL || def != tc.wantDef || key != tc.wantKey || role != tc.wantRole {
				t.Errorf("got ok=%v err=%v url=%q default=%q key=%q planner=%q", got.ok, got.err, url, def, key, role)
			}
		})
	}
}

// TestRunConfirmResult: with --confirm-result, a run that says done asks the person whether
// the result is right. A yes keeps what the run learned; a no takes it back — the routine
// the run replayed or stored is demoted, shown by `routines list` — and the run exits 1.
func TestRunConfirmResult(t *testing.T) {
	adb := adbtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	second, err := sim.New(sim.Config{Seed: 3}) // the first run's phone shows its order paid
	if err != nil {
		t.Fatal(err)
	}
	serials := []string{servePhone(t, adb, phone), servePhone(t, adb, second)}
	url := serveModel(t, demoRules)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	kpath := filepath.Join(dir, "knowledge.db")
	env := map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test"}
	runs := 0
	run := func(answers string) (int, string) {
		serial := serials[runs]
		runs++
		code, out, errOut := execRoot(t, env, answers, "run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", kpath,
			"--confirm-result", "--adb-port", strconv.Itoa(adb.Port), "-s", serial, demoInstruction)
		return code, out + errOut
	}
	demoted := func() map[string]int {
		code, stdout, stderr := execRoot(t, nil, "", "routines", "list", "--format", "json", "--knowledge", kpath)
		if code != 0 {
			t.Fatalf("routines list: exit %d: %s", code, stderr)
		}
		var rows []routineJSON
		if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
			t.Fatal(err)
		}
		// An app's most demoted routine: a run that took another path (a slow screen
		// under load, a step more) stores a routine of its own beside the first one.
		out := map[string]int{}
		for _, r := range rows {
			out[r.App] = max(out[r.App], r.Demoted)
		}
		return out
	}

	code, out := run("18:00\nyes\nyes\nyes\n")
	if code != 0 || !strings.Contains(out, "Is the result what you wanted?") {
		t.Fatalf("a run the person confirms: exit %d\n%s", code, out)
	}
	if d := demoted(); len(d) != 2 || d["com.fairy.shop"] != 0 || d["com.google.android.calendar"] != 0 {
		t.Fatalf("after a confirmed run, demoted routines by app = %v, want two routines, none demoted", d)
	}

	code, out = run("18:00\nyes\nyes\nno, that is the wrong time\n")
	if code != 1 || !strings.Contains(out, "the person said the result is wrong") || !strings.Contains(out, "knowledge: taken back:") {
		t.Fatalf("a run the person says is wrong: exit %d\n%s", code, out)
	}
	if d := demoted(); d["com.fairy.shop"] < 1 || d["com.google.android.calendar"] < 1 {
		t.Errorf("after a wrong result, demoted routines by app = %v, want both demoted", d)
	}
}

// TestRunMaxStepsBelowOne: --max-steps 0 or less is refused with a sentence saying what to
// pass; it ran with the default limit of 30 as if nothing had been said.
func TestRunMaxStepsBelowOne(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"0", "-3"} {
		code, stdout, stderr := execRoot(t, nil, "", "run", "--sim", "--knowledge", filepath.Join(dir, "k.db"), "--runs", filepath.Join(dir, "runs"),
			"--max-steps", n, "turn", "off", "wifi")
		if code != exitUsage || !strings.Contains(stderr, "--max-steps must be at least 1, got "+n) {
			t.Errorf("--max-steps %s: exit %d\nstdout:\n%s\nstderr:\n%s", n, code, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
			t.Errorf("--max-steps %s: a run was started", n)
		}
	}
}
