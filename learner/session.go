package learner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
	"github.com/fairy-go/fairy/replay"
)

// Session is the learner's part in one run. Attached to the run's bus it updates the App
// Map at every perceived screen (one knowledge transaction per step, no model) and keeps
// each app task's trajectory; as the executor's Tricks and Hints it remembers which tricks
// the run was given. After a task (or the run) ends, Learn distils tricks from the
// trajectories. Safe for concurrent use.
type Session struct {
	l *Learner

	mu          sync.Mutex
	runID       string
	instruction string
	cur         *observation           // the screen of the current step
	curApp      string                 // the app its page is filed under
	pending     []event.ActionExecuted // actions taken on cur
	// origins holds, by app and page key, the page each page was last opened from going
	// forward in this session ("" for an app's entry page, which nothing opened). A page
	// not in it (the run started there, inside the app) has an unknown way in.
	origins map[string]string
	task    *taskTrace        // the app task under way
	done    []*taskTrace      // finished tasks, learned or not
	early   []knowledge.Trick // tricks given before the first app task (global planning)
	// edges holds the transitions known per app: from+action → destination → effect.
	edges  map[string]map[string]map[string]knowledge.Effect
	errs   []error
	routes map[routeKey][]step // replayable routes the session's hints offered
	// pictured holds the pages (app, key) whose picture this session filed or found fresh.
	pictured map[string]bool
	// mapped holds, per app, the pages (key → map ID) and transitions (key) this session
	// wrote into the map.
	mapped map[string]*mapped
}

// mapped is what a session wrote into one app's map.
type mapped struct {
	pages map[string]string
	trans map[string]bool
}

// taskTrace is one app task's trajectory as the learner keeps it.
type taskTrace struct {
	index        int
	app          string
	task         string
	instruction  string
	steps        []*stepTrace
	served       map[string]knowledge.Trick // tricks put into the task's prompts, by ID
	servedOrder  []string
	interactions []prompts.Interaction
	asking       *prompts.Interaction // the interaction under way
	recoveries   []string
	acts         []routineAct // the actions run, for the task's routine
	end          string       // the signature of the last screen perceived
	outcome      event.Outcome
	reason       string
	answer       string
	nsteps       int
	finished     bool
	usesCounted  bool
	routined     bool     // its routine was stored
	checkFailed  bool     // a finish check failed
	ran          []string // the routines replayed in the task (their ids)
	learned      bool
}

// stepTrace is one step of a trajectory.
type stepTrace struct {
	step       int
	page       string
	plan       []string
	subgoal    string
	actions    []string
	result     string
	reflection string
}

// Start begins a Session for one run. runID and instruction may be empty: a RunStarted
// event fills them.
func (l *Learner) Start(runID, instruction string) *Session {
	return &Session{l: l, runID: runID, instruction: instruction, edges: map[string]map[string]map[string]knowledge.Effect{}}
}

// Attach subscribes the session to the run's bus and returns the unsubscribe function.
func (s *Session) Attach(bus *event.Bus) (unsubscribe func()) { return bus.Subscribe(s.Handle) }

// Err returns the App Map writes that failed so far (joined), or nil. A failed write
// never stops the run; it only costs that step's map update, or only the transition when
// the knowledge file refuses one of the step's transitions.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

