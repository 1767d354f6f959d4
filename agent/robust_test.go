package agent

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// vaultApp is a test-only app: a password field, and guarded buttons labelled in Chinese
// and one icon with only a content-desc.
//
//go:embed testdata/vault.yaml
var vaultApp []byte

// vaultPlan is the Global Planner of the vault scenarios: one app task in the vault, and
// after it done or impossible depending on how the task ended.
const vaultPlan = `
  - name: plan
    role: planner
    match: ['Phase: plan']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"com.fairy.vault","task":"Work in the vault","produces":""}],"next":0,"progress":"","reason":""}'
  - name: adjust done
    role: planner
    match: ['Phase: adjust', '— done']
    answer: '{"thought":"","status":"done","tasks":[],"next":-1,"progress":"done","reason":"done in the vault"}'
  - name: adjust otherwise
    role: planner
    match: ['Phase: adjust']
    answer: '{"thought":"","status":"impossible","tasks":[],"next":-1,"progress":"","reason":"the vault task did not succeed"}'
  - name: no facts
    role: extractor
    answer: '{"facts":[]}'
  - name: check
    role: checker
    answer: '{"passed":true,"reason":"done"}'
  - name: learn nothing
    role: learner
    answer: '{"tricks":[]}'
`

// recordingPhone is a virtual phone that records every command line its shell receives,
// exactly as it arrived over the wire.
type recordingPhone struct {
	*sim.Phone
	mu    sync.Mutex
	lines []string
	drop  string // a command line starting with this loses its connection
}

func (p *recordingPhone) Shell(ctx context.Context, cmdline string, w io.Writer) (int, error) {
	p.mu.Lock()
	p.lines = append(p.lines, cmdline)
	drop := p.drop != "" && strings.HasPrefix(cmdline, p.drop)
	p.mu.Unlock()
	if drop {
		return 0, wire.ErrDropConnection
	}
	return p.Phone.Shell(ctx, cmdline, w)
}

func (p *recordingPhone) commands() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// vaultPerson is the scripted person, who also signs into the vault with their own hands
// when the agent hands the phone over: the password is theirs, and the agent never types
// it (issue 40).
type vaultPerson struct {
	*interaction.Canned
	phone *sim.Phone
}

// HandOver implements interaction.Hander.
func (p vaultPerson) HandOver(context.Context, interaction.HandOver) error {
	if !p.phone.TouchID("field_a") {
		return interaction.ErrNoAnswer // not the vault's sign-in: nothing they know to do
	}
	if err := p.phone.TypeKeys(vaultSecret); err != nil {
		return err
	}
	p.phone.TouchID("action_login")
	return nil
}

// hookModel sees every request before it goes to the real adapter.
type hookModel struct {
	executor.Model
	before func(llm.Request)
}

