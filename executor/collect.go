package executor

import (
	"context"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// collect extracts key context from s in the background; the next step goes on without
// waiting (it uses what earlier collections found). A failure costs only the facts.
//
// A page content read before (Config.Readings) gives the facts read off it then, with no
// model call: for this instruction, or — when this app task produces nothing for later
// tasks — for any task.
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
	if rd := r.cfg.Readings; rd != nil && !r.secure {
		app, instr, sig := r.a.Task.App, r.a.Instruction, s.Signature
		if known, ok := rd.Read(ctx, app, instr, sig, text, strings.TrimSpace(r.a.Task.Produces) == ""); ok {
			r.publish(event.ContextRead{Step: step, Facts: len(known), Signature: sig})
			if facts := newFacts(known, mem.KeyContext(), step); len(facts) > 0 {
				r.publish(event.ContextCollected{Step: step, Facts: facts})
			}
			return
		}
	}
	d := prompts.ExtractorData{Instruction: r.a.Instruction, Task: r.a.Task, Subgoal: r.subgoal, Screen: text, Known: mem.KeyContext()}
	slot := -1
	if r.cfg.OrderedContext {
		r.heldMu.Lock()
		slot = len(r.held)
		r.held = append(r.held, nil)
		r.heldMu.Unlock()
	}
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
		var facts []event.Fact
		defer func() {
			if r.cfg.Readings != nil && !r.secure {
				r.cfg.Readings.Remember(ctx, r.a.Task.App, r.a.Instruction, s.Signature, text, facts)
			}
		}()
		for _, f := range ans.Facts {
			f.Key, f.Value = strings.TrimSpace(f.Key), strings.TrimSpace(f.Value)
			if f.Key == "" || f.Value == "" {
				continue
			}
			f.App, f.Step = r.a.Task.App, step
			facts = append(facts, f)
		}
		if len(facts) == 0 {
			return
		}
		ev := event.ContextCollected{Step: step, Facts: facts}
		if slot < 0 {
			r.publish(ev)
			return
		}
		r.heldMu.Lock()
		r.held[slot] = &ev
		r.heldMu.Unlock()
	})
}

// waitContext waits for the collections under way and publishes, in the order they
// started, the facts Config.OrderedContext held back.
func (r *run) waitContext() {
	r.collectors.Wait()
	r.heldMu.Lock()
	held := r.held
	r.held = nil
	r.heldMu.Unlock()
	for _, ev := range held {
		if ev != nil {
			r.publish(*ev)
		}
	}
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

// newFacts are the facts of known not already in had (same key and value), filed under
// step.
func newFacts(known, had []event.Fact, step int) []event.Fact {
	have := make(map[[2]string]bool, len(had))
	for _, f := range had {
		have[[2]string{f.Key, f.Value}] = true
	}
	var out []event.Fact
	for _, f := range known {
		if !have[[2]string{f.Key, f.Value}] {
			f.Step = step
			out = append(out, f)
		}
	}
	return out
}
