package eval

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

// WalkTask is one app task of a walkthrough: a compact way to write the scripted model's
// rules for a task. Each step says on which screen it applies (a pattern on the screen's
// text form), the sub-goal the Re-Planner names there and the actions the Action Decider
// takes; Done says on which screen the app task is finished. walkRules turns it into
// scripted.Rule values for every role: the Global Planner's plan and adjustments, the
// Re-Planner (state-based: the most advanced matching step wins, so the walk stays right
// after a dead tap, a popped dialog or a learned shortcut; a screen of an earlier step
// while a later step's sub-goal is current is a wrong page, C, and so is a screen no step
// knows), the Action Decider, the Key Context Collector (Facts) and the User Interactor
// (Ask).
//
// The answers are the typed answers of package prompts, and the rules find their way
// through a prompt by its exported markers: a template that stops writing one breaks the
// walkthrough tests.
//
// # Reading values
//
// A quoted argument of Do, a value of Facts and Expect may read what the model would read:
// ${NAME} is the text of the named group NAME ((?P<NAME>…)) of the step's Screen or When
// pattern, or the person's answer to an Ask with `as: NAME` anywhere in the same app task
// (narrowed to the option the person named when the ask lists options). So
// `screen: '"(?P<number>\+[\d -]+)"'` with `do: ['Finish "The number is ${number}"']`
// answers with the number on the screen, and the task's check fails when the screen or its
// reading is wrong.
type WalkTask struct {
	App      string     `yaml:"app"`
	Task     string     `yaml:"task,omitempty"` // default: the instruction
	Produces string     `yaml:"produces,omitempty"`
	Steps    []WalkStep `yaml:"steps"`
	// Done is a pattern on the screen that means the app task is finished ("" when the last
	// step's actions end with Finish).
	Done string `yaml:"done,omitempty"`
	// Unless is a pattern on the screen that keeps Done from matching.
	Unless string `yaml:"unless,omitempty"`
}

// WalkStep is one state of a walkthrough.
type WalkStep struct {
	Screen  string `yaml:"screen"`            // regexp on the current screen's text form
	When    string `yaml:"when,omitempty"`    // regexp on the whole prompt that must match too
	Unless  string `yaml:"unless,omitempty"`  // regexp on the whole prompt that must not match
	Without string `yaml:"without,omitempty"` // regexp the current screen must not match
	Subgoal string `yaml:"subgoal"`
	// Do are the decider's actions: Tap "LABEL", LongPress "LABEL", Clear "LABEL",
	// Input "LABEL" "TEXT", Swipe up|down|left|right, Swipe "LABEL" DIR, Back, Home, Enter,
	// Wait SECONDS, OpenApp PACKAGE, Finish ["ANSWER"], NeedInteraction "REASON". A label is
	// looked up on the screen when the model answers (exact, id, then substring).
	Do []string `yaml:"do"`
	// Slip are actions the decider takes instead of Do the first time it acts here: a
	// mis-tap a recovery task must notice and undo.
	Slip []string `yaml:"slip,omitempty"`
	// Expect is what the screen shows once Do ran (the decider's "expect"); by default the
	// next step's sub-goal, the finished app task after the last step, or the answer after
	// a Finish.
	Expect string `yaml:"expect,omitempty"`
	// Loop marks a step the walk comes back to from a later step as progress (a menu the
	// task returns to for its next item): its screen after a later step is no wrong page.
	Loop bool `yaml:"loop,omitempty"`
	// Ask makes the Re-Planner ask the person here first, until the answer is on the
	// instruction stack.
	Ask *WalkAsk `yaml:"ask,omitempty"`
	// Facts are the key context the collector reads off this screen.
	Facts map[string]string `yaml:"facts,omitempty"`
	// Navigate is a regexp on the name of the page a navigation hint leads to. When the
	// decider's prompt holds an App Map hint toward such a page that Navigate can replay,
	// the decider answers Navigate (the learned shortcut) instead of Do; otherwise Do. The
	// same rules serve a run with no knowledge and one with it: only the hint differs. Give
	// the step a sub-goal that names where the task is going (the hint is looked up for it).
	Navigate string `yaml:"navigate,omitempty"`
}

