package eval

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/rundir"
)

// misledRow is one row of the report's "knowledge that misled" table: a run that lost a task
// the cold pass won (a warm pass, the pass that learned as it goes) or that said done on a
// result its checks reject (a false success, in any pass), with the knowledge in play and
// the piece of it the run went wrong after.
type misledRow struct {
	Task   string `json:"task"`
	Phase  string `json:"phase"` // the pass: cold, warm, warm-independent, as-it-goes, learn or "" (the only pass)
	Repeat int    `json:"repeat"`
	RunDir string `json:"run_dir"`
	// Loss says why the run is listed: "lost" (the cold pass passed it), "false success",
	// or both.
	Loss    string `json:"loss"`
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	// InPlay is every piece of long-term knowledge that acted in the run, in order.
	InPlay []knowledgeUse `json:"in_play"`
	// Culprit is the knowledge-driven action after which the run went wrong (nil when
	// none is named: no knowledge was in play, or only tips and readings were).
	Culprit *knowledgeUse `json:"culprit,omitempty"`
	// Wrong says what went wrong, in a sentence; Explained is false when the table cannot
	// say (knowledge was in play and none of it acted on the phone or on a verdict):
	// a reader must open the trace.
	Wrong     string `json:"wrong"`
	Explained bool   `json:"explained"`
	// ModelErrors are the model errors injected into the run, by kind.
	ModelErrors map[string]int `json:"model_errors,omitempty"`
}

// knowledgeUse is one piece of long-term knowledge acting in a run, read from its trace.
type knowledgeUse struct {
	Step int `json:"step"`
	// Kind is one of the use… kinds.
	Kind        string   `json:"kind"`
	ID          string   `json:"id,omitempty"`
	Name        string   `json:"name,omitempty"`
	LearnedFrom string   `json:"learned_from,omitempty"`
	Bindings    []string `json:"bindings,omitempty"` // "parameter = argument" of a routine
	// Did says what it did: the steps a routine replayed (and where it stopped), the page
	// a verified step confirmed, the tips served.
	Did string `json:"did"`
	// Stopped is where a routine or a Navigate stopped short ("" when it ran whole).
	Stopped string `json:"stopped,omitempty"`
}

// Kinds of knowledgeUse.
const (
	useRoutine         = "routine"          // a routine replayed (RoutineRan)
	useRoutineEnd      = "routine-end"      // a routine's End page ended the task's steps with no Re-Planner
	useRoutineDeclined = "routine-declined" // a routine chosen that could not run (RoutineDeclined)
	useNavigate        = "navigate"         // a known path replayed (Navigated)
	useVerified        = "verified-step"    // a step the App Map confirmed with no Re-Planner
	useTips            = "tips"             // App Tricks served to a prompt
	useReading         = "known-reading"    // a page's facts taken from an earlier reading
)

// misled builds the table: every run of a non-cold pass that failed a task its cold run
// (same task, same repeat) passed, and every false success, each attributed from its
// trace (read from dir/run_dir).
func (r *Report) misled(dir string) []misledRow {
	coldPass := map[string]bool{}
	for _, x := range r.Tasks {
		if x.Phase == phaseCold {
			coldPass[fmt.Sprint(x.ID, "/", x.Repeat)] = x.Pass
		}
	}
	out := []misledRow{}
	for _, x := range r.Tasks {
		lost := x.Phase != phaseCold && x.Phase != PhaseLearn && x.Phase != "" && !x.Pass && coldPass[fmt.Sprint(x.ID, "/", x.Repeat)]
		if !lost && !x.FalseSuccess {
			continue
		}
		m := misledRow{Task: x.ID, Phase: x.Phase, Repeat: x.Repeat, RunDir: x.RunDir, Outcome: x.Outcome, Reason: x.Reason,
			InPlay: []knowledgeUse{}, ModelErrors: x.InjectedErrors}
		switch {
		case lost && x.FalseSuccess:
			m.Loss = "lost; false success"
		case lost:
			m.Loss = "lost"
		default:
			m.Loss = "false success"
		}
		var tr *rundir.Trajectory
		if x.RunDir != "" {
			rd := x.RunDir
			if !filepath.IsAbs(rd) {
				rd = filepath.Join(dir, rd)
			}
			tr, _ = rundir.ReadTrajectory(rd)
		}
		attribute(&m, x, tr)
		out = append(out, m)
	}
	return out
}

