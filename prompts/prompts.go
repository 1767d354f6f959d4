package prompts

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"text/template"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/replay"
)

//go:embed templates/*.tmpl schemas/*.json
var files embed.FS

// The prompt names; each is also the schema name and, except for the checker, the llm role.
const (
	NamePlanner    = "planner"
	NameReplanner  = "replanner"
	NameDecider    = "decider"
	NameInteractor = "interactor"
	NameExtractor  = "extractor"
	NameChecker    = "checker"
	NameLearner    = "learner" // the Self-Learner
	nameUser       = "user"    // the simulated user of evaluations
	nameJudge      = "judge"   // the judge of evaluation checks
)

// names lists every prompt.
func names() []string {
	return []string{NamePlanner, NameReplanner, NameDecider, NameInteractor, NameExtractor, NameChecker,
		NameLearner, nameUser, nameJudge}
}

// Prompt is a rendered prompt: the system text, the user text and the answer's schema.
type Prompt struct {
	System string
	User   string
	Schema llm.Schema
}

// Set is the parsed templates and schemas. It is immutable and safe for concurrent use.
type Set struct {
	tmpl    *template.Template
	schemas map[string]json.RawMessage
}

// Load parses the embedded templates and schemas.
func Load() (*Set, error) { return LoadFrom(files) }

// Files returns the embedded templates (templates/*.tmpl) and schemas (schemas/*.json), for
// tests that load a changed copy with LoadFrom.
func Files() fs.FS { return files }

// LoadFrom parses templates and schemas laid out as the embedded ones are.
func LoadFrom(fsys fs.FS) (*Set, error) {
	t, err := template.New("").Funcs(funcs).ParseFS(fsys, "templates/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("prompts: parse templates: %w", err)
	}
	t.Funcs(noteFuncs(t))
	if err := checkNotes(t); err != nil {
		return nil, err
	}
	s := &Set{tmpl: t, schemas: map[string]json.RawMessage{}}
	for _, n := range names() {
		b, err := fs.ReadFile(fsys, "schemas/"+n+".json")
		if err != nil {
			return nil, fmt.Errorf("prompts: schema %s: %w", n, err)
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("prompts: schema %s is not valid JSON", n)
		}
		s.schemas[n] = json.RawMessage(bytes.TrimSpace(b))
		for _, part := range []string{n + ".system", n + ".user"} {
			if s.tmpl.Lookup(part) == nil {
				return nil, fmt.Errorf("prompts: template %s missing", part)
			}
		}
	}
	return s, nil
}

// Schema returns the schema of a prompt.
func (s *Set) Schema(name string) llm.Schema {
	return llm.Schema{Name: name, JSON: s.schemas[name]}
}

// render renders the named prompt with data.
func (s *Set) render(name string, data any) (Prompt, error) {
	var sys, user strings.Builder
	if err := s.tmpl.ExecuteTemplate(&sys, name+".system", data); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render %s system: %w", name, err)
	}
	if err := s.tmpl.ExecuteTemplate(&user, name+".user", data); err != nil {
		return Prompt{}, fmt.Errorf("prompts: render %s user: %w", name, err)
	}
	return Prompt{System: tidy(sys.String()), User: tidy(user.String()), Schema: s.Schema(name)}, nil
}

// tidy trims the template's edges and squeezes runs of blank lines.
func tidy(s string) string {
	s = strings.TrimSpace(s)
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s + "\n"
}

var funcs = template.FuncMap{
	"data":      dataBlock,
	"quote":     strconv.QuoteToGraphic,
	"inc":       func(i int) int { return i + 1 },
	"facts":     factsText,
	"stack":     stackText,
	"lines":     linesText,
	"action":    func(a event.Action) string { return a.String() },
	"join":      strings.Join,
	"appsText":  appsText,
	"turnsText": turnsText,
	"mark":      mark,
	"history":   historyText,
	"routines":  routinesText,
	"clock":     clockText,
	"described": described,
	// notes and sentences are bound to the parsed templates in LoadFrom (noteFuncs): a note
	// renders by its own template.
	"notes":     func([]Note) (string, error) { return "", errNotesUnbound },
	"sentences": func([]Note) (string, error) { return "", errNotesUnbound },
}