// WalkAsk is a question the Re-Planner raises (interaction type 1–4).
type WalkAsk struct {
	Type     int      `yaml:"type"`
	Reason   string   `yaml:"reason"`
	Question string   `yaml:"question,omitempty"`
	Options  []string `yaml:"options,omitempty"`
	// As names the person's answer for ${NAME} in this and later steps.
	As string `yaml:"as,omitempty"`
}

// answeredMarker is what the walk's interactor rules write into a summary between the
// reason and the person's words; a step's ask counts as answered once the instruction
// stack holds its reason followed by it.
const answeredMarker = " — the person answered: "

// lostSubgoal is the Re-Planner's sub-goal on a screen no step of the walk knows.
const lostSubgoal = "Go back to a screen the walkthrough knows"

// Patterns on the prompts, built from the markers package prompts writes.

// line matches a whole line that starts with a marker followed by text (both literal).
func line(marker, text string) string {
	return `(?m)^` + regexp.QuoteMeta(marker+text) + `$`
}

// block matches the opening of a data block.
func block(name string) string { return regexp.QuoteMeta("<<<"+name) + `\n` }

// inScreen scopes a pattern to the SCREEN block, the last block of the Re-Planner's,
// the decider's and the collector's prompts.
func inScreen(p string) string { return `(?s)` + block(prompts.BlockScreen) + `.*(?-s:` + p + `)` }

// taskMarker matches the heading of an app task in app.
func taskMarker(app string) string {
	return `(?m)^` + regexp.QuoteMeta(prompts.MarkTask+app) + `:`
}

// hintPattern matches a navigation hint block toward a page whose name matches to (a
// regexp) that offers a replayable Navigate; group 1 is the Navigate target.
func hintPattern(to string) string {
	return block(prompts.BlockHint) + `[^\n]*? to page p\d+ "(?:` + to + `)[^\n]*?Navigate\("(\w+)"\) replays`
}

// answeredPattern matches the instruction-stack entry the person's answer to reason left;
// with capture, group NAME is the answer (the option it names when there are options).
func answeredPattern(reason string, options []string, capture string) string {
	p := `(?m)^\d+\. ` + regexp.QuoteMeta(prompts.MarkUserSaid+reason+answeredMarker)
	if capture == "" {
		return p
	}
	if len(options) == 0 {
		return p + `(?P<` + capture + `>[^\n]*)`
	}
	alts := make([]string, len(options))
	for i, o := range options {
		alts[i] = regexp.QuoteMeta(o)
	}
	return p + `[^\n]*?(?P<` + capture + `>(?i:` + strings.Join(alts, "|") + `))`
}

