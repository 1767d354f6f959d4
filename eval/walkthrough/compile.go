package walkthrough

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm/scripted"
	"github.com/fairy-go/fairy/prompts"
)

// Rules compiles the walkthrough of a task into scripted rules: the Global Planner's plan
// and adjustments, then each app task's rules for the Re-Planner, the Action Decider, the
// Key Context Collector and the User Interactor. instruction is the task's (an app task
// without Task is the whole instruction). With noNavigate no step takes its navigate
// shortcut: the decider acts step by step, also when a hint offers a learned way.
func Rules(instruction string, walk []Task, noNavigate bool) ([]scripted.Rule, error) {
	if len(walk) == 0 {
		return nil, nil
	}
	c := &walkCompiler{noNavigate: noNavigate}
	if err := c.planner(instruction, walk); err != nil {
		return nil, err
	}
	for wi := range walk {
		if err := c.appTask(wi, &walk[wi]); err != nil {
			return nil, fmt.Errorf("walk %d: %w", wi+1, err)
		}
	}
	c.interactor()
	return c.rules, nil
}

// walkCompiler collects the rules of one task's walkthrough.
type walkCompiler struct {
	rules      []scripted.Rule
	noNavigate bool // WithoutNavigate: no step takes its navigate shortcut
}

func (c *walkCompiler) add(name, role string, m *matcher, not []string, answer string) {
	c.rules = append(c.rules, scripted.Rule{Name: name, Role: role, Match: m.patterns(), Not: not, Answer: answer})
}

// planner adds the Global Planner's plan and its adjustments after each app task.
func (c *walkCompiler) planner(instruction string, walk []Task) error {
	var plan []event.AppTask
	for i, w := range walk {
		if w.App == "" {
			return fmt.Errorf("walk %d: no app", i+1)
		}
		task := w.Task
		if task == "" {
			task = instruction
		}
		plan = append(plan, event.AppTask{App: w.App, Task: task, Produces: w.Produces})
	}
	c.add("walk: plan", prompts.NamePlanner, mustMatch(line(prompts.MarkPhase, prompts.PhasePlan)), nil,
		typedAnswer(prompts.PlannerAnswer{Thought: "walkthrough", Status: prompts.StatusContinue, Tasks: plan, Next: 0}, nil))
	adjust := line(prompts.MarkPhase, prompts.PhaseAdjust)
	finished := finishedTask
	// A failed app task ends the instruction: no later rule may take it for a done one.
	failed := `(?:` + string(event.OutcomeFailed) + `|` + string(event.OutcomeStopped) + `)`
	for i, w := range walk {
		c.add(fmt.Sprintf("walk: adjust after task %d: failed", i), prompts.NamePlanner, mustMatch(adjust, finished(i, w.App, failed)), nil,
			typedAnswer(prompts.PlannerAnswer{Thought: "an app task failed", Status: prompts.StatusImpossible, Tasks: []event.AppTask{}, Next: -1,
				Reason: fmt.Sprintf("app task %d in %s failed", i+1, w.App)}, nil))
	}
	for i := len(walk) - 1; i >= 0; i-- {
		done := finished(i, walk[i].App, string(event.OutcomeDone))
		if i == len(walk)-1 {
			c.add(fmt.Sprintf("walk: adjust after task %d: done", i), prompts.NamePlanner, mustMatch(adjust, done), nil,
				typedAnswer(prompts.PlannerAnswer{Thought: "every app task is done", Status: prompts.StatusDone, Tasks: []event.AppTask{}, Next: -1,
					Progress: "all done", Reason: "done"}, nil))
			continue
		}
		c.add(fmt.Sprintf("walk: adjust after task %d", i), prompts.NamePlanner, mustMatch(adjust, done), nil,
			typedAnswer(prompts.PlannerAnswer{Thought: "next app task", Status: prompts.StatusContinue, Tasks: []event.AppTask{}, Next: i + 1,
				Progress: fmt.Sprintf("%d of %d app tasks done", i+1, len(walk))}, nil))
	}
	return nil
}

// finishedTask matches the Global Planner's line for finished app task i in app with one of
// the outcomes (a regexp alternation). A task's text may hold line breaks (a task that adds
// records, one block a record): its lines after the first are blank or never start with a digit, while
// the next task's line does ("1. [app] …"), so the match never runs into the next task.
func finishedTask(i int, app, outcome string) string {
	return `(?ms)^` + regexp.QuoteMeta(prompts.MarkFinishedTasks) + `$.*^` + strconv.Itoa(i) + `\. \[` + regexp.QuoteMeta(app) +
		`\][^\n]*(?:\n(?:[^0-9\n][^\n]*)?)* — (?:` + outcome + `)`
}

