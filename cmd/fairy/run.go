package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fairy-go/fairy/agent"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/adb"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/internal/table"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/rundir"
	"github.com/spf13/cobra"
)

// runConfig is what the agent commands need from flags, config and environment, resolved
// by settings.runConfig after the config is loaded.
type runConfig struct {
	RunsDir string         // run directories go here
	Model   executor.Model // nil: no model configured → a usage error pointing to the config and the demo
	// ModelName says which model Model is and where it answers, for messages ("" with no Model).
	ModelName string
	// ModelIgnored: a model is configured, but the command answers with a scripted model
	// (an evaluation of a built-in suite that names no model).
	ModelIgnored bool
	// Agent is what every run shares: guard, limits, text-only mode, the shell allow-list,
	// secrets to redact, clock and logger.
	Agent agent.Config
	// Etcd is how to reach knowledge on etcd (config knowledge-etcd:).
	Etcd etcdAccess
	// Knowledge is the long-term knowledge file (--knowledge); "" runs without it. With it,
	// the Self-Learner learns from the run, and tricks, hints and shortcuts come from it.
	Knowledge string
	// KnowledgeDefault is true when Knowledge is the default file, not one the person
	// named: damaged, it is left aside for the run instead of stopping it.
	KnowledgeDefault bool
	// Log, when it holds the log records (runLog.hold), receives the run directory: the
	// records go to its run.log and the transcript ends with a line counting the warnings.
	Log *runLog
	// Grounding is how the decider's model names what to tap, and what its probe found.
	Grounding groundingSetup
}

// runDeps are the hooks of `fairy run`.
type runDeps struct {
	Config     func(cmd *cobra.Command) (runConfig, error)
	OpenDevice func(ctx context.Context) (*adb.Device, error) // the resolved target
	Stdin      io.Reader
	Stdout     io.Writer
	Stderr     io.Writer
	// Style dresses the progress on a terminal: colour, a live status line.
	Style termStyle
	// SimKnowledge is the offline try's knowledge file and whether it is the default one
	// (settings.simKnowledgePath); nil runs the offline try without knowledge.
	SimKnowledge func(cmd *cobra.Command) (path string, isDefault bool)
	// WatchToken is the live page's token the person chose (FAIRY_WATCH_TOKEN); "" makes
	// a random one.
	WatchToken func() string
}

