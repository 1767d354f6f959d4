package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// phoneOnADB serves a virtual phone (sim, standing in for a physical phone) to a private
// real adb server and returns the phone and the flags that reach it.
func phoneOnADB(t *testing.T, seed uint64) (*sim.Phone, []string) {
	t.Helper()
	adb := adbtest.Start(t)
	phone, err := sim.New(sim.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	serial := servePhone(t, adb, phone)
	return phone, []string{"--adb-port", strconv.Itoa(adb.Port), "-s", serial}
}

// seedKnowledge writes a knowledge file with a three-page map of com.tea and one trick.
func seedKnowledge(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "knowledge.db")
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tr := range []knowledge.Transition{
		{From: ".Home#a", To: ".Menu#b", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: "Menu"}}},
		{From: ".Menu#b", To: ".Search#c", Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{ResourceID: "search"}}},
	} {
		if _, err := s.RecordTransition("com.tea", tr, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.UpsertTrick(knowledge.Trick{App: "com.tea", Kind: knowledge.KindAction, Text: "Search is behind Menu.",
		Provenance: knowledge.Provenance{Outcome: "manual"}}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersion(t *testing.T) {
	code, stdout, _ := execRoot(t, nil, "", "--version")
	if code != 0 || !strings.HasPrefix(stdout, "fairy ") || !strings.Contains(stdout, "go1.") {
		t.Errorf("fairy --version: exit %d, %q", code, stdout)
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T20:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"fairy (devel) (commit abc123, 2026-11-23T20:00:00Z, modified) go1.26.0"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.3.1"}}, "fairy v0.3.1 go1.26.0"},
		{&debug.BuildInfo{GoVersion: "go1.26.0"}, "fairy (devel) go1.26.0"},
	} {
		if got := version(tc.info, true); got != tc.want {
			t.Errorf("version = %q, want %q", got, tc.want)
		}
	}
	if got := version(nil, false); !strings.Contains(got, "unknown version") {
		t.Errorf("version without build info = %q", got)
	}
}

// jsonKeys decodes a JSON array of objects and returns each object's sorted keys.
func jsonKeys(t *testing.T, what, out string) ([]map[string]any, []string) {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%s --format json is not a JSON array: %v\n%s", what, err, out)
	}
	var keys []string
	if len(rows) > 0 {
		for k := range rows[0] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	return rows, keys
}

// TestListingJSON: every listing command writes a JSON array whose objects have exactly the
// documented fields (the schema is stable), and [] when there is nothing to list.
func TestListingJSON(t *testing.T) {
	_, dev := phoneOnADB(t, 1)
	kpath := seedKnowledge(t)
	empty := filepath.Join(t.TempDir(), "none.db")
	rulesURL := serveModel(t, demoRules)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  base-url: "+rulesURL+"\n  default: fairy-scripted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		keys     string // the object's fields, sorted, comma-separated
		minRows  int
		contains string
	}{
		{"devices", append([]string{"devices"}, dev...), "model,product,serial,state", 1, `"state": "device"`},
		{"apps", append([]string{"apps"}, dev...), "activity,label,package", 5, `"package": "com.fairy.shop"`},
		{"map list", []string{"map", "list", "--knowledge", kpath}, "label,package,pages,transitions,tricks", 1, `"pages": 3`},
		{"map list, nothing learned", []string{"map", "list", "--knowledge", empty}, "", 0, "[]"},
		{"map path", []string{"map", "path", "com.tea", "p1", "p3", "--knowledge", kpath}, "action,from,reliability,step,to", 2, `"step": 2`},
		{"tricks list", []string{"tricks", "list", "--knowledge", kpath}, "app,id,kind,score,successes,text,uses", 1, "Search is behind Menu."},
		{"tricks list, nothing learned", []string{"tricks", "list", "--knowledge", empty}, "", 0, "[]"},
		{"model check", []string{"model", "check", "--config", cfg}, "completion_tokens,cost,error,latency_ms,model,ok,prompt_tokens,role", 9, `"role": "checker"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := execRoot(t, map[string]string{"HOME": t.TempDir()}, "", append(tt.args, "--format", "json")...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			rows, keys := jsonKeys(t, tt.name, stdout)
			if len(rows) < tt.minRows || (tt.minRows == 0 && len(rows) != 0) {
				t.Errorf("%d rows, want at least %d:\n%s", len(rows), tt.minRows, stdout)
			}
			if got := strings.Join(keys, ","); tt.minRows > 0 && got != tt.keys {
				t.Errorf("fields %s, want %s", got, tt.keys)
			}
			if !strings.Contains(stdout, tt.contains) {
				t.Errorf("output lacks %s:\n%s", tt.contains, stdout)
			}
		})
	}
	// map show --format json is the map's own JSON (the same as map export --format json).
	code, show, _ := execRoot(t, nil, "", "map", "show", "com.tea", "--format", "json", "--knowledge", kpath)
	_, export, _ := execRoot(t, nil, "", "map", "export", "com.tea", "--format", "json", "--knowledge", kpath)
	var m map[string]any
	if code != 0 || json.Unmarshal([]byte(show), &m) != nil || show != export {
		t.Errorf("map show --format json: exit %d\n%s", code, show)
	}
	// A table is still the default, and an unknown format is a usage error.
	if code, stdout, _ := execRoot(t, nil, "", "map", "list", "--knowledge", kpath); code != 0 || !strings.HasPrefix(stdout, "PACKAGE") {
		t.Errorf("map list: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := execRoot(t, nil, "", "map", "list", "--format", "yaml", "--knowledge", kpath); code != 2 || !strings.Contains(stderr, "table or json") {
		t.Errorf("--format yaml: exit %d, %s", code, stderr)
	}
}

// TestUnquotedInstruction: `fairy run order a bubble tea …` without quotes carries out the
// joined words.
func TestUnquotedInstruction(t *testing.T) {
	phone, dev := phoneOnADB(t, 3)
	url := serveModel(t, demoRules)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("model:\n  default: fairy-scripted\nagent:\n  max-steps: 25\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test", "HOME": dir}
	args := append([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs")}, dev...)
	args = append(args, strings.Fields(demoInstruction)...)
	code, stdout, stderr := execRoot(t, env, "18:00\nyes\nyes\n", args...)
	if code != 0 {
		t.Fatalf("fairy run (unquoted): exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "▶ "+demoInstruction+"\n") {
		t.Errorf("the run did not carry out the joined instruction:\n%s", stdout)
	}
	if orders := phone.Orders(); len(orders) != 1 || !orders[0].Paid {
		t.Errorf("orders = %+v", orders)
	}
	if code, _, stderr := execRoot(t, env, "", "run", "  "); code != 2 || !strings.Contains(stderr, "no instruction") {
		t.Errorf("blank instruction: exit %d, %s", code, stderr)
	}
}

// refusingModel is an OpenAI-compatible endpoint that refuses every key with 401.
func refusingModel(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestExitStatuses checks each command's exit status against README.md's table: 0 done,
// 1 failed or refused, 2 usage or configuration error.
func TestExitStatuses(t *testing.T) {
	_, dev := phoneOnADB(t, 1)
	kpath := seedKnowledge(t)
	refusing := refusingModel(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	downPort := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close() // nobody listens there now
	home := t.TempDir()
	refusedEnv := map[string]string{"HOME": home, "OPENAI_BASE_URL": refusing, "OPENAI_API_KEY": "sk-wrong", "FAIRY_MODEL_DEFAULT": "m"}
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		code    int
		stderr  string // in stderr
		notOut  string // never in stdout
		withDev bool
	}{
		{"unknown command", nil, []string{"frobnicate"}, 2, "unknown command", "", false},
		{"unknown flag", nil, []string{"devices", "--frob"}, 2, "unknown flag", "", false},
		{"too many arguments", nil, []string{"map", "show", "a", "b"}, 2, "accepts 1 arg", "", false},
		{"devices", nil, []string{"devices"}, 0, "", "", true},
		{"devices, adb server down", nil, []string{"devices", "--adb-port", downPort}, 2, "`adb -P " + downPort + " start-server`", "", false},
		{"apps", nil, []string{"apps"}, 0, "", "", true},
		{"screen", nil, []string{"screen"}, 0, "", "", true},
		{"screen, bad format", nil, []string{"screen", "--format", "xml"}, 2, "use text or json", "", true},
		{"act tap", nil, []string{"act", "tap", "10", "10"}, 0, "", "", true},
		{"act tap, not a number", nil, []string{"act", "tap", "x", "1"}, 2, "not a pixel coordinate", "", true},
		{"act key, unknown key", nil, []string{"act", "key", "frob"}, 2, "frob", "", true},
		{"act key", nil, []string{"act", "key", "home"}, 0, "", "", true},
		{"act text, no field focused", nil, []string{"act", "text", "hello"}, 1, "focus a text field first", "", true},
		{"act launch, unknown app", nil, []string{"act", "launch", "com.no.such.app"}, 1, "com.no.such.app", "", true},
		{"map show", nil, []string{"map", "show", "com.tea", "--knowledge", kpath}, 0, "", "", false},
		{"map show, app not learned", nil, []string{"map", "show", "com.none", "--knowledge", kpath}, 1, "no map learned for com.none", "", false},
		{"map path, no path known", nil, []string{"map", "path", "com.tea", "p3", "p1", "--knowledge", kpath}, 1, "no known path", "", false},
		{"map path, no such page", nil, []string{"map", "path", "com.tea", "p1", "p9", "--knowledge", kpath}, 1, "p9", "", false},
		{"tricks list, unknown kind", nil, []string{"tricks", "list", "--kind", "magic", "--knowledge", kpath}, 2, "magic", "", false},
		{"tricks show, no such trick", nil, []string{"tricks", "show", "t99", "--knowledge", kpath}, 1, "t99", "", false},
		{"tricks rm, no such trick", nil, []string{"tricks", "rm", "t99", "--knowledge", kpath}, 1, "t99", "", false},
		{"tricks add, no app", nil, []string{"tricks", "add", "tip", "--knowledge", kpath}, 2, "--app is required", "", false},
		{"map export, app not learned", nil, []string{"map", "export", "com.none", "--knowledge", kpath}, 1, "com.none", "", false},
		{"map export, bad format", nil, []string{"map", "export", "com.tea", "--format", "png", "--knowledge", kpath}, 2, "dot, json or mermaid", "", false},
		{"knowledge export, nothing learned", nil, []string{"knowledge", "export", "-", "--knowledge", filepath.Join(home, "none.db")}, 1, "no knowledge file", "", false},
		{"knowledge import, no such file", nil, []string{"knowledge", "import", filepath.Join(home, "none.json"), "--knowledge", kpath}, 2, "none.json", "", false},
		{"perceive, no such dump", nil, []string{"perceive", filepath.Join(home, "none.xml")}, 2, "none.xml", "", false},
		{"act swipe, not a number", nil, []string{"act", "swipe", "1", "2", "3", "x"}, 2, "not a pixel coordinate", "", true},
		{"model check, key refused", refusedEnv, []string{"model", "check", "--role", "decider"}, 2, "check the API key", "", false},
		{"run, key refused", refusedEnv, []string{"run", "--runs", filepath.Join(home, "runs"), "--knowledge", filepath.Join(home, "k.db"), "turn", "off", "wifi"}, 2, "check the API key", "", true},
		{"run, runs directory cannot be made", refusedEnv, []string{"--runs", "/proc/x", "run", "--knowledge", filepath.Join(home, "k.db"), "turn off wifi"}, 2, "--runs", "run directory", true},
		{"run, no model", map[string]string{"HOME": home}, []string{"run", "turn", "off", "wifi"}, 2, "no model configured", "", false},
		{"demo, runs directory cannot be made", nil, []string{"demo", "--runs", "/proc/x", "--knowledge", filepath.Join(home, "d.db")}, 2, "--runs", "run directory", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.withDev {
				args = append(slices.Clone(args), dev...)
			}
			env := tt.env
			if env == nil {
				env = map[string]string{"HOME": home}
			}
			code, stdout, stderr := execRoot(t, env, "", args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("fairy %s: exit %d, want %d with %q\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, tt.code, tt.stderr, stdout, stderr)
			}
			if tt.notOut != "" && strings.Contains(stdout, tt.notOut) {
				t.Errorf("stdout says %q:\n%s", tt.notOut, stdout)
			}
		})
	}
}

// TestCompletion: shell completion offers package names from the knowledge file (found
// through the config file too) or, for explore, from the phone, page ids of an app's map,
// device serials from the adb server, key names and trick kinds.
func TestCompletion(t *testing.T) {
	_, dev := phoneOnADB(t, 1) // --adb-port P -s SERIAL
	kpath := seedKnowledge(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("knowledge: "+kpath+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := map[string]string{"HOME": t.TempDir()}
	tests := []struct {
		name string
		args []string
		want []string // completion lines start with these
		not  []string
	}{
		{"map show", []string{"--knowledge", kpath, "map", "show", ""}, []string{"com.tea"}, nil},
		{"map show, knowledge from the config file", []string{"--config", cfg, "map", "show", ""}, []string{"com.tea"}, nil},
		{"map export", []string{"--knowledge", kpath, "map", "export", "c"}, []string{"com.tea"}, nil},
		{"map path: app", []string{"--knowledge", kpath, "map", "path", ""}, []string{"com.tea"}, nil},
		{"map path: pages", []string{"--knowledge", kpath, "map", "path", "com.tea", ""}, []string{"p1\t", "p2\t", "p3\t"}, []string{"com.tea"}},
		{"map path: to", []string{"--knowledge", kpath, "map", "path", "com.tea", "p1", ""}, []string{"p3\t"}, nil},
		{"tricks list", []string{"--knowledge", kpath, "tricks", "list", ""}, []string{"common\t", "com.tea"}, nil},
		{"tricks --kind", []string{"tricks", "list", "--kind", ""}, []string{"planning", "action", "error-recovery"}, nil},
		{"tricks show", []string{"--knowledge", kpath, "tricks", "show", ""}, []string{"t1\tcom.tea: Search is behind Menu."}, nil},
		{"tricks rm, one given", []string{"--knowledge", kpath, "tricks", "rm", "t1", ""}, nil, []string{"t1"}},
		{"tricks add --app", []string{"--knowledge", kpath, "tricks", "add", "--app", ""}, []string{"common", "com.tea"}, nil},
		{"act key", []string{"act", "key", ""}, []string{"back", "home", "enter", "app_switch"}, nil},
		{"--format", []string{"devices", "--format", ""}, []string{"table", "json"}, nil},
		{"screen --format", []string{"screen", "--format", ""}, []string{"text", "json"}, nil},
		{"map export --format", []string{"map", "export", "com.tea", "--format", ""}, []string{"dot", "json", "mermaid"}, nil},
		{"--log-level", []string{"--log-level", ""}, []string{"debug", "warn"}, nil},
		{"model check --role", []string{"model", "check", "--role", ""}, []string{"planner", "decider", "learner"}, nil},
		{"-s serials", []string{dev[0], dev[1], "devices", "-s", ""}, []string{dev[3] + "\tdevice"}, nil},
		{"act launch", append([]string{"act", "launch", dev[0], dev[1], dev[2], dev[3]}, ""), []string{"com.fairy.shop"}, nil},
		{"explore: the phone's apps", append([]string{"explore", dev[0], dev[1], dev[2], dev[3]}, ""), []string{"com.fairy.shop\t", "com.android.settings\t"}, nil},
		{"explore, no phone: the knowledge file's apps", []string{"--knowledge", kpath, "--adb-port", "1", "explore", ""}, []string{"com.tea"}, nil},
		{"explore, one given", append([]string{"explore", dev[0], dev[1], dev[2], dev[3], "com.fairy.shop"}, ""), nil, []string{"com.fairy.shop"}},
		{"no knowledge file: nothing, no error", []string{"--knowledge", filepath.Join(t.TempDir(), "none.db"), "map", "show", ""}, nil, []string{"com.tea"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := execRoot(t, home, "", append([]string{"__complete"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			lines := strings.Split(stdout, "\n")
			for _, w := range tt.want {
				if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, w) }) {
					t.Errorf("no completion starting %q:\n%s", w, stdout)
				}
			}
			for _, n := range tt.not {
				if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, n) }) {
					t.Errorf("completion %q offered:\n%s", n, stdout)
				}
			}
		})
	}
}
