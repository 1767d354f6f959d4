package executor

import (
	"context"
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// hint asks the App Map for a navigation hint toward a page that serves query; failures
// only cost the hint.
func (r *run) hint(ctx context.Context, query string) string {
	if r.cfg.Hints == nil || r.screen == nil || strings.TrimSpace(query) == "" || isFinished(query) || r.ledger.Pathless(r.screen.Signature) {
		return ""
	}
	h, err := r.cfg.Hints.Hint(ctx, r.a.Task.App, r.screen.Signature, query)
	if err != nil {
		r.e.log.Warn("navigation hint failed", logErr, err)
		return ""
	}
	if r.ledger.Retired(h) {
		return "" // a Navigate that stopped short twice is not offered again in this task
	}
	return h
}

// served publishes that long-term knowledge went into a prompt of role: the tips (each
// cut to a short line in the trace) and whether a navigation hint was given.
func (r *run) served(role string, tricks []string, hint string) {
	if len(tricks) == 0 && hint == "" {
		return
	}
	ev := event.KnowledgeServed{Step: r.step, Role: role, Tricks: len(tricks), Hint: hint != ""}
	for _, t := range tricks {
		ev.TrickTexts = append(ev.TrickTexts, servedLine(t))
	}
	r.publish(ev)
}

// servedLine cuts a served tip to one short line for the trace.
func servedLine(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	if r := []rune(t); len(r) > maxServedRunes {
		return string(r[:maxServedRunes-1]) + "…"
	}
	return t
}

// maxServedRunes bounds a tip's line in KnowledgeServed.
const maxServedRunes = 120

// shortcut checks a batch ending in Navigate and looks its path up; why is what to tell the
// decider when the batch cannot be replayed (nil when it can).
func (r *run) shortcut(ctx context.Context, batch []event.Action) (steps []replay.Step, why prompts.Note) {
	nav := batch[len(batch)-1]
	switch {
	case len(batch) > 1:
		return nil, prompts.NoteNavigateAlone{Action: nav}
	case r.cfg.Shortcuts == nil:
		return nil, prompts.NoteNoAppMap{Action: nav}
	}
	if n, retired := r.ledger.NavFailures(nav.Target); retired {
		return nil, prompts.NoteNavigateRetired{Action: nav, Times: n}
	}
	steps, ok := r.cfg.Shortcuts.Shortcut(ctx, r.a.Task.App, r.screen.Signature, nav.Target)
	if !ok || len(steps) == 0 {
		// The hint promised more than the map holds: no more hints on this page.
		r.ledger.NoPath(r.screen.Signature)
		return nil, prompts.NoteNoPath{Action: nav}
	}
	return steps, nil
}

// navigate replays a known path with no model call (see replay); at the first mismatch,
// guarded action or failed action it stops, and the task goes on with normal steps from
// wherever the phone is.
func (r *run) navigate(ctx context.Context, target string, steps []replay.Step) (State, error) {
	return r.navigateAs(ctx, target, steps, false)
}

// navigateAs is navigate; recovery marks the executor's own way back (recover.go).
func (r *run) navigateAs(ctx context.Context, target string, steps []replay.Step, recovery bool) (State, error) {
	ev := event.Navigated{Step: r.step, App: r.a.Task.App, Target: target, Planned: len(steps), Recovery: recovery}
	res := r.replay(ctx, steps)
	ev.Replayed, ev.Stopped = res.replayed, res.stopped
	r.publish(ev)
	if res.stopped != "" && !res.held {
		r.ledger.NavStopped(target)
	}
	if res.state != "" {
		return res.state, res.err
	}
	line := fmt.Sprintf("Navigate(%q): replayed %d of %d known steps of the App Map with no decision", target, ev.Replayed, ev.Planned)
	if ev.Stopped != "" {
		r.planNote = append(r.planNote, prompts.NoteShortcutStopped{Target: target, At: ev.Stopped})
	}
	return r.afterReplay(ctx, line, res)
}
