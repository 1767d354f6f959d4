package eval

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/llm/scripted"
)

// WalkTask is one app task of a walkthrough: a compact way to write the scripted model's
// rules for a task. Each step says on which screen it applies (a pattern on the screen's
// text form), the sub-goal the Re-Planner names there and the actions the Action Decider
// takes; Done says on which screen the app task is finished. Walk.Rules turns it into
// scripted.Rule values for every role: the Global Planner's plan and adjustments, the
// Re-Planner (state-based: the most advanced matching step wins, so the walk stays right
// after a dead tap, a popped dialog or a learned shortcut), the Action Decider, the Key
// Context Collector (Facts) and the User Interactor (Ask).
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
	Screen  string `yaml:"screen"`           // regexp on the current screen's text form
	When    string `yaml:"when,omitempty"`   // regexp on the whole prompt that must match too
	Unless  string `yaml:"unless,omitempty"` // regexp on the whole prompt that must not match
	Subgoal string `yaml:"subgoal"`
	// Do are the decider's actions: Tap "LABEL", LongPress "LABEL", Clear "LABEL",
	// Input "LABEL" "TEXT", Swipe up|down|left|right, Swipe "LABEL" DIR, Back, Home, Enter,
	// Wait SECONDS, OpenApp PACKAGE, Finish ["ANSWER"], NeedInteraction "REASON". A label is
	// looked up on the screen when the model answers (exact, id, then substring).
	Do []string `yaml:"do"`
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

// hintPattern matches a navigation hint block toward a page whose name matches to (a
// regexp) that offers a replayable Navigate; group 1 is the Navigate target.
func hintPattern(to string) string {
	return `<<<HINT\n[^\n]*? to page p\d+ "(?:` + to + `)[^\n]*?Navigate\("(\w+)"\) replays`
}

// WalkAsk is a question the Re-Planner raises (interaction type 1–4).
type WalkAsk struct {
	Type     int      `yaml:"type"`
	Reason   string   `yaml:"reason"`
	Question string   `yaml:"question,omitempty"`
	Options  []string `yaml:"options,omitempty"`
}

// answeredMarker is what the generic interactor rule writes into a summary; a step's ask
// counts as answered once the instruction stack holds its reason followed by it.
const answeredMarker = " — the person answered: "

// inScreen scopes a pattern to the SCREEN block, the last block of the Re-Planner's,
// the decider's and the collector's prompts.
func inScreen(p string) string { return `(?s)<<<SCREEN\n.*(?-s:` + p + `)` }

func taskMarker(app string) string { return `App task in ` + regexp.QuoteMeta(app) + `:` }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only strings and slices of strings are encoded
	}
	return string(b)
}

