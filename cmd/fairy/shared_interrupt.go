package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/llm"
)

// What the person reads on stderr at the first and at the second Ctrl-C (or SIGTERM).
const (
	msgInterrupted = "fairy: interrupted: finishing up without new model calls (what was learned so far is kept); " +
		"Ctrl-C again to quit now"
	msgInterruptedAgain = "fairy: interrupted again: quitting now"
)

// errInterrupt is the cause of a command's context ended by the first Ctrl-C: a run's stop
// reason reads "interrupted (Ctrl-C)", not Go's "context canceled", and it still is
// context.Canceled to errors.Is.
var errInterrupt error = interruptError{}

type interruptError struct{}

func (interruptError) Error() string { return "interrupted (Ctrl-C)" }

func (interruptError) Is(target error) bool { return target == context.Canceled }

// errModelStopped is the error of a model call refused after Ctrl-C.
var errModelStopped = errors.New("interrupted: no new model calls after Ctrl-C")

// watchInterrupts reads interrupts from sigs: the first cancels the returned context (the
// command finishes up: the run stops, its trace and summary are written, the knowledge
// file is closed) and says so; the second says so and calls quit at once (main: exit 130),
// whatever is still running — a device call that hangs, a model that does not answer. stop
// ends the watch.
func watchInterrupts(sigs <-chan os.Signal, stderr io.Writer, quit func()) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-sigs:
			}
			if n == 1 {
				fmt.Fprintln(stderr, msgInterrupted)
				cancel(errInterrupt)
				continue
			}
			fmt.Fprintln(stderr, msgInterruptedAgain)
			quit()
			return
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() { close(done) })
		wg.Wait()
		cancel(nil)
	}
}

// stoppableModel makes no new model call once stop is done (the command was interrupted):
// a call fails at once without reaching the model. So nothing more is billed after Ctrl-C —
// also not the Self-Learner's call, which runs on a context that outlives the interrupted
// run so that what was learned is kept. A call already in flight is left to its own
// context: the run's calls end with the run, and a learning call under way (already
// billed) may finish and keep what it learns; the second Ctrl-C does not wait for it.
type stoppableModel struct {
	executor.Model
	stop context.Context
}

// stopModelsOn wraps m so that it makes no new call once stop is done; nil stays nil.
func stopModelsOn(stop context.Context, m executor.Model) executor.Model {
	if m == nil {
		return nil
	}
	return stoppableModel{Model: m, stop: stop}
}

func (m stoppableModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if m.stop.Err() != nil {
		return llm.Response{}, errModelStopped
	}
	return m.Model.Generate(ctx, req)
}