// walkRules compiles a task's walkthrough into scripted rules.
func walkRules(t *Task, o rulesOptions) ([]scripted.Rule, error) {
	if len(t.Walk) == 0 {
		return nil, nil
	}
	c := &walkCompiler{noNavigate: o.noNavigate}
	if err := c.planner(t); err != nil {
		return nil, err
	}
	for wi := range t.Walk {
		if err := c.appTask(wi, &t.Walk[wi]); err != nil {
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
func (c *walkCompiler) planner(t *Task) error {
	var plan []event.AppTask
	for i, w := range t.Walk {
		if w.App == "" {
			return fmt.Errorf("walk %d: no app", i+1)
		}
		task := w.Task
		if task == "" {
			task = t.Instruction
		}
		plan = append(plan, event.AppTask{App: w.App, Task: task, Produces: w.Produces})
	}
	c.add("walk: plan", prompts.NamePlanner, mustMatch(line(prompts.MarkPhase, prompts.PhasePlan)), nil,
		typedAnswer(prompts.PlannerAnswer{Thought: "walkthrough", Status: prompts.StatusContinue, Tasks: plan, Next: 0}, nil))
	adjust := line(prompts.MarkPhase, prompts.PhaseAdjust)
	finished := func(i int, app, outcome string) string {
		return `(?ms)^` + regexp.QuoteMeta(prompts.MarkFinishedTasks) + `$.*^` + strconv.Itoa(i) + `\. \[` + regexp.QuoteMeta(app) + `\][^\n]* — (?:` + outcome + `)`
	}
	// A failed app task ends the instruction: no later rule may take it for a done one.
	failed := `(?:` + string(event.OutcomeFailed) + `|` + string(event.OutcomeStopped) + `)`
	for i, w := range t.Walk {
		c.add(fmt.Sprintf("walk: adjust after task %d: failed", i), prompts.NamePlanner, mustMatch(adjust, finished(i, w.App, failed)), nil,
			typedAnswer(prompts.PlannerAnswer{Thought: "an app task failed", Status: prompts.StatusImpossible, Tasks: []event.AppTask{}, Next: -1,
				Reason: fmt.Sprintf("app task %d in %s failed", i, w.App)}, nil))
	}
	for i := len(t.Walk) - 1; i >= 0; i-- {
		done := finished(i, t.Walk[i].App, string(event.OutcomeDone))
		if i == len(t.Walk)-1 {
			c.add(fmt.Sprintf("walk: adjust after task %d: done", i), prompts.NamePlanner, mustMatch(adjust, done), nil,
				typedAnswer(prompts.PlannerAnswer{Thought: "every app task is done", Status: prompts.StatusDone, Tasks: []event.AppTask{}, Next: -1,
					Progress: "all done", Reason: "done"}, nil))
			continue
		}
		c.add(fmt.Sprintf("walk: adjust after task %d", i), prompts.NamePlanner, mustMatch(adjust, done), nil,
			typedAnswer(prompts.PlannerAnswer{Thought: "next app task", Status: prompts.StatusContinue, Tasks: []event.AppTask{}, Next: i + 1,
				Progress: fmt.Sprintf("%d of %d app tasks done", i+1, len(t.Walk))}, nil))
	}
	return nil
}

// appTask adds the Re-Planner's, the decider's, the collector's and the interactor's rules
// of one app task.
func (c *walkCompiler) appTask(wi int, w *WalkTask) error {
	marker := taskMarker(w.App)
	var subgoals []string
	asks := map[string]*WalkAsk{}
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
	if w.Done != "" {
		var not []string
		if w.Unless != "" {
			not = append(not, inScreen(w.Unless))
		}
		c.add(fmt.Sprintf("walk %d: finished", wi+1), prompts.NameReplanner, mustMatch(marker, inScreen(w.Done)), not,
			reply("A", prompts.Finished, "walkthrough: the app task is done", 0, ""))
	}
	if !c.noNavigate {
		// A routine the prompt says fits this task is what a capable model takes: the
		// learned steps of this very task, from this screen.
		c.add(fmt.Sprintf("walk %d: run the fitting routine", wi+1), prompts.NameReplanner, mustMatch(routinePattern, marker), nil,
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

// routinePattern matches a routine offer that fits the task (a regexp): group 1 is its
// name as quoted in the prompt, group 2 its arguments as a JSON array.
var routinePattern = block(prompts.BlockRoutines) + `(?:[^\n]*\n)*?- "([^"\n]*)" — [^\n]*?` + regexp.QuoteMeta(prompts.MarkRoutineFit) + `(\[[^\n]*\])`

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
func laterSubgoals(steps []WalkStep, si int) []string {
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
func (c *walkCompiler) decider(name, marker string, w *WalkTask, si int, asks map[string]*WalkAsk) error {
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
func (c *walkCompiler) ask(name string, a *WalkAsk) {
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

// personPattern matches a conversation in which the person answered.
var personPattern = `(?m)^` + regexp.QuoteMeta(prompts.MarkPerson)

// lastAnswer matches the person's last answer in a conversation when it matches answer;
// group "person" is the whole answer.
func lastAnswer(answer string) string {
	return `(?m)^` + regexp.QuoteMeta(prompts.MarkPerson) + `(?P<person>` + answer + `[^\n]*)\n` + regexp.QuoteMeta(prompts.BlockConversation+">>>") + `$`
}

// A plain yes or no to a consent question, as the interactor model reads it.
const (
	consentYes = `(?i:(?:yes|yeah|yep|ok|okay|sure|go ahead|approve|allow|do it)\b|是|好|可以|确认|同意|行)`
	consentNo  = `(?i:(?:no|nope|don't|do not|stop|cancel|refuse|deny|never)\b|不|否|取消|拒绝|别)`
)

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
