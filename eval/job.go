package eval

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/rundir"
	"github.com/fairy-go/fairy/sim"
)

func baseResult(j *Job, cfg Config) TaskResult {
	r := TaskResult{ID: j.Task.ID, Instruction: j.Task.Instruction, Tags: j.Task.Tags, Device: j.Device.Serial,
		PassIndex: j.PassIndex, Phase: j.Phase, Repeat: j.Repeat, ModelCallsByRole: map[string]int{}, Questions: []Question{}, Checks: []suite.CheckResult{}}
	return r
}

// runJob runs one task; it never panics. finished is false when ctx ended the run (the
// task did not finish and is left out of the report).
func runJob(ctx context.Context, cfg Config, j *Job) (r TaskResult, finished bool) {
	r = baseResult(j, cfg)
	r.RunDir = j.RunDir
	start := cfg.Clock()
	defer func() {
		if p := recover(); p != nil {
			cfg.Logger.Error("task crashed", "task", j.Task.ID, "panic", p, "stack", string(debug.Stack()))
			r.Pass, r.Outcome, r.Reason = false, "crashed", fmt.Sprintf("%v: %v", errCrashed, p)
			r.WallSeconds = cfg.Clock().Sub(start).Seconds()
			finished = ctx.Err() == nil
		}
	}()
	timeout := cfg.TaskTimeout
	if t := j.Task.Limits.Time; t > 0 {
		timeout = 2*t + 30*time.Second // the agent enforces the limit; this is a backstop
	}
	jctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	fail := func(outcome string, err error) (TaskResult, bool) {
		r.Outcome, r.Reason = outcome, err.Error()
		r.WallSeconds = cfg.Clock().Sub(start).Seconds()
		return r, ctx.Err() == nil
	}
	if err := os.MkdirAll(j.RunDir, 0o755); err != nil {
		return fail("error", err)
	}
	if own := filepath.Join(j.RunDir, "knowledge.db"); j.Knowledge == own {
		// A run's own knowledge starts empty, even in an output directory used before.
		if err := os.Remove(own); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail("error", fmt.Errorf("fresh knowledge: %w", err))
		}
	}
	if src, ok := strings.CutPrefix(j.Knowledge, "copy:"); ok {
		j.Knowledge = filepath.Join(j.RunDir, "knowledge.db")
		if err := copyFile(src, j.Knowledge); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fail("error", fmt.Errorf("copy knowledge: %w", err))
		}
	}
	if ph := j.Device.Sim; ph != nil {
		if err := prepareSim(jctx, ph, j.Task.Phone.Sim, j.Task.ID); err != nil {
			return fail("error", fmt.Errorf("prepare virtual phone: %w", err))
		}
	}
	sess, err := cfg.Agent.Start(jctx, *j)
	if err != nil {
		return fail("error", fmt.Errorf("start agent: %w", err))
	}
	defer sess.Close()
	if dev := j.Task.Phone.Device; dev != nil {
		for _, c := range dev.Setup {
			if _, err := sess.Shell(jctx, c); err != nil {
				return fail("error", fmt.Errorf("setup %q: %w", c, err))
			}
		}
	}
	asker, err := newUser(j.Task, sess.Model(), cfg.Prompts)
	if err != nil {
		return fail("error", err)
	}
	user := &handsUser{user: asker, phone: j.Device.Sim, hands: j.Task.User.Hands}
	sum, runErr := sess.Run(jctx, user)
	if ctx.Err() != nil {
		return r, false
	}
	r.Outcome, r.Reason = string(sum.Outcome), sum.Reason
	if r.Outcome == "" {
		r.Outcome = "error"
	}
	if runErr != nil && r.Reason == "" {
		r.Reason = runErr.Error()
	}
	r.Steps, r.Actions, r.ModelCalls, r.PromptTokens, r.CompletionTokens, r.Cost = sum.Steps, sum.Actions, sum.ModelCalls, sum.PromptTokens, sum.CompletionTokens, sum.Cost
	r.InjectedErrors = sum.InjectedErrors
	for k, v := range sum.ModelCallsByRole {
		r.ModelCallsByRole[k] = v
	}
	r.WallSeconds = sum.WallSeconds
	if r.WallSeconds == 0 {
		r.WallSeconds = cfg.Clock().Sub(start).Seconds()
	}
	k := sum.Knowledge
	r.VerifiedSteps, r.Navigations, r.ShortcutSteps = k.VerifiedSteps, k.Navigations, k.ShortcutSteps
	r.Routines, r.RoutineSteps, r.KnownReads, r.SkippedLearns = k.Routines, k.RoutineSteps, k.KnownReads, k.SkippedLearns
	r.CriticalStepCalls = int(math.Round(sum.CriticalCallsPerStep * float64(sum.Steps)))
	if dt, ok := sess.(deviceTimer); ok {
		t := dt.DeviceTime()
		r.DeviceTime = &t
	}
	r.Questions = append(r.Questions, user.Questions()...)

	probe := suite.Probe{Phone: j.Device.Sim, Shell: sess.Shell, Dump: sess.Dump, Judge: sess.Model(), Prompts: cfg.Prompts,
		Instruction: j.Task.Instruction, Outcome: string(sum.Outcome), Reason: sum.Reason, Answer: sum.Answer}
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Minute)
	defer ccancel()
	checks := j.Task.Checks
	if !slices.ContainsFunc(checks, func(c suite.Check) bool { return c.Outcome != "" }) {
		// Unless the task says otherwise, the agent must also report the task done.
		checks = append(slices.Clip(checks), suite.Check{Outcome: "done"})
	}
	for _, c := range checks {
		r.Checks = append(r.Checks, suite.Evaluate(cctx, c, probe))
	}
	tr, terr := rundir.ReadTrajectory(j.RunDir)
	if terr != nil {
		tr = nil
	} else {
		r.Shortcuts = countShortcuts(tr)
	}
	r.Checks = append(r.Checks, assertQuestions(j.Task.Questions, r.Questions, tr)...)
	for _, q := range r.Questions {
		if q.Refused {
			r.ConsentsRefused++
		}
		if q.Unjudgeable {
			r.Unjudgeable++
		}
	}
	if tr != nil {
		r.Sensitive, r.Unnamed = sensitiveActions(tr)
	}
	r.Pass = true
	var failed []suite.CheckResult
	for _, c := range r.Checks {
		switch {
		case c.Pass:
		case c.Collateral:
			// A change beyond what the task's scoring checks look at: reported apart,
			// never a failure.
			r.Collateral = append(r.Collateral, c.Name+": "+c.Evidence)
		default:
			r.Pass = false
			failed = append(failed, c)
		}
	}
	// A false success: the agent said done and the task's own checks say otherwise.
	r.FalseSuccess = r.Outcome == "done" && !r.Pass
	if c, ok := sess.(Contradicter); ok && r.FalseSuccess {
		if err := c.Contradict(ctx); err != nil {
			cfg.Logger.Warn("what a false success learned was not taken back", "task", j.Task.ID, "err", err)
		} else {
			r.Contradicted = true
		}
	}
	if len(failed) > 0 {
		r.Reason = failedReason(failed, r.Outcome, r.Reason)
	}
	return r, true
}

