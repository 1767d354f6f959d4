package eval

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/rundir"
)

// fakeAgent is a hand-written stand-in for the agent core: it "carries out" an instruction
// by running it as a shell command line on the virtual phone, writes a real trace through
// rundir.Recorder, and misbehaves on request:
//
//	instruction "ask: QUESTION; CMD"  asks the user a yes/no question first; a "no" skips CMD
//	tag "crash"                       panics
//	tag "block"                       blocks until ctx ends
//	tag "slow"                        takes 150 ms
type fakeAgent struct {
	started atomic.Int32
}

type fakeSession struct {
	job Job
	a   *fakeAgent
}

func (a *fakeAgent) Start(ctx context.Context, job Job) (TaskRun, error) {
	a.started.Add(1)
	return &fakeSession{job: job, a: a}, nil
}

func (s *fakeSession) Model() suite.Model { return nil }
func (s *fakeSession) Close() error       { return nil }

func (s *fakeSession) Shell(ctx context.Context, cmd string) (string, error) {
	var b strings.Builder
	if _, err := s.job.Device.Sim.Shell(ctx, cmd, &b); err != nil {
		return b.String(), err
	}
	return b.String(), nil
}

func (s *fakeSession) Dump(ctx context.Context) ([]byte, error) { return s.job.Device.Sim.Dump(), nil }

func (s *fakeSession) Run(ctx context.Context, user interaction.Dialoger) (rundir.Summary, error) {
	t := s.job.Task
	rec, err := rundir.NewRecorder(s.job.RunDir)
	if err != nil {
		return rundir.Summary{}, err
	}
	bus := event.NewBus(time.Now)
	bus.Subscribe(rec.Handle)
	defer rec.Close()
	bus.Publish(event.RunStarted{RunID: t.ID, Instruction: t.Instruction})
	bus.Publish(event.StepStarted{Step: 1, App: "com.android.settings"})
	shot, _ := s.job.Device.Sim.Screenshot()
	bus.Publish(event.ScreenPerceived{Step: 1, Signature: "sig", Text: "- [1] button \"Pay\"", Marked: shot, MarkedMIME: "image/png"})
	bus.Publish(event.Reflected{Step: 1, Reflection: "first look"})
	bus.Publish(event.Planned{Step: 1, Plan: []string{"do it"}, Subgoal: "do it"})
	bus.Publish(event.ModelCalled{Role: "replanner", Critical: true, PromptTokens: 100, CompletionTokens: 10})
	bus.Publish(event.ModelCalled{Role: "decider", Critical: true, PromptTokens: 80, CompletionTokens: 8})
	switch {
	case t.HasTag("crash"):
		panic("fake agent: boom")
	case t.HasTag("block"):
		<-ctx.Done()
		bus.Publish(event.RunFinished{Outcome: event.OutcomeStopped, Reason: "stopped"})
		return rec.Summary(), ctx.Err()
	case t.HasTag("slow"):
		time.Sleep(150 * time.Millisecond)
	}
	cmd := t.Instruction
	if q, rest, ok := strings.Cut(strings.TrimPrefix(cmd, "ask: "), "; "); ok && strings.HasPrefix(cmd, "ask: ") {
		bus.Publish(event.InteractionAsked{Step: 1, Type: 1, Question: q})
		ans, err := user.Ask(ctx, interaction.Question{Type: 1, Kind: interaction.YesNo, Text: q})
		if err != nil {
			bus.Publish(event.RunFinished{Outcome: event.OutcomeFailed, Reason: err.Error()})
			return rec.Summary(), nil
		}
		bus.Publish(event.InteractionAnswered{Step: 1, Answer: ans})
		if strings.HasPrefix(strings.ToLower(ans), "no") {
			bus.Publish(event.RunFinished{Outcome: event.OutcomeRefused, Reason: "the person said no"})
			return rec.Summary(), nil
		}
		cmd = rest
	}
	bus.Publish(event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 1}, Element: &event.ElementRef{Label: "Pay"}})
	if out, err := s.Shell(ctx, cmd); err != nil {
		bus.Publish(event.RunFinished{Outcome: event.OutcomeFailed, Reason: fmt.Sprintf("%v: %s", err, out)})
		return rec.Summary(), nil
	}
	bus.Publish(event.RunFinished{Outcome: event.OutcomeDone, Answer: "did " + cmd})
	return rec.Summary(), nil
}
