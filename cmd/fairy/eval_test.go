package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/internal/testenv"
)

// TestEvalCommand runs `fairy eval builtin:sim` on two virtual phones with cold/warm passes
// for a few tasks (the whole suite runs in eval/agentrun's TestBuiltinSuiteColdWarm).
func TestEvalCommand(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs the nine tasks of builtin:sim end to end (TestEvalOwnVirtualSuite runs the eval command in the fast tier)")
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "builtin:sim", "--sim", "2", "--parallel", "2", "--cold-warm", "--out", out, "--runs", t.TempDir(),
		"--tasks", "settings-wifi-off,contacts-which-alice-email,shop-fries-refuse-pay"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy eval: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	text := stdout.String()
	for _, want := range []string{"scripted model", "virtual phone",
		"suite sim: 3 tasks × 3 passes (cold; warm with what the cold pass learned; warm with a model that never takes a routine or Navigate) = 9 runs → ",
		"[9/9] ✓ ", "9 of 9 runs finished, 9 passed", "passed 9 of 9 runs · ", "cold → warm, each pass over the same 3 tasks:\n  all tasks: ",
		"\n  a model that takes the routines and Navigates it is offered (model-cooperating): ",
		"\n  a model that never takes one (model-independent): ", " steps confirmed by the App Map, ", "report.html"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// One line per task run: nine, no line for a task that starts.
	if n := strings.Count(text, "/9] "); n != 9 || strings.Contains(text, "▶") {
		t.Errorf("%d task lines, want 9 and no start lines:\n%s", n, text)
	}
	rep, err := eval.ReadReport(filepath.Join(out, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.Passed != 9 || rep.Totals.Cold == nil || rep.Totals.Warm == nil || rep.Totals.WarmIndependent == nil || len(rep.Devices) != 2 {
		t.Errorf("report totals %+v devices %v", rep.Totals, rep.Devices)
	}
}

func TestEvalCommandUsage(t *testing.T) {
	devSuite := filepath.Join(t.TempDir(), "my-suite.yaml")
	if err := os.WriteFile(devSuite, []byte("name: mine\ntasks:\n  - {id: a, instruction: x, phone: {device: {}}, checks: [{outcome: done}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"eval", devSuite}, "no phones"},
		{[]string{"eval", "my-suite.yaml"}, "no such file"},
		{[]string{"eval", "builtin:sim", "--sim", "0"}, "no phones"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--devices", "x"}, "either --devices or --sim"},
		{[]string{"eval", "builtin:nope", "--sim", "1"}, "no built-in suite"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--tasks", "nope"}, "no task \"nope\""},
		{[]string{"eval", "builtin:sim", "--devices", "host:x/serial"}, "HOST:PORT/SERIAL"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--repeat", "0"}, "--repeat"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--eval-tags", "eval"}, "--eval-tags needs --learn-tags"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--learn-tags", "nope"}, "0 tasks to learn on"},
		{[]string{"eval", "builtin:sim", "--sim", "1", "--learn-tags", "x", "--learn-from", "builtin:sim"}, "either --learn-from or --learn-tags"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
		root.SetArgs(append(tt.args, "--runs", t.TempDir(), "--out", t.TempDir()))
		err := root.ExecuteContext(t.Context())
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want exit 2 mentioning %q", tt.args, err, tt.want)
		}
	}
}

func TestParseDevices(t *testing.T) {
	ds, err := parseDevices("R58M, 10.0.0.5:5037/emulator-5554", deviceTarget{Host: "127.0.0.1", Port: 5037})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Serial != "R58M" || ds[0].Host != "127.0.0.1" || ds[1].Host != "10.0.0.5" || ds[1].Port != 5037 || ds[1].Serial != "emulator-5554" {
		t.Errorf("%+v", ds)
	}
	if _, err := parseDevices("a,a", deviceTarget{}); err == nil {
		t.Error("a device listed twice was accepted")
	}
}

// TestEvalHelpDescribesColdWarm: `fairy eval --help` says what --cold-warm measures today —
// routines, steps the App Map confirms, pages whose facts were known — not only Navigate.
func TestEvalHelpDescribesColdWarm(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &stdout, &stderr, envMap(nil))
	root.SetArgs([]string{"eval", "--help"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatal(err)
	}
	help := strings.Join(strings.Fields(stdout.String()), " ")
	for _, want := range []string{"--cold-warm runs the suite three times", "routines", "verified steps", "pages whose facts were known",
		"model-cooperating", "model-independent"} {
		if !strings.Contains(help, want) {
			t.Errorf("eval --help lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestEvalOwnVirtualSuite: a suite a user wrote whose tasks all run on the virtual phone
// starts its virtual phone as the built-in suite does, without --sim
// (examples/wallet-suite.yaml, its app beside it).
func TestEvalOwnVirtualSuite(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	code, stdout, stderr := execRoot(t, nil, "", "eval", filepath.Join("..", "..", "examples", "wallet-suite.yaml"), "--out", out, "--runs", t.TempDir())
	if code != 0 {
		t.Fatalf("fairy eval examples/wallet-suite.yaml: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"phones: 1 virtual phone(s)", "passed 1 of 1 run"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestEvalRefusesSuiteWithoutRules: with no model configured, a suite whose tasks have no
// scripted model rules is refused before any phone starts, saying what to do; it used to
// start and fail every task at its first model call (a 400 from the scripted model).
func TestEvalRefusesSuiteWithoutRules(t *testing.T) {
	dir := t.TempDir()
	const tasks = "tasks:\n  - {id: wifi-off, instruction: turn wifi off, phone: {sim: {}}, checks: [{setting: {name: global/wifi_on, equals: '0'}}]}\n" +
		"  - id: bt-on\n    instruction: turn bluetooth on\n    phone: {sim: {}}\n    checks: [{setting: {name: global/bluetooth_on, equals: '1'}}]\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"none", "name: mine\n" + tasks, `suite "mine": no model is configured, and its tasks have no scripted model rules`},
		{"one task", "name: mine\n" + tasks + "    model: [{answer: x}]\n", "and 1 task wifi-off has no scripted model rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".yaml")
			if err := os.WriteFile(path, []byte(tc.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := execRoot(t, nil, "", "eval", path, "--sim", "1", "--out", out, "--runs", t.TempDir())
			if code != 2 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "give the suite rules") || !strings.Contains(stderr, "or configure a model") {
				t.Errorf("exit %d, stderr %q; want exit 2 with %q and what to do", code, stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil || strings.Contains(stdout, "[1/") {
				t.Errorf("a task ran or the output directory was made:\n%s", stdout)
			}
		})
	}
}

// TestEvalSuiteUnknownKey: `fairy eval` names an unknown key of a suite file by its line
// and the key meant, as the config file's check does, with no Go type in the message.
func TestEvalSuiteUnknownKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(path, []byte("name: x\ntaks:\n  - {id: a, instruction: x, phone: {sim: {}}, checks: [{outcome: done}]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := execRoot(t, nil, "", "eval", path, "--sim", "1", "--out", t.TempDir(), "--runs", t.TempDir())
	if want := path + ` line 2: unknown key "taks" (did you mean "tasks"?)`; code != 2 || !strings.Contains(stderr, want) || strings.Contains(stderr, "suite.Suite") {
		t.Errorf("exit %d, stderr %q; want exit 2 with %q", code, stderr, want)
	}
}
