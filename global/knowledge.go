package global

import (
	"context"
	"log/slog"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
)

// DefaultLearnTimeout bounds one learning pass when Learning.Timeout is 0.
const DefaultLearnTimeout = 2 * time.Minute

// LearnFunc is one Self-Learner pass over the app tasks finished so far; cmd adapts the
// learner's Session.Learn to it. The event says what was learned.
type LearnFunc func(ctx context.Context) (event.Learned, error)

// Learning is a Runner that lets the Self-Learner learn after every app task (done,
// failed, refused or stopped): it runs Learn with a context that outlives a cancelled run,
// bounded by Timeout, and publishes a event.Learned event. A failed learning pass is
// logged and published, never turned into a task failure.
type Learning struct {
	Runner  Runner // required
	Learn   LearnFunc
	Bus     *event.Bus
	Timeout time.Duration // 0: DefaultLearnTimeout
	Logger  *slog.Logger  // nil: discard
}

// Run implements Runner.
func (l Learning) Run(ctx context.Context, a executor.Assignment) (executor.Result, error) {
	res, err := l.Runner.Run(ctx, a)
	if l.Learn == nil {
		return res, err
	}
	timeout := l.Timeout
	if timeout <= 0 {
		timeout = DefaultLearnTimeout
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	ev, lerr := l.Learn(lctx)
	cancel()
	if lerr != nil {
		ev.Err = lerr.Error()
		if l.Logger != nil {
			l.Logger.Warn("learning failed; the task is not affected", "app", a.Task.App, "err", lerr)
		}
	}
	l.Bus.Publish(ev)
	return res, err
}

// KnowledgeUse is the "knowledge" object of summary.json: how much long-term knowledge
// (App Tricks, App Map, app descriptions) the run used, and what it learned.
type KnowledgeUse struct {
	Used          bool `json:"used"`           // a trick, hint or description reached a prompt, or a shortcut ran
	Tricks        int  `json:"tricks"`         // trick lines put into prompts
	Hints         int  `json:"hints"`          // navigation hints put into prompts
	DescribedApps int  `json:"described_apps"` // learned app descriptions given to the Global Planner
	Navigations   int  `json:"navigations"`    // Navigate actions replayed
	ShortcutSteps int  `json:"shortcut_steps"` // steps replayed from the App Map with no model call
	VerifiedSteps int  `json:"verified_steps"` // sub-goals confirmed by an App Map prediction with no Re-Planner call
	Fallbacks     int  `json:"fallbacks"`      // replays that stopped before their target
	Routines      int  `json:"routines"`       // learned routines run
	RoutineSteps  int  `json:"routine_steps"`  // steps routines replayed with no model call
	KnownReads    int  `json:"known_reads"`    // page contents whose facts were known: no Key Context Collector call
	SkippedLearns int  `json:"skipped_learns"` // app tasks not distilled: they followed a known routine
	LearnedTasks  int  `json:"learned_tasks"`  // app tasks the Self-Learner distilled
	LearnedTricks int  `json:"learned_tricks"` // tricks it added or merged
	LearnErrors   int  `json:"learn_errors"`   // learning passes that failed (the task did not)
	// Off says why the run went without long-term knowledge although a knowledge file was
	// configured (it is damaged); empty otherwise. Set with Recorder.SetKnowledgeOff.
	Off string `json:"off,omitempty"`
}

// SetKnowledgeOff records in the summary that the run goes without its knowledge file,
// and why (knowledge.off).
func (r *Recorder) SetKnowledgeOff(reason string) {
	r.tally.mu.Lock()
	defer r.tally.mu.Unlock()
	r.tally.s.Knowledge.Off = reason
}

// add counts one knowledge event.
func (k *KnowledgeUse) add(e event.Event) {
	switch e := e.(type) {
	case event.KnowledgeServed:
		k.Tricks += e.Tricks
		k.DescribedApps = max(k.DescribedApps, e.Apps)
		if e.Hint {
			k.Hints++
		}
	case event.Navigated:
		k.Navigations++
		k.ShortcutSteps += e.Replayed
		if e.Stopped != "" {
			k.Fallbacks++
		}
	case event.RoutineRan:
		k.Routines++
		k.RoutineSteps += e.Replayed
		if e.Stopped != "" && !e.Held {
			k.Fallbacks++
		}
	case event.ContextRead:
		k.KnownReads++
	case event.Reflected:
		if e.Verified {
			k.VerifiedSteps++
		}
	case event.Learned:
		k.LearnedTasks += e.Tasks
		k.LearnedTricks += e.Added + e.Merged
		k.SkippedLearns += e.Skipped
		if e.Err != "" {
			k.LearnErrors++
		}
	}
	k.Used = k.Tricks > 0 || k.Hints > 0 || k.DescribedApps > 0 || k.ShortcutSteps > 0 || k.VerifiedSteps > 0 ||
		k.RoutineSteps > 0 || k.KnownReads > 0 || k.SkippedLearns > 0
}

// described counts the apps with a learned description.
func described(apps []event.App) int {
	n := 0
	for _, a := range apps {
		if a.Description != "" {
			n++
		}
	}
	return n
}
