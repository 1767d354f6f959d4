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
// No extractor call is made for a screen whose text form this app task already sent (a
// page seen again after Back, a list revisited: its facts are known), nor for one with
// nothing to read (no static text, no labelled element).
func (r *run) collect(ctx context.Context, step int, s *perception.Screen) {
	if !readable(s) {
		return
	}
	text := s.Text()
	if r.extracted[text] {
		return
	}
	if r.extracted == nil {
		r.extracted = map[string]bool{}
	}
	r.extracted[text] = true
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

// readable reports whether s shows any text a fact could come from: a static text or an
// element with a label.
func readable(s *perception.Screen) bool {
	for _, t := range s.Context {
		if strings.TrimSpace(t) != "" {
			return true
		}
	}
	for _, e := range s.Elements {
		if strings.TrimSpace(e.Label) != "" {
			return true
		}
	}
	return false
}
