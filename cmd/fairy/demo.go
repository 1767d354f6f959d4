package main

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
	"github.com/spf13/cobra"
)

// demoRules is the scripted model's rules file for the demo task.
//
//go:embed demo/rules.yaml
var demoRules []byte

// demoInstruction is the demo's task: two apps, a clarification (the delivery time) and
// two consents (placing the order, paying).
const demoInstruction = "Order a bubble tea for delivery, then put the delivery time in my calendar"

// demoUser is the simulated person's script: the first matching pattern answers.
func demoUser() []interaction.Rule {
	return []interaction.Rule{
		{Pattern: `^Place the order`, Reply: "yes"},
		{Pattern: `^Pay `, Reply: "yes"},
		{Pattern: `arrive|deliver`, Reply: "18:00"},
	}
}

// demoDeps are the hooks of `fairy demo`.
type demoDeps struct {
	RunsDir func() (string, error)
	Logger  func() *slog.Logger // nil: discard
	Stdin   io.Reader
	// Knowledge is the demo's knowledge file and whether it is the default one (not named
	// by the person); nil runs the demo without long-term knowledge.
	Knowledge func() (path string, isDefault bool, err error)
	// Style dresses the progress on a terminal: colour, a live status line.
	Style termStyle
	// Log is where Logger writes: the demo holds its records for the run's log.
	Log *runLog
}

