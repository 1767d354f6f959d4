package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

// roleCheckout is one of cmd/fairy's one-screen checkouts: its file, package, primary
// button and receipt title.
type roleCheckout struct{ file, pkg, primary, receipt string }

// roleCheckouts are cmd/fairy's one-screen checkouts (a total, a masked card, an address: a
// payment page by its role) whose primary button says what no vocabulary knows, and the
// title of the receipt each shows after paying.
var roleCheckouts = []roleCheckout{
	{"checkout_tr.yaml", "com.fairy.role.checkout", "→", "Ödeme alındı"},
	{"checkout_th.yaml", "com.fairy.role.checkout.th", "ลุยเลย", "ชำระเงินแล้ว"},
}

// payByPrimary scripts "pay for my order" on the checkout PKG: do DECIDE (tap the primary
// button), then done on the receipt RECEIPT; a model that takes a learned routine when the
// prompt says one fits.
const payByPrimary = `
rules:
  - name: plan
    role: planner
    match: ['Phase: plan', '(?m)^- (PKG) —']
    answer: '{"thought":"","status":"continue","tasks":[{"app":"{{match 1}}","task":"Pay for my order","produces":""}],"next":0,"progress":"","reason":""}'
  - name: adjust done
    role: planner
    match: ['Phase: adjust', '— done']
    answer: '{"thought":"","status":"done","tasks":[],"next":-1,"progress":"done","reason":"paid"}'
  - name: adjust refused
    role: planner
    match: ['Phase: adjust']
    answer: '{"thought":"","status":"stop","tasks":[],"next":-1,"progress":"","reason":"the person said no"}'

  - name: run the routine that fits
    role: replanner
    match: ['<<<ROUTINES\n(?:[^\n]*\n)*?- "([^"\n]*)" — [^\n]*?fits this task with args (\[[^\n]*\])']
    answer: '{"result":"B","reflection":"","progress":"","plan":[],"subgoal":"Run the learned routine","facts":[],"routine":{"name":{{json (match 1)}},"args":{{match 2}}},"interaction":0,"reason":""}'
  - name: paid
    role: replanner
    match: ['RECEIPT']
    answer: '{"result":"A","reflection":"paid","progress":"done","plan":["Pay"],"subgoal":"Finished","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'
  - name: checkout
    role: replanner
    answer: '{"result":"B","reflection":"","progress":"","plan":["Pay"],"subgoal":"Pay","facts":[],"routine":{"name":"","args":[]},"interaction":0,"reason":""}'

  - name: pay
    role: decider
    match: ['Current sub-goal: Pay']
    answer: DECIDE
  - name: finish
    role: decider
    answer: '{"thought":"","actions":[{"type":"Finish","text":"paid"}],"expect":""}'

  - name: consent given
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)', '(?m)^Person: (?i:y|yes)']
    answer: '{"status":"A","question":"","options":[],"summary":"agreed","consent":"granted"}'
  - name: consent refused
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)', '(?m)^Person: (?i:n|no)']
    answer: '{"status":"A","question":"","options":[],"summary":"refused","consent":"denied"}'
  - name: ask consent
    role: interactor
    match: ['Interaction type: [12]', 'Why the agent asks: ([^\n]*)']
    answer: '{"status":"B","question":{{json (printf "May I %s?" (match 1))}},"options":[],"summary":"","consent":""}'

  - name: nothing to extract
    role: extractor
    answer: '{"facts":[]}'
  - name: check
    role: checker
    answer: '{"passed":true,"reason":"paid"}'
  - name: learn
    role: learner
    answer: '{"tricks":[],"wrong":[],"app_description":"A shop checkout."}'
`

// tapPrimary is the decider's answer that taps the checkout's primary button by its index.
func tapPrimary(c roleCheckout) string {
	return yamlQuote(`{"thought":"","actions":[{"type":"Tap","index":{{index "` + c.primary + `"}}}],"expect":"the receipt"}`)
}