// attribute fills the knowledge in play, the culprit and what went wrong. The culprit is
// the knowledge that acted closest to the wrong end, by how directly it acts: a routine's
// End page that ended the steps (for a false success), a routine replayed to its end, a
// routine chosen again and again that could not run, a routine that stopped, a Navigate,
// a verified step; tips and known readings are in play but do not act, so a run with
// only those is left unexplained.
func attribute(m *misledRow, x TaskResult, tr *rundir.Trajectory) {
	checks := failedChecks(x)
	if tr == nil {
		m.Wrong = "the run's trace does not read: the knowledge in play is unknown"
		return
	}
	m.InPlay = knowledgeInPlay(tr)
	trouble := troubleSteps(tr)
	// firstGoneWrong is the first use of kind after which the run met trouble (a C or D
	// verdict, a page the map did not predict, a loop), else the last use of kind.
	firstGoneWrong := func(kind string) *knowledgeUse {
		var lastUse *knowledgeUse
		for i := range m.InPlay {
			if u := &m.InPlay[i]; u.Kind == kind {
				lastUse = u
				for _, s := range trouble {
					if s >= u.Step {
						return u
					}
				}
			}
		}
		return lastUse
	}
	last := func(kind string, pred func(knowledgeUse) bool) *knowledgeUse {
		for i := len(m.InPlay) - 1; i >= 0; i-- {
			if u := m.InPlay[i]; u.Kind == kind && (pred == nil || pred(u)) {
				return &m.InPlay[i]
			}
		}
		return nil
	}
	count := func(kind string) int {
		n := 0
		for _, u := range m.InPlay {
			if u.Kind == kind {
				n++
			}
		}
		return n
	}
	whole := func(u knowledgeUse) bool { return u.Stopped == "" }
	// slipFrom is where to look for the model's own error: from the verified step the run
	// went wrong after, when there is one, else from the start.
	slipFrom := func() int {
		if u := firstGoneWrong(useVerified); u != nil {
			return u.Step
		}
		return 0
	}
	end := "the task failed"
	if x.Outcome == "done" {
		end = "the run said done on a result the checks reject"
	}
	if checks != "" {
		end += " (" + checks + ")"
	}
	m.Explained = true
	switch {
	case x.Outcome == "done" && last(useRoutineEnd, nil) != nil:
		u := last(useRoutineEnd, nil)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("the routine End shortcut: %s; %s", u.Did, end)
	case last(useRoutine, whole) != nil:
		u := last(useRoutine, whole)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("the routine %q ran to its end (%s); %s", u.Name, u.Did, end)
	case count(useRoutineDeclined) > 0:
		u := last(useRoutineDeclined, nil)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("the routine %q was chosen %d time(s) and could not run (%s): the steps went to it; %s", u.Name, count(useRoutineDeclined), u.Did, end)
	case last(useRoutine, nil) != nil:
		u := last(useRoutine, nil)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("the routine %q %s; the run went on step by step and %s", u.Name, u.Did, end)
	case last(useNavigate, nil) != nil:
		u := firstGoneWrong(useNavigate)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("a Navigate to %s: %s; %s", u.Name, u.Did, end)
	case last(useVerified, nil) != nil && slipAfter(tr, firstGoneWrong(useVerified).Step, trouble) == nil:
		u := firstGoneWrong(useVerified)
		m.Culprit = u
		m.Wrong = fmt.Sprintf("a verified step skipped the Re-Planner (%s); %s", u.Did, end)
	case len(m.InPlay) > 0 && slipAfter(tr, slipFrom(), trouble) != nil:
		// Knowledge was in play and none of it acted where the run went wrong: a model
		// error injected on purpose did, at the step before the run met trouble.
		sl := slipAfter(tr, slipFrom(), trouble)
		m.Wrong = fmt.Sprintf("the model's own error: %s at step %d (%s), and the run met trouble at step %d; the knowledge in play did not act there; %s",
			sl.kind, sl.step, sl.change, sl.trouble, end)
	case len(m.InPlay) > 0:
		m.Explained = false
		m.Wrong = fmt.Sprintf("unexplained: only tips or known readings were in play and none acted; %s: read the trace", end)
	default:
		m.Wrong = "no knowledge in play: the loss is the model's; " + end
		if len(x.InjectedErrors) > 0 {
			m.Wrong += " (injected model errors: " + errorCounts(x.InjectedErrors) + ")"
		}
	}
	if u := m.Culprit; u != nil && (u.Kind == useRoutine || u.Kind == useRoutineEnd || u.Kind == useRoutineDeclined) {
		m.Wrong += unnamedArgs(u.Bindings, x.Instruction)
	}
}

