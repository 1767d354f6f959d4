package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/spf13/cobra"
)

// The offline try (`fairy run --sim`) carries out an instruction on a virtual phone with a
// scripted model and no model key. The scripted model knows the tasks of the built-in
// evaluation suite (builtin:sim, eval/suite/suites/sim.yaml): their walkthroughs answer what a
// capable model answers on each screen of the built-in apps. An instruction none of them
// carries out is refused before anything starts — the scripted model cannot understand
// it, and a run that pretends to would lie.

// trySuite is the suite whose tasks the offline try knows.
const trySuite = suite.BuiltinPrefix + "sim"

// trySimKnowledgeFile is the offline try's knowledge file, next to the default one: what a
// virtual phone teaches stays apart from what the person's own phone does.
const trySimKnowledgeFile = "sim-knowledge.db"

// tagPixels marks a suite task whose screens carry their text in pixels only (a canvas, a
// WebView, icons): the agent reads it with the pixel reader.
const tagPixels = "pixels"

// errNoTryRule is the offline try's answer to an instruction it has no rule for.
var errNoTryRule = errors.New("no rule for this instruction")

// tryToggle is a switch of the Settings app that a task of the suite turns on or off, with
// the ways a person says so: "turn on dark theme" is the dark-theme task as much as the
// suite's "Switch the phone to the dark theme". Only the task's own direction is taken:
// "turn on Wi-Fi" is not "Turn off Wi-Fi".
type tryToggle struct {
	task string // the suite's task id
	on   bool   // the direction the task switches
	name string // a regexp of the switch's names, lower case
}

var tryToggles = []tryToggle{
	{"settings-wifi-off", false, `wi-?fi`},
	{"settings-bluetooth-on", true, `bluetooth`},
	{"settings-dark-theme", true, `dark (?:theme|mode)`},
	{"settings-dnd-idle-fault", true, `do not disturb|dnd`},
	{"settings-battery-saver-deadtap", true, `battery saver`},
	{"settings-location-off-dialog", false, `location|location services`},
	{"settings-airplane-wrong-page", true, `airplane mode|flight mode`},
}

// toggleSaid reads "turn on X", "switch X off", "enable X", "switch to X" as (X's words,
// on); ok is false for any other sentence.
var toggleSaid = []*regexp.Regexp{
	regexp.MustCompile(`^(?:please )?(?:turn|switch|put) (on|off) (?:the )?(.+)$`),
	regexp.MustCompile(`^(?:please )?(?:turn|switch|put) (?:the )?(.+?) (on|off)$`),
	regexp.MustCompile(`^(?:please )?(enable|disable|activate|deactivate) (?:the )?(.+)$`),
	regexp.MustCompile(`^(?:please )?(?:switch|change) (?:the phone )?to (?:the )?(.+)$`),
}

func toggleWords(s string) (name string, on, ok bool) {
	for i, re := range toggleSaid {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		switch i {
		case 0, 2:
			return m[2], m[1] == "on" || m[1] == "enable" || m[1] == "activate", true
		case 1:
			return m[1], m[2] == "on", true
		default:
			return m[1], true, true
		}
	}
	return "", false, false
}

// normalInstruction is an instruction as the offline try compares it: lower case, single
// spaces, no closing punctuation.
func normalInstruction(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".!?。！？ ")
}

// findTryTask returns the suite's task that carries out instruction, or nil.
func findTryTask(s *suite.Suite, instruction string) *suite.Task {
	want := normalInstruction(instruction)
	byID := map[string]*suite.Task{}
	for _, t := range s.Tasks {
		if len(t.Walk) == 0 && len(t.Model) == 0 {
			continue // no rules of its own: the scripted model cannot carry it out
		}
		if normalInstruction(t.Instruction) == want {
			return t
		}
		byID[t.ID] = t
	}
	name, on, ok := toggleWords(want)
	if !ok {
		return nil
	}
	for _, tg := range tryToggles {
		if t := byID[tg.task]; t != nil && tg.on == on && regexp.MustCompile(`^(?:`+tg.name+`)$`).MatchString(name) {
			return t
		}
	}
	return nil
}

// noTryRule is the refusal of an instruction the offline try has no rule for: it lists
// the instructions it knows.
func noTryRule(s *suite.Suite) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%v: the offline try's scripted model (not a real model) carries out only the built-in tasks of the "+
		"virtual phone (%s); nothing was run or learned. These instructions work "+
		"(\"turn on dark theme\"-style switches too):", errNoTryRule, trySuite)
	for _, t := range s.Tasks {
		if len(t.Walk) > 0 || len(t.Model) > 0 {
			fmt.Fprintf(&b, "\n  %s", t.Instruction)
		}
	}
	b.WriteString("\nFor any other instruction, configure a model (README: Running it on a phone).")
	return withExit(exitFailed, errors.New(b.String()))
}

