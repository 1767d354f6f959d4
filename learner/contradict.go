package learner

import (
	"context"
	"errors"
	"fmt"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// Contradict is called when the run said done and its result was wrong: the person says
// so, or an evaluation's checks found it (a false success). What the run learned must not
// carry the mistake forward, and what it replayed led to it, so, for every task the run
// reported done:
//   - the routines it replayed, and the routine stored from it, are demoted at once (not
//     offered again until clean runs confirm them on two instances again);
//   - the tricks distilled from it are demoted;
//   - the sub-goals it credited to App Map transitions are taken back, so no step is
//     confirmed from the map on its word.
//
// Call it after Learn. The counts say what was undone.
func (s *Session) Contradict(ctx context.Context) (routines, tricks, goals int, err error) {
	s.mu.Lock()
	s.closeTask()
	var tasks []*taskTrace
	for _, t := range s.done {
		if t.outcome == event.OutcomeDone {
			tasks = append(tasks, t)
		}
	}
	s.mu.Unlock()
	var errs []error
	for _, t := range tasks {
		if ctx.Err() != nil {
			return routines, tricks, goals, ctx.Err()
		}
		s.mu.Lock()
		ids := append([]string(nil), t.ran...)
		if t.routine != "" {
			ids = append(ids, t.routine)
		}
		trickIDs, filed := append([]string(nil), t.tricks...), append([]servedGoal(nil), t.filed...)
		t.ran, t.routine, t.tricks, t.filed = nil, "", nil, nil
		s.mu.Unlock()
		err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
			for _, id := range ids {
				switch err := tx.RoutineDemoted(t.app, id); {
				case err == nil:
					routines++
				case !errors.Is(err, knowledge.ErrNotFound):
					return err
				}
			}
			for _, id := range trickIDs {
				switch _, err := tx.Demote(id); {
				case err == nil:
					tricks++
				case !errors.Is(err, knowledge.ErrNotFound):
					return err
				}
			}
			for _, g := range filed {
				switch err := tx.TransitionUnserved(g.app, g.t, g.goal); {
				case err == nil:
					goals++
				case !errors.Is(err, knowledge.ErrNotFound):
					return err
				}
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: contradict task %d in %s: %w", errStore, t.index, t.app, err))
		}
	}
	return routines, tricks, goals, errors.Join(errs...)
}