// newRunCmd builds `fairy run`.
func newRunCmd(d runDeps) *cobra.Command {
	var textOnly, confirm, offline bool
	var maxSteps int
	var watch watchFlags
	cmd := &cobra.Command{
		Use:   "run [--serial S] [--adb-host H --adb-port P] [--text-only] [--max-steps N] [--sim] [--watch] INSTRUCTION...",
		Short: "Carry out an instruction on a phone",
		Long: `Carry out an instruction on a phone. The instruction may be quoted or not: the words are
joined with spaces ('fairy run turn off wifi' is 'fairy run "turn off wifi"'); put -- before
an instruction that starts with a dash.

With --sim it is an offline try: a virtual phone in process and a scripted model (not a real
model, no key needed) that knows the built-in tasks of the virtual phone (the builtin:sim
evaluation suite: Settings switches, contacts, messages, calendar, notes, maps, the shop).
Any other instruction is refused with "no rule for this instruction", and nothing is run or
learned. What the try learns goes to sim-knowledge.db next to the default knowledge file,
not to your own (unless --knowledge names a file).

With --watch it serves a live page on loopback and prints its address (with a random token
in it): the phone's screen as it changes, the plan, each step as it happens, the model calls
and their cost; questions can be answered there or here, whichever comes first, and its Stop
button ends the run as Ctrl-C does.`,
		Args: instructionArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if cmd.Flags().Changed("max-steps") && maxSteps < 1 {
				return withExit(exitUsage, fmt.Errorf("--max-steps must be at least 1, got %d: "+
					"pass a step limit per app task, or leave it out for the config's (30 by default)", maxSteps))
			}
			cfg, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			token := ""
			if d.WatchToken != nil {
				token = d.WatchToken()
			}
			wt, ctx, err := startWatch(cmd.Context(), watch, "fairy run: "+instruction(args), token, d.Style.wrap(d.Stdout),
				cmp.Or(d.Stderr, cmd.ErrOrStderr()), cfg.Agent.Logger)
			if err != nil {
				return err
			}
			defer func() { err = wt.close(ctx, err) }()
			cmd.SetContext(ctx)
			if offline {
				return runOfflineTry(cmd, d, cfg, textOnly, confirm, maxSteps, instruction(args), wt)
			}
			if cfg.Model == nil {
				return withExit(2, errNoModel)
			}
			if err := prepareGrounding(cmd.Context(), &cfg, d.Style.wrap(d.Stdout)); err != nil {
				return err
			}
			cfg.Log.hold() // warnings go to the run's log, not between the transcript's lines
			defer cfg.Log.close()
			if textOnly {
				cfg.Agent.TextOnly = true
			}
			if maxSteps > 0 {
				cfg.Agent.Limits.MaxSteps = maxSteps
			}
			kn, err := openRunKnowledge(cfg.Knowledge, cfg.KnowledgeDefault, cfg.Agent.Clock, cmp.Or(d.Stderr,
				cmd.ErrOrStderr()), cfg.Etcd)
			if err != nil {
				return err
			}
			defer kn.close()
			dev, err := d.OpenDevice(cmd.Context())
			if err != nil {
				return withExit(2, err) // it names the device: "open device SERIAL: …"
			}
			defer dev.Close(context.WithoutCancel(cmd.Context()))
			out := d.Style.wrap(d.Stdout)
			var person interaction.Dialoger = interaction.NewTerminal(d.Stdin, out)
			panel := wt.panel(dev.Serial())
			panelPhone(panel, dev)
			person = watched(person, panel, out)
			_, err = runAgent(cmd.Context(), agentSetup{Config: cfg, Knowledge: kn, Device: dev, Dialoger: person, Out: out,
				HideQuestions: true, ConfirmResult: confirm,
				Watch: panelHandler(panel)}, instruction(args))
			return err
		},
	}
	cmd.Flags().BoolVar(&textOnly, "text-only", false, "send the models the screen text only, no screenshots")
	cmd.Flags().IntVar(&maxSteps, "max-steps", 0, "step limit per app task (default 30)")
	cmd.Flags().BoolVar(&offline, "sim", false, "an offline try: a virtual phone and a scripted model that knows its "+
		"built-in tasks (no model key)")
	watch.add(cmd, "the run")
	cmd.Flags().BoolVar(&confirm, "confirm-result", false, "when the run says done, ask whether its result is right: "+
		"a no takes back what the run learned and demotes what it replayed")
	return cmd
}

// agentSetup is one agent run's parts.
type agentSetup struct {
	Config        runConfig
	Knowledge     runKnowledge // opened by openRunKnowledge; runAgent closes it
	Device        agent.Device
	Dialoger      interaction.Dialoger
	Out           io.Writer
	HideQuestions bool
	// ConfirmResult asks the person, when the run says done, whether the result is right
	// (see confirmResult).
	ConfirmResult bool
	// Watch receives the run's events for the live page (--watch); nil without one.
	Watch event.Handler
}

