package learner

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// What a session writes to the App Map as the run goes: pages from perceived screens,
// transitions from the actions between them, and what each action is known to do.

// perceived records the new screen and what the last step's actions did, in one
// transaction.
func (s *Session) perceived(e event.ScreenPerceived) {
	s.stepped, s.steppedAt, s.steppedApp = nil, e.Step, ""
	now := observation{step: e.Step, pkg: e.Package, activity: e.Activity, signature: e.Signature, text: e.Text, secure: e.Secure}
	taskApp := ""
	if s.task != nil {
		taskApp = s.task.app
		s.task.steps = append(s.task.steps, &stepTrace{step: e.Step, page: now.page().Description})
		s.task.end, s.task.endText = e.Signature, e.Text
	}
	app := now.pkg
	if app == "" {
		app = taskApp
	}
	prev, prevApp, acts := s.cur, s.curApp, s.pending
	s.cur, s.curApp, s.pending = &now, app, nil
	if s.origins == nil {
		s.origins = map[string]string{}
	}
	var origin string
	originKnown := false
	if prev != nil {
		origin, originKnown = s.origins[prevApp+"\x00"+prev.key()]
	}
	if prev != nil && prev.key() != now.key() {
		// The page the new page was opened from, when it was opened going forward (a
		// tap on a row or a button, not Back, and not one that returned to where the page
		// before was opened from).
		if n := len(acts); n > 0 && acts[n-1].Action.Type != event.Back && !isWayBack(acts[n-1].Element) &&
			!(originKnown && origin == now.key()) {
			s.origins[app+"\x00"+now.key()] = prev.key()
		}
	}
	if _, ok := s.origins[app+"\x00"+now.key()]; !ok && app != "" && s.entryPage(app, now) {
		// First seen, or reached with Back from where the run started: an entry page.
		s.origins[app+"\x00"+now.key()] = ""
	}
	if app == "" || e.Signature == "" {
		return
	}
	if prev != nil && len(acts) == 0 && prev.key() == now.key() && prev.text == now.text {
		return // the same screen shown again (no action since): not a new visit
	}
	var trs []plannedTransition
	if prev != nil && prevApp == app {
		trs = s.transitions(app, *prev, now, acts, origin, originKnown)
	}
	s.noteShown(app, prev, prevApp, now, acts)
	firstOfTask := prev == nil && app == taskApp
	thumb := s.pageThumb(app, now.key(), e)
	var err error
	var pageID string
	for {
		bad := -1
		err = s.l.cfg.Store.Update(func(tx *knowledge.Tx) error {
			p, err := tx.RecordPage(app, now.page())
			if err != nil {
				return err
			}
			pageID = p.ID
			if thumb != nil {
				if err := tx.PutThumb(app, now.key(), *thumb); err != nil {
					s.l.log.Debug("page picture not filed", logApp, app, logStep, e.Step, logErr, err)
				}
			}
			if firstOfTask {
				// Make the app known to the Global Planner's app list; PutApp keeps every
				// stored field (label, launcher, description) that this leaves empty.
				if _, err := tx.PutApp(knowledge.App{Package: app}); err != nil {
					return err
				}
			}
			for i, t := range trs {
				if _, err := tx.RecordTransition(app, t.t, t.success); err != nil {
					if errors.Is(err, knowledge.ErrInvalid) {
						bad = i
					}
					return err
				}
			}
			return nil
		})
		if err == nil || bad < 0 {
			break
		}
		// The transaction rolled back: record the step again without the transition the
		// knowledge file refused, so one bad transition never costs the page and the rest.
		err = fmt.Errorf("%w: step %d of %s: transition left out: %w", errStore, e.Step, app, err)
		s.errs = append(s.errs, err)
		s.l.log.Warn("app map transition refused", logApp, app, logStep, e.Step, logErr, err)
		trs = slices.Delete(trs, bad, bad+1)
	}
	if err != nil {
		err = fmt.Errorf("%w: record step %d of %s: %w", errStore, e.Step, app, err)
		s.errs = append(s.errs, err)
		s.l.log.Warn("app map update failed", logApp, app, logStep, e.Step, logErr, err)
		return
	}
	s.noteMapped(app, now.key(), pageID, trs)
	if n := len(trs); n > 0 && trs[n-1].success && trs[n-1].t.Effect == knowledge.EffectNewPage {
		t := trs[n-1].t
		s.stepped, s.steppedApp = &t, app
	}
	km := s.known(app)
	for _, t := range trs {
		if !t.success {
			continue
		}
		k := t.t.From + "\x00" + actionKey(t.t.Action)
		if km[k] == nil {
			km[k] = map[string]knowledge.Effect{}
		}
		km[k][t.t.To] = t.t.Effect
	}
}

