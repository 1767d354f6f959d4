package learner

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
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

// named reports whether sub-goal goal names label as a whole word or phrase ("Open See all
// apps" names "See all apps", not "All"; a name in a script written without spaces, such
// as "书店" in "打开书店的信息卡", needs no spaces around it). Labels of one character name
// nothing.
func named(label, goal string) bool {
	l, g := knowledge.GoalKey(label), knowledge.GoalKey(goal)
	if utf8.RuneCountInString(l) < 2 {
		return false
	}
	for i := 0; i < len(g); {
		j := strings.Index(g[i:], l)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(l)
		before, _ := utf8.DecodeLastRuneInString(g[:start])
		after, _ := utf8.DecodeRuneInString(g[end:])
		first, _ := utf8.DecodeRuneInString(l)
		last, _ := utf8.DecodeLastRuneInString(l)
		if (start == 0 || !joins(before) || !joins(first)) && (end == len(g) || !joins(after) || !joins(last)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(g[start:])
		i = start + size
	}
	return false
}

// joins reports whether r continues a word it touches: a letter or digit of a script
// written with spaces between words.
func joins(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
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
