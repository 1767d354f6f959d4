package learner

import (
	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// Effects returns what actions in app were seen to do that cannot be taken back (the App
// Map's deeds), for the guard to hold their elements: the knowledge file's, so a deed
// another agent sharing it learned counts. Deeds on no element (an Enter) hold nothing
// and are left out; a store that cannot be read gives none (the guard's words still hold).
func (s *Session) Effects(app string) []event.LearnedEffect {
	return s.l.Effects(app)
}

// Effects is Session.Effects.
func (l *Learner) Effects(app string) []event.LearnedEffect {
	deeds, err := l.cfg.Store.Deeds(app)
	if err != nil {
		l.log.Warn("app map deeds not read", logApp, app, logErr, err)
		return nil
	}
	var out []event.LearnedEffect
	for _, d := range deeds {
		if d.Kind != knowledge.ActionTap && d.Kind != knowledge.ActionLongPress || d.Target.IsZero() {
			continue
		}
		out = append(out, event.LearnedEffect{Category: d.Category, Evidence: d.Evidence, Activity: d.Activity,
			ResourceID: d.Target.ResourceID, Class: d.Target.Class, Label: d.Target.Text, X: d.X, Y: d.Y})
	}
	return out
}