func (m hookModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if m.before != nil {
		m.before(req)
	}
	return m.Model.Generate(ctx, req)
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// rig is one whole run on a virtual phone with the vault app: the phone on its adb host
// face, reached through the device layer; the scripted model over HTTP behind the OpenAI
// adapter; a knowledge file; every log line at debug level kept.
type rig struct {
	rules    string             // the scripted model's rules (vaultPlan is added)
	user     []interaction.Rule // the scripted person
	shell    []string           // technician shell allow-list
	maxSteps int
	apiKey   string
	endpoint http.Handler                                       // replaces the scripted model's endpoint when set
	hook     func(r *rigRun, req llm.Request)                   // sees every model request
	setup    func(t *testing.T, ctx context.Context, r *rigRun) // runs before the agent
}

// rigRun is what one rig run produced.
type rigRun struct {
	phone   *recordingPhone
	host    *wire.HostServer
	res     Result
	dir     string
	trace   []byte
	summary []byte
	logs    string
	export  []byte
	asked   []interaction.Asked
	events  []map[string]any // trace lines
}

func (g rig) run(t *testing.T, instruction string) *rigRun {
	t.Helper()
	ctx := t.Context()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	app, err := sim.ParseApp(vaultApp)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	p, err := sim.New(sim.Config{Seed: 1, Apps: append(apps, app)})
	if err != nil {
		t.Fatal(err)
	}
	out := &rigRun{phone: &recordingPhone{Phone: p}}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{out.phone}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	out.host = hs
	served := make(chan error, 1)
	go func() { served <- hs.Serve(context.WithoutCancel(ctx)) }()
	t.Cleanup(func() { hs.Close(); <-served })
	host, port, _ := net.SplitHostPort(hs.Addr().String())
	n, _ := strconv.Atoi(port)
	dev, err := OpenDevice(ctx, DeviceConfig{
		Host: host, Port: n, Serial: p.Serial(), Shell: g.shell, Virtual: true, Logger: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(context.WithoutCancel(ctx))

	endpoint := g.endpoint
	if endpoint == nil {
		rules, err := scripted.ParseRules([]byte("rules:" + g.rules + vaultPlan))
		if err != nil {
			t.Fatal(err)
		}
		srv, err := scripted.NewServer(rules, scripted.Options{})
		if err != nil {
			t.Fatal(err)
		}
		endpoint = srv
	}
	hsrv := httptest.NewServer(endpoint)
	defer hsrv.Close()
	client, err := openai.New(openai.Config{BaseURL: hsrv.URL + "/v1", DefaultModel: scripted.ModelName, APIKey: g.apiKey,
		MaxRetries: -1, RepairRetries: -1, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	model := hookModel{Model: client, before: func(req llm.Request) {
		if g.hook != nil {
			g.hook(out, req)
		}
	}}

	kpath := filepath.Join(t.TempDir(), "knowledge.db")
	store, err := knowledge.Open(kpath, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	person, err := interaction.NewCanned(g.user, "")
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	if g.apiKey != "" {
		secrets = append(secrets, g.apiKey)
	}
	ag, err := New(Config{TextOnly: true, Shell: g.shell, Secrets: secrets, Logger: log,
		Limits: executor.Limits{MaxSteps: max(g.maxSteps, 8)}})
	if err != nil {
		t.Fatal(err)
	}
	if g.setup != nil {
		g.setup(t, ctx, out)
	}
	out.dir = filepath.Join(t.TempDir(), "run")
	res, err := ag.Run(ctx, Run{
		Instruction: instruction, Dir: out.dir, Device: dev, Model: model,
		Dialoger: vaultPerson{person, out.phone.Phone}, Knowledge: store,
	})
	if err != nil {
		t.Fatalf("run could not start: %v", err)
	}
	out.res = res
	var export bytes.Buffer
	if err := store.Export(&export); err != nil {
		t.Errorf("export the knowledge: %v", err)
	}
	if err := store.Close(); err != nil {
		t.Errorf("close the knowledge: %v", err)
	}
	out.export = export.Bytes()
	out.asked = person.Asked()
	out.logs = logs.String()
	if out.trace, err = os.ReadFile(filepath.Join(out.dir, "trace.jsonl")); err != nil {
		t.Fatal(err)
	}
	if out.summary, err = os.ReadFile(filepath.Join(out.dir, "summary.json")); err != nil {
		t.Fatal(err)
	}
	out.events = traceLines(t, out.trace)
	return out
}

// traceLines decodes trace.jsonl; every line must be a complete JSON object.
func traceLines(t *testing.T, trace []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(nil, 1<<24)
	for i := 1; sc.Scan(); i++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("trace line %d is not JSON: %v: %.200s", i, err, sc.Text())
		}
		out = append(out, m)
	}
	if len(trace) > 0 && trace[len(trace)-1] != '\n' {
		t.Error("the trace's last line is cut")
	}
	return out
}

// kinds counts the trace's events by kind.
func (r *rigRun) kinds() map[string]int {
	m := map[string]int{}
	for _, e := range r.events {
		m[e["kind"].(string)]++
	}
	return m
}

// sum decodes summary.json.
func (r *rigRun) sum(t *testing.T) rundir.Summary {
	t.Helper()
	var s rundir.Summary
	if err := json.Unmarshal(r.summary, &s); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
	return s
}

// failed checks that the run ended failed, not done, with a summary saying so and a
// reason containing want.
func (r *rigRun) failed(t *testing.T, want string) {
	t.Helper()
	s := r.sum(t)
	if r.res.Outcome != event.OutcomeFailed || s.Outcome != event.OutcomeFailed {
		t.Errorf("outcome %s (summary %s), want failed; reason %q, err %v", r.res.Outcome, s.Outcome, r.res.Reason, r.res.Err)
	}
	why := s.Reason
	for _, task := range s.Tasks {
		why += " | " + task.Reason
	}
	if r.res.Err != nil {
		why += " | " + r.res.Err.Error()
	}
	if !strings.Contains(why, want) {
		t.Errorf("the reasons %q do not say %q", why, want)
	}
}

// nonsenseRules: the vault task, with the re-planner's and decider's answers given by the
// case (the other role answers sensibly).
func nonsenseRules(replanner, decider string) string {
	if replanner == "" {
		replanner = `'{"result":"B","reflection":"","progress":"","plan":["Refresh the vault"],"subgoal":"Refresh the vault","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'`
	}
	if decider == "" {
		decider = `'{"thought":"","actions":[{"type":"Tap","index":2}],"expect":""}'`
	}
	return `
  - name: replanner
    role: replanner
    answer: ` + replanner + `
  - name: decider
    role: decider
    answer: ` + decider + `
`
}

// TestModelNonsenseFailsTheTask: a model answering garbage, JSON of the wrong shape, an
// index not on the screen or an action type that does not exist gets a bounded number of
// retries, then the task fails with a reason that says what was wrong — never a panic,
// never done, and never a step limit's worth of model calls.
func TestModelNonsenseFailsTheTask(t *testing.T) {
	tests := []struct {
		name      string
		planner   string // replaces the Global Planner's first answer
		replanner string
		decider   string
		want      string // in the reasons
	}{
		{name: "decider prose", decider: `'I would tap the login button.'`, want: "unusable"},
		{name: "decider wrong shape", decider: `'{"thought":"","actions":"Tap(2)"}'`, want: "unusable"},
		{name: "decider index out of range", decider: `'{"thought":"","actions":[{"type":"Tap","index":99}],"expect":""}'`,
			want: "index 99 is not on the current screen"},
		{name: "decider negative index", decider: `'{"thought":"","actions":[{"type":"Input","index":-3,"text":"x"}],"expect":""}'`,
			want: "Input needs an element index"},
		{name: "decider unknown action", decider: `'{"thought":"","actions":[{"type":"Teleport","index":1}],"expect":""}'`,
			want: "unknown action type"},
		{name: "decider no action", decider: `'{"thought":"nothing to do","actions":[],"expect":""}'`,
			want: "gave no usable action in 3 steps"},
		{name: "replanner prose", replanner: `'Sure! Here is my plan: tap login.'`, want: "unusable"},
		{name: "replanner wrong shape", replanner: `'{"result":"B","plan":"log in","subgoal":["x"],"facts":[],"routine":{"name":"","args":[]},"interaction":"soon"}'`,
			want: "unusable"},
		{name: "planner prose", planner: `'Open the vault app, I think.'`, want: "unusable"},
		{name: "planner index out of range", planner: `'{"thought":"","status":"continue","tasks":[{"app":"com.fairy.vault","task":"x","produces":""}],"next":7,"progress":"","reason":""}'`,
			want: "next 7 is not an index"},
		{name: "planner unknown app", planner: `'{"thought":"","status":"continue","tasks":[{"app":"com.evil.app","task":"x","produces":""}],"next":0,"progress":"","reason":""}'`,
			want: "not in the list of launchable apps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules := nonsenseRules(tc.replanner, tc.decider)
			if tc.planner != "" {
				rules = "\n  - name: nonsense planner\n    role: planner\n    match: ['Phase: plan']\n    answer: " +
					tc.planner + rules
			}
			r := rig{rules: rules, maxSteps: 30}.run(t, "Refresh the vault")
			r.failed(t, tc.want)
			s := r.sum(t)
			// Three steps of three decider calls at most, not thirty steps' worth (and the
			// first step, whose sign-in page goes to the person).
			if s.ModelCallsByRole["decider"] > 9 || s.ModelCallsByRole["replanner"] > 4 || s.Steps > 4 {
				t.Errorf("%d steps, %v model calls: the retries are not bounded", s.Steps, s.ModelCallsByRole)
			}
			if k := r.kinds(); k["RunFinished"] != 1 {
				t.Errorf("trace events %v: want one RunFinished", k)
			}
		})
	}
}

// TestDeviceVanishingFailsTheRun: the phone's adb face goes away in the middle of a run
// (at the first decider call, after the screen was read). The run ends failed — not done,
// not hung — with a reason naming the device, and the run directory is complete.
func TestDeviceVanishingFailsTheRun(t *testing.T) {
	var once sync.Once
	// The person signs in; the decider's first tap, on a harmless button, meets no device.
	tapRefresh := `'{"thought":"","actions":[{"type":"Tap","index":{{index "Refresh"}}}],"expect":""}'`
	g := rig{rules: nonsenseRules("", tapRefresh), hook: func(r *rigRun, req llm.Request) {
		if req.Role == llm.RoleDecider {
			once.Do(func() { r.host.Close() })
		}
	}}
	r := g.run(t, "Refresh the vault")
	r.failed(t, r.phone.Serial())
	if r.res.Err == nil || !strings.Contains(r.res.Err.Error(), r.phone.Serial()) {
		t.Errorf("run error %v does not name the device %s", r.res.Err, r.phone.Serial())
	}
	if k := r.kinds(); k["RunFinished"] != 1 || k["TaskFinished"] != 1 {
		t.Errorf("trace events %v: want the task and the run finished", k)
	}
}

// vaultSecret is the vault's password: the person types it when handed the phone, a
// decider that tries to is stopped; nothing but the phone may see it.
const vaultSecret = "Tr0ub4dor&3 horse"

// loginRules log into the vault: the decider types the password and taps Log in.
const loginRules = `
  - name: logged in
    role: replanner
    match: ['"保险箱"']
    answer: '{"result":"A","reflection":"","progress":"logged in","plan":["Log in"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: log in
    role: replanner
    answer: '{"result":"","reflection":"","progress":"","plan":["Log in"],"subgoal":"Log in","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: type the password
    role: decider
    answer: '{"thought":"type it and log in","actions":[{"type":"Input","index":{{index "field_a"}},"text":"Tr0ub4dor&3 horse"},{"type":"Tap","index":{{index "Log in"}}}],"expect":""}'
`

// TestSecretsStayOut: text typed into a password field reaches the phone and nothing
// else — not the trace, the summary, the knowledge file, or the logs — also when typing
// fails and the device's error would quote the command line; the API key appears in none
// of them either, nor in the run's error, also when the endpoint echoes it back.
func TestSecretsStayOut(t *testing.T) {
	const key = "sk-vault-test-0123456789abcdef"
	check := func(t *testing.T, r *rigRun, secrets ...string) {
		t.Helper()
		places := map[string]string{"trace.jsonl": string(r.trace), "summary.json": string(r.summary),
			"knowledge export": string(r.export), "logs": r.logs, "reason": r.res.Reason}
		if r.res.Err != nil {
			places["run error"] = r.res.Err.Error()
		}
		for _, s := range secrets {
			for _, part := range strings.Fields(s) {
				for where, text := range places {
					if strings.Contains(text, part) {
						t.Errorf("%q is in the %s", part, where)
					}
				}
			}
		}
	}
	t.Run("typed", func(t *testing.T) {
		// The sign-in page is handed over before the decider can type anything: the person
		// types the password with their own hands.
		r := rig{rules: loginRules, apiKey: key}.run(t, "Log into the vault")
		if r.res.Outcome != event.OutcomeDone {
			t.Fatalf("outcome %s: %s %v", r.res.Outcome, r.res.Reason, r.res.Err)
		}
		if got := r.phone.Var("com.fairy.vault", "pw"); got != vaultSecret {
			t.Errorf("the field holds %q, want the password typed", got)
		}
		if r.kinds()["HandOver"] != 2 || len(r.export) == 0 {
			t.Fatalf("nothing to look in: events %v, %d bytes of knowledge", r.kinds(), len(r.export))
		}
		for _, c := range r.phone.commands() {
			if strings.HasPrefix(c, "input text") {
				t.Errorf("the agent typed on the sign-in page: %q", c)
			}
		}
		check(t, r, vaultSecret, key)
	})
	t.Run("typing fails", func(t *testing.T) {
		// A connection that drops on every "input text" changes nothing: the person's
		// hands are not the agent's adb, and no command line carries the password.
		g := rig{rules: loginRules, apiKey: key, setup: func(_ *testing.T, _ context.Context, r *rigRun) {
			r.phone.drop = "input text"
		}}
		r := g.run(t, "Log into the vault")
		if r.res.Outcome != event.OutcomeDone {
			t.Errorf("outcome %s (%s), want done: the person signed in by hand", r.res.Outcome, r.res.Reason)
		}
		for _, c := range r.phone.commands() {
			for _, part := range strings.Fields(vaultSecret) {
				if strings.Contains(c, part) {
					t.Errorf("a shell command carries the password: %q", c)
				}
			}
		}
		check(t, r, vaultSecret, key)
	})
	t.Run("rejected", func(t *testing.T) {
		// The decider types the password into an index the screen lacks, or no index at
		// all: its answer is rejected, and the rejection — in the trace, in the next
		// prompts, in the reason the task fails with — shows the action without its text,
		// while the decider is still told what was wrong.
		for _, index := range []string{"99", "-3"} {
			t.Run(index, func(t *testing.T) {
				typeSecret := `'{"thought":"","actions":[{"type":"Input","index":` + index + `,"text":"` + vaultSecret +
					`"}],"expect":""}'`
				rules := nonsenseRules("", typeSecret)
				var mu sync.Mutex
				var leaked []llm.Role
				told := false
				g := rig{rules: rules, apiKey: key, maxSteps: 30, hook: func(_ *rigRun, req llm.Request) {
					mu.Lock()
					defer mu.Unlock()
					text := req.System
					for _, m := range req.Messages {
						text += "\n" + m.Text
					}
					for _, part := range strings.Fields(vaultSecret) {
						if strings.Contains(text, part) {
							leaked = append(leaked, req.Role)
						}
					}
					told = told || req.Role == llm.RoleDecider && strings.Contains(text, "Input("+index+", ") &&
						(strings.Contains(text, "is not on the current screen") || strings.Contains(text, "needs an element index"))
				}}
				r := g.run(t, "Refresh the vault")
				r.failed(t, "Input("+index+", ")
				if r.kinds()["ActionRejected"] == 0 {
					t.Fatalf("nothing rejected; events %v", r.kinds())
				}
				check(t, r, vaultSecret, key)
				mu.Lock()
				defer mu.Unlock()
				if len(leaked) > 0 {
					t.Errorf("the password is in prompts to %v", leaked)
				}
				if !told {
					t.Error("no decider prompt says what was wrong with the rejected Input")
				}
			})
		}
	})
	t.Run("key echoed", func(t *testing.T) {
		// A provider's 401 that quotes the key back.
		endpoint := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+key+
				`. You can find your API key at https://example.invalid.","type":"invalid_request_error","code":"invalid_api_key"}}`)
		})
		r := rig{endpoint: endpoint, apiKey: key}.run(t, "Log into the vault")
		r.failed(t, "401")
		check(t, r, key)
	})
}

