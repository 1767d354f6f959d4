package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// resolve runs the root command with args (no subcommand) and returns the resolved settings.
func resolve(t *testing.T, env map[string]string, args ...string) (*settings, error) {
	t.Helper()
	s := newSettings(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, envMap(env))
	root := s.rootCmd()
	root.RunE = func(*cobra.Command, []string) error { return nil }
	root.SetArgs(args)
	return s, root.Execute()
}

func TestSettingsPrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("runs: /from/config\ndevice:\n  serial: cfg-serial\n  adb-port: 5038\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantRuns   string
		wantSerial string
		wantPort   int
	}{
		{"config file", []string{"--config", cfg}, nil, "/from/config", "cfg-serial", 5038},
		{"flag beats config", []string{"--config", cfg, "--runs", "/flag", "-s", "flag-serial"}, nil, "/flag", "flag-serial", 5038},
		{"env beats config", []string{"--config", cfg}, map[string]string{"FAIRY_DEVICE_SERIAL": "env-serial"}, "/from/config", "env-serial", 5038},
		{"defaults and ANDROID_SERIAL", nil, map[string]string{"ANDROID_SERIAL": "as", "HOME": dir}, filepath.Join(dir, ".local/share/fairy/runs"), "as", 5037},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := resolve(t, tc.env, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := s.runsDir()
			if err != nil {
				t.Fatal(err)
			}
			if runs != tc.wantRuns {
				t.Errorf("runs = %q, want %q", runs, tc.wantRuns)
			}
			if d := s.device(); d.Serial != tc.wantSerial || d.Port != tc.wantPort {
				t.Errorf("device = %+v, want serial %q port %d", d, tc.wantSerial, tc.wantPort)
			}
		})
	}
}

func TestMissingExplicitConfigIsUsageError(t *testing.T) {
	_, err := resolve(t, nil, "--config", filepath.Join(t.TempDir(), "nope.yaml"))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 {
		t.Fatalf("err = %v, want exit status 2", err)
	}
}

func TestNoDataDirIsAnError(t *testing.T) {
	s, err := resolve(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.knowledgePath(); err == nil || !strings.Contains(err.Error(), "--knowledge") {
		t.Fatalf("knowledgePath err = %v, want advice to pass --knowledge", err)
	}
}
