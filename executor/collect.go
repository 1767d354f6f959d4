package executor

import (
	"context"
	"strings"

	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// collect extracts key context from s in the background; the next step goes on without
// waiting (it uses what earlier collections found). A failure costs only the facts.
//
// The extractor only reads text this app task has not sent it yet: a screen whose every
// static text and element label was on an earlier screen of the task (a page seen again
// after Back, a switch toggled, a list revisited) has no new fact to give, and a page with
// nothing to read (no static text, no labelled element) has none either.
func (r *run) collect(ctx context.Context, step int, s *perception.Screen) {
	if !r.newText(s) {
		return
	}
	text := s.Text()
	mem := r.cfg.Memory
	d := prompts.ExtractorData{Instruction: r.a.Instruction, Task: r.a.Task, Subgoal: r.subgoal, Screen: text, Known: mem.KeyContext()}
	r.collectors.Go(func() {
		p, err := r.cfg.Prompts.Extract(d)
		if err != nil {
			return
		}
		var ans prompts.ExtractorAnswer
		if err := call(ctx, r.cfg.Model, llm.RoleExtractor, p, nil, &ans); err != nil {
			r.e.log.Warn("key context collection failed", logStep, step, logErr, err)
			return
		}
		var facts []memory.Fact
		for _, f := range ans.Facts {
			f.Key, f.Value = strings.TrimSpace(f.Key), strings.TrimSpace(f.Value)
			if f.Key == "" || f.Value == "" {
				continue
			}
			f.App, f.Step = r.a.Task.App, step
			facts = append(facts, f)
		}
		if len(facts) > 0 {
			r.publish(memory.ContextCollected{Step: step, Facts: facts})
		}
	})
}

// newText reports whether s shows a static text or an element label that no screen
// sent to the extractor in this app task showed, and remembers them all.
func (r *run) newText(s *perception.Screen) bool {
	if r.extracted == nil {
		r.extracted = map[string]bool{}
	}
	fresh := false
	see := func(t string) {
		if t = strings.TrimSpace(t); t != "" && !r.extracted[t] {
			r.extracted[t] = true
			fresh = true
		}
	}
	for _, t := range s.Context {
		see(t)
	}
	for _, e := range s.Elements {
		see(e.Label)
	}
	return fresh
}
