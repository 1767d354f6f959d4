package learner

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/prompts"
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
	routes map[routeKey][]Step // replayable routes the session's hints offered
	// pictured holds the pages (app, key) whose picture this session filed or found fresh.
	pictured map[string]bool
	// mapped holds, per app, the pages (key → map ID) and transitions (key) this session
	// wrote into the map.
	mapped map[string]*mapped
	// stepped is the transition that moved the run to the page of step steppedAt (the last
	// action of the step before, when it opened another page), in app steppedApp: the one
	// a result A for that step's sub-goal is credited to.
	stepped    *knowledge.Transition
	steppedAt  int
	steppedApp string
	// shown holds, by app and page key, the text each page showed when last seen: a
	// dialog's Delete returns to the list it was opened over, one row short (deeds.go).
	shown map[string]string
	// typed is the text typed on the page typedOn (app and key) since it was reached: a
	// send shows it as a new line.
	typed   []string
	typedOn string
}

// servedGoal is a transition that completed a sub-goal in the task under way: written to
// the map only when the run confirms the task.
type servedGoal struct {
	app  string
	t    knowledge.Transition
	goal string
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
	refusals     []refusal    // the consents the person refused
	end          string       // the signature of the last screen perceived
	endText      string       // its text form
	outcome      event.Outcome
	reason       string
	answer       string
	nsteps       int
	finished     bool
	usesCounted  bool
	routined     bool     // its routine was stored
	checkFailed  bool     // a finish check failed
	ran          []string // the routines replayed in the task (their ids)
	demoted      []string // the routines demoted in the task: no confirmation from it
	learned      bool
	goals        []servedGoal // the sub-goals its transitions completed, written when confirmed
	filed        []servedGoal // those written
	routine      string       // the id of the routine stored from it
	unpredicted  []int        // steps whose page the App Map had predicted otherwise
	tricks       []string     // the ids of the tricks added from it
	handedOver   bool         // the phone was handed to the person during the task
}

// refusal is a consent the person refused in a task.
type refusal struct {
	acts     int    // how many actions had run before it
	category string // the guard's category of the refused action
	action   bool   // the person then granted another kind of action on that page
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
	case event.HandOver:
		if s.task != nil {
			s.task.handedOver = true
		}
		// The screen changed under the person's hands: no action of the agent leads from
		// the page before to the page after.
		s.cur, s.pending = nil, nil
	case event.Planned:
		if st := s.step(e.Step); st != nil {
			st.plan, st.subgoal = append([]string(nil), e.Plan...), e.Subgoal
		}
	case event.Reflected:
		if st := s.step(e.Step - 1); st != nil && e.Result != "" {
			st.result, st.reflection = e.Result, e.Reflection
			s.creditGoal(e, st.subgoal)
		}
	case event.ActionExecuted:
		if s.cur != nil && e.Step == s.cur.step {
			s.pending = append(s.pending, e)
		}
		if s.task != nil && e.Err == "" {
			a := routineAct{step: e.Step, signature: e.Signature, action: e.Action, el: e.Element, consent: e.Consent}
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
			// The routine met a surprise: it is demoted at once.
			if err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.RoutineStopped(e.App, e.ID) }); err != nil {
				s.l.log.Warn("routine stop not counted", logApp, e.App, logErr, err)
			}
			if s.task != nil {
				s.task.demoted = append(s.task.demoted, e.ID)
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
				s.demoteRan()
			}
		}
	case event.ConfirmationOpened:
		if s.task != nil && len(s.task.acts) > 0 {
			if last := &s.task.acts[len(s.task.acts)-1]; last.consent == e.Category {
				last.toward = true
			}
		}
	case event.Unpredicted:
		if s.task != nil {
			// A page the map did not predict: no sub-goal is credited to the step that led
			// there, and the trajectory met a surprise.
			s.task.unpredicted = append(s.task.unpredicted, e.Step)
			s.task.recoveries = append(s.task.recoveries, fmt.Sprintf("step %d: the App Map expected another page", e.Step))
		}
	case event.FinishChecked:
		if s.task != nil && !e.Passed {
			s.demoteRan() // a replay that led to a finish check that failed
			s.task.checkFailed = true
			s.task.recoveries = append(s.task.recoveries, fmt.Sprintf("step %d: finish check failed: %s", e.Step, e.Reason))
		}
	case event.TaskFinished:
		if s.task != nil {
			s.task.outcome, s.task.reason, s.task.nsteps, s.task.answer = e.Outcome, e.Reason, e.Steps, e.Answer
			if e.Outcome != event.OutcomeDone {
				s.demoteRan() // the task a replay was part of failed
			}
			s.task.finished = true
			s.closeTask()
		}
		s.cur, s.pending = nil, nil
	}
}

// demoteRan demotes, at once, the routines the task under way replayed (s.mu held): what
// they did led to a refused consent, a failed finish check or a failed task. They are
// not offered again until clean runs confirm them again, and this task confirms none.
func (s *Session) demoteRan() {
	t := s.task
	if t == nil {
		return
	}
	for _, id := range t.ran {
		app := t.app
		if err := s.l.cfg.Store.Update(func(tx *knowledge.Tx) error { return tx.RoutineDemoted(app, id) }); err != nil && !errors.Is(err, knowledge.ErrNotFound) {
			s.l.log.Warn("routine not demoted", logApp, app, logErr, err)
		}
		t.demoted = append(t.demoted, id)
	}
	t.ran = nil
}

// creditGoal keeps, for the task under way, the transition that completed the sub-goal of
// the step before when the Re-Planner (or the App Map) judged it done (A). A later C or D
// (a wrong page, a failure) takes back the last sub-goal credited: the page it led to was
// not where the task needed to be, whatever the verdict before said.
func (s *Session) creditGoal(e event.Reflected, goal string) {
	if s.task == nil {
		return
	}
	switch e.Result {
	case "A":
		if s.stepped != nil && s.steppedAt == e.Step && strings.TrimSpace(goal) != "" && !slices.Contains(s.task.unpredicted, e.Step) {
			s.task.goals = append(s.task.goals, servedGoal{app: s.steppedApp, t: *s.stepped, goal: goal})
		}
	case "C", "D":
		if n := len(s.task.goals); n > 0 {
			s.task.goals = s.task.goals[:n-1]
		}
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
		} else {
			t.refusals = append(t.refusals, refusal{acts: len(t.acts), category: e.Consent.Category})
		}
		if n := len(t.refusals); e.Consent.Granted && n > 0 {
			// The person refused one kind of action and, with nothing done since, granted
			// another kind on the same page: what they refused was the action (a wrong
			// tap on Call while sending), not the page the trajectory had reached.
			if r := &t.refusals[n-1]; r.acts == len(t.acts) && r.category != e.Consent.Category {
				r.action = true
			}
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