// appTask adds the Re-Planner's, the decider's, the collector's and the interactor's rules
// of one app task.
func (c *walkCompiler) appTask(wi int, w *Task) error {
	marker := taskMarker(w.App)
	var subgoals []string
	asks := map[string]*Ask{}
	for si, s := range w.Steps {
		name := fmt.Sprintf("step %d (%s)", si+1, s.Subgoal)
		if s.Subgoal == "" || s.Screen == "" {
			return fmt.Errorf("%s: a step needs screen and subgoal", name)
		}
		for what, p := range map[string]string{"screen": s.Screen, "when": s.When, "unless": s.Unless, "without": s.Without, "navigate": s.Navigate} {
			if _, err := regexp.Compile(p); err != nil {
				return fmt.Errorf("%s: %s: %v", name, what, err)
			}
		}
		if a := s.Ask; a != nil {
			if a.Type < 1 || a.Type > 4 || a.Reason == "" {
				return fmt.Errorf("%s: ask needs a type 1–4 and a reason", name)
			}
			if a.As != "" {
				if !groupName.MatchString(a.As) || asks[a.As] != nil {
					return fmt.Errorf("%s: ask as %q: a name of letters, digits and _ used once", name, a.As)
				}
				asks[a.As] = a
			}
		}
		subgoals = append(subgoals, s.Subgoal)
	}
	reply := func(result, subgoal, reflection string, interaction int, reason string) string {
		return typedAnswer(prompts.ReplannerAnswer{Result: result, Reflection: reflection, Progress: "at: " + subgoal,
			Plan: subgoals, Subgoal: subgoal, Interaction: interaction, Reason: reason}, nil)
	}
	for _, p := range []string{w.Done, w.Unless} {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("done: %v", err)
		}
	}
	// The executor's note that the last action acted on another row than the task names
	// (another note, expense or event of the same list): a capable model reads it and goes
	// back, whatever the page looks like.
	c.add(fmt.Sprintf("walk %d: acted on another row", wi+1), prompts.NameReplanner, mustMatch(marker, regexp.QuoteMeta(prompts.MarkOffTask)), nil,
		reply("C", lostSubgoal, "walkthrough: the last action acted on another row than the task names", 0, ""))
	if w.Done != "" {
		var not []string
		if w.Unless != "" {
			not = append(not, inScreen(w.Unless))
		}
		c.add(fmt.Sprintf("walk %d: finished", wi+1), prompts.NameReplanner, mustMatch(marker, inScreen(w.Done)), not,
			reply("A", prompts.Finished, "walkthrough: the app task is done", 0, ""))
		// The finish check a capable model gives reads the final screen: the app task is
		// done only where the screen shows it (Done, not Unless). A screen that does not is
		// "not done", whatever led there (a false Finished, a routine's end page).
		notDone := typedAnswer(prompts.CheckerAnswer{Passed: false, Reason: "walkthrough: the final screen does not show the app task done"}, nil)
		c.add(fmt.Sprintf("walk %d: finish check: not shown done", wi+1), prompts.NameChecker, mustMatch(marker), []string{inScreen(w.Done)}, notDone)
		if w.Unless != "" {
			c.add(fmt.Sprintf("walk %d: finish check: not done yet", wi+1), prompts.NameChecker, mustMatch(marker, inScreen(w.Unless)), nil, notDone)
		}
	}
	if !c.noNavigate {
		// A routine the prompt says fits this task is what a capable model takes: the
		// learned steps of this very task, from this screen.
		// Not once the prompt says a routine it chose could not run: a capable model reads
		// that note and goes on step by step.
		c.add(fmt.Sprintf("walk %d: run the fitting routine", wi+1), prompts.NameReplanner, mustMatch(routinePattern, marker), []string{regexp.QuoteMeta(prompts.MarkRoutineRefused)},
			routineReply(subgoals))
	}
	for si := len(w.Steps) - 1; si >= 0; si-- {
		s := &w.Steps[si]
		name := fmt.Sprintf("walk %d step %d (%s)", wi+1, si+1, s.Subgoal)
		at := func() *matcher {
			m := mustMatch(marker, inScreen(s.Screen))
			if s.When != "" {
				m.add(s.When)
			}
			return m
		}
		var not []string
		if s.Unless != "" {
			not = append(not, s.Unless)
		}
		if s.Without != "" {
			not = append(not, inScreen(s.Without))
		}
		if a := s.Ask; a != nil {
			c.add(name+": ask", prompts.NameReplanner, at(), append(append([]string(nil), not...), answeredPattern(a.Reason, nil, "")),
				reply("B", s.Subgoal, "walkthrough: "+s.Subgoal+" needs the person", a.Type, a.Reason))
			c.ask(name, a)
		}
		c.add(name+": no change", prompts.NameReplanner, at().with(line(prompts.MarkScreenChange, prompts.ChangeNone)), not,
			reply("D", s.Subgoal, "walkthrough: the screen did not change", 0, ""))
		if later := laterSubgoals(w.Steps, si); len(later) > 0 && !s.Loop {
			c.add(name+": wrong page", prompts.NameReplanner, at().with(`(?m)^`+regexp.QuoteMeta(prompts.MarkSubgoal)+`(?:`+strings.Join(later, "|")+`)$`), not,
				reply("C", s.Subgoal, "walkthrough: wrong page, this is the screen of an earlier sub-goal", 0, ""))
		}
		c.add(name, prompts.NameReplanner, at(), not, reply("A", s.Subgoal, "walkthrough: "+s.Subgoal, 0, ""))
		if err := c.decider(name, marker, w, si, asks); err != nil {
			return err
		}
		if len(s.Facts) > 0 {
			m := mustMatch(marker, inScreen(s.Screen))
			var sl slots
			var facts []event.Fact
			for _, k := range slices.Sorted(maps.Keys(s.Facts)) {
				v, err := sl.text(s.Facts[k], m, s, asks)
				if err != nil {
					return fmt.Errorf("%s: fact %q: %w", name, k, err)
				}
				facts = append(facts, event.Fact{Key: k, Value: v})
			}
			c.add(name+": facts", prompts.NameExtractor, m, nil, typedAnswer(prompts.ExtractorAnswer{Facts: facts}, sl))
		}
	}
	// A screen no step knows: say so, and go back.
	c.add(fmt.Sprintf("walk %d: lost", wi+1), prompts.NameReplanner, mustMatch(marker), nil,
		reply("C", lostSubgoal, "walkthrough: wrong page, no step of the walkthrough knows this screen", 0, ""))
	c.add(fmt.Sprintf("walk %d: lost", wi+1), prompts.NameDecider, mustMatch(marker), nil,
		typedAnswer(prompts.DeciderAnswer{Thought: "the walkthrough does not know this screen", Actions: []event.Action{{Type: event.Back}},
			Expect: "an earlier screen of the walkthrough"}, nil))
	return nil
}