// noteMapped remembers a page and transitions written into app's map.
func (s *Session) noteMapped(app, key, id string, trs []plannedTransition) {
	if s.mapped == nil {
		s.mapped = map[string]*mapped{}
	}
	m := s.mapped[app]
	if m == nil {
		m = &mapped{pages: map[string]string{}, trans: map[string]bool{}}
		s.mapped[app] = m
	}
	m.pages[key] = id
	for _, t := range trs {
		m.trans[t.t.From+"\x00"+actionKey(t.t.Action)+"\x00"+t.t.To] = true
	}
}

// Mapped is what a session wrote into one app's map: the same pages and transitions
// `fairy map list` counts, for a map the session started empty.
type Mapped struct {
	Pages       map[string]string // page key → the map's page ID (p1, p2, …)
	Transitions int               // distinct transitions, each recorded as a success or a failure
}

// mappedPages returns what the session wrote into app's map so far.
func (s *Session) Mapped(app string) Mapped {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Mapped{Pages: map[string]string{}}
	if m := s.mapped[app]; m != nil {
		maps.Copy(out.Pages, m.pages)
		out.Transitions = len(m.trans)
	}
	return out
}

// plannedTransition is one RecordTransition to make.
type plannedTransition struct {
	t       knowledge.Transition
	success bool
}

// transitions works out what the actions taken on page before did, given the page after.
// Every action but the last of a batch must stay on its page (typing, focusing a field)
// for the map to know where it acted; a batch that moved on earlier is recorded up to the
// move only. An action the device refused counts against what the map expected of it.
// origin is the page before was opened from, when originKnown.
func (s *Session) transitions(app string, before, after observation, acts []event.ActionExecuted, origin string, originKnown bool) []plannedTransition {
	var out []plannedTransition
	from := before.key()
	typed := false
	for i, a := range acts {
		k, ok := mapAction(a.Action, a.Element)
		if !ok {
			continue
		}
		if a.Err != "" {
			out = append(out, s.expectedFailures(app, from, k, "")...)
			break
		}
		last := i == len(acts)-1
		if !last && !inPage(k) {
			s.l.log.Debug("batch moved on before its last action; rest not mapped", logApp, app, logStep, before.step)
			break
		}
		to, eff := from, knowledge.EffectSamePage
		var deed knowledge.Deed
		if last {
			to, eff = after.key(), effect(before, after)
			if typed && !inPage(k) {
				// Where it led depends on what was typed first: not replayable alone.
				k.Args = withArg(k.Args, argAfter, afterInput)
			}
			why := sideEffectOf(k, a, before, after, origin, originKnown, typed)
			if deed = deedOf(k, a, before, after, s.shown[app+"\x00"+after.key()], s.typedBefore(app, before, acts[:i])); !deed.IsZero() && why == "" {
				why = effectSensitive // it did what cannot be taken back
			}
			if why != "" {
				// It did something (added to the cart, toggled, sent): an effect, never
				// a route.
				k.Args = withArg(k.Args, knowledge.ArgSideEffect, why)
			}
		}
		if k.Kind == knowledge.ActionInput {
			typed = true
		}
		out = append(out, s.expectedFailures(app, from, k, to)...)
		out = append(out, plannedTransition{t: knowledge.Transition{From: from, To: to, Action: k, Effect: eff, Deed: deed}, success: true})
	}
	return out
}

