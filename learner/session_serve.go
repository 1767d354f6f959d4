package learner

import (
	"context"
	"slices"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/replay"
)

// What a session serves the executor while the run goes: tricks, navigation hints and
// shortcuts, each noted on the task that used it.

// Tricks returns the k tricks of app and kind most relevant to query, as prompt lines, and
// remembers them: after the task, Learn counts their use and lets the model say which were
// wrong. It satisfies the executor's Tricks port.
func (s *Session) Tricks(ctx context.Context, app, kind, query string, k int) ([]string, error) {
	hits, err := s.l.search(app, kind, query, k)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		out = append(out, h.Trick.Text)
		if s.task != nil {
			s.task.serve(h.Trick)
		} else {
			// Given before an app task (the Global Planner's): it counts with the next task.
			s.early = append(s.early, h.Trick)
		}
	}
	return out, nil
}

// serve remembers a trick the task was given.
func (t *taskTrace) serve(tr knowledge.Trick) {
	if _, ok := t.served[tr.ID]; ok {
		return
	}
	t.served[tr.ID] = tr
	t.servedOrder = append(t.servedOrder, tr.ID)
}

// Hint is Learner.Hint; it satisfies the executor's Hints port. The session remembers the
// replayable part of each route it hinted at, so that a Navigate the hint offered replays
// that very route — with the list rows its sub-goal named — rather than whichever row the
// map learned first.
func (s *Session) Hint(ctx context.Context, app, signature, subgoal string) (string, error) {
	r, ok, err := s.l.Route(ctx, app, signature, subgoal)
	if err != nil || !ok {
		return "", err
	}
	if r.Replayable {
		s.mu.Lock()
		if s.routes == nil {
			s.routes = map[routeKey][]Step{}
		}
		s.routes[routeKey{app, signature, r.Stop.Key}] = slices.Clone(r.Steps[:r.Replay])
		s.mu.Unlock()
	}
	return r.Hint(), nil
}

// routeKey names a route a hint offered: app, the page signature it starts from, the key
// of the page its replay ends on.
type routeKey struct{ app, from, stop string }

// Shortcut returns the steps of the route a hint of this session offered from the page
// with signature from to page target (the hint's Navigate target); without such a hint it
// is Learner.Shortcut, which never guesses a list row. It satisfies the executor's
// Shortcuts port.
func (s *Session) Shortcut(ctx context.Context, app, from, target string) ([]replay.Step, bool) {
	if m, err := s.l.cfg.Store.Map(app); err == nil {
		if t, ok := findPage(m, target); ok {
			s.mu.Lock()
			steps, hinted := s.routes[routeKey{app, from, t.Key}]
			s.mu.Unlock()
			if hinted && len(steps) > 0 {
				return replaySteps(steps), true
			}
		}
	}
	steps, ok := s.l.Shortcut(ctx, app, from, target)
	return replaySteps(steps), ok
}

// replaySteps are a shortcut's steps as the executor replays them.
func replaySteps(steps []Step) []replay.Step {
	if steps == nil {
		return nil
	}
	out := make([]replay.Step, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return out
}
