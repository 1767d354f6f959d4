package agent

import (
	"context"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/global"
	"github.com/fairy-go/fairy/learner"
)

// startLearning starts the Self-Learner's session of a run on r.Knowledge, after telling
// it the phone's apps (label, launcher activity). The caller attaches the session to the
// run's bus before anything is published.
func (a *Agent) startLearning(ctx context.Context, r Run, id string, model learner.Model, apps phoneApps) (*learner.Session, error) {
	l, err := learner.New(learner.Config{Store: r.Knowledge, Model: model, Prompts: a.prompt, Clock: a.cfg.Clock, Logger: a.log})
	if err != nil {
		return nil, err
	}
	if list, err := apps.list(ctx); err == nil {
		infos := make([]learner.AppInfo, 0, len(list))
		for _, x := range list {
			infos = append(infos, learner.AppInfo{Package: x.Package, Activity: x.Activity, Label: x.Label})
		}
		if err := l.LearnApps(infos); err != nil {
			a.log.Warn("learning the app list failed", "err", err)
		}
	}
	return l.Start(id, r.Instruction), nil
}

// shortcuts adapts the learner's known paths to the executor's Navigate action.
type shortcuts struct{ s *learner.Session }

// Shortcut implements executor.Shortcuts.
func (c shortcuts) Shortcut(ctx context.Context, app, from, target string) ([]executor.ShortcutStep, bool) {
	steps, ok := c.s.Shortcut(ctx, app, from, target)
	if !ok {
		return nil, false
	}
	out := make([]executor.ShortcutStep, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return out, true
}

// routines adapts a learner session to executor.Routines.
type routines struct{ s *learner.Session }

// Offer implements executor.Routines.
func (c routines) Offer(ctx context.Context, app, signature, task string, answers, labels []string) []executor.RoutineOffer {
	offers := c.s.Offer(ctx, app, signature, task, answers, labels)
	out := make([]executor.RoutineOffer, len(offers))
	for i, o := range offers {
		out[i] = executor.RoutineOffer{ID: o.ID, End: o.End, Offer: o.Offer}
	}
	return out
}

// Steps implements executor.Routines.
func (c routines) Steps(ctx context.Context, app, id, signature string, args []string, at int) (executor.RoutineRun, error) {
	steps, from, pause, err := c.s.RoutineSteps(ctx, app, id, signature, args, at)
	if err != nil {
		return executor.RoutineRun{}, err
	}
	out := make([]executor.ShortcutStep, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return executor.RoutineRun{Steps: out, From: from, Pause: pause}, nil
}

// learnFunc adapts Session.Learn to global.Learning.
func learnFunc(s *learner.Session) global.LearnFunc {
	return func(ctx context.Context) (event.Learned, error) {
		rep, err := s.Learn(ctx)
		return event.Learned{Tasks: rep.Tasks, Added: len(rep.Added), Merged: len(rep.Merged), Demoted: len(rep.Demoted), Skipped: rep.Unsurprised}, err
	}
}