// yamlQuote makes s a single-quoted YAML scalar.
func yamlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// shellRules run one technician command, then finish.
func shellRules(command string) string {
	act, err := json.Marshal(map[string]any{
		"thought": "", "actions": []map[string]string{{"type": "Shell", "command": command}}, "expect": "",
	})
	if err != nil {
		panic(err)
	}
	return `
  - name: run it
    role: replanner
    times: 1
    answer: '{"result":"","reflection":"","progress":"","plan":["Run the check"],"subgoal":"Run the check","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: ran it
    role: replanner
    answer: '{"result":"A","reflection":"","progress":"ran","plan":["Run the check"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: shell
    role: decider
    answer: ` + yamlQuote(string(act)) + `
`
}

// TestShellFromTheModel: a decider's Shell command is model text. Operators, expansions
// and control characters outside quotes are refused, as is anything not allow-listed;
// what is allowed reaches the device with every argument verbatim and nothing else runs
// (an injected touch creates no file).
func TestShellFromTheModel(t *testing.T) {
	const file = "/sdcard/pwned"
	tests := []struct {
		name    string
		allow   []string
		command string
		want    string // the command line the device receives; "" refused
		created bool   // the file exists afterwards
	}{
		{"quoted semicolon", []string{"echo"}, "echo 'a;touch " + file + "'", "echo 'a;touch " + file + "'", false},
		{"quoted substitutions", []string{"echo"}, `echo "$(touch ` + file + `)" '` + "`touch " + file + "`'",
			`echo '$(touch ` + file + `)' '` + "`touch " + file + "`'", false},
		{"quoted quote", []string{"echo"}, `echo "it's; touch ` + file + `"`, `echo 'it'\''s; touch ` + file + `'`, false},
		{"semicolon", []string{"echo"}, "echo ok; touch " + file, "", false},
		{"and", []string{"echo"}, "echo ok && touch " + file, "", false},
		{"substitution", []string{"echo"}, "echo $(touch " + file + ")", "", false},
		{"backticks", []string{"echo"}, "echo `touch " + file + "`", "", false},
		{"newline", []string{"echo"}, "echo ok\ntouch " + file, "", false},
		{"quoted newline", []string{"echo"}, "echo 'ok\ntouch " + file + "'", "", false},
		{"not allow-listed", []string{"echo"}, "touch " + file, "", false},
		{"no allow-list", nil, "echo ok", "", false},
		// The observable works: an allowed touch does create the file.
		{"allowed touch", []string{"touch"}, "touch " + file, "touch " + file, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rig{rules: shellRules(tc.command), shell: tc.allow, apiKey: ""}.run(t, "Run the check")
			var got []string
			for _, line := range r.phone.commands() {
				if strings.Contains(line, "touch") || strings.HasPrefix(line, "echo ") && !strings.HasPrefix(line, "echo '#fairy") {
					got = append(got, line)
				}
			}
			_, err := r.phone.Stat(file)
			if created := err == nil; created != tc.created {
				t.Errorf("%s exists: %v, want %v (device got %q)", file, created, tc.created, got)
			}
			var errs []string
			for _, e := range r.events {
				if ev, _ := e["event"].(map[string]any); e["kind"] == "ActionExecuted" && ev["error"] != nil {
					errs = append(errs, ev["error"].(string))
				}
			}
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("refused command reached the device: %q", got)
				}
				if len(errs) != 1 || !strings.Contains(errs[0], "denied") {
					t.Errorf("action errors %q, want one denial", errs)
				}
				return
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.want+"\n") {
				t.Errorf("device got %q, want %q followed by the status echo", got, tc.want)
			}
			if len(errs) > 0 {
				t.Errorf("action errors %q", errs)
			}
		})
	}
}
