package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// --profile names the virtual phones' timing: an unknown name, or a profile without
// virtual phones, is a usage error (exit 2) that says what to pass.
func TestProfileFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sim", "serve", "--host", "127.0.0.1:0", "--adbd", "", "--profile", "fast"}, "instant, pixel, slow"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--profile", "fast"}, "instant, pixel, slow"},
		{[]string{"eval", "builtin:sim", "--devices", "emulator-5554", "--profile", "pixel"}, "use it with --sim N"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		args := tt.args
		if args[0] == "eval" {
			args = append(args, "--runs", t.TempDir(), "--out", t.TempDir())
		}
		root.SetArgs(args)
		err := root.ExecuteContext(t.Context())
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "--profile") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want exit 2 naming --profile and %q", tt.args, err, tt.want)
		}
	}
	// A known profile serves.
	out := startSimServe(t, "--profile", "pixel")
	if !strings.Contains(out.String(), "virtual phone") {
		t.Errorf("sim serve --profile pixel:\n%s", out)
	}
}