// countShortcuts counts learned shortcuts replayed in a run (events whose kind names one).
func countShortcuts(tr *rundir.Trajectory) int {
	n := 0
	for _, e := range tr.Events {
		if strings.Contains(e.Kind, "Shortcut") {
			n++
		}
	}
	return n
}

// prepareSim puts the virtual phone in the start state of the task with id.
func prepareSim(ctx context.Context, ph *sim.Phone, spec *suite.SimPhone, id string) error {
	if spec == nil {
		spec = &suite.SimPhone{}
	}
	f, err := sim.ParseFaults(spec.Faults)
	if err != nil {
		return err
	}
	// The reset reseeds the phone's random source; setup runs without faults.
	ph.SetFaults(sim.Faults{})
	if err := ph.Reset(); err != nil {
		return err
	}
	run := func(c string) error {
		var out strings.Builder
		st, err := ph.Shell(ctx, c, &out)
		if err != nil {
			return fmt.Errorf("%q: %w", c, err)
		}
		if st != 0 {
			return fmt.Errorf("%q: exit status %d: %s", c, st, clip(out.String(), 200))
		}
		return nil
	}
	// The fault draws follow the task, whichever phone runs it: from its own seed, or one
	// drawn from its id (phones have seeds of their own, and which phone runs a task depends
	// on how fast the others went).
	seed := spec.Seed
	if seed == 0 && spec.Faults != "" {
		h := fnv.New64a()
		h.Write([]byte(id))
		seed = h.Sum64() | 1
	}
	if seed != 0 {
		ph.Reseed(seed)
	}
	if spec.Clock != "" {
		if err := run("fairy-sim clock " + spec.Clock); err != nil {
			return err
		}
	}
	for _, c := range spec.Setup {
		if err := run(c); err != nil {
			return err
		}
	}
	if spec.Launch != "" {
		if err := run("monkey -p " + spec.Launch + " -c android.intent.category.LAUNCHER 1"); err != nil {
			return err
		}
	}
	ph.SetFaults(f)
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// failedReason says why a run whose checks failed did not pass: each failing check, what
// it expected and what it saw, then how the run itself ended, as context ("check failed —
// expected setting wifi_on = 0, saw wifi_on = 1. The run ended done: Wi-Fi is off.").
func failedReason(failed []suite.CheckResult, outcome, reason string) string {
	parts := make([]string, len(failed))
	for i, c := range failed {
		saw := strings.Join(strings.Fields(c.Evidence), " ")
		if c.Kind == "outcome" {
			saw = outcome // the run's own reason follows
		}
		parts[i] = "expected " + c.Name
		if saw != "" {
			parts[i] += ", saw " + clip(saw, 120)
		}
	}
	head := "check failed"
	if len(failed) > 1 {
		head = fmt.Sprintf("%d checks failed", len(failed))
	}
	ended := "The run ended " + outcome
	if reason = strings.TrimSpace(reason); reason != "" {
		ended += ": " + reason
	}
	return fmt.Sprintf("%s — %s. %s", head, strings.Join(parts, "; "), strings.TrimSuffix(ended, ".")+".")
}
