package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictConfig: an unknown key, a value of the wrong type or an unknown choice in the
// config file is exit status 2 with the file, the line, the key and, when one is close, the
// key meant; a file that uses every documented key is accepted.
func TestStrictConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		body string
		want []string // in stderr; "FILE" stands for the config file's path
	}{
		{"typo under model", "model:\n  defualt: gpt-4o-mini\n", []string{"FILE:2:", "model.defualt", "unknown key", `did you mean "default"?`}},
		{"key in the wrong section", "runs: /tmp/r\nmaxwall: 10m\n", []string{"FILE:2:", "maxwall", "did you mean agent.max-wall?"}},
		{"typo under agent", "agent:\n  max-steps: 3\n  maxwall: 10m\n", []string{"FILE:3:", "agent.maxwall", `did you mean "max-wall"?`}},
		{"not a number", "agent:\n  max-steps: lots\n", []string{"FILE:2:", "agent.max-steps", `"lots" is not a whole number`}},
		{"not a duration", "agent:\n  max-wall: 600\n", []string{"FILE:2:", "agent.max-wall", "is not a duration"}},
		{"not a bool", "agent:\n  text-only: maybe\n", []string{"FILE:2:", "agent.text-only", "not true or false"}},
		{"unknown choice", "log-level: chatty\n", []string{"FILE:1:", "log-level", `"chatty" is not one of debug, info, warn, error`}},
		{"close choice", "model:\n  mode: json_shema\n", []string{"FILE:2:", "model.mode", `did you mean "json_schema"?`}},
		{"unknown role", "model:\n  roles:\n    planer: gpt-4o\n", []string{"FILE:3:", "model.roles.planer", `did you mean "planner"?`}},
		{"section where a value goes", "agent:\n  max-steps:\n    a: 1\n", []string{"FILE:3:", "agent.max-steps", "want a single value"}},
		{"value where a section goes", "model: gpt-4o\n", []string{"FILE:1:", "model", "want a section"}},
		{"guard rule typo", "guard:\n  rules:\n    - category: transfer\n      keywrds: [wire]\n", []string{"FILE:4:", "guard.rules[0].keywrds", `did you mean "keywords"?`}},
		{"price typo", "model:\n  prices:\n    gpt-4o: {prompt_per_m: 2.5, completion_per_mm: 10}\n", []string{"FILE:3:", "completion_per_mm", `did you mean "completion_per_m"?`}},
		{"not YAML", "model: [unclosed\n", []string{"FILE", "yaml"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "c"+string(rune('a'+i))+".yaml")
			if err := os.WriteFile(path, []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := execRoot(t, map[string]string{"HOME": dir}, "", "--config", path, "map", "list", "--knowledge", filepath.Join(dir, "k.db"))
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %s", code, stderr)
			}
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "FILE", path); !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}

	full := filepath.Join(dir, "full.yaml")
	body := `runs: ` + filepath.Join(dir, "runs") + `
knowledge: ` + filepath.Join(dir, "k.db") + `
log-level: INFO
device: {serial: emulator-5554, adb-host: localhost, adb-port: 5037}
model:
  base-url: http://localhost:11434/v1
  api-key: sk-x
  default: qwen2.5
  roles: {Planner: big, decider: small, checker: small}
  backup: small
  mode: json_object
  timeout: 30s
  max-response-bytes: 8MiB
  prices: {big: {prompt_per_m: 2, completion_per_m: 8}}
  strict: false
agent:
  max-steps: 30
  max-wall: 10m
  max-tokens: 0
  max-cost: 0.5
  text-only: false
  shell: [getprop, "settings get"]
guard:
  keywords: {payment: [zahlen]}
  confirm: [Bestätigen]
  rules:
    - {category: transfer, type: 2, keywords: [wire], ids: ["transfer_.*"], commands: [], except: [], page: [bank], amount: true}
`
	if err := os.WriteFile(full, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := execRoot(t, map[string]string{"HOME": dir}, "", "--config", full, "map", "list"); code != 0 {
		t.Errorf("a config with every documented key: exit %d\n%s", code, stderr)
	}
}

// TestStrictEnvAndFlags: a FAIRY_<KEY> variable or a flag with a value its key cannot take
// is exit status 2 naming the variable or the flag.
func TestStrictEnvAndFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--log-level", "chatty"}, `--log-level: "chatty" is not one of debug, info, warn, error`},
		{nil, []string{"--log-level", "debg"}, `did you mean "debug"?`},
		{map[string]string{"FAIRY_LOG_LEVEL": "loud"}, nil, `FAIRY_LOG_LEVEL (log-level): "loud" is not one of`},
		{map[string]string{"FAIRY_AGENT_MAX_STEPS": "lots"}, nil, `FAIRY_AGENT_MAX_STEPS (agent.max-steps): "lots" is not a whole number`},
		{map[string]string{"FAIRY_MODEL_TIMEOUT": "soon"}, nil, `FAIRY_MODEL_TIMEOUT (model.timeout): "soon" is not a duration`},
		{map[string]string{"FAIRY_DEVICE_ADB_PORT": "high"}, nil, `FAIRY_DEVICE_ADB_PORT (device.adb-port)`},
	} {
		env := map[string]string{"HOME": dir}
		for k, v := range tt.env {
			env[k] = v
		}
		code, _, stderr := execRoot(t, env, "", append(tt.args, "map", "list", "--knowledge", filepath.Join(dir, "k.db"))...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 with %q", tt.env, tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := execRoot(t, map[string]string{"HOME": dir, "FAIRY_AGENT_MAX_STEPS": "12"}, "", "--log-level", "debug", "map", "list",
		"--knowledge", filepath.Join(dir, "k.db")); code != 0 {
		t.Errorf("good values: exit %d, %s", code, stderr)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"defualt", "default", 1}, {"maxwall", "max-wall", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}, {"备注", "备忘", 1}} {
		if got := editDistance(tt.a, tt.b); got != tt.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
	if got := didYouMean("zzzzzz", []string{"runs", "model"}); got != "" {
		t.Errorf("didYouMean for a far word = %q", got)
	}
}

// TestREADMEConfigIsValid: every YAML config example in README.md passes the strict check,
// so the schema and the documentation agree.
func TestREADMEConfigIsValid(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, part := range strings.Split(string(readme), "```yaml\n")[1:] {
		body, _, _ := strings.Cut(part, "```")
		path := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := checkConfigFile(path); err != nil {
			t.Errorf("README example fails the strict check: %v\n%s", err, body)
		}
		blocks++
	}
	if blocks < 2 {
		t.Errorf("found %d YAML examples in README.md, want the guard and the configuration ones", blocks)
	}
}
