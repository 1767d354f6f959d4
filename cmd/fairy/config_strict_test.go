package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// TestDocsConfigIsValid: every YAML config example in README.md and docs/*.md passes the
// strict check, so the schema and the documentation agree. The YAML of docs/apps.md (an
// app's) and docs/suite-format.md (a suite, TestDocsSuiteExampleLoads) is no config.
func TestDocsConfigIsValid(t *testing.T) {
	blocks := 0
	for _, name := range docFiles(t) {
		if name == "docs/apps.md" || name == "docs/suite-format.md" {
			continue
		}
		for _, part := range strings.Split(repoFile(t, name), "```yaml\n")[1:] {
			body, _, _ := strings.Cut(part, "```")
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := checkConfigFile(path); err != nil {
				t.Errorf("%s: example fails the strict check: %v\n%s", name, err, body)
			}
			blocks++
		}
	}
	if blocks < 4 {
		t.Errorf("found %d YAML config examples in README.md and docs/*.md, "+
			"want the guard's two, the configuration's and the grounding's", blocks)
	}
}

// execListed runs the root command with env both as the lookup and as the listed
// environment, as main gives them (os.Getenv and os.Environ); it returns the exit status
// and stderr.
func execListed(t *testing.T, env map[string]string, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := newSettings(strings.NewReader(""), &out, &errOut, envMap(env))
	s.environ = func() []string {
		var kv []string
		for k, v := range env {
			kv = append(kv, k+"="+v)
		}
		return kv
	}
	root := s.rootCmd()
	root.SetArgs(args)
	return exitStatus(t.Context(), root.ExecuteContext(t.Context()), &errOut), errOut.String()
}

// TestStrictEnvNames: a FAIRY_ variable fairy does not read stops it with exit status 2,
// the variable meant when one is close, or the config key that only the file sets; the
// variables fairy reads, and the ones set around it on purpose, pass.
func TestStrictEnvNames(t *testing.T) {
	dir := t.TempDir()
	args := []string{"map", "list", "--knowledge", filepath.Join(dir, "k.db")}
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"FAIRY_MODEL_DEFUALT": "x"},
			`fairy: environment FAIRY_MODEL_DEFUALT: unknown variable (did you mean "FAIRY_MODEL_DEFAULT"?); unset it or correct its name` + "\n"},
		{map[string]string{"FAIRY_RUN": "/tmp/r"},
			`fairy: environment FAIRY_RUN: unknown variable (did you mean "FAIRY_RUNS"?); unset it or correct its name` + "\n"},
		{map[string]string{"FAIRY_AGENT_SHELL": "ls"},
			"fairy: environment FAIRY_AGENT_SHELL: agent.shell is not read from the environment: set it in the config file, or unset FAIRY_AGENT_SHELL\n"},
		{map[string]string{"FAIRY_MODEL_ROLES_PLANNER": "gpt-4o"},
			"fairy: environment FAIRY_MODEL_ROLES_PLANNER: model.roles is not read from the environment: set it in the config file, or unset FAIRY_MODEL_ROLES_PLANNER\n"},
		{map[string]string{"FAIRY_FROBNICATE": "1"},
			"fairy: environment FAIRY_FROBNICATE: unknown variable; a configuration key is FAIRY_<KEY> with dots and dashes as underscores (model.default is FAIRY_MODEL_DEFAULT); unset it or correct its name\n"},
	} {
		env := map[string]string{"HOME": dir}
		for k, v := range tt.env {
			env[k] = v
		}
		if code, stderr := execListed(t, env, args...); code != 2 || stderr != tt.want {
			t.Errorf("%v: exit %d, stderr\n%q\nwant exit 2 and\n%q", tt.env, code, stderr, tt.want)
		}
	}

	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("log-level: info\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := map[string]string{"HOME": dir, "FAIRY_CONFIG": cfg, "FAIRY_MODEL_DEFAULT": "m", "FAIRY_AGENT_MAX_STEPS": "3",
		"FAIRY_DEVICE_ADB_PORT": "5037", "FAIRY_INTEROP_DIR": dir, "FAIRY_KNOWLEDGE_CRASH_FILE": "x",
		"FAIRY_KNOWLEDGE_WRITER_FILE": "x", "FAIRY_TEST_ANY_CHILD": "1", "NOT_FAIRY_X": "1"}
	if code, stderr := execListed(t, good, args...); code != 0 {
		t.Errorf("variables fairy reads or lets through: exit %d, %s", code, stderr)
	}
}

// TestStrictEnvNamesInMain runs fairy's main (the test binary as the fairy command) with a
// misspelt variable in its real environment.
func TestStrictEnvNamesInMain(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), self, "map", "list", "--knowledge", filepath.Join(dir, "k.db"))
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "FAIRY_MODEL_DEFUALT=x")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	want := `fairy: environment FAIRY_MODEL_DEFUALT: unknown variable (did you mean "FAIRY_MODEL_DEFAULT"?); unset it or correct its name` + "\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || stderr.String() != want {
		t.Errorf("fairy with FAIRY_MODEL_DEFUALT=x: %v, stderr\n%q\nwant exit status 2 and\n%q", err, stderr.String(), want)
	}
}

// TestEveryFairyVariableIsKnown: every FAIRY_ name the repository's code and scripts use is
// one fairy reads or lets through, so that no test or script trips the strict check.
// Comments, and this file, whose misspelt names are the point of the tests above, are
// skipped. The README and docs/*.md name every one (docs/configuration.md, docs/mcp.md, docs/watch.md).
func TestEveryFairyVariableIsKnown(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\bFAIRY_[A-Z0-9_]*[A-Z0-9]\b`)
	known := knownEnvNames()
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); (ext != ".go" && ext != ".sh") || d.Name() == "config_strict_test.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, "//") || strings.HasPrefix(l, "#") {
				continue // a comment may name a misspelt variable as an example
			}
			for _, name := range re.FindAllString(line, -1) {
				found++
				if !slices.Contains(known, name) && !strings.HasPrefix(name, testEnvPrefix) {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s:%d uses %s, which the strict check refuses: add it to otherEnvNames (config_strict.go) and docs/configuration.md, or name it %s…", rel, i+1, name, testEnvPrefix)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatalf("no FAIRY_ name found under %s", root)
	}
	var docs strings.Builder
	for _, name := range docFiles(t) {
		docs.WriteString(repoFile(t, name))
	}
	for _, name := range known {
		if !strings.Contains(docs.String(), "`"+name+"`") {
			t.Errorf("neither README.md nor docs/*.md names %s among the variables fairy reads or lets through", name)
		}
	}
}
