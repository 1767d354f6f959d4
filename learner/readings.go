package learner

import (
	"context"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// Read returns the facts the Key Context Collector read off this page content before, so
// that the executor need not send it to the model again. A reading for the same
// instruction always counts; a reading made for another task counts only when anyTask is
// true (the executor says so for a task that produces nothing for later tasks: what it
// would miss is at most a fact only it would have found relevant, on a page whose whole
// content it has seen before). ok is false when the content was never read.
func (l *Learner) Read(ctx context.Context, app, instruction, signature, text string, anyTask bool) ([]event.Fact, bool) {
	if app == "" || signature == "" || ctx.Err() != nil {
		return nil, false
	}
	keys := []string{knowledge.ReadingKey(instruction, signature, text)}
	if anyTask {
		keys = append(keys, knowledge.ReadingKey("", signature, text))
	}
	r, ok, err := l.cfg.Store.Reading(app, keys...)
	if err != nil {
		l.log.Warn("reading lookup failed", logApp, app, logErr, err)
		return nil, false
	}
	if !ok {
		return nil, false
	}
	out := make([]event.Fact, 0, len(r.Facts))
	for _, f := range r.Facts {
		out = append(out, event.Fact{Key: f.Key, Value: f.Value, App: app})
	}
	return out, true
}

// Remember records what the model read off a page content (facts may be empty: nothing on
// it mattered), for this instruction and for any task, in one transaction. A failed write
// costs only the memory of it.
func (l *Learner) Remember(ctx context.Context, app, instruction, signature, text string, facts []event.Fact) {
	if app == "" || signature == "" || ctx.Err() != nil {
		return
	}
	kf := make([]knowledge.Fact, 0, len(facts))
	for _, f := range facts {
		if strings.TrimSpace(f.Key) != "" && strings.TrimSpace(f.Value) != "" {
			kf = append(kf, knowledge.Fact{Key: f.Key, Value: f.Value})
		}
	}
	err := l.cfg.Store.Update(func(tx *knowledge.Tx) error {
		for _, scope := range []string{instruction, ""} {
			if err := tx.PutReading(app, knowledge.ReadingKey(scope, signature, text), kf); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		l.log.Warn("reading not remembered", logApp, app, logErr, err)
	}
}

// Read is Learner.Read; with Remember it satisfies the executor's Readings port.
func (s *Session) Read(ctx context.Context, app, instruction, signature, text string, anyTask bool) ([]event.Fact, bool) {
	return s.l.Read(ctx, app, instruction, signature, text, anyTask)
}

// Remember is Learner.Remember.
func (s *Session) Remember(ctx context.Context, app, instruction, signature, text string, facts []event.Fact) {
	s.l.Remember(ctx, app, instruction, signature, text, facts)
}
