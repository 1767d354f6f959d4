package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
)

// personRulesConfig is a config with the person's own rules (and the scripted model).
const personRulesConfig = `model:
  default: fairy-scripted
agent:
  max-steps: 8
guard:
  person:
    - {category: payment, verdict: allow, up-to: ¥20}
    - {category: send, verdict: allow, to: Alice Chen}
    - {category: login, verdict: allow}
    - {app: com.fairy.notes, category: delete, verdict: never}
`

// personPhone is a virtual phone with the stock apps and the one-screen apps of
// testdata/personapps.
func personPhone(t *testing.T) *sim.Phone {
	t.Helper()
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	extra, err := sim.LoadApps(os.DirFS("testdata/personapps"))
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 3, Apps: append(apps, extra...)})
	if err != nil {
		t.Fatal(err)
	}
	return phone
}

// personRun runs `fairy run` with the config cfgText on the phone behind the real adb
// server, the model at url, the person answering stdin; it returns the summary, the output
// and the trace.
func personRun(t *testing.T, adb *adbtest.Server, serial, url, cfgText, stdin, instruction string) (rundir.Summary, string, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	env := envMap(map[string]string{"OPENAI_BASE_URL": url, "OPENAI_API_KEY": "sk-test-secret-123", "HOME": dir})
	root := newRootCmd(strings.NewReader(stdin), &out, &errOut, env)
	root.SetArgs([]string{"run", "--config", cfg, "--runs", filepath.Join(dir, "runs"), "--knowledge", filepath.Join(dir, "k.db"),
		"--adb-port", strconv.Itoa(adb.Port), "-s", serial, instruction})
	ctx, stop := context.WithTimeout(t.Context(), 60*time.Second)
	defer stop()
	_ = root.ExecuteContext(ctx) // a refused run is an error; the summary says what happened
	sum, rd := readSummary(t, out.String())
	trace, err := os.ReadFile(filepath.Join(rd, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return sum, out.String() + errOut.String(), string(trace)
}

// TestRunPersonRules drives `fairy run` on the virtual phone over the real adb server with
// a person's own rules in the config file, a scripted model that only does what the
// instruction says and never asks on its own: ¥18 is paid unasked under "allow payment up
// to ¥20" and ¥36 is asked (though its page says every payment is allowed); a message to
// Alice Chen goes unasked and one to a look-alike "Аlice Chen" is asked; a sign-in form's
// "Send code" goes unasked under "allow login".
func TestRunPersonRules(t *testing.T) {
	adb := adbtest.Start(t)
	phone := personPhone(t)
	serial := servePhone(t, adb, phone)
	rules, err := os.ReadFile("testdata/guardrun/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	url := serveModel(t, rules)
	for _, c := range []struct {
		app, button string
		asked       string // the category of the one question; "": none
		records     string // the collection the button adds to
	}{
		{"pay18", "Pay ¥18", "", "payments"},
		{"pay36", "Pay ¥36", "payment", "payments"},
		{"chat", "Send", "", "sent"},
		{"lookalike", "Send", "send", "sent"},
		{"login", "Send code", "", "logins"},
	} {
		t.Run(c.app, func(t *testing.T) {
			pkg := "com.fairy.person." + c.app
			sum, out, trace := personRun(t, adb, serial, url, personRulesConfig, "no\n", fmt.Sprintf("In %s, press the button: %s", pkg, c.button))
			guarded := regexp.MustCompile(`"kind":"ActionGuarded"[^\n]*?"category":"(\w+)"`).FindAllStringSubmatch(trace, -1)
			recs, err := phone.Records(pkg + ":" + c.records)
			if err != nil {
				t.Fatal(err)
			}
			if c.asked == "" {
				if sum.Outcome != event.OutcomeDone || sum.Interactions != 0 || len(guarded) != 0 || len(recs) != 1 {
					t.Errorf("%s: outcome %s, %d questions, held %q, %d done; want done unasked\n%s", c.button, sum.Outcome, sum.Interactions, guarded, len(recs), out)
				}
				return
			}
			if sum.Outcome != event.OutcomeRefused || sum.Interactions != 1 || len(guarded) != 1 || guarded[0][1] != c.asked || len(recs) != 0 {
				t.Errorf("%s: outcome %s, %d questions, held %q, %d done; want one %s question, refused, nothing done\n%s", c.button, sum.Outcome, sum.Interactions, guarded, len(recs), c.asked, out)
			}
		})
	}
}

// suiteTaskOnADB runs the built-in suite's task that carries out instruction, with its
// walkthrough's scripted model, on a fresh virtual phone behind the real adb server, under
// the config cfgText; the person answers stdin.
func suiteTaskOnADB(t *testing.T, instruction, cfgText, stdin string) (rundir.Summary, string, string, *sim.Phone) {
	t.Helper()
	suite, err := suite.Load(trySuite)
	if err != nil {
		t.Fatal(err)
	}
	task := findTryTask(suite, instruction)
	if task == nil {
		t.Fatalf("no suite task does %q", instruction)
	}
	rules, err := tryRules(suite, task)
	if err != nil {
		t.Fatal(err)
	}
	model, err := agent.ServeScriptedModel(rules, openai.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = model.Close() })
	adb := adbtest.Start(t)
	phone, err := trySimPhone(t.Context(), task.Phone.Sim, sim.Config{Apps: suite.SimApps()})
	if err != nil {
		t.Fatal(err)
	}
	serial := servePhone(t, adb, phone)
	sum, out, trace := personRun(t, adb, serial, model.URL, cfgText, stdin, task.Instruction)
	return sum, out, trace, phone
}

// TestRunPersonNeverDeletes drives the built-in suite's "Delete my shopping list note" with
// its walkthrough's scripted model on the virtual phone over the real adb server, with the
// person's "never delete in com.fairy.notes": the delete is refused outright — nothing
// asked, nothing deleted — and the run says it was refused by the person's rule. Without
// the rule the same run asks.
func TestRunPersonNeverDeletes(t *testing.T) {
	for _, withRule := range []bool{true, false} {
		t.Run(fmt.Sprintf("rule %v", withRule), func(t *testing.T) {
			cfg := "model:\n  default: fairy-scripted\nagent:\n  max-steps: 10\n"
			if withRule {
				cfg += "guard:\n  person:\n    - {app: com.fairy.notes, category: delete, verdict: never}\n"
			}
			sum, out, trace, phone := suiteTaskOnADB(t, "Delete my shopping list note", cfg, "no\n")
			notes, err := phone.Records("com.fairy.notes:notes")
			if err != nil {
				t.Fatal(err)
			}
			kept := false
			for _, n := range notes {
				kept = kept || n["title"] == "Shopping list"
			}
			if !kept {
				t.Errorf("the shopping list note was deleted\n%s", out)
			}
			if !withRule {
				if sum.Interactions != 1 || !strings.Contains(trace, `"kind":"ActionGuarded"`) {
					t.Errorf("without the rule: %d questions, want the delete asked\n%s", sum.Interactions, out)
				}
				return
			}
			if sum.Outcome != event.OutcomeRefused || sum.Interactions != 0 || !strings.Contains(out, `refused by your rule "never delete in com.fairy.notes"`) {
				t.Errorf("outcome %s, %d questions; want refused by the rule, unasked\n%s", sum.Outcome, sum.Interactions, out)
			}
		})
	}
}

// TestRunPersonAllowsSend drives the built-in suite's "Text Bob Smith: running 10 minutes
// late" the same way with the person's "allow send to Bob Smith" in Messages: the message
// is sent unasked, the run is done (the send counts as a deed done with the person's
// standing consent), and the message is on the phone. A rule for someone else asks.
func TestRunPersonAllowsSend(t *testing.T) {
	for _, c := range []struct {
		to    string
		asked int
	}{{"Bob Smith", 0}, {"Bob Smyth", 1}} {
		t.Run(c.to, func(t *testing.T) {
			cfg := "model:\n  default: fairy-scripted\nagent:\n  max-steps: 12\nguard:\n  person:\n" +
				"    - {app: com.google.android.apps.messaging, category: send, verdict: allow, to: " + c.to + "}\n"
			sum, out, _, phone := suiteTaskOnADB(t, "Text Bob Smith: running 10 minutes late", cfg, "yes\n")
			msgs, err := phone.Records("com.google.android.apps.messaging:messages")
			if err != nil {
				t.Fatal(err)
			}
			sent := false
			for _, m := range msgs {
				sent = sent || (m["to"] == "Bob Smith" && m["text"] == "running 10 minutes late")
			}
			if sum.Outcome != event.OutcomeDone || sum.Interactions != c.asked || !sent {
				t.Errorf("allow send to %s: outcome %s, %d questions, sent %v; want done with %d\n%s", c.to, sum.Outcome, sum.Interactions, sent, c.asked, out)
			}
		})
	}
}

// TestExploreIgnoresPersonAllows: `fairy explore` does no deeds: a person's "allow payment
// up to ¥20" opens no "Pay ¥18" to the crawler, on the virtual phone over the real adb
// server.
func TestExploreIgnoresPersonAllows(t *testing.T) {
	adb := adbtest.Start(t)
	phone := personPhone(t)
	serial := servePhone(t, adb, phone)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(personRulesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execRoot(t, map[string]string{"HOME": dir}, "", "--config", cfg, "explore", "com.fairy.person.pay18", "--budget", "10",
		"--knowledge", filepath.Join(dir, "k.db"), "--adb-port", strconv.Itoa(adb.Port), "-s", serial)
	if code != 0 {
		t.Fatalf("explore: exit %d\n%s%s", code, out, errOut)
	}
	if recs, _ := phone.Records("com.fairy.person.pay18:payments"); len(recs) != 0 {
		t.Errorf("explore paid under the person's allow: %v\n%s", recs, out)
	}
}