// unnamedArgs says which arguments a routine was bound to that the task's instruction does
// not name (a row or a text that came from elsewhere: another run, the model's guess).
func unnamedArgs(bindings []string, instruction string) string {
	low := strings.ToLower(instruction)
	var out []string
	for _, b := range bindings {
		_, arg, ok := strings.Cut(b, " = ")
		if !ok {
			arg = b // a declined routine's bare arguments
		}
		if a, err := strconv.Unquote(arg); err == nil {
			arg = a
		}
		if arg = strings.TrimSpace(arg); arg != "" && instruction != "" && !strings.Contains(low, strings.ToLower(arg)) {
			out = append(out, fmt.Sprintf("%q", arg))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "; it was bound to " + strings.Join(out, ", ") + ", which the task does not name"
}

// knowledgeInPlay reads, in order, the long-term knowledge that acted in a run.
func knowledgeInPlay(tr *rundir.Trajectory) []knowledgeUse {
	var out []knowledgeUse
	var acts []string // the actions of the current step since its last decision point
	for _, ev := range tr.Events {
		switch ev.Kind {
		case "Planned", "ActionsDecided": // a replay's own steps decide nothing: its actions follow the Planned that chose it
			acts = nil
		case "ActionExecuted":
			var e event.ActionExecuted
			if json.Unmarshal(ev.Raw, &e) == nil {
				a := e.Action.String()
				if e.Element != nil && e.Element.Label != "" {
					a = fmt.Sprintf("%s %q", e.Action.Type, e.Element.Label)
				}
				acts = append(acts, a)
			}
		case "RoutineRan":
			var e event.RoutineRan
			if json.Unmarshal(ev.Raw, &e) != nil {
				continue
			}
			did := fmt.Sprintf("replayed %d of %d steps", e.Replayed, e.Planned)
			if len(acts) > 0 {
				did += ": " + strings.Join(acts, ", ")
			}
			switch {
			case e.Held:
				did += "; held at " + e.Stopped + " to ask the person"
			case e.Stopped != "":
				did += "; stopped at " + e.Stopped
			}
			out = append(out, knowledgeUse{Step: e.Step, Kind: useRoutine, ID: e.ID, Name: e.Name, LearnedFrom: e.LearnedFrom,
				Bindings: bindings(e.Params, e.Args), Did: did, Stopped: e.Stopped})
		case "RoutineDeclined":
			var e event.RoutineDeclined
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, knowledgeUse{Step: e.Step, Kind: useRoutineDeclined, ID: e.ID, Name: e.Name, Bindings: e.Args, Did: e.Reason})
			}
		case "Navigated":
			var e event.Navigated
			if json.Unmarshal(ev.Raw, &e) != nil || e.Recovery {
				continue // the executor's own way back is not learned knowledge chosen
			}
			did := fmt.Sprintf("replayed %d of %d known steps", e.Replayed, e.Planned)
			if len(acts) > 0 {
				did += ": " + strings.Join(acts, ", ")
			}
			if e.Stopped != "" {
				did += "; stopped at " + e.Stopped
			}
			out = append(out, knowledgeUse{Step: e.Step, Kind: useNavigate, Name: e.Target, Did: did, Stopped: e.Stopped})
		case "Reflected":
			var e event.Reflected
			if json.Unmarshal(ev.Raw, &e) != nil || !e.Verified {
				continue
			}
			if e.VerifiedBy == event.VerifiedByRoutineEnd || strings.Contains(e.Reflection, "routine reached") {
				page := ""
				if e.Page != "" {
					page = " (page " + e.Page + ")"
				}
				u := knowledgeUse{Step: e.Step, Kind: useRoutineEnd, ID: e.Routine, Did: "the routine reached the page its task was done on" + page + " and the steps ended there with no Re-Planner"}
				for i := len(out) - 1; i >= 0; i-- {
					if out[i].Kind == useRoutine && (u.ID == "" || out[i].ID == u.ID) {
						u.ID, u.Name, u.LearnedFrom, u.Bindings = out[i].ID, out[i].Name, out[i].LearnedFrom, out[i].Bindings
						break
					}
				}
				out = append(out, u)
				continue
			}
			did := "the App Map confirmed the page"
			if e.Page != "" {
				did += " " + e.Page
			}
			if e.Action != "" {
				did += " after " + e.Action
			}
			out = append(out, knowledgeUse{Step: e.Step, Kind: useVerified, ID: e.Page, Did: did})
		case "KnowledgeServed":
			var e event.KnowledgeServed
			if json.Unmarshal(ev.Raw, &e) != nil || e.Tricks == 0 {
				continue
			}
			did := fmt.Sprintf("%d tip(s) served to the %s", e.Tricks, e.Role)
			if len(e.TrickTexts) > 0 {
				did += ": " + strings.Join(e.TrickTexts, " | ")
			}
			out = append(out, knowledgeUse{Step: e.Step, Kind: useTips, Did: did})
		case "ContextRead":
			var e event.ContextRead
			if json.Unmarshal(ev.Raw, &e) == nil {
				out = append(out, knowledgeUse{Step: e.Step, Kind: useReading, ID: e.Signature,
					Did: fmt.Sprintf("%d fact(s) taken from an earlier reading of the page", e.Facts)})
			}
		}
	}
	return out
}