// walkRules compiles a task's walkthrough into scripted rules.
func walkRules(t *Task) ([]scripted.Rule, error) {
	if len(t.Walk) == 0 {
		return nil, nil
	}
	var rules []scripted.Rule
	add := func(r scripted.Rule) { rules = append(rules, r) }
	type planTask struct {
		App      string `json:"app"`
		Task     string `json:"task"`
		Produces string `json:"produces"`
	}
	var plan []planTask
	for i, w := range t.Walk {
		if w.App == "" {
			return nil, fmt.Errorf("walk %d: no app", i+1)
		}
		task := w.Task
		if task == "" {
			task = t.Instruction
		}
		plan = append(plan, planTask{App: w.App, Task: task, Produces: w.Produces})
	}
	add(scripted.Rule{Name: "walk: plan", Role: "planner", Match: []string{`Phase: plan`},
		Answer: fmt.Sprintf(`{"thought":"walkthrough","status":"continue","tasks":%s,"next":0,"progress":"","reason":""}`, mustJSON(plan))})
	for i := len(t.Walk) - 1; i >= 0; i-- {
		done := fmt.Sprintf(`(?m)^%d\. \[%s\][^\n]*— done`, i, regexp.QuoteMeta(t.Walk[i].App))
		if i == len(t.Walk)-1 {
			add(scripted.Rule{Name: fmt.Sprintf("walk: adjust after task %d: done", i), Role: "planner", Match: []string{`Phase: adjust`, done},
				Answer: `{"thought":"every app task is done","status":"done","tasks":[],"next":-1,"progress":"all done","reason":"done"}`})
			continue
		}
		add(scripted.Rule{Name: fmt.Sprintf("walk: adjust after task %d", i), Role: "planner", Match: []string{`Phase: adjust`, done},
			Answer: fmt.Sprintf(`{"thought":"next app task","status":"continue","tasks":[],"next":%d,"progress":"%d of %d app tasks done","reason":""}`, i+1, i+1, len(t.Walk))})
	}
	for wi, w := range t.Walk {
		marker := taskMarker(w.App)
		var subgoals []string
		for _, s := range w.Steps {
			subgoals = append(subgoals, s.Subgoal)
		}
		planJSON := mustJSON(subgoals)
		reply := func(result, subgoal string, interaction int, reason string) string {
			return fmt.Sprintf(`{"result":%q,"reflection":%s,"progress":%s,"plan":%s,"subgoal":%s,"interaction":%d,"reason":%s}`,
				result, mustJSON("walkthrough: "+subgoal), mustJSON("at: "+subgoal), planJSON, mustJSON(subgoal), interaction, mustJSON(reason))
		}
		if w.Done != "" {
			if _, err := regexp.Compile(w.Done); err != nil {
				return nil, fmt.Errorf("walk %d done: %v", wi+1, err)
			}
			var not []string
			if w.Unless != "" {
				not = append(not, inScreen(w.Unless))
			}
			add(scripted.Rule{Name: fmt.Sprintf("walk %d: finished", wi+1), Role: "replanner",
				Match: []string{marker, inScreen(w.Done)}, Not: not, Answer: reply("A", "Finished", 0, "")})
		}
		for si := len(w.Steps) - 1; si >= 0; si-- {
			s := w.Steps[si]
			name := fmt.Sprintf("walk %d step %d (%s)", wi+1, si+1, s.Subgoal)
			if s.Subgoal == "" || s.Screen == "" {
				return nil, fmt.Errorf("%s: a step needs screen and subgoal", name)
			}
			match := []string{marker, inScreen(s.Screen)}
			if s.When != "" {
				match = append(match, s.When)
			}
			var not []string
			if s.Unless != "" {
				not = append(not, s.Unless)
			}
			if a := s.Ask; a != nil {
				if a.Type < 1 || a.Type > 4 || a.Reason == "" {
					return nil, fmt.Errorf("%s: ask needs a type 1–4 and a reason", name)
				}
				answered := `\(the user said\) ` + regexp.QuoteMeta(a.Reason) + regexp.QuoteMeta(answeredMarker)
				add(scripted.Rule{Name: name + ": ask", Role: "replanner", Match: match, Not: append(append([]string(nil), not...), answered),
					Answer: reply("B", s.Subgoal, a.Type, a.Reason)})
				if a.Question != "" || len(a.Options) > 0 {
					q := a.Question
					if q == "" {
						q = a.Reason + "?"
					}
					opts := a.Options
					if opts == nil {
						opts = []string{}
					}
					add(scripted.Rule{Name: name + ": question", Role: "interactor",
						Match:  []string{`Why the agent asks: ` + regexp.QuoteMeta(a.Reason) + `\n`},
						Not:    []string{`(?m)^Person: `},
						Answer: fmt.Sprintf(`{"status":"B","question":%s,"options":%s,"summary":"","consent":""}`, mustJSON(q), mustJSON(opts))})
				}
			}
			add(scripted.Rule{Name: name + ": no change", Role: "replanner", Match: append(append([]string(nil), match...), `Screen change: no change`), Not: not,
				Answer: reply("D", s.Subgoal, 0, "")})
			add(scripted.Rule{Name: name, Role: "replanner", Match: match, Not: not, Answer: reply("A", s.Subgoal, 0, "")})
			acts, err := walkActions(s.Do)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if s.Navigate != "" {
				if _, err := regexp.Compile(s.Navigate); err != nil {
					return nil, fmt.Errorf("%s: navigate: %v", name, err)
				}
				// The hint pattern comes first: its group is {{match 1}}.
				add(scripted.Rule{Name: name + ": take the known way", Role: "decider",
					Match:  []string{hintPattern(s.Navigate), marker, `Current sub-goal: ` + regexp.QuoteMeta(s.Subgoal) + `\n`, inScreen(s.Screen)},
					Answer: fmt.Sprintf(`{"thought":%s,"actions":[{"type":"Navigate","target":"{{match 1}}"}]}`, mustJSON(s.Subgoal+": the App Map knows the way"))})
			}
			add(scripted.Rule{Name: name + ": act", Role: "decider",
				Match:  []string{marker, `Current sub-goal: ` + regexp.QuoteMeta(s.Subgoal) + `\n`, inScreen(s.Screen)},
				Answer: fmt.Sprintf(`{"thought":%s,"actions":[%s]}`, mustJSON(s.Subgoal), strings.Join(acts, ","))})
			if len(s.Facts) > 0 {
				var facts []map[string]string
				for _, k := range sortedKeys(s.Facts) {
					facts = append(facts, map[string]string{"key": k, "value": s.Facts[k]})
				}
				add(scripted.Rule{Name: name + ": facts", Role: "extractor", Match: []string{marker, inScreen(s.Screen)},
					Answer: fmt.Sprintf(`{"facts":%s}`, mustJSON(facts))})
			}
		}
		// Without this the decider sees a screen no step names: say so plainly.
		add(scripted.Rule{Name: fmt.Sprintf("walk %d: lost", wi+1), Role: "decider", Match: []string{marker},
			Answer: `{"thought":"the walkthrough does not know this screen","actions":[{"type":"Back"}]}`})
	}
	return rules, nil
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

// walkActions turns the action shorthand into decider JSON (with index templates).
func walkActions(do []string) ([]string, error) {
	if len(do) == 0 {
		return nil, fmt.Errorf("no actions (do:)")
	}
	var out []string
	for _, d := range do {
		toks, err := splitAction(d)
		if err != nil {
			return nil, fmt.Errorf("action %q: %w", d, err)
		}
		typ := toks[0].text
		args := toks[1:]
		idx := func(t token) string { return `{{index ` + strconv.Quote(t.text) + `}}` }
		bad := func() ([]string, error) { return nil, fmt.Errorf("action %q: bad arguments for %s", d, typ) }
		var js string
		switch typ {
		case "Tap", "LongPress", "Clear":
			if len(args) != 1 || !args[0].quoted {
				return bad()
			}
			js = fmt.Sprintf(`{"type":%q,"index":%s}`, typ, idx(args[0]))
		case "Input":
			if len(args) != 2 || !args[0].quoted || !args[1].quoted {
				return bad()
			}
			js = fmt.Sprintf(`{"type":"Input","index":%s,"text":%s}`, idx(args[0]), mustJSON(args[1].text))
		case "Swipe":
			switch {
			case len(args) == 1 && !args[0].quoted:
				js = fmt.Sprintf(`{"type":"Swipe","index":0,"direction":%q}`, args[0].text)
			case len(args) == 2 && args[0].quoted && !args[1].quoted:
				js = fmt.Sprintf(`{"type":"Swipe","index":%s,"direction":%q}`, idx(args[0]), args[1].text)
			default:
				return bad()
			}
		case "Back", "Home", "Enter":
			if len(args) != 0 {
				return bad()
			}
			js = fmt.Sprintf(`{"type":%q}`, typ)
		case "Wait":
			if len(args) != 1 {
				return bad()
			}
			if _, err := strconv.ParseFloat(args[0].text, 64); err != nil {
				return bad()
			}
			js = fmt.Sprintf(`{"type":"Wait","seconds":%s}`, args[0].text)
		case "OpenApp":
			if len(args) != 1 {
				return bad()
			}
			js = fmt.Sprintf(`{"type":"OpenApp","package":%s}`, mustJSON(args[0].text))
		case "Finish":
			switch len(args) {
			case 0:
				js = `{"type":"Finish"}`
			case 1:
				js = fmt.Sprintf(`{"type":"Finish","text":%s}`, mustJSON(args[0].text))
			default:
				return bad()
			}
		case "NeedInteraction":
			if len(args) != 1 {
				return bad()
			}
			js = fmt.Sprintf(`{"type":"NeedInteraction","reason":%s}`, mustJSON(args[0].text))
		default:
			return nil, fmt.Errorf("action %q: unknown type %q", d, typ)
		}
		out = append(out, js)
	}
	return out, nil
}

type token struct {
	text   string
	quoted bool
}

// splitAction splits `Input "To" "Alice Chen"` into words, Go-quoted strings unquoted.
func splitAction(s string) ([]token, error) {
	var toks []token
	s = strings.TrimSpace(s)
	for s != "" {
		if s[0] == '"' {
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, fmt.Errorf("unterminated quote")
			}
			text, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{text: text, quoted: true})
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		word, rest, _ := strings.Cut(s, " ")
		toks = append(toks, token{text: word})
		s = strings.TrimSpace(rest)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("empty action")
	}
	return toks, nil
}
