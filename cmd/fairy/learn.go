package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/learner"
	"github.com/fairy-go/fairy/memory"
)

// runLockWait is how long a run waits for a knowledge file another fairy holds.
const runLockWait = 2 * time.Second

// learnTimeout bounds one learning pass after an app task.
const learnTimeout = 2 * time.Minute

// runKnowledge is one run's long-term knowledge: the open knowledge file and the
// Self-Learner's session, attached to the run's bus so the App Map learns from every step.
type runKnowledge struct {
	path  string
	store *knowledge.Store
	l     *learner.Learner
	sess  *learner.Session
	unsub func()
}

// knowledgeParts is what openRunKnowledge needs of the run.
type knowledgeParts struct {
	Path        string // the knowledge file; created with its directory when missing
	RunID       string
	Instruction string
	Device      agentDevice
	Model       learner.Model // the run's metered model: learning calls count in the summary
	Bus         *memory.Bus
	Now         func() time.Time
	Logger      *slog.Logger
}

// openRunKnowledge opens the knowledge file for a run, tells the learner the phone's apps
// and starts the learner's session on the run's bus (before RunStarted is published). A file
// that another fairy holds is a clear error.
func openRunKnowledge(ctx context.Context, p knowledgeParts) (*runKnowledge, error) {
	if err := os.MkdirAll(filepath.Dir(p.Path), 0o700); err != nil {
		return nil, fmt.Errorf("create knowledge directory: %w", err)
	}
	st, err := knowledge.Open(p.Path, knowledge.Options{Timeout: runLockWait, Clock: p.Now})
	if errors.Is(err, knowledge.ErrInUse) {
		return nil, fmt.Errorf("knowledge file %s is in use by another fairy: wait for it to finish, or pass --knowledge OTHER_FILE: %w", p.Path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open knowledge file %s: %w", p.Path, err)
	}
	l, err := learner.New(learner.Config{Store: st, Model: p.Model, Clock: p.Now, Logger: p.Logger})
	if err != nil {
		st.Close()
		return nil, err
	}
	if apps, err := p.Device.Apps(ctx); err == nil {
		infos := make([]learner.AppInfo, 0, len(apps))
		for _, a := range apps {
			infos = append(infos, learner.AppInfo{Package: a.Package, Label: a.Label})
		}
		if err := l.LearnApps(infos); err != nil && p.Logger != nil {
			p.Logger.Warn("learning the app list failed", "err", err)
		}
	}
	k := &runKnowledge{path: p.Path, store: st, l: l, sess: l.Start(p.RunID, p.Instruction)}
	k.unsub = k.sess.Attach(p.Bus)
	return k, nil
}

// device returns the phone with the learned app descriptions added to its app list, for
// the Global Planner.
func (k *runKnowledge) device(d agentDevice) agentDevice {
	return describedDevice{agentDevice: d, store: k.store}
}

// shortcuts is the executor's Shortcuts port over the session.
func (k *runKnowledge) shortcuts() executor.Shortcuts { return sessionShortcuts{k.sess} }

// runner wraps the executor so the Self-Learner learns after every app task.
func (k *runKnowledge) runner(ex global.Runner, bus *memory.Bus, log *slog.Logger) global.Runner {
	return global.Learning{Runner: ex, Learn: learnFunc(k.sess), Bus: bus, Timeout: learnTimeout, Logger: log}
}

// report tells the person what the run used and learned, and any App Map updates that
// failed. A nil runKnowledge reports nothing.
func (k *runKnowledge) report(out io.Writer, sum global.Summary) {
	if k == nil {
		return
	}
	if err := k.sess.Err(); err != nil {
		fmt.Fprintf(out, "knowledge: some App Map updates failed (the run was not affected): %v\n", err)
	}
	u := sum.Knowledge
	used := "nothing used yet"
	if u.Used {
		used = fmt.Sprintf("used %d tricks, %d navigation hints, %d steps replayed by shortcut", u.Tricks, u.Hints, u.ShortcutSteps)
	}
	learned := fmt.Sprintf("learned from %d app tasks (%d tricks)", u.LearnedTasks, u.LearnedTricks)
	if u.LearnErrors > 0 {
		learned += fmt.Sprintf(", %d learning passes failed (see the trace)", u.LearnErrors)
	}
	fmt.Fprintf(out, "knowledge: %s; %s; file %s\n", used, learned, k.path)
}

// Close detaches the session and closes the file; it may be called more than once, and on
// a nil runKnowledge.
func (k *runKnowledge) Close() error {
	if k == nil || k.store == nil {
		return nil
	}
	k.unsub()
	err := k.store.Close()
	k.store = nil
	if err != nil {
		return fmt.Errorf("close knowledge file: %w", err)
	}
	return nil
}

// describedDevice adds learned app descriptions to a device's app list.
type describedDevice struct {
	agentDevice
	store *knowledge.Store
}

// Apps implements agentDevice.
func (d describedDevice) Apps(ctx context.Context) ([]global.App, error) {
	apps, err := d.agentDevice.Apps(ctx)
	if err != nil {
		return nil, err
	}
	for i, a := range apps {
		if a.Description != "" {
			continue
		}
		if k, err := d.store.GetApp(a.Package); err == nil {
			apps[i].Description = k.Description
		}
	}
	return apps, nil
}

// sessionShortcuts adapts the learner's session to the executor's Shortcuts port.
type sessionShortcuts struct{ s *learner.Session }

// Shortcut implements executor.Shortcuts.
func (a sessionShortcuts) Shortcut(ctx context.Context, app, from, target string) ([]executor.ShortcutStep, bool) {
	steps, ok := a.s.Shortcut(ctx, app, from, target)
	if !ok {
		return nil, false
	}
	out := make([]executor.ShortcutStep, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return out, true
}

// learnFunc adapts Session.Learn to global.Learning.
func learnFunc(s *learner.Session) global.LearnFunc {
	return func(ctx context.Context) (memory.Learned, error) {
		rep, err := s.Learn(ctx)
		return memory.Learned{Tasks: rep.Tasks, Added: len(rep.Added), Merged: len(rep.Merged), Demoted: len(rep.Demoted)}, err
	}
}

// demoKnowledgePath is the demo's knowledge file: --knowledge when given, else a file of
// its own next to the real one, so what the virtual phone teaches never mixes with what a
// real phone taught; "" (the demo runs without knowledge) when there is no data directory.
func (s *settings) demoKnowledgePath() (string, error) {
	if p := s.v.GetString(keyKnowledge); p != "" {
		return p, nil
	}
	d, err := s.dataDir()
	if err != nil {
		return "", nil //nolint:nilerr // no place to keep knowledge: the demo still runs
	}
	return filepath.Join(d, "demo-knowledge.db"), nil
}
