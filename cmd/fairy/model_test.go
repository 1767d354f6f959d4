package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/spf13/cobra"
)

func TestModelCheck(t *testing.T) {
	rules, err := scripted.ParseRules([]byte("rules:\n  - role: judge\n    match: nothing-matches-this\n    answer: '{}'\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scripted.NewServer(rules, scripted.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	tests := []struct {
		name    string
		baseURL string
		wantErr bool
		want    []string
	}{
		{"scripted answers the check", srv.URL + "/v1", false, []string{"decider", "fairy-scripted", "ok"}},
		{"unreachable endpoint", "http://127.0.0.1:1/v1", true, []string{"FAIL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			cmd := newModelCmd(modelDeps{Config: func(*cobra.Command) (openai.Config, error) {
				return openai.Config{BaseURL: tt.baseURL, APIKey: "sk-check-0000000000", DefaultModel: "m"}, nil
			}})
			cmd.SetOut(&out)
			cmd.SetArgs([]string{"check", "--role", "planner,decider"})
			err := cmd.ExecuteContext(t.Context())
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v\n%s", err, tt.wantErr, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "sk-check") {
				t.Errorf("output shows the key:\n%s", out.String())
			}
			if n := strings.Count(out.String(), "\n"); n != 3 {
				t.Errorf("want a header and 2 rows:\n%s", out.String())
			}
		})
	}
}

func TestModelServe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.yaml")
	if err := os.WriteFile(path, []byte("rules:\n  - role: decider\n    answer: '{\"action\": \"tap\", \"index\": {{index \"Send\"}}}'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	cmd := newModelCmd(modelDeps{})
	cmd.SetOut(pw)
	cmd.SetArgs([]string{"serve", "--rules", path, "--addr", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx); pw.Close() }()

	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("read banner: %v", err)
	}
	m := regexp.MustCompile(`http://\S+/v1`).FindString(line)
	if m == "" || !strings.Contains(line, "not a real model") {
		t.Fatalf("banner = %q", line)
	}
	c, err := openai.New(openai.Config{BaseURL: m, DefaultModel: "x"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Generate(t.Context(), llm.Request{Role: llm.RoleDecider,
		Messages: []llm.Message{{Text: "- [1] button \"Back\"\n- [2] button \"Send\" id=send"}},
		Schema:   &llm.Schema{Name: "decider", JSON: []byte(`{"required":["action","index"]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != `{"action": "tap", "index": 2}` {
		t.Errorf("answer = %s", resp.Text)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve returned %v", err)
	}

	// Bad rules are a usage error.
	bad := newModelCmd(modelDeps{})
	bad.SetArgs([]string{"serve", "--rules", filepath.Join(dir, "missing.yaml")})
	var ee *exitError
	if err := bad.ExecuteContext(t.Context()); !errors.As(err, &ee) || ee.code != 2 {
		t.Errorf("err = %v, want exit 2", err)
	}
}

// TestModelMaxResponseBytes: model.max-response-bytes (config file or FAIRY_ env) reaches the
// client: `fairy model check` against an endpoint whose answer is over the cap fails and
// names the key; a bad size is a usage error.
func TestModelMaxResponseBytes(t *testing.T) {
	answer := `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"ok\":true}` +
		strings.Repeat(" ", 4096) + `"}}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	dir := t.TempDir()
	cfgFile := func(size string) string {
		p := filepath.Join(t.TempDir(), "config.yaml")
		body := "model:\n  base-url: " + srv.URL + "/v1\n  default: m\n  max-response-bytes: " + size + "\n"
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name     string
		config   string
		env      string // FAIRY_MODEL_MAX_RESPONSE_BYTES
		wantCode int    // 0 ok, 1 check failed, 2 usage error
		want     string
	}{
		{"config file, answer over the cap", cfgFile("2KiB"), "", 1, "model.max-response-bytes"},
		{"config file, answer under the cap", cfgFile("1MiB"), "", 0, " ok "},
		{"environment beats the file", cfgFile("1MiB"), "1024", 1, "larger than 1 KiB"},
		{"plain bytes", cfgFile("8192"), "", 0, " ok "},
		{"bad size", cfgFile("lots"), "", 2, `"lots" is not a size`},
		{"zero", cfgFile("0"), "", 2, "is not a size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := map[string]string{"HOME": dir, "FAIRY_MODEL_MAX_RESPONSE_BYTES": tt.env}
			root := newRootCmd(strings.NewReader(""), &out, &errb, envMap(env))
			root.SetOut(&out)
			root.SetArgs([]string{"--config", tt.config, "model", "check", "--role", "decider"})
			code := exitStatus(t.Context(), root.ExecuteContext(t.Context()), &errb)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, out.String(), errb.String())
			}
			if got := out.String() + errb.String(); !strings.Contains(got, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "8388608": 8 << 20, "512KiB": 512 << 10, "8 MiB": 8 << 20, "1gib": 1 << 30} {
		if got, err := parseByteSize(in); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "0", "8MB", "1.5MiB", "9999999999GiB"} {
		if got, err := parseByteSize(in); err == nil {
			t.Errorf("parseByteSize(%q) = %d, want an error", in, got)
		}
	}
}