// Handle applies one event of the run. It writes to the knowledge file on ScreenPerceived
// (the page and the transitions of the step before), and only records otherwise.
func (s *Session) Handle(r event.Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch e := r.Event.(type) {
	case event.RunStarted:
		if e.RunID != "" {
			s.runID = e.RunID
		}
		if e.Instruction != "" {
			s.instruction = e.Instruction
		}
	case event.AppTaskStarted:
		s.closeTask()
		s.task = &taskTrace{index: e.Index, app: e.Task.App, task: e.Task.Task, instruction: e.Instruction,
			served: map[string]knowledge.Trick{}}
		if s.instruction == "" {
			s.instruction = e.Instruction
		}
		for _, tr := range s.early {
			s.task.serve(tr)
		}
		s.early = nil
		// The Task Manager moved to another app: no transition links the two screens.
		s.cur, s.pending = nil, nil
		s.origins = nil
	case event.ScreenPerceived:
		s.perceived(e)
	case event.Planned:
		if st := s.step(e.Step); st != nil {
			st.plan, st.subgoal = append([]string(nil), e.Plan...), e.Subgoal
		}
	case event.Reflected:
		if st := s.step(e.Step - 1); st != nil && e.Result != "" {
			st.result, st.reflection = e.Result, e.Reflection
		}
	case event.ActionExecuted:
		if s.cur != nil && e.Step == s.cur.step {
			s.pending = append(s.pending, e)
		}
		if s.task != nil && e.Err == "" {
			a := routineAct{signature: e.Signature, action: e.Action, el: e.Element}
			if s.cur != nil && s.cur.signature == e.Signature {
				a.activity = s.cur.activity
				if on, ok := checkedOnScreen(s.cur.text, e.Action.Index); ok && e.Action.Type == event.Tap {
					a.checked = &on
				}
			}
			s.task.acts = append(s.task.acts, a)
		}
		if st := s.step(e.Step); st != nil {
			line := e.Action.String()
			if e.Action.Type == event.Input {
				line = fmt.Sprintf("Input(%d, <text>)", e.Action.Index) // typed text stays out of the knowledge
			}
			if e.Element != nil {
				line += " on " + target(e.Element).String()
			}
			if e.Err != "" {
				line += " → failed: " + e.Err
			}
			st.actions = append(st.actions, line)
		}
	case event.ActionRejected:
		if st := s.step(e.Step); st != nil {
			st.actions = append(st.actions, fmt.Sprintf("%s rejected: %s", e.Action.Type, e.Reason))
		}
	case event.RoutineRan:
		if s.task != nil && e.ID != "" && !slices.Contains(s.task.ran, e.ID) {
			s.task.ran = append(s.task.ran, e.ID)
		}
		if e.Stopped != "" && !e.Held {
			// The routine met a surprise: it counts against it.
			if err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.RoutineStopped(e.App, e.ID) }); err != nil {
				s.l.log.Warn("routine stop not counted", logApp, e.App, logErr, err)
			}
			if s.task != nil {
				s.task.recoveries = append(s.task.recoveries, fmt.Sprintf("step %d: the routine %q stopped: %s", e.Step, e.Name, e.Stopped))
			}
		}
	case event.LoopBroken:
		if s.task != nil {
			s.task.recoveries = append(s.task.recoveries,
				fmt.Sprintf("step %d: %s kept coming back on the same page; remedy: %s", e.Step, e.Action.Type, e.Remedy))
		}
	case event.InteractionAsked:
		if s.cur != nil && s.curApp != "" && (s.task == nil || s.task.asking == nil) {
			// A page where the person had to be asked is never confirmed from the map.
			app, key := s.curApp, s.cur.key()
			if err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.PageAsked(app, key) }); err != nil && !errors.Is(err, knowledge.ErrNotFound) {
				s.l.log.Warn("question not filed on its page", logApp, app, logErr, err)
			}
		}
		if s.task != nil {
			if s.task.asking == nil {
				s.task.asking = &prompts.Interaction{Step: e.Step, Type: e.Type}
			}
			x := s.task.asking
			x.Turns = append(x.Turns, memory.Turn{Question: e.Question, Options: append([]string(nil), e.Options...)})
		}
	case event.InteractionAnswered:
		if s.task != nil && s.task.asking != nil && len(s.task.asking.Turns) > 0 {
			s.task.asking.Turns[len(s.task.asking.Turns)-1].Answer = e.Answer
		}
	case event.InteractionEnded:
		if s.task != nil {
			s.task.endInteraction(e)
			if e.Consent != nil && !e.Consent.Granted {
				// What a replayed routine did led to a consent the person refused.
				for _, id := range s.task.ran {
					app := s.task.app
					if err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.RoutineDemoted(app, id) }); err != nil {
						s.l.log.Warn("routine not demoted", logApp, app, logErr, err)
					}
				}
				s.task.ran = nil
			}
		}
	case event.FinishChecked:
		if s.task != nil && !e.Passed {
			s.task.checkFailed = true
			s.task.recoveries = append(s.task.recoveries, fmt.Sprintf("step %d: finish check failed: %s", e.Step, e.Reason))
		}
	case event.TaskFinished:
		if s.task != nil {
			s.task.outcome, s.task.reason, s.task.nsteps, s.task.answer = e.Outcome, e.Reason, e.Steps, e.Answer
			s.task.finished = true
			s.closeTask()
		}
		s.cur, s.pending = nil, nil
	}
}