// slip is a model error injected on purpose and the trouble it led to.
type slip struct {
	step, trouble int
	kind, change  string
}

// slipAfter finds, from step from on, the first step where the run met trouble and the
// model error injected closest before it (on that step or an earlier one, not before
// from): what the run went wrong after, when no knowledge acted in between. nil when no
// trouble follows from, or no error was injected on the way to it.
func slipAfter(tr *rundir.Trajectory, from int, trouble []int) *slip {
	first := -1
	for _, t := range trouble {
		if t >= from && (first < 0 || t < first) {
			first = t
		}
	}
	if first < 0 {
		return nil
	}
	var found *slip
	for _, ev := range tr.Events {
		if ev.Kind != "ModelErrorInjected" {
			continue
		}
		var e event.ModelErrorInjected
		if json.Unmarshal(ev.Raw, &e) != nil || e.Step < from || e.Step > first {
			continue
		}
		if found == nil || e.Step >= found.step {
			found = &slip{step: e.Step, trouble: first, kind: e.Role + " " + e.Error, change: e.Change}
		}
	}
	return found
}

// troubleSteps are the steps where a run met trouble: a C or D verdict, a page the App
// Map did not predict, a loop broken, a finish check that failed.
func troubleSteps(tr *rundir.Trajectory) []int {
	var out []int
	for _, ev := range tr.Events {
		var s struct {
			Step   int    `json:"step"`
			Result string `json:"result"`
			Passed bool   `json:"passed"`
		}
		if json.Unmarshal(ev.Raw, &s) != nil {
			continue
		}
		switch {
		case ev.Kind == "Reflected" && (s.Result == "C" || s.Result == "D"):
			out = append(out, s.Step)
		case ev.Kind == "Unpredicted" || ev.Kind == "LoopBroken":
			out = append(out, s.Step)
		case ev.Kind == "FinishChecked" && !s.Passed:
			out = append(out, s.Step)
		}
	}
	return out
}