// tryRules are the scripted model's rules for task: the suite's, with the task's
// walkthrough as a capable model takes it — no slips (a suite makes the model err on
// purpose to test recovery; an offline try shows the task).
func tryRules(s *suite.Suite, task *suite.Task) ([]scripted.Rule, error) {
	t := *task
	t.Walk = make([]walkthrough.Task, len(task.Walk))
	for i, w := range task.Walk {
		w.Steps = append([]walkthrough.Step(nil), w.Steps...)
		for j := range w.Steps {
			w.Steps[j].Slip = nil
		}
		t.Walk[i] = w
	}
	return s.Rules(&t)
}

// simTryOptions are one offline try's settings.
type simTryOptions struct {
	Config      runConfig // runs directory, agent settings, log; Model is the scripted one
	Instruction string
	Stdin       io.Reader
	Out         io.Writer
	Err         io.Writer
	// Dialoger answers the agent's questions; nil: the person at the terminal (Stdin, Out).
	Dialoger interaction.Dialoger
	// ConfirmResult asks, when the run says done, whether the result is right (--confirm-result).
	ConfirmResult bool
	// Watch is the live page (--watch); nil without one.
	Watch *watching
	// Suite is the suite whose task is tried ("" the built-in sim suite; tests try others),
	// its apps installed on the virtual phone.
	Suite string
	// UIServer installs the resident UI server on the virtual phone, as `fairy device
	// setup` leaves a phone.
	UIServer bool
	// Started, when set, is given the virtual phone once it is up (a test's person acts on
	// it with their own hands).
	Started func(*sim.Phone)
}

// simTryResult is what an offline try did, for tests.
type simTryResult struct {
	Task    string // the suite's task id ("" when refused)
	Summary rundir.Summary
	Phone   *sim.Phone
}

// runSimTry carries out the instruction on a virtual phone in process with the scripted
// model of the suite task that does it; an instruction no task does is refused with
// errNoTryRule before anything starts (no phone, no run directory, no knowledge opened).
func runSimTry(ctx context.Context, o simTryOptions) (simTryResult, error) {
	var res simTryResult
	suite, err := suite.Load(cmp.Or(o.Suite, trySuite))
	if err != nil {
		return res, fmt.Errorf("offline try: %w", err)
	}
	task := findTryTask(suite, o.Instruction)
	if task == nil {
		return res, noTryRule(suite)
	}
	res.Task = task.ID
	if task.HasTag(tagPixels) && o.Config.Agent.Pixels == nil {
		return res, withExit(exitFailed, fmt.Errorf("%q reads text off the screen's pixels (%s task %s), "+
			"and no pixel reader is available: install Tesseract (Debian: tesseract-ocr, tesseract-ocr-eng, "+
			"tesseract-ocr-chi-sim) and try again; nothing was run", o.Instruction, trySuite, task.ID))
	}
	rules, err := tryRules(suite, task)
	if err != nil {
		return res, fmt.Errorf("offline try: %w", err)
	}
	cfg := o.Config
	log := cfg.Agent.Logger
	out := o.Out
	fmt.Fprintln(out, "fairy run --sim — an offline try, everything here is SIMULATED:")
	fmt.Fprintln(out, "  phone:  a virtual Android phone (sim), in process, over the real ADB host protocol")
	fmt.Fprintf(out, "  model:  a scripted model (%q, not a real model) answering from the walkthrough of %s task %s\n",
		scripted.ModelName, trySuite, task.ID)
	fmt.Fprintln(out, "  person: you — answer the questions below")
	fmt.Fprintln(out)

	kn, err := openRunKnowledge(cfg.Knowledge, cfg.KnowledgeDefault, cfg.Agent.Clock, o.Err, etcdAccess{})
	if err != nil {
		return res, err
	}
	defer kn.close()
	model, err := agent.ServeScriptedModel(rules, openai.Config{Logger: log, MaxRetries: -1, RepairRetries: -1}, log)
	if err != nil {
		return res, err
	}
	defer model.Close()
	p, err := trySimPhone(ctx, task.Phone.Sim, sim.Config{Apps: suite.SimApps(), UIServer: o.UIServer, Logger: log})
	if err != nil {
		return res, err
	}
	res.Phone = p
	if o.Started != nil {
		o.Started(p)
	}
	phones, err := agent.ServePhones(log, p)
	if err != nil {
		return res, err
	}
	defer phones.Close()
	dev, err := agent.OpenDevice(ctx, phones.Device(p.Serial(), log))
	if err != nil {
		return res, fmt.Errorf("virtual phone: %w", err)
	}
	defer dev.Close(context.WithoutCancel(ctx))

	cfg.Model, cfg.ModelName = model.Model, scripted.ModelName+" (offline try)"
	person := o.Dialoger
	if person == nil {
		person = interaction.NewTerminal(o.Stdin, out)
	}
	panel := o.Watch.panel("virtual phone " + p.Serial())
	panelPhone(panel, dev)
	person = watched(person, panel, out)
	res.Summary, err = runAgent(ctx, agentSetup{Config: cfg, Knowledge: kn, Device: dev, Dialoger: person, Out: out,
		HideQuestions: o.Dialoger == nil,
		ConfirmResult: o.ConfirmResult, Watch: panelHandler(panel)}, o.Instruction)
	if kn.Store != nil && cfg.KnowledgeDefault {
		k := "--knowledge " + shellWord(cfg.Knowledge)
		fmt.Fprintf(out, "\nWhat the offline try learned is kept apart from a real phone's, in %s. See it with:\n",
			cfg.Knowledge)
		fmt.Fprintf(out, "  fairy map list %s\n  fairy routines list %s\n", k, k)
	}
	return res, err
}