// newDemoCmd builds `fairy demo`.
func newDemoCmd(d demoDeps) *cobra.Command {
	var interactive, textOnly bool
	cmd := &cobra.Command{
		Use:   "demo [--interactive]",
		Short: "Watch fairy carry out a task on a simulated phone with a scripted model",
		Long: `Run fairy end to end with nothing attached: a virtual phone (simulated, in process, reached
over the real ADB host protocol) and a scripted model (not a real model: a bundled script
served as an OpenAI-compatible endpoint and reached through the real adapter).

The task crosses two apps, needs a clarification (the delivery time) and the person's consent
before the order is placed and paid. A scripted person answers; with --interactive you answer.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			runs, err := d.RunsDir()
			if err != nil {
				return withExit(2, err)
			}
			d.Log.hold() // warnings go to the run's log, not between the transcript's lines
			defer d.Log.close()
			log := slog.New(slog.DiscardHandler)
			if d.Logger != nil {
				if l := d.Logger(); l != nil {
					log = l
				}
			}
			stdin := d.Stdin
			if stdin == nil {
				stdin = cmd.InOrStdin()
			}
			var kpath string
			var kdefault bool
			if d.Knowledge != nil {
				if kpath, kdefault, err = d.Knowledge(); err != nil {
					return withExit(2, err)
				}
			}
			_, err = runDemo(cmd.Context(), demoOptions{RunsDir: runs, Interactive: interactive, TextOnly: textOnly,
				Stdin: stdin, Out: d.Style.wrap(cmd.OutOrStdout()), Err: cmd.ErrOrStderr(), Logger: log, Log: d.Log,
				Knowledge: kpath, KnowledgeDefault: kdefault})
			return err
		},
	}
	cmd.Flags().BoolVar(&interactive, "interactive", false, "answer the agent's questions yourself instead of the "+
		"scripted person")
	cmd.Flags().BoolVar(&textOnly, "text-only", false, "send the models the screen text only, no screenshots")
	return cmd
}

// demoOptions are one demo run's settings.
type demoOptions struct {
	RunsDir     string
	Interactive bool
	TextOnly    bool
	Stdin       io.Reader
	Out         io.Writer
	Err         io.Writer // nil: io.Discard
	Logger      *slog.Logger
	Log         *runLog // Logger's destination, which the run directory is given to; nil: none
	Knowledge   string  // the knowledge file the demo learns into; "" runs without
	// KnowledgeDefault: Knowledge is the default file; damaged, the demo runs without it.
	KnowledgeDefault bool
	// Sees, when set, is shown every request to the model before it is sent (tests).
	Sees func(llm.Request)
}

// seeingModel shows each request to a function before passing it on.
type seeingModel struct {
	executor.Model
	sees func(llm.Request)
}

func (m seeingModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.sees(req)
	return m.Model.Generate(ctx, req)
}

// demoResult is what a demo run did, for tests.
type demoResult struct {
	Summary rundir.Summary
	Phone   *sim.Phone
	Asked   []interaction.Asked
	Unused  []string // scripted-model rules that never fired
}

// runDemo runs the demo task; its error follows runAgent's exit statuses.
func runDemo(ctx context.Context, o demoOptions) (demoResult, error) {
	var res demoResult
	out := o.Out
	fmt.Fprintln(out, "fairy demo — everything here is SIMULATED:")
	fmt.Fprintln(out, "  phone:  a virtual Android phone (sim), in process, over the real ADB host protocol")
	fmt.Fprintf(out, "  model:  a scripted model (%q, not a real model) answering from a bundled rules file\n",
		scripted.ModelName)
	if o.Interactive {
		fmt.Fprintln(out, "  person: you — answer the questions below")
	} else {
		fmt.Fprintln(out, "  person: a scripted person (try --interactive to answer yourself)")
	}
	fmt.Fprintln(out)

	kn, err := openRunKnowledge(o.Knowledge, o.KnowledgeDefault, nil, cmp.Or(o.Err, io.Discard), etcdAccess{})
	if err != nil {
		return res, err
	}
	defer kn.close()
	rules, err := scripted.ParseRules(demoRules)
	if err != nil {
		return res, fmt.Errorf("demo rules: %w", err)
	}
	model, err := agent.ServeScriptedModel(rules, openai.Config{Logger: o.Logger, MaxRetries: -1,
		RepairRetries: -1}, o.Logger)
	if err != nil {
		return res, err
	}
	defer model.Close()
	p, err := sim.New(sim.Config{Seed: 1, Logger: o.Logger})
	if err != nil {
		return res, fmt.Errorf("virtual phone: %w", err)
	}
	phones, err := agent.ServePhones(o.Logger, p)
	if err != nil {
		return res, err
	}
	defer phones.Close()
	res.Phone = p
	dev, err := agent.OpenDevice(ctx, phones.Device(p.Serial(), o.Logger))
	if err != nil {
		return res, fmt.Errorf("virtual phone: %w", err)
	}
	defer dev.Close(context.WithoutCancel(ctx))

	var m executor.Model = model.Model
	if o.Sees != nil {
		m = seeingModel{Model: m, sees: o.Sees}
	}
	cfg := runConfig{RunsDir: o.RunsDir, Model: m, Log: o.Log,
		// The demo shows the same transcript on every run, however busy the machine: key
		// context joins the run in step order.
		Agent: agent.Config{Logger: o.Logger, TextOnly: o.TextOnly, Limits: executor.Limits{MaxSteps: 25},
			OrderedContext: true}}
	var person interaction.Dialoger
	var scriptedPerson *interaction.Canned
	if o.Interactive {
		person = interaction.NewTerminal(o.Stdin, out)
	} else {
		if scriptedPerson, err = interaction.NewCanned(demoUser(), ""); err != nil {
			return res, err
		}
		person = scriptedPerson
	}
	res.Summary, err = runAgent(ctx, agentSetup{Config: cfg, Knowledge: kn, Device: dev, Dialoger: person,
		Out: out, HideQuestions: o.Interactive}, demoInstruction)
	if scriptedPerson != nil {
		res.Asked = scriptedPerson.Asked()
	}
	res.Unused = model.Script.Unused()
	printPhoneState(out, p)
	if kn.Store != nil && o.KnowledgeDefault {
		// The demo's own file, apart from what a real phone teaches: the inspection
		// commands need to be told where it is.
		k := "--knowledge " + shellWord(o.Knowledge)
		fmt.Fprintf(out, "\nWhat the demo learned is kept apart from a real phone's, in %s. See it with:\n", o.Knowledge)
		fmt.Fprintf(out, "  fairy map list %s\n  fairy routines list %s\n  fairy map view com.fairy.shop %s\n", k, k, k)
	}
	return res, err
}

// printPhoneState shows what the task changed on the virtual phone, read from its state.
func printPhoneState(out io.Writer, p *sim.Phone) {
	fmt.Fprintln(out, "\nOn the virtual phone now:")
	orders := p.Orders()
	if len(orders) == 0 {
		fmt.Fprintln(out, "  shop:     no order")
	}
	for _, o := range orders {
		items := make([]string, len(o.Items))
		for i, it := range o.Items {
			items[i] = fmt.Sprintf("%s ×%d", it.Name, it.Quantity)
		}
		paid := "NOT paid"
		if o.Paid {
			paid = "paid"
		}
		fmt.Fprintf(out, "  shop:     order %s: %s, ¥%g, %s, delivery %s\n", o.ID, strings.Join(items, ", "), o.Total, paid,
			o.DeliveryTime)
	}
	for _, e := range p.Events() {
		if strings.Contains(strings.ToLower(e.Title), "bubble tea") {
			fmt.Fprintf(out, "  calendar: %q on %s at %s\n", e.Title, e.Date, e.Time)
		}
	}
}
