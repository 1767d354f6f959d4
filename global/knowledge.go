package global

import (
	"context"
	"log/slog"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
)

// defaultLearnTimeout bounds one learning pass when Learning.Timeout is 0.
const defaultLearnTimeout = 2 * time.Minute

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
		timeout = defaultLearnTimeout
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