// trySimPhone is a virtual phone in the start state of the task's phone (its clock, setup
// commands and first app), without the task's faults: a try shows the task, not the
// phone's failures.
func trySimPhone(ctx context.Context, spec *suite.SimPhone, cfg sim.Config) (*sim.Phone, error) {
	cfg.Seed = 1
	if spec != nil && spec.Seed != 0 {
		cfg.Seed = spec.Seed
	}
	p, err := sim.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("virtual phone: %w", err)
	}
	if spec == nil {
		return p, nil
	}
	var cmds []string
	if spec.Clock != "" {
		cmds = append(cmds, "fairy-sim clock "+spec.Clock)
	}
	cmds = append(cmds, spec.Setup...)
	if spec.Launch != "" {
		cmds = append(cmds, "monkey -p "+spec.Launch+" -c android.intent.category.LAUNCHER 1")
	}
	for _, c := range cmds {
		var b strings.Builder
		st, err := p.Shell(ctx, c, &b)
		if err == nil && st != 0 {
			err = fmt.Errorf("exit status %d: %s", st, strings.TrimSpace(b.String()))
		}
		if err != nil {
			return nil, fmt.Errorf("virtual phone: set up %q: %w", c, err)
		}
	}
	return p, nil
}

// simKnowledgePath is the offline try's knowledge file: the one --knowledge names on the
// command line (the person asks for it), else sim-knowledge.db next to the default
// knowledge file — never the person's own knowledge by default, also when the config or
// FAIRY_KNOWLEDGE names it. "" (no data directory) runs without knowledge.
func (s *settings) simKnowledgePath(cmd *cobra.Command) (path string, isDefault bool) {
	if f := cmd.Flags().Lookup(keyKnowledge); f != nil && f.Changed {
		return f.Value.String(), false
	}
	d, err := s.dataDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(d, trySimKnowledgeFile), true
}

// runOfflineTry is `fairy run --sim`: cfg's runs directory, agent settings and log, with
// the offline try's knowledge file and scripted model (the configured model is not used).
func runOfflineTry(cmd *cobra.Command, d runDeps, cfg runConfig, textOnly, confirm bool, maxSteps int, instr string,
	wt *watching) error {
	for _, f := range []string{"serial", "adb-host", "adb-port"} {
		if fl := cmd.Flags().Lookup(f); fl != nil && fl.Changed {
			return withExit(exitUsage, fmt.Errorf("--sim runs on a virtual phone in process: "+
				"drop --%s, or drop --sim to run on that phone", f))
		}
	}
	if textOnly {
		cfg.Agent.TextOnly = true
	}
	if maxSteps > 0 {
		cfg.Agent.Limits.MaxSteps = maxSteps
	}
	cfg.Knowledge, cfg.KnowledgeDefault = "", false
	if d.SimKnowledge != nil {
		cfg.Knowledge, cfg.KnowledgeDefault = d.SimKnowledge(cmd)
	}
	cfg.Etcd = etcdAccess{}
	cfg.Log.hold() // warnings go to the run's log, not between the transcript's lines
	defer cfg.Log.close()
	stderr := d.Stderr
	if stderr == nil {
		stderr = cmd.ErrOrStderr()
	}
	_, err := runSimTry(cmd.Context(), simTryOptions{Config: cfg, Instruction: instr, Stdin: d.Stdin,
		Out: d.Style.wrap(d.Stdout), Err: stderr, ConfirmResult: confirm, Watch: wt})
	return err
}