// routineReply is the Re-Planner's answer that runs the fitting routine.
func routineReply(subgoals []string) string {
	var sl slots
	const argsMark = "\x00args\x00"
	out := typedAnswer(prompts.ReplannerAnswer{Result: "B", Reflection: "walkthrough: a learned routine does this task", Progress: "running the learned routine",
		Plan: subgoals, Subgoal: "Run the learned routine", Routine: event.Routine{Name: sl.expr("match 1"), Args: []string{argsMark}}}, sl)
	args, _ := json.Marshal([]string{argsMark})
	return strings.Replace(out, string(args), "{{match 2}}", 1)
}

// laterSubgoals lists, as patterns, the sub-goals only steps after si have: with one of
// them current, si's screen means the agent went back or astray. (A sub-goal that comes
// twice, before and after si, tells nothing.)
func laterSubgoals(steps []Step, si int) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range steps[:si+1] {
		seen[s.Subgoal] = true
	}
	for _, s := range steps[si+1:] {
		if !seen[s.Subgoal] {
			seen[s.Subgoal] = true
			out = append(out, regexp.QuoteMeta(s.Subgoal))
		}
	}
	return out
}

// decider adds the Action Decider's rules of step si.
func (c *walkCompiler) decider(name, marker string, w *Task, si int, asks map[string]*Ask) error {
	s := &w.Steps[si]
	subgoal := line(prompts.MarkSubgoal, s.Subgoal)
	expect := s.Expect
	if expect == "" {
		switch {
		case endsWithFinish(s.Do):
			expect = "the app task ends with the answer"
		case si+1 < len(w.Steps):
			expect = "the screen for the next sub-goal: " + w.Steps[si+1].Subgoal
		default:
			expect = "the app task is done"
		}
	}
	if s.Navigate != "" && !c.noNavigate {
		// The hint pattern comes first: its group is {{match 1}}.
		m := mustMatch(hintPattern(s.Navigate), marker, subgoal, inScreen(s.Screen))
		var sl slots
		c.add(name+": take the known way", prompts.NameDecider, m, nil, typedAnswer(prompts.DeciderAnswer{
			Thought: s.Subgoal + ": the App Map knows the way",
			Actions: []event.Action{{Type: event.Navigate, Target: sl.expr("match 1")}},
			Expect:  "the page the App Map hint leads to"}, sl))
	}
	// The decider takes its actions for the step's sub-goal on the step's screen; a slip
	// comes first, once.
	for _, v := range []struct {
		what  string
		do    []string
		times int
	}{{": slip", s.Slip, 1}, {": act", s.Do, 0}} {
		if v.what == ": slip" && len(v.do) == 0 {
			continue
		}
		m := mustMatch(marker, subgoal, inScreen(s.Screen))
		var sl slots
		acts, err := walkActions(v.do, func(arg string) (string, error) { return sl.text(arg, m, s, asks) },
			func(label string) (int, error) { return sl.index(label, m, s, asks) })
		if err != nil {
			return fmt.Errorf("%s%s: %w", name, v.what, err)
		}
		exp, err := sl.text(expect, m, s, asks)
		if err != nil {
			return fmt.Errorf("%s: expect: %w", name, err)
		}
		c.add(name+v.what, prompts.NameDecider, m, nil, typedAnswer(prompts.DeciderAnswer{Thought: s.Subgoal, Actions: acts, Expect: exp}, sl))
		c.rules[len(c.rules)-1].Times = v.times
	}
	return nil
}