// bindings pairs a routine's parameters with the arguments a replay bound.
func bindings(params, args []string) []string {
	var out []string
	for i, a := range args {
		p := fmt.Sprintf("{%d}", i+1)
		if i < len(params) && params[i] != "" {
			p += " " + params[i]
		}
		out = append(out, p+" = "+fmt.Sprintf("%q", a))
	}
	return out
}

// failedChecks names a run's failed scoring checks with their evidence.
func failedChecks(x TaskResult) string {
	var parts []string
	for _, c := range x.Checks {
		if !c.Pass && !c.Collateral {
			parts = append(parts, c.Name+": "+c.Evidence)
		}
	}
	return strings.Join(parts, "; ")
}

// errorCounts renders injected error counts as "grounding×2, typo×1", in a stable order.
func errorCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// misledMarkdown is the "knowledge that misled" section of report.md: written with
// cold/warm passes (where a loss is defined) or when a run said done wrongly.
func misledMarkdown(r *Report) string {
	if !r.Options.ColdWarm && len(r.Misled) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## Knowledge that misled\n\n")
	if len(r.Misled) == 0 {
		b.WriteString("None: no pass lost a task the cold pass won, and no run said done on a result its checks reject.\n")
		return b.String()
	}
	unexplained := 0
	for _, m := range r.Misled {
		if !m.Explained {
			unexplained++
		}
	}
	fmt.Fprintf(&b, "Every run that lost a task the cold pass won, and every false success: the knowledge in play (from the run's trace) and the piece the run went wrong after. %d of %d unexplained.\n\n",
		unexplained, len(r.Misled))
	b.WriteString("| task | pass | loss | knowledge in play | culprit | learned from | bindings | what went wrong |\n|---|---|---|---|---|---|---|---|\n")
	for _, m := range r.Misled {
		culprit, from, binds := "none", "", ""
		if u := m.Culprit; u != nil {
			culprit = u.Kind
			if n := cmpOr(u.Name, u.ID); n != "" {
				culprit += " " + fmt.Sprintf("%q", n)
			}
			culprit += fmt.Sprintf(" (step %d)", u.Step)
			from, binds = u.LearnedFrom, strings.Join(u.Bindings, "; ")
		}
		wrong := m.Wrong
		if !m.Explained {
			wrong = "**" + wrong + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", m.Task, cmpOr(m.Phase, "—"), m.Loss, mdEscape(inPlaySummary(m.InPlay)),
			mdEscape(culprit), mdEscape(from), mdEscape(clip(binds, 200)), mdEscape(clip(wrong, 400)))
	}
	return b.String()
}

// inPlaySummary counts the knowledge in play by kind: "routine ×1, verified-step ×3".
func inPlaySummary(us []knowledgeUse) string {
	if len(us) == 0 {
		return "none"
	}
	n := map[string]int{}
	var order []string
	for _, u := range us {
		if n[u.Kind] == 0 {
			order = append(order, u.Kind)
		}
		n[u.Kind]++
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%s ×%d", k, n[k])
	}
	return strings.Join(parts, ", ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
