package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/executor/prompts"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/spf13/cobra"
)

// agentDevice is the phone as `fairy run` and `fairy demo` need it: the executor's device
// methods plus the launchable apps. The lead wires *adb.Device in through an adapter that
// turns adb.App into global.App (label, package, learned description).
type agentDevice interface {
	executor.Device
	Apps(ctx context.Context) ([]global.App, error)
}

// runConfig is what the agent commands need from flags, config and environment. The lead
// resolves it (viper keys, OPENAI_API_KEY, OPENAI_BASE_URL) after the config is loaded.
type runConfig struct {
	RunsDir  string            // run directories go here
	Model    executor.Model    // nil: no model configured → a usage error pointing to the config and the demo
	Meter    *llm.Meter        // optional; token/cost limits and summary totals
	Secrets  []string          // redacted from traces (API keys)
	Guard    *executor.Guard   // nil: the default policy
	Tricks   executor.Tricks   // optional knowledge
	Hints    executor.Hints    // optional knowledge
	Mark     executor.MarkFunc // set-of-mark renderer for visual mode
	Limits   executor.Limits
	TextOnly bool
	Shell    []string // allow-listed shell commands offered to the decider
	Logger   *slog.Logger
	Now      func() time.Time
	NewRunID func() string
	// Knowledge is the long-term knowledge file (--knowledge); "" runs without it. With it,
	// the Self-Learner learns from the run, and tricks, hints and shortcuts come from it.
	Knowledge string
}

// runDeps are the lead's hooks for `fairy run`.
type runDeps struct {
	Config     func(cmd *cobra.Command) (runConfig, error)
	OpenDevice func(ctx context.Context) (agentDevice, error) // adb.Open with the resolved target
	Stdin      io.Reader
	Stdout     io.Writer
}

// newRunCmd builds `fairy run`.
func newRunCmd(d runDeps) *cobra.Command {
	var textOnly bool
	var maxSteps int
	cmd := &cobra.Command{
		Use:   "run [--serial S] [--adb-host H --adb-port P] [--text-only] [--max-steps N] \"instruction\"",
		Short: "Carry out an instruction on a phone",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := d.Config(cmd)
			if err != nil {
				return withExit(2, err)
			}
			if cfg.Model == nil {
				return withExit(2, errNoModel)
			}
			if textOnly {
				cfg.TextOnly = true
			}
			if maxSteps > 0 {
				cfg.Limits.MaxSteps = maxSteps
			}
			dev, err := d.OpenDevice(cmd.Context())
			if err != nil {
				return withExit(2, fmt.Errorf("open device: %w", err))
			}
			defer closeDevice(cmd.Context(), dev)
			person := interaction.NewTerminal(d.Stdin, d.Stdout)
			_, err = runAgent(cmd.Context(), agentSetup{Config: cfg, Device: dev, Dialoger: person, Out: d.Stdout, HideQuestions: true}, args[0])
			return err
		},
	}
	cmd.Flags().BoolVar(&textOnly, "text-only", false, "send the models the screen text only, no screenshots")
	cmd.Flags().IntVar(&maxSteps, "max-steps", 0, "step limit per app task (default 30)")
	return cmd
}

// agentSetup is one agent run's parts.
type agentSetup struct {
	Config        runConfig
	Device        agentDevice
	Dialoger      interaction.Dialoger
	Out           io.Writer
	HideQuestions bool
}

// runAgent wires the agent core for one run, runs the instruction and maps the outcome to
// fairy's exit statuses: nil when done, exit 1 when failed or refused; an interrupted run
// returns ctx's error (main maps it to 130) after the trace is flushed.
func runAgent(ctx context.Context, s agentSetup, instruction string) (global.Summary, error) {
	cfg := s.Config
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	id := fmt.Sprintf("%s-%d", now().UTC().Format("20060102-150405"), os.Getpid())
	if cfg.NewRunID != nil {
		id = cfg.NewRunID()
	}
	dir := filepath.Join(cfg.RunsDir, id)
	rec, err := global.NewRecorder(dir, cfg.Secrets...)
	if err != nil {
		return global.Summary{}, withExit(2, err)
	}
	fmt.Fprintf(s.Out, "run directory: %s\n", dir)
	ps, err := prompts.Load()
	if err != nil {
		return global.Summary{}, err
	}
	meter := cfg.Meter
	if meter == nil {
		meter = &llm.Meter{}
	}
	bus := memory.NewBus(now)
	mem := memory.NewManager()
	mem.Attach(bus)
	bus.Subscribe(rec.Handle)
	progress := global.NewProgress(s.Out)
	progress.HideQuestions = s.HideQuestions
	bus.Subscribe(progress.Handle)
	model := executor.Metered{Model: cfg.Model, Meter: meter, Bus: bus}
	tricks, hints, apps := cfg.Tricks, cfg.Hints, s.Device
	var shortcuts executor.Shortcuts
	var kn *runKnowledge
	if cfg.Knowledge != "" {
		kn, err = openRunKnowledge(ctx, knowledgeParts{Path: cfg.Knowledge, RunID: id, Instruction: instruction, Device: s.Device,
			Model: model, Bus: bus, Now: now, Logger: cfg.Logger})
		if err != nil {
			_ = rec.Close()
			return global.Summary{}, withExit(2, err)
		}
		defer kn.Close()
		tricks, hints, shortcuts, apps = kn.sess, kn.sess, kn.shortcuts(), kn.device(s.Device)
	}

	it, err := interaction.New(interaction.Config{Model: model, Dialoger: s.Dialoger, Memory: mem, Prompts: ps, Bus: bus, Logger: cfg.Logger})
	if err != nil {
		return global.Summary{}, err
	}
	ex, err := executor.New(executor.Config{Device: s.Device, Model: model, Interactor: it, Memory: mem, Prompts: ps, Bus: bus,
		Meter: meter, Guard: cfg.Guard, Tricks: tricks, Hints: hints, Shortcuts: shortcuts, Mark: cfg.Mark, TextOnly: cfg.TextOnly,
		Limits: cfg.Limits, Shell: cfg.Shell, Clock: now, Logger: cfg.Logger})
	if err != nil {
		return global.Summary{}, err
	}
	var runner global.Runner = ex
	if kn != nil {
		runner = kn.runner(ex, bus, cfg.Logger)
	}
	gm, err := global.New(global.Config{Apps: apps, Launcher: s.Device, Executor: runner, Model: model, Prompts: ps, Memory: mem,
		Bus: bus, Tricks: tricks, RunID: id, TextOnly: cfg.TextOnly, Logger: cfg.Logger})
	if err != nil {
		return global.Summary{}, err
	}
	res, runErr := gm.Run(ctx, instruction)
	if err := rec.Close(); err != nil && runErr == nil {
		runErr = err
	}
	sum := rec.Summary()
	kn.report(s.Out, sum)
	if err := kn.Close(); err != nil && runErr == nil {
		runErr = err
	}
	fmt.Fprintf(s.Out, "summary: %s (%d steps, %d model calls, %d questions)\n", filepath.Join(dir, "summary.json"), sum.Steps, sum.ModelCalls, len(sum.Questions))
	switch {
	case ctx.Err() != nil:
		return sum, ctx.Err()
	case runErr != nil:
		return sum, withExit(1, runErr)
	case res.Outcome != memory.OutcomeDone:
		return sum, withExit(1, fmt.Errorf("task %s: %s", res.Outcome, res.Reason))
	}
	return sum, nil
}
