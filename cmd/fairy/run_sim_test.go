package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/wire"
)

// TestSimTryCovered: `fairy run --sim` carries out an instruction the built-in tasks cover,
// said as a person says it, with no model configured: exit 0, the header says what is
// simulated, and what it learned goes to sim-knowledge.db, not to the person's own
// knowledge file.
func TestSimTryCovered(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	code, stdout, stderr := execRoot(t, map[string]string{"HOME": dir, "XDG_DATA_HOME": data}, "",
		"run", "--sim", "--text-only", "turn", "on", "dark", "theme")
	if code != 0 {
		t.Fatalf("exit status %d:\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"SIMULATED", "not a real model", "builtin:sim task settings-dark-theme", "✓ done",
		"in " + filepath.Join(data, "fairy", "sim-knowledge.db")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "fairy", "knowledge.db")); !os.IsNotExist(err) {
		t.Errorf("the offline try touched the person's own knowledge file: %v", err)
	}
	store, err := knowledge.Open(filepath.Join(data, "fairy", "sim-knowledge.db"), knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if m, err := store.Map("com.android.settings"); err != nil || len(m.Pages) == 0 {
		t.Errorf("nothing learned into sim-knowledge.db: %v, %+v", err, m)
	}
}

// TestSimTryRefusesADevice: --sim with a device flag is a usage error that says which flag
// to drop, not a try that ignores it.
func TestSimTryRefusesADevice(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := execRoot(t, map[string]string{"HOME": dir}, "", "run", "--sim", "-s", "emulator-5554", "Turn off Wi-Fi")
	if code != 2 || !strings.Contains(stderr, "drop --serial") || stdout != "" {
		t.Errorf("exit status %d:\n%s\n%s", code, stdout, stderr)
	}
}

// TestSimTryChangesThePhone: the offline try's scripted model carries out built-in tasks
// on the virtual phone — the suite's own instruction and a person's way of saying it; the
// phone's state shows it.
func TestSimTryChangesThePhone(t *testing.T) {
	tests := []struct {
		instruction, task, setting, want string
		person                           []interaction.Rule
	}{
		{"Turn off Wi-Fi", "settings-wifi-off", "global/wifi_on", "0", nil},
		{"switch bluetooth on.", "settings-bluetooth-on", "global/bluetooth_on", "1", nil},
		{"Turn off notifications for Maps", "settings-maps-notifications-off", "secure/notif_off_com.fairy.maps", "1", nil},
		{"帮我点一杯珍珠奶茶，然后付款", "shop-bubble-tea-pay", "", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.task, func(t *testing.T) {
			person, err := interaction.NewCanned(tc.person, "yes")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			res, err := runSimTry(t.Context(), simTryOptions{Config: runConfig{RunsDir: t.TempDir(), Knowledge: filepath.Join(t.TempDir(), "k.db")},
				Instruction: tc.instruction, Out: &out, Dialoger: person})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if res.Task != tc.task || res.Summary.Outcome != event.OutcomeDone {
				t.Errorf("task %s, outcome %s; want %s, done\n%s", res.Task, res.Summary.Outcome, tc.task, out.String())
			}
			if tc.setting == "" {
				if o := res.Phone.Orders(); len(o) != 1 || !o[0].Paid || len(person.Asked()) == 0 {
					t.Errorf("orders %+v after %d questions, want one paid with consent\n%s", o, len(person.Asked()), out.String())
				}
				return
			}
			if got := res.Phone.Setting(tc.setting); got != tc.want {
				t.Errorf("%s = %s, want %s\n%s", tc.setting, got, tc.want, out.String())
			}
		})
	}
}

// TestSimTryNoRule: an instruction no built-in task carries out — also a covered switch
// in the other direction — fails at once with "no rule for this instruction" and exit
// status 1; no run directory is made and no knowledge file is created or changed, neither
// the person's own nor the offline try's.
func TestSimTryNoRule(t *testing.T) {
	for _, words := range [][]string{{"turn", "off", "dark", "theme"}, {"book a flight to Paris"}, {"turn on Wi-Fi"}} {
		t.Run(strings.Join(words, " "), func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "data")
			own := filepath.Join(data, "fairy", "knowledge.db")
			try := filepath.Join(data, "fairy", "sim-knowledge.db")
			named := filepath.Join(dir, "named.db")
			for _, p := range []string{own, try, named} {
				writeKnowledge(t, p)
			}
			before := map[string][]byte{}
			for _, p := range []string{own, try, named} {
				before[p] = readFile(t, p)
			}
			runs := filepath.Join(dir, "runs")
			for _, extra := range [][]string{nil, {"--knowledge", named}} {
				args := append(append([]string{"run", "--sim", "--runs", runs}, extra...), words...)
				code, stdout, stderr := execRoot(t, map[string]string{"HOME": dir, "XDG_DATA_HOME": data}, "", args...)
				if code != 1 || !strings.Contains(stderr, "no rule for this instruction") || !strings.Contains(stderr, "Turn off Wi-Fi") {
					t.Errorf("%v: exit status %d, want 1 with the instructions that work:\n%s\n%s", args, code, stdout, stderr)
				}
				if strings.Contains(stdout, "done") || strings.Contains(stdout, "run directory") {
					t.Errorf("%v: output of a run:\n%s", args, stdout)
				}
			}
			if _, err := os.Stat(runs); !os.IsNotExist(err) {
				t.Errorf("a run directory was made: %v", err)
			}
			for p, b := range before {
				if !bytes.Equal(readFile(t, p), b) {
					t.Errorf("%s changed", p)
				}
			}
		})
	}
}