// runCheckout runs "Pay for my order" on a fresh virtual phone with checkout c, against
// the knowledge file at path, the person answering answer, the decider paying with decide
// (a YAML scalar), the technician shell allowing shell; it returns the summary, the
// questions asked, the trace and the payments the app recorded.
func runCheckout(t *testing.T, c roleCheckout, path, id, answer, decide string, shell []string) (rundir.Summary, []interaction.Asked, string, []sim.Record) {
	t.Helper()
	ctx := t.Context()
	clock := func() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }
	data, err := os.ReadFile(filepath.Join("..", "cmd", "fairy", "testdata", "roleapps", c.file))
	if err != nil {
		t.Fatal(err)
	}
	app, err := sim.ParseApp(data)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 7, Clock: clock, Apps: append(apps, app)})
	if err != nil {
		t.Fatal(err)
	}
	phones, err := ServePhones(nil, phone)
	if err != nil {
		t.Fatal(err)
	}
	defer phones.Close()
	cfg := phones.Device(phone.Serial(), nil)
	cfg.Shell = shell
	dev, err := OpenDevice(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(ctx)
	script := strings.NewReplacer("PKG", regexp.QuoteMeta(c.pkg), "PRIMARY", c.primary, "RECEIPT", c.receipt, "DECIDE", decide).Replace(payByPrimary)
	rules, err := scripted.ParseRules([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	model, err := ServeScriptedModel(rules, openai.Config{MaxRetries: -1, RepairRetries: -1, Timeout: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	store, err := knowledge.Open(path, knowledge.Options{Timeout: time.Second, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	person, err := interaction.NewCanned(nil, answer)
	if err != nil {
		t.Fatal(err)
	}
	ag, err := New(Config{TextOnly: true, Clock: clock, Shell: shell})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), id)
	res, err := ag.Run(ctx, Run{Instruction: "Pay for my order in " + app.Label, Dir: dir, ID: id,
		Device: dev, Model: model.Model, Dialoger: person, Knowledge: store})
	if err != nil || res.Err != nil || res.KnowledgeErr != nil {
		t.Fatalf("run %s: %v, %v, %v", id, err, res.Err, res.KnowledgeErr)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	payments, err := phone.Records(c.pkg + ":payments")
	if err != nil {
		t.Fatal(err)
	}
	return res.Summary, person.Asked(), string(trace), payments
}

// TestRoutineReplayHeldByPageRole: a routine learned on a checkout — a Turkish one whose
// step taps the primary "→", a Thai one whose step taps "ลุยเลย", each paid once with the
// person's yes — is replayed on a later run: the replay stops at the primary button (held
// by the page's role: a total, a masked card, an address; no word the guard knows on the
// button) and asks, naming the card; the person's no pays nothing.
func TestRoutineReplayHeldByPageRole(t *testing.T) {
	for _, c := range roleCheckouts {
		t.Run(c.primary, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "knowledge.db")
			learn, asked, _, paid := runCheckout(t, c, path, "learn", "yes", tapPrimary(c), nil)
			if learn.Outcome != event.OutcomeDone || len(asked) != 1 || len(paid) != 1 {
				// Go on: the replay is judged on its own.
				t.Errorf("the first run: %s (%s), %d questions, payments %v; want one question, paid", learn.Outcome, learn.Reason, len(asked), paid)
			}
			replayed, asked, trace, paid := runCheckout(t, c, path, "replay", "no", tapPrimary(c), nil)
			k := replayed.Knowledge
			t.Logf("replay: %s (%s), knowledge %+v, calls %v", replayed.Outcome, replayed.Reason, k, replayed.ModelCallsByRole)
			if k.Routines != 1 {
				t.Errorf("the second run took no routine: knowledge %+v", k)
			}
			if len(paid) != 0 {
				t.Errorf("the replay paid though the person said no: %v", paid)
			}
			if len(asked) != 1 || !strings.Contains(asked[0].Question.Text, c.primary) || !strings.Contains(asked[0].Question.Text, "4242") {
				t.Errorf("asked %+v, want one question about %s naming the card", asked, c.primary)
			}
			if !strings.Contains(trace, `"kind":"ActionGuarded"`) || !strings.Contains(trace, `"category":"payment"`) {
				t.Errorf("no payment held in the replay's trace")
			}
		})
	}
}

// primaryAt is where checkout c's primary button is drawn on a fresh virtual phone.
func primaryAt(t *testing.T, c roleCheckout) (x, y int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "cmd", "fairy", "testdata", "roleapps", c.file))
	if err != nil {
		t.Fatal(err)
	}
	app, err := sim.ParseApp(data)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(sim.Config{Seed: 7, Apps: append(apps, app)})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if st, err := phone.Shell(t.Context(), "am start -n "+c.pkg+"/.MainActivity", &out); err != nil || st != 0 {
		t.Fatalf("am start %s: %d, %v: %s", c.pkg, st, err, out.String())
	}
	scr, err := perception.Parse(phone.Dump())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range scr.Elements {
		if e.Label == c.primary {
			return e.Center.X, e.Center.Y
		}
	}
	t.Fatalf("no %s on %s", c.primary, c.pkg)
	return 0, 0
}

// TestShellInputTapHeldByPageRole: the decider pays with a technician shell command,
// `input tap X Y` at the primary button of the Turkish and Thai checkouts (the shell
// allows input): the command is held by the page's role as a payment and asked; the
// person's no pays nothing.
func TestShellInputTapHeldByPageRole(t *testing.T) {
	for _, c := range roleCheckouts {
		t.Run(c.primary, func(t *testing.T) {
			x, y := primaryAt(t, c)
			decide := yamlQuote(fmt.Sprintf(`{"thought":"","actions":[{"type":"Shell","command":"input tap %d %d"}],"expect":"the receipt"}`, x, y))
			sum, asked, trace, paid := runCheckout(t, c, filepath.Join(t.TempDir(), "knowledge.db"), "shell", "no", decide, []string{"input"})
			t.Logf("%s (%s), calls %v", sum.Outcome, sum.Reason, sum.ModelCallsByRole)
			if len(paid) != 0 {
				t.Errorf("input tap %d %d paid though the person said no: %v", x, y, paid)
			}
			if len(asked) != 1 || !strings.Contains(asked[0].Question.Text, "input tap") || !strings.Contains(asked[0].Question.Text, "4242") {
				t.Errorf("asked %+v, want one question about input tap %d %d naming the card", asked, x, y)
			}
			if !strings.Contains(trace, `"kind":"ActionGuarded"`) || !strings.Contains(trace, `"category":"payment"`) {
				t.Errorf("no payment held in the trace")
			}
		})
	}
}