// runAgent runs the instruction with package agent, in a new run directory and with the
// knowledge file, tells the person what happened, and maps the outcome to fairy's exit
// statuses: nil when done, exit 1 when failed or refused (a run that could not be
// recorded among them), exit 2 when the run could not start; an interrupted run returns
// ctx's error (main maps it to 130) after the trace is synced.
func runAgent(ctx context.Context, s agentSetup, instruction string) (rundir.Summary, error) {
	cfg := s.Config
	now := cfg.Agent.Clock
	if now == nil {
		now = time.Now
	}
	id := fmt.Sprintf("%s-%d", now().UTC().Format("20060102-150405"), os.Getpid())
	kn := s.Knowledge
	defer kn.close()
	ag, err := agent.New(cfg.Agent)
	if err != nil {
		return rundir.Summary{}, withExit(2, err)
	}
	dir := filepath.Join(cfg.RunsDir, id)
	// Made here, before it is named: a run directory that cannot be made is never printed.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return rundir.Summary{}, withExit(exitUsage, fmt.Errorf("cannot make a run directory under %s: %w: "+
			"choose a writable directory with --runs DIR", cfg.RunsDir, err))
	}
	fmt.Fprintf(s.Out, "run directory: %s\n", dir)
	cfg.Log.attach(dir)
	res, err := ag.Run(ctx, agent.Run{Instruction: instruction, Dir: dir, ID: id, Device: s.Device,
		Model:    stopModelsOn(ctx, liveModelFor(cfg.Model, s.Out)),
		Dialoger: s.Dialoger, Knowledge: kn.Store, KnowledgeOff: kn.Off, Progress: s.Out, HideQuestions: s.HideQuestions,
		Watch: s.Watch})
	if err != nil {
		return rundir.Summary{}, withExit(2, err)
	}
	sum, runErr := res.Summary, res.Err
	wrong := false
	if s.ConfirmResult && runErr == nil && ctx.Err() == nil && res.Outcome == event.OutcomeDone {
		// Asked before the knowledge is closed: a no takes back what was just learned.
		wrong = confirmResult(ctx, s.Dialoger, s.Out, res)
	}
	if kn.Store != nil || kn.Off != "" {
		reportKnowledge(s.Out, kn, sum, res.KnowledgeErr, ctx.Err() != nil)
		switch err := kn.close(); {
		case errors.Is(err, knowledge.ErrRemoteAway):
			// Shared knowledge that went away costs what was learned, never the task.
			fmt.Fprintf(s.Out, "knowledge: %v\n", err)
		case err != nil && runErr == nil:
			runErr = fmt.Errorf("close knowledge file: %w", err)
		}
	}
	counts := fmt.Sprintf("%s, %s, %s", table.Count(sum.Steps, "step", "steps"), table.Count(sum.ModelCalls,
		"model call", "model calls"),
		table.Count(len(sum.Questions), "question", "questions"))
	if res.SummaryWritten {
		fmt.Fprintf(s.Out, "summary: %s (%s)\n", filepath.Join(dir, rundir.SummaryFile), counts)
	} else {
		fmt.Fprintf(s.Out, "summary: not written (%s)\n", counts)
	}
	writeRunPage(s.Out, dir)
	if line := cfg.Log.summary(); line != "" {
		fmt.Fprintln(s.Out, line)
	}
	var unrecorded *rundir.RecordError
	switch {
	case ctx.Err() != nil:
		return sum, ctx.Err()
	case errors.As(runErr, &unrecorded):
		return sum, withExit(1, fmt.Errorf("%w — the run stopped there; free space under %s or choose another "+
			"directory with --runs", runErr, cfg.RunsDir))
	case runErr != nil:
		return sum, withExit(1, runErr)
	case res.Outcome != event.OutcomeDone:
		return sum, withExit(1, fmt.Errorf("task %s: %s", res.Outcome, res.Reason))
	case wrong:
		return sum, withExit(1, errors.New("the run said done, and the person said the result is wrong"))
	}
	return sum, nil
}

// confirmResult asks the person whether the result of a run that said done is right, and
// reports whether they said it is wrong. A no takes back what the run learned and demotes
// what it replayed (agent.Result.Contradict), so a wrong result (a message to the wrong
// person the guard let through with the person's own yes) is never replayed as a routine.
// Anything but a clear no, or no answer at all, keeps what was learned.
func confirmResult(ctx context.Context, person interaction.Dialoger, out io.Writer, res agent.Result) bool {
	text := "The run says done"
	if a := strings.TrimSpace(res.Answer); a != "" {
		text += ": " + a
	}
	text += ". Is the result what you wanted? A no takes back what this run learned."
	ans, err := person.Ask(ctx, interaction.Question{Type: 4, Kind: interaction.YesNo, Text: text})
	if err != nil {
		fmt.Fprintf(out, "result not confirmed (%v): what the run learned is kept\n", err)
		return false
	}
	if yes, clear := interaction.ReadYesNo(ans); !clear || yes {
		return false
	}
	if res.Contradict == nil {
		fmt.Fprintln(out, "knowledge: none was used or learned (no knowledge file)")
		return true
	}
	u, err := res.Contradict(ctx)
	if err != nil {
		fmt.Fprintf(out, "knowledge: taking back what the run learned failed: %v\n", err)
		return true
	}
	fmt.Fprintf(out, "knowledge: taken back: %s demoted, %s demoted, %s withdrawn\n",
		table.Count(u.Routines, "routine", "routines"), table.Count(u.Tricks, "trick", "tricks"), table.Count(u.Goals,
			"sub-goal credit", "sub-goal credits"))
	return true
}

// instructionArgs accepts an instruction given as one quoted argument or as several words.
func instructionArgs(_ *cobra.Command, args []string) error {
	if strings.TrimSpace(instruction(args)) == "" {
		return withExit(exitUsage, errors.New("no instruction: say what to do, e.g. fairy run turn off wifi"))
	}
	return nil
}

// instruction joins the words of an instruction given without quotes.
func instruction(args []string) string { return strings.TrimSpace(strings.Join(args, " ")) }