// TestSimTryNeedsThePixelReader: a built-in task whose text is in pixels only is refused
// up front, naming what to install, when no pixel reader is available — not run to a
// failure the person cannot explain.
func TestSimTryNeedsThePixelReader(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	var out bytes.Buffer
	_, err := runSimTry(t.Context(), simTryOptions{Config: runConfig{RunsDir: runs}, Instruction: "Unlock SafeBox with my PIN 2580", Out: &out})
	if err == nil || !strings.Contains(err.Error(), "tesseract-ocr") {
		t.Errorf("error %v, want one naming tesseract-ocr", err)
	}
	if _, serr := os.Stat(runs); !os.IsNotExist(serr) || out.Len() > 0 {
		t.Errorf("ran anyway: %v\n%s", serr, out.String())
	}
}

// TestSimTryKnowsTheSuite: every toggle phrasing names a task of the suite, and every
// task the offline try offers compiles into rules.
func TestSimTryKnowsTheSuite(t *testing.T) {
	s, err := suite.Load(trySuite)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, task := range s.Tasks {
		ids[task.ID] = true
		if findTryTask(s, task.Instruction) == nil {
			continue
		}
		if _, err := tryRules(s, task); err != nil {
			t.Errorf("task %s: %v", task.ID, err)
		}
	}
	for _, tg := range tryToggles {
		if !ids[tg.task] {
			t.Errorf("toggle phrasing for unknown task %s", tg.task)
		}
	}
	for say, want := range map[string]string{
		"Turn off wifi": "settings-wifi-off", "switch wi-fi off": "settings-wifi-off", "disable WiFi!": "settings-wifi-off",
		"enable dark mode": "settings-dark-theme", "switch to the dark theme": "settings-dark-theme",
		"turn on flight mode": "settings-airplane-wrong-page", "  Turn on   Bluetooth ": "settings-bluetooth-on",
		"turn on wifi": "", "turn off bluetooth": "", "switch to light theme": "", "turn on": "", "make me a sandwich": "",
	} {
		got := ""
		if task := findTryTask(s, say); task != nil {
			got = task.ID
		}
		if got != want {
			t.Errorf("%q: task %q, want %q", say, got, want)
		}
	}
}

