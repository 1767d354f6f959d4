package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// billingModel is an OpenAI-compatible endpoint that must not be called unless the test
// allows it: every request counts, and one the test did not allow fails it.
func billingModel(t *testing.T, allowed bool) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if !allowed {
			t.Errorf("the configured model was called: %s %s", r.Method, r.URL.Path)
		}
		http.Error(w, `{"error":{"message":"billing endpoint","type":"test"}}`, http.StatusBadRequest)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// modelEnv is an environment and a config file that both name a real model at url.
func modelEnv(t *testing.T, url string) (map[string]string, string) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  base-url: "+url+"/v1\n  default: config-model\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "sk-billing-test", "FAIRY_MODEL_DEFAULT": "env-model"}, cfg
}

// TestEvalBuiltinNeverBillsByAccident: with a model named in the environment and the
// config file, `fairy eval builtin:sim` still answers with the suite's scripted model,
// passes, and says so on its first line; the configured endpoint is never called.
func TestEvalBuiltinNeverBillsByAccident(t *testing.T) {
	t.Parallel()
	srv, calls := billingModel(t, false)
	env, cfg := modelEnv(t, srv.URL)
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(env))
	// No --sim: a built-in suite gets one virtual phone.
	root.SetArgs([]string{"eval", "builtin:sim", "--config", cfg, "--out", t.TempDir(), "--runs", t.TempDir(),
		"--tasks", "settings-wifi-off,contacts-which-alice-email"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	first, _, _ := strings.Cut(stdout.String(), "\n")
	if !strings.Contains(first, "scripted model") || !strings.Contains(first, "--real-model") {
		t.Errorf("first line %q does not say the scripted model answers (and how to use the configured one)", first)
	}
	if !strings.Contains(stdout.String(), "passed 2 of 2") || !strings.Contains(stdout.String(), "1 virtual phone") {
		t.Errorf("output:\n%s", stdout.String())
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the configured model got %d calls", n)
	}

	// A half-made model configuration (an endpoint without a model name, an error for
	// `fairy run`) does not stop it either.
	stdout.Reset()
	root = newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1"}))
	root.SetArgs([]string{"eval", "builtin:sim", "--out", t.TempDir(), "--runs", t.TempDir(), "--tasks", "settings-wifi-off"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy eval with OPENAI_BASE_URL alone: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if first, _, _ := strings.Cut(stdout.String(), "\n"); !strings.Contains(first, "scripted model") || !strings.Contains(first, "not used") {
		t.Errorf("first line %q", first)
	}
}

// TestEvalNamedModel: --real-model and --model NAME make the configured endpoint answer,
// and the first line names that model; without an endpoint they are usage errors.
func TestEvalNamedModel(t *testing.T) {
	srv, calls := billingModel(t, true)
	env, cfg := modelEnv(t, srv.URL)
	for _, tc := range []struct {
		flags []string
		model string
	}{
		{[]string{"--real-model"}, "env-model at " + srv.URL},
		{[]string{"--model", "named-model"}, "named-model at " + srv.URL},
	} {
		calls.Store(0)
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(env))
		root.SetArgs(append([]string{"eval", "builtin:sim", "--config", cfg, "--sim", "1", "--out", t.TempDir(), "--runs", t.TempDir(),
			"--tasks", "settings-wifi-off"}, tc.flags...))
		err := root.ExecuteContext(t.Context())
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 1 {
			t.Errorf("%v: err = %v, want exit 1 (the endpoint rejects every request)", tc.flags, err)
		}
		first, _, _ := strings.Cut(stdout.String(), "\n")
		if !strings.HasPrefix(first, "model: "+tc.model) || !strings.Contains(first, "real model") {
			t.Errorf("%v: first line %q, want the model %q named as a real one", tc.flags, first, tc.model)
		}
		if calls.Load() == 0 {
			t.Errorf("%v: the named model was never called", tc.flags)
		}
	}
	for _, flags := range [][]string{{"--real-model"}, {"--model", "gpt-4o"}} {
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append([]string{"eval", "builtin:sim", "--sim", "1", "--out", t.TempDir(), "--runs", t.TempDir()}, flags...))
		err := root.ExecuteContext(t.Context())
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), flags[0]) {
			t.Errorf("%v with no endpoint: err = %v, want exit 2 naming the flag", flags, err)
		}
	}
}
