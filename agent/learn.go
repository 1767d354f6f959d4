package agent

import (
	"context"

	"github.com/fairy-go/fairy/event"
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

// learnFunc adapts Session.Learn to global.Learning.
func learnFunc(s *learner.Session) global.LearnFunc {
	return func(ctx context.Context) (event.Learned, error) {
		rep, err := s.Learn(ctx)
		return event.Learned{Tasks: rep.Tasks, Added: len(rep.Added), Merged: len(rep.Merged), Demoted: len(rep.Demoted), Skipped: rep.Unsurprised}, err
	}
}
