package learner

import (
	"context"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/replay"
)

// Predict says which page the App Map expects action a on element el (nil: none), taken for
// sub-goal goal, to open from the page of app with signature from: the signature of the page
// its most reliable transition leads to. A known action only says where it leads, not that
// it was the right one to take — a model that tapped the wrong row took a known action too —
// so ok is also false unless the action is evidence for the sub-goal: the transition
// completed that sub-goal in a confirmed run before (knowledge.Transition.Served), or the
// sub-goal names the element it acted on. ok is false when the map does not know the page or the action, when
// that transition is less reliable than Config.MinReliability, stays on its page or shares
// the lead with another destination, or is no navigation: a side effect
// (knowledge.ArgSideEffect) or an action whose effect depended on text typed before it —
// and when the person was ever asked something on the page it leads to (a choice, a
// consent), or it was seen secure (a step confirmed from the map takes no picture, and only
// the picture tells a secure page): there the Re-Planner judges.
func (l *Learner) Predict(ctx context.Context, app, from string, a event.Action, el *event.ElementRef, goal string) (string, bool) {
	k, ok := mapAction(a, el)
	if !ok || inPage(k) || from == "" || ctx.Err() != nil {
		return "", false
	}
	m, err := l.cfg.Store.Map(app)
	if err != nil {
		l.log.Warn("predict: map load failed", logApp, app, logErr, err)
		return "", false
	}
	pages := make(map[string]knowledge.Page, len(m.Pages))
	for _, p := range m.Pages {
		pages[p.Key] = p
	}
	want := navKey(k)
	var best knowledge.Transition
	found, tie := false, false
	for _, t := range m.Transitions {
		if pages[t.From].Signature != from || navKey(t.Action) != want {
			continue
		}
		if t.Action.Args[knowledge.ArgSideEffect] != "" || t.Action.Args[argAfter] != "" {
			return "", false // it did something once: never a prediction of where it leads
		}
		switch r, b := t.Reliability(), best.Reliability(); {
		case !found || r > b:
			best, found, tie = t, true, false
		case r == b && pages[t.To].Signature != pages[best.To].Signature:
			tie = true
		}
	}
	to := pages[best.To].Signature
	if !found || tie || best.Effect != knowledge.EffectNewPage || best.To == best.From || to == "" || to == from ||
		best.Reliability() < l.cfg.MinReliability || pages[best.To].Asked > 0 || pages[best.To].Secure {
		return "", false
	}
	if !best.Served(goal) && (el == nil || !named(el.Label, goal)) {
		return "", false
	}
	return to, true
}

// named reports whether sub-goal goal names label as whole words, in any case ("Open See
// all apps" names "See all apps", not "App"; a name in a script written without spaces,
// such as "书店" in "打开书店的信息卡", needs no spaces around it). Labels of one character
// name nothing.
func named(label, goal string) bool {
	l := knowledge.GoalKey(label)
	return utf8.RuneCountInString(l) >= 2 && replay.HasWords(knowledge.GoalKey(goal), l)
}

// navKey is an action's identity without the marks the learner adds to a transition.
func navKey(a knowledge.Action) string {
	if a.Args[knowledge.ArgSideEffect] != "" || a.Args[argAfter] != "" {
		args := make(map[string]string, len(a.Args))
		for k, v := range a.Args {
			if k != knowledge.ArgSideEffect && k != argAfter {
				args[k] = v
			}
		}
		a.Args = args
	}
	return actionKey(a)
}

// Predict is Learner.Predict; it satisfies the executor's Predictions port.
func (s *Session) Predict(ctx context.Context, app, from string, a event.Action, el *event.ElementRef, goal string) (string, bool) {
	return s.l.Predict(ctx, app, from, a, el, goal)
}
