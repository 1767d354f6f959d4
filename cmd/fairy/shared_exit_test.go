package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/explore"
	"github.com/fairy-go/fairy/llm/inject"
	"github.com/fairy-go/fairy/llm/openai"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/sim"
)

// TestFailureStatusOfConfigCauses: an error that the person's configuration or input
// caused exits 2 whichever command returned it and however deep it was wrapped; an error
// from the work exits 1. The errors come from the real parsers and constructors.
func TestFailureStatusOfConfigCauses(t *testing.T) {
	errOf := func(_ any, err error) error { return err }
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"--model-errors", errOf(inject.ParseRates("grounding=two")), exitUsage},
		{"rules file", errOf(scripted.ParseRules([]byte("rules: [{role: decider, answer: '{{'}]"))), exitUsage},
		{"model config", errOf(openai.New(openai.Config{})), exitUsage},
		{"explore bounds", errOf(explore.Run(context.Background(), explore.Config{})), exitUsage},
		{"app declaration", errOf(sim.ParseApp([]byte("package: com.x\nscreens: [{id: 1, elements: nope}]"))), exitUsage},
		{"fault spec", errOf(sim.ParseFaults("dump-fail")), exitUsage},
		{"evaluation with no suite", errOf(eval.Run(context.Background(), eval.Config{})), exitUsage},
		{"the work", errors.New("the task failed"), exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.err == nil {
				t.Fatal("no error: the case does not test anything")
			}
			err := failureStatus(fmt.Errorf("run: %w", tt.err))
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != tt.want {
				t.Errorf("failureStatus(%v) = %v, want exit %d", tt.err, err, tt.want)
			}
		})
	}
}