// TestDemoRulesOtherInstruction: the demo's scripted model answers its own instruction
// only. `fairy run` with another instruction fails honestly from the planner — "no rule
// for this instruction", exit status 1, no step taken on the phone and nothing learned —
// where it used to carry out the bubble-tea plan and say done.
func TestDemoRulesOtherInstruction(t *testing.T) {
	phone, err := sim.New(sim.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wire.NewHostServer(wire.HostConfig{Devices: []wire.Device{phone}, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ctx) }()
	t.Cleanup(func() { cancel(); hs.Close(); <-served })
	_, port, _ := net.SplitHostPort(hs.Addr().String())

	url := serveModel(t, demoRules)
	dir := t.TempDir()
	kpath := filepath.Join(dir, "knowledge.db")
	night := phone.Setting("secure/ui_night_mode")
	env := map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test", "FAIRY_MODEL_DEFAULT": "fairy-scripted", "HOME": dir}
	code, stdout, stderr := execRoot(t, env, "18:00\nyes\nyes\n", "run", "--runs", filepath.Join(dir, "runs"), "--knowledge", kpath,
		"--adb-host", "127.0.0.1", "--adb-port", port, "-s", phone.Serial(), "--text-only", "turn on dark theme")
	if code != 1 || !strings.Contains(stdout+stderr, "no rule for this instruction") || strings.Contains(stdout, "✓ done") {
		t.Errorf("exit status %d, want 1 with no rule for this instruction:\n%s\n%s", code, stdout, stderr)
	}
	if sum, _ := readSummary(t, stdout); sum.Steps != 0 || sum.ModelCalls != 1 {
		t.Errorf("%d steps, %d model calls; want the planner's one call and no step", sum.Steps, sum.ModelCalls)
	}
	if len(phone.Orders()) != 0 || phone.Setting("secure/ui_night_mode") != night {
		t.Errorf("the phone changed: orders %+v, ui_night_mode %s", phone.Orders(), phone.Setting("secure/ui_night_mode"))
	}
	store, err := knowledge.Open(kpath, knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	tricks, err := store.Tricks("", "")
	if err != nil || len(tricks) > 0 {
		t.Errorf("tricks learned: %v %+v", err, tricks)
	}
	for _, app := range []string{"com.fairy.shop", "com.android.settings"} {
		if m, err := store.Map(app); err == nil && len(m.Pages) > 0 {
			t.Errorf("%s: %d pages learned", app, len(m.Pages))
		}
	}
}

// writeKnowledge makes a knowledge file at path with one trick in it.
func writeKnowledge(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := knowledge.Open(path, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTrick(knowledge.Trick{App: "com.android.settings", Kind: knowledge.KindAction, Text: "Dark theme is under Display."}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSimTryCtrlCLearningNotFailed: Ctrl-C while the try asks the person stops the run
// without new model calls, so the learning pass after it is not made — the knowledge line
// says so and does not report it as a failed learning pass (the Ctrl-C is no failure).
func TestSimTryCtrlCLearningNotFailed(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out bytes.Buffer
	_, err := runSimTry(ctx, simTryOptions{Config: runConfig{RunsDir: t.TempDir(), Knowledge: filepath.Join(t.TempDir(), "k.db")},
		Instruction: "帮我点一杯珍珠奶茶，然后付款", Out: &out, Stdin: ctrlCReader{ctx, cancel}})
	if err == nil || ctx.Err() == nil {
		t.Fatalf("the try was not interrupted: %v\n%s", err, out.String())
	}
	text := out.String()
	if strings.Contains(text, "failed (see the trace)") {
		t.Errorf("the learning pass refused after Ctrl-C is reported as failed:\n%s", text)
	}
	if !strings.Contains(text, "not made: interrupted") {
		t.Errorf("the knowledge line does not say the learning pass was cut by the interrupt:\n%s", text)
	}
}