// The transition argument that marks an action whose effect depended on text typed just
// before it in the same batch (a search's Enter). Such a transition is never replayed.
const (
	argAfter   = "after"
	afterInput = "input"
)

func withArg(args map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(args)+1)
	for a, b := range args {
		out[a] = b
	}
	out[k] = v
	return out
}

// expectedFailures returns a failure for every known transition of action k on page from
// that did not lead to page to this time: a failed action, or one that led elsewhere,
// lowers the reliability of what the map expected of it. Each failure keeps the known
// transition's effect, so an action once seen to stay on its page (a dead tap) is counted
// against as what it is, a same-page transition.
func (s *Session) expectedFailures(app, from string, k knowledge.Action, to string) []plannedTransition {
	var out []plannedTransition
	dests := s.known(app)[from+"\x00"+actionKey(k)]
	keys := make([]string, 0, len(dests))
	for d := range dests {
		if d != to {
			keys = append(keys, d)
		}
	}
	sort.Strings(keys)
	for _, d := range keys {
		eff := dests[d]
		switch {
		case d != from:
			eff = knowledge.EffectNewPage
		case eff != knowledge.EffectSamePage && eff != knowledge.EffectNoChange:
			eff = knowledge.EffectSamePage
		}
		out = append(out, plannedTransition{t: knowledge.Transition{From: from, To: d, Action: k, Effect: eff}, success: false})
	}
	return out
}

// known returns the app's transitions the session knows, as from+action → destination →
// effect, loading them from the store on first use.
func (s *Session) known(app string) map[string]map[string]knowledge.Effect {
	if m, ok := s.edges[app]; ok {
		return m
	}
	m := map[string]map[string]knowledge.Effect{}
	if mp, err := s.l.cfg.Store.Map(app); err == nil {
		for _, t := range mp.Transitions {
			k := t.From + "\x00" + actionKey(t.Action)
			if m[k] == nil {
				m[k] = map[string]knowledge.Effect{}
			}
			m[k][t.To] = t.Effect
		}
	} else {
		s.l.log.Warn("app map load failed", logApp, app, logErr, err)
	}
	s.edges[app] = m
	return m
}

// actionKey is an action's identity within a page: kind, target and arguments.
func actionKey(a knowledge.Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%s|%s", a.Kind, a.Target.ResourceID, a.Target.Text, a.Target.Desc, a.Target.Class)
	keys := make([]string, 0, len(a.Args))
	for k := range a.Args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "|%s=%s", k, a.Args[k])
	}
	return b.String()
}

// typedBefore is the text typed on page before (of app) before the action that follows
// acts, its batch's earlier actions: in earlier steps on the page, and in acts.
func (s *Session) typedBefore(app string, before observation, acts []event.ActionExecuted) []string {
	var out []string
	if s.typedOn == app+"\x00"+before.key() {
		out = append(out, s.typed...)
	}
	for _, a := range acts {
		if a.Action.Type == event.Input && a.Err == "" && a.Action.Text != "" {
			out = append(out, a.Action.Text)
		}
	}
	return out
}

// noteShown remembers what page now shows and the text typed on it: the text typed on
// page prev by acts carries over when the step stayed on it, and is dropped when the step
// left it.
func (s *Session) noteShown(app string, prev *observation, prevApp string, now observation, acts []event.ActionExecuted) {
	if s.shown == nil {
		s.shown = map[string]string{}
	}
	if len(s.shown) >= maxShownPages {
		clear(s.shown) // a long session: what it saw long ago tells nothing of a row now
	}
	s.shown[app+"\x00"+now.key()] = now.text
	here := app + "\x00" + now.key()
	if prev == nil || prevApp != app || prev.key() != now.key() {
		s.typed, s.typedOn = nil, here
		return
	}
	if s.typedOn != here {
		s.typed, s.typedOn = nil, here
	}
	for _, a := range acts {
		if a.Action.Type == event.Input && a.Err == "" && a.Action.Text != "" && len(s.typed) < maxTypedKept {
			s.typed = append(s.typed, a.Action.Text)
		}
	}
}

// How much noteShown keeps.
const (
	maxShownPages = 512
	maxTypedKept  = 16
)