// ask adds the interactor's rules for a step's question: the question, then the summary
// of the person's answer that the walk reads back from the instruction stack. A consent
// question's reason may go on (the one action a yes allows), so the reason is a prefix.
func (c *walkCompiler) ask(name string, a *Ask) {
	why := `(?m)^` + regexp.QuoteMeta(prompts.MarkWhyAsk+a.Reason)
	if a.Question != "" || len(a.Options) > 0 {
		q := a.Question
		if q == "" {
			q = a.Reason + "?"
		}
		opts := a.Options
		if opts == nil {
			opts = []string{}
		}
		c.add(name+": question", prompts.NameInteractor, mustMatch(why), []string{personPattern},
			typedAnswer(prompts.InteractorAnswer{Status: "B", Question: q, Options: opts}, nil))
	}
	c.settle(name, mustMatch(why), quote(a.Reason+answeredMarker))
}

// interactor adds the interactor's rules for any other question (the guard's consent, a
// decider's NeedInteraction): ask it as it stands, then settle with the answer.
func (c *walkCompiler) interactor() {
	why := `(?m)^` + regexp.QuoteMeta(prompts.MarkWhyAsk) + `(?P<why>[^\n]*)`
	var q slots
	c.add("walk: ask the question", prompts.NameInteractor, mustMatch(why), []string{personPattern},
		typedAnswer(prompts.InteractorAnswer{Status: "B", Question: q.expr("match 1"), Options: []string{}}, q))
	c.settle("walk", mustMatch(why), "(match 1) "+quote(answeredMarker))
}

// settle adds the rules that settle a question with the person's last answer: the summary
// is prefix (a template expression) followed by the answer. To a consent question (types 1
// and 2) a plain no is a refusal and a plain yes a grant, read from the answer.
func (c *walkCompiler) settle(name string, m *matcher, prefix string) {
	consent := `(?m)^` + regexp.QuoteMeta(prompts.MarkInteractionType) + `[12] `
	for _, v := range []struct{ name, answer, verdict string }{
		{"refused", consentNo, prompts.ConsentRefused},
		{"granted", consentYes, prompts.ConsentGranted},
		{"settle", "", ""},
	} {
		r := m.with(lastAnswer(v.answer))
		if v.verdict != "" {
			r.add(consent)
		}
		var sl slots
		c.add(name+": "+v.name, prompts.NameInteractor, r, nil, typedAnswer(prompts.InteractorAnswer{
			Status: "A", Options: []string{}, Consent: v.verdict,
			Summary: sl.expr(fmt.Sprintf("print %s (match %d)", prefix, r.groups["person"]))}, sl))
	}
}

func endsWithFinish(do []string) bool {
	return len(do) > 0 && strings.HasPrefix(strings.TrimSpace(do[len(do)-1]), string(event.Finish))
}