// endInteraction files the interaction under way with how it ended; one that ended
// before any question and settled nothing is left out.
func (t *taskTrace) endInteraction(e event.InteractionEnded) {
	x := t.asking
	t.asking = nil
	if x == nil {
		x = &prompts.Interaction{Step: e.Step}
	}
	if len(x.Turns) == 0 && !e.Settled {
		return
	}
	x.Subgoal, x.Settled, x.Summary, x.Category = e.Subgoal, e.Settled, e.Summary, e.Category
	if e.Consent != nil {
		x.Consent = prompts.ConsentRefused
		if e.Consent.Granted {
			x.Consent = prompts.ConsentGranted
		}
		if x.Category == "" {
			x.Category = e.Consent.Category
		}
	}
	t.interactions = append(t.interactions, *x)
}

// closeTask moves the task under way to the finished list.
func (s *Session) closeTask() {
	if s.task == nil {
		return
	}
	if !s.task.finished {
		// A task that ended without TaskFinished (the run was cut) counts as stopped.
		s.task.outcome, s.task.finished = event.OutcomeStopped, true
	}
	s.done = append(s.done, s.task)
	s.task = nil
}

// step returns the trace of step n of the task under way, or nil.
func (s *Session) step(n int) *stepTrace {
	if s.task == nil {
		return nil
	}
	for i := len(s.task.steps) - 1; i >= 0; i-- {
		if s.task.steps[i].step == n {
			return s.task.steps[i]
		}
	}
	return nil
}

// perceived records the new screen and what the last step's actions did, in one
// transaction.
func (s *Session) perceived(e event.ScreenPerceived) {
	now := observation{step: e.Step, pkg: e.Package, activity: e.Activity, signature: e.Signature, text: e.Text}
	taskApp := ""
	if s.task != nil {
		taskApp = s.task.app
		s.task.steps = append(s.task.steps, &stepTrace{step: e.Step, page: now.page().Description})
		s.task.end = e.Signature
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

// mappedPages is what a session wrote into one app's map: the same pages and transitions
// `fairy map list` counts, for a map the session started empty.
type mappedPages struct {
	Pages       map[string]string // page key → the map's page ID (p1, p2, …)
	Transitions int               // distinct transitions, each recorded as a success or a failure
}

// mappedPages returns what the session wrote into app's map so far.
func (s *Session) Mapped(app string) mappedPages {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := mappedPages{Pages: map[string]string{}}
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
		if last {
			to, eff = after.key(), effect(before, after)
			if typed && !inPage(k) {
				// Where it led depends on what was typed first: not replayable alone.
				k.Args = withArg(k.Args, argAfter, afterInput)
			}
			if why := sideEffectOf(k, a, before, after, origin, originKnown, typed); why != "" {
				// It did something (added to the cart, toggled, sent): an effect, never
				// a route.
				k.Args = withArg(k.Args, knowledge.ArgSideEffect, why)
			}
		}
		if k.Kind == knowledge.ActionInput {
			typed = true
		}
		out = append(out, s.expectedFailures(app, from, k, to)...)
		out = append(out, plannedTransition{t: knowledge.Transition{From: from, To: to, Action: k, Effect: eff}, success: true})
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
			s.routes = map[routeKey][]step{}
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
func replaySteps(steps []step) []replay.Step {
	if steps == nil {
		return nil
	}
	out := make([]replay.Step, len(steps))
	for i, st := range steps {
		out[i] = st
	}
	return out
}