var errNotesUnbound = errors.New("prompts: notes rendered before the templates were parsed")

// described reports whether any app has a learned description of what it does.
func described(apps []event.App) bool {
	for _, a := range apps {
		if a.Description != "" {
			return true
		}
	}
	return false
}

// routinesText renders routine offers one a line: the name quoted, the steps, each
// parameter, and the arguments that fit the task when its words give them.
func routinesText(rs []replay.Offer) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "- %s — %d steps", strconv.QuoteToGraphic(r.Name), r.Steps)
		for i, p := range r.Params {
			fmt.Fprintf(&b, "; {%d}: %s", i+1, p)
		}
		if r.Fit != nil {
			args, _ := json.Marshal(r.Fit)
			fmt.Fprintf(&b, "; %s%s", MarkRoutineFit, args)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// appsText renders the launchable apps one a line.
func appsText(apps []event.App) string {
	var b strings.Builder
	for _, a := range apps {
		fmt.Fprintf(&b, "- %s — %s", a.Package, a.Label)
		if a.Description != "" {
			fmt.Fprintf(&b, " — %s", a.Description)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// turnsText renders the interaction turns.
func turnsText(ts []memory.Turn) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%s%s\n", MarkAgent, t.Question)
		if len(t.Options) > 0 {
			fmt.Fprintf(&b, "Options: %s\n", strings.Join(t.Options, " | "))
		}
		if t.Answer != "" {
			fmt.Fprintf(&b, "%s%s\n", MarkPerson, t.Answer)
		}
	}
	return b.String()
}

// dataBlock wraps untrusted text in a delimited block that it cannot close.
func dataBlock(name, body string) string {
	body = strings.ReplaceAll(body, ">>>", "> > >")
	body = strings.ReplaceAll(body, "<<<", "< < <")
	body = strings.TrimRight(body, "\n")
	if body == "" {
		body = "(none)"
	}
	return "<<<" + name + "\n" + body + "\n" + name + ">>>"
}

// factsText renders key context one fact a line.
func factsText(fs []event.Fact) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "- %s: %s\n", factLine(f.Key, maxFactKey), factLine(f.Value, maxFactValue))
	}
	return b.String()
}

// A fact's key and value as the prompts show them, in runes: a model copies what a screen
// says into facts, and every later prompt carries them.
const (
	maxFactKey   = 80
	maxFactValue = 600
)

// factLine is a fact's text on one line (a line break in a value copied from the screen
// would start a forged "- today: …" fact or "Phone's clock: …" line), cut to max runes.
func factLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// stackText renders the instruction stack bottom first.
func stackText(ins []memory.Instruction) string {
	var b strings.Builder
	for i, in := range ins {
		src := "(task) "
		if in.Source == "user" {
			src = MarkUserSaid
		}
		fmt.Fprintf(&b, "%d. %s%s\n", i+1, src, in.Text)
	}
	return b.String()
}

// linesText renders a list one item a line, numbered.
func linesText(xs []string) string {
	var b strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&b, "%d. %s\n", i+1, x)
	}
	return b.String()
}

// historyText renders earlier steps, oldest first; a sub-goal is named where it changes.
func historyText(steps []StepRecord) string {
	var b strings.Builder
	sub := ""
	for _, s := range steps {
		if s.Subgoal != "" && s.Subgoal != sub {
			fmt.Fprintf(&b, "[%s]\n", s.Subgoal)
			sub = s.Subgoal
		}
		fmt.Fprintf(&b, "%d. ", s.Step)
		if len(s.Actions) == 0 {
			b.WriteString("no action")
		} else {
			b.WriteString(strings.Join(s.Actions, "; "))
		}
		if s.Result != "" {
			fmt.Fprintf(&b, " → %s", s.Result)
			if r := strings.TrimSpace(s.Reflection); r != "" {
				fmt.Fprintf(&b, " (%s)", llm.Head(r, 100))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// AskAgain is the message that asks a model for its answer once more, naming what was
// wrong with the last one.
func AskAgain(problem error, schema string) string {
	return fmt.Sprintf("Your last answer could not be used: %v. Answer again with one JSON object of the schema %q.", problem, schema)
}
