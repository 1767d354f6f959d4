package global

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/rundir"
)

// AppSource lists the phone's launchable apps (the App Metadata Manager). cmd adapts the
// device layer and the knowledge store's learned descriptions to it.
type AppSource interface {
	Apps(ctx context.Context) ([]event.App, error)
}

// Launcher starts an app on the phone; *adb.Device satisfies it.
type Launcher interface {
	Launch(ctx context.Context, pkg string) error
}

// phoneClock reads the phone's own date and time (*adb.Device satisfies it). The planner's
// prompt says it: "next week" and "today" are the phone's.
type phoneClock interface {
	Clock(ctx context.Context) (time.Time, error)
}

// Runner carries out one app task; *executor.Executor satisfies it.
type Runner interface {
	Run(ctx context.Context, a executor.Assignment) (executor.Result, error)
}

// Model is the one model method the planner needs; *openai.Client satisfies it.
type Model interface {
	Generate(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Memory is what the Task Manager reads from the memory manager.
type Memory interface {
	KeyContext() []event.Fact
}

// defaultMaxTasks bounds how many app tasks one run may start when Config.MaxTasks is 0.
const defaultMaxTasks = 8

// Config holds a Manager's parts.
type Config struct {
	Apps     AppSource    // required
	Launcher Launcher     // required
	Executor Runner       // required
	Model    Model        // required; role "planner"
	Prompts  *prompts.Set // required
	Memory   Memory       // required
	Bus      *event.Bus
	Tricks   executor.Tricks // planning tips ("common" app); optional
	RunID    string
	TextOnly bool
	MaxTasks int
	Logger   *slog.Logger
}

// Manager is the Global Task Manager.
type Manager struct {
	cfg Config
	log *slog.Logger
}

// New checks cfg and returns a Manager.
func New(cfg Config) (*Manager, error) {
	switch {
	case cfg.Apps == nil:
		return nil, fmt.Errorf("%w: no app source", errConfig)
	case cfg.Launcher == nil:
		return nil, fmt.Errorf("%w: no launcher", errConfig)
	case cfg.Executor == nil:
		return nil, fmt.Errorf("%w: no executor", errConfig)
	case cfg.Model == nil:
		return nil, fmt.Errorf("%w: no model", errConfig)
	case cfg.Prompts == nil:
		return nil, fmt.Errorf("%w: no prompts", errConfig)
	case cfg.Memory == nil:
		return nil, fmt.Errorf("%w: no memory", errConfig)
	}
	if cfg.MaxTasks <= 0 {
		cfg.MaxTasks = defaultMaxTasks
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{cfg: cfg, log: log}, nil
}

// Result is how a run ended.
type Result struct {
	Outcome event.Outcome
	Reason  string
	Answer  string // what the last app task answered, if anything
	Tasks   []event.TaskResult
	Facts   []event.Fact
}

// Run carries out the person's instruction. The error is non-nil when the run could not
// go on (device, model, or ctx ended — then the outcome is "stopped"); the Result always
// says how it ended and RunFinished is always published. A ctx ended because the run
// cannot be recorded (its cause a *rundir.RecordError, see rundir.Recorder.Context) is no stop: the
// outcome is failed, the reason and the error the failed write.
func (m *Manager) Run(ctx context.Context, instruction string) (res Result, err error) {
	bus := m.cfg.Bus
	bus.Publish(event.RunStarted{RunID: m.cfg.RunID, Instruction: instruction, TextOnly: m.cfg.TextOnly})
	defer func() {
		if ctx.Err() != nil && res.Outcome != event.OutcomeDone {
			var rerr *rundir.RecordError
			if errors.As(context.Cause(ctx), &rerr) {
				res.Outcome, res.Reason, err = event.OutcomeFailed, rerr.Error(), rerr
			} else {
				res.Outcome, res.Reason = event.OutcomeStopped, context.Cause(ctx).Error() // the outcome says "stopped"
			}
		}
		if res.Outcome == "" {
			res.Outcome = event.OutcomeFailed
			if err != nil && res.Reason == "" {
				res.Reason = err.Error()
			}
		}
		res.Facts = m.cfg.Memory.KeyContext()
		bus.Publish(event.RunFinished{Outcome: res.Outcome, Reason: res.Reason, Answer: res.Answer})
	}()

	apps, err := m.cfg.Apps.Apps(ctx)
	if err != nil {
		return res, fmt.Errorf("global: list apps: %w", err)
	}
	if len(apps) == 0 {
		res.Reason = "the phone has no launchable app"
		return res, errNoApps
	}
	data := prompts.PlannerData{Phase: prompts.PhasePlan, Instruction: instruction, Apps: apps, Now: m.phoneNow(ctx)}
	if m.cfg.Tricks != nil {
		if ts, err := m.cfg.Tricks.Tricks(ctx, "common", executor.TrickPlanning, instruction, 3); err == nil {
			data.Tricks = ts
		}
	}
	if n := described(apps); n > 0 || len(data.Tricks) > 0 {
		bus.Publish(event.KnowledgeServed{Role: string(llm.RolePlanner), Tricks: len(data.Tricks), Apps: n})
	}
	ans, err := m.plan(ctx, data, apps)
	if err != nil {
		return res, err
	}
	for started := 0; ; started++ {
		bus.Publish(event.GlobalPlanned{Tasks: ans.Tasks, Next: ans.Next, Progress: ans.Progress,
			Adjusted: data.Phase == "adjust"})
		switch ans.Status {
		case "done":
			res.Outcome, res.Reason = event.OutcomeDone, ans.Reason
			return res, nil
		case "impossible":
			res.Outcome, res.Reason = event.OutcomeFailed, "cannot be done: "+ans.Reason
			return res, nil
		}
		if started >= m.cfg.MaxTasks {
			res.Reason = fmt.Sprintf("gave up after %d app tasks", started)
			return res, nil
		}
		task := ans.Tasks[ans.Next]
		if err := m.cfg.Launcher.Launch(ctx, task.App); err != nil {
			return res, fmt.Errorf("global: launch %s: %w", task.App, err)
		}
		r, err := m.cfg.Executor.Run(ctx, executor.Assignment{Index: started, Instruction: instruction, Task: task,
			Context: m.cfg.Memory.KeyContext()})
		tr := event.TaskResult{Index: started, Task: task, Outcome: r.Outcome, Reason: r.Reason, Answer: r.Answer}
		res.Tasks = append(res.Tasks, tr)
		if r.Answer != "" {
			res.Answer = r.Answer
		}
		if err != nil {
			res.Reason = r.Reason
			return res, err
		}
		if r.Outcome == event.OutcomeRefused || r.Outcome == event.OutcomeStopped {
			// The person said no: nothing else is done on their behalf.
			res.Outcome, res.Reason = r.Outcome, r.Reason
			return res, nil
		}
		if len(ans.Tasks) == 1 && r.Outcome == event.OutcomeDone {
			// The plan's only task is done: an adjust call could only say "done". A failed
			// task still goes to the planner, which may re-plan (another app, a narrower
			// task) or explain why the instruction cannot be done.
			res.Outcome, res.Reason = event.OutcomeDone, r.Reason
			return res, nil
		}
		data = prompts.PlannerData{Phase: prompts.PhaseAdjust, Instruction: instruction, Now: m.phoneNow(ctx),
			Progress: ans.Progress, Apps: apps, Tasks: ans.Tasks, Done: res.Tasks,
			Context: m.cfg.Memory.KeyContext(), Tricks: data.Tricks}
		if ans, err = m.plan(ctx, data, apps); err != nil {
			return res, err
		}
	}
}

// plan calls the Global Planner and checks its answer; an answer naming an app that is not
// installed, or no task to run, is asked for once more.
func (m *Manager) plan(ctx context.Context, data prompts.PlannerData, apps []event.App) (prompts.PlannerAnswer, error) {
	keep := data.Tasks // an adjust answer without tasks keeps the current plan
	var problem string
	for attempt := 0; attempt < 2; attempt++ {
		if problem != "" {
			data.Notes = []string{problem}
		}
		p, err := m.cfg.Prompts.Plan(data)
		if err != nil {
			return prompts.PlannerAnswer{}, err
		}
		resp, err := m.cfg.Model.Generate(ctx, llm.Request{Role: llm.RolePlanner, System: p.System, Schema: &p.Schema,
			Messages: []llm.Message{{Role: "user", Text: p.User}}})
		if err != nil {
			return prompts.PlannerAnswer{}, fmt.Errorf("global: planner model: %w", err)
		}
		var ans prompts.PlannerAnswer
		text, err := llm.ExtractJSON(resp.Text)
		if err == nil {
			err = json.Unmarshal([]byte(text), &ans)
		}
		if err != nil {
			problem = prompts.AskAgain(err, p.Schema.Name)
			continue
		}
		if len(ans.Tasks) == 0 {
			ans.Tasks = keep
		}
		if problem = check(&ans, apps); problem == "" {
			return ans, nil
		}
	}
	return prompts.PlannerAnswer{}, fmt.Errorf("%w: %s", errBadAnswer, problem)
}

// check validates a planner answer; it returns the problem in words, or "".
func check(a *prompts.PlannerAnswer, apps []event.App) string {
	a.Status = strings.ToLower(strings.TrimSpace(a.Status))
	switch a.Status {
	case "done", "impossible":
		return ""
	case "continue", "":
		a.Status = "continue"
	default:
		return fmt.Sprintf("status %q is not continue, done or impossible", a.Status)
	}
	if len(a.Tasks) == 0 {
		return "status continue needs at least one task"
	}
	if a.Next < 0 || a.Next >= len(a.Tasks) {
		return fmt.Sprintf("next %d is not an index of tasks (0–%d)", a.Next, len(a.Tasks)-1)
	}
	for i, t := range a.Tasks {
		if !slices.ContainsFunc(apps, func(x event.App) bool { return x.Package == t.App }) {
			return fmt.Sprintf("task %d names app %q, which is not in the list of launchable apps; "+
				"use a listed package, or status impossible when none fits", i, t.App)
		}
	}
	return ""
}

// phoneNow is the phone's date and time, when the launcher can read its clock
// (phoneClock); the zero time otherwise, and the prompt leaves the line out.
func (m *Manager) phoneNow(ctx context.Context) time.Time {
	c, ok := m.cfg.Launcher.(phoneClock)
	if !ok {
		return time.Time{}
	}
	t, err := c.Clock(ctx)
	if err != nil {
		m.log.Warn("reading the phone's clock failed; the plan's prompt does not say the date", "err", err)
		return time.Time{}
	}
	return t.Truncate(time.Minute)
}
