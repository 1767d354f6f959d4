package walkthrough

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A walk's answers are the typed answers of package prompts encoded as JSON. What the
// scripted model reads when it answers — an element's index, a value on the screen, the
// person's words — is a slot: a placeholder in the typed value that becomes a template
// action ({{index …}}, {{json (match N)}}) in the encoded answer. Literal text never
// becomes a template action.

// slots are the template expressions of one answer, in the order they were made.
type slots []slot

type slot struct {
	expr string
	num  bool // an int field ({{EXPR}}); otherwise a string field ({{json (EXPR)}})
}

// slotBase is far from any index, count or number of seconds a walk writes.
const slotBase = -7_340_000_000

// expr returns a placeholder string that the answer fills with the JSON of expr.
func (s *slots) expr(expr string) string {
	*s = append(*s, slot{expr: expr})
	return fmt.Sprintf("\x00slot %d\x00", len(*s)-1)
}

// num returns a placeholder int that the answer fills with expr.
func (s *slots) num(expr string) int {
	*s = append(*s, slot{expr: expr, num: true})
	return slotBase - (len(*s) - 1)
}

// text returns v, or a placeholder for it when it reads values (${NAME}).
func (s *slots) text(v string, m *matcher, step *Step, asks map[string]*Ask) (string, error) {
	e, dynamic, err := m.value(v, step, asks)
	if err != nil || !dynamic {
		return v, err
	}
	return s.expr(e), nil
}

// index returns a placeholder for the index of the element labelled label.
func (s *slots) index(label string, m *matcher, step *Step, asks map[string]*Ask) (int, error) {
	e, _, err := m.value(label, step, asks)
	if err != nil {
		return 0, err
	}
	return s.num("index (" + e + ")"), nil
}

// typedAnswer encodes a typed answer as a scripted answer template.
func typedAnswer(v any, s slots) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the answers are plain structs of strings, numbers and slices
	}
	out := strings.ReplaceAll(string(b), "{{", `{{"{{"}}`)
	for i, sl := range s {
		if sl.num {
			out = strings.Replace(out, strconv.Itoa(slotBase-i), "{{"+sl.expr+"}}", 1)
			continue
		}
		ph, _ := json.Marshal(fmt.Sprintf("\x00slot %d\x00", i))
		out = strings.Replace(out, string(ph), "{{json ("+sl.expr+")}}", 1)
	}
	return out
}

// quote writes s as a template string constant.
func quote(s string) string { return strconv.Quote(s) }

// groupName is what ${NAME} and an ask's as may name.
var groupName = regexp.MustCompile(`^\w+$`)

// valueRef is a ${NAME} in a walk's text.
var valueRef = regexp.MustCompile(`\$\{(\w+)\}`)

// matcher is a rule's patterns and the {{match N}} number of each named group.
type matcher struct {
	pats   []string
	groups map[string]int
	n      int // groups so far
}

// mustMatch starts a matcher with patterns the walk has checked.
func mustMatch(pats ...string) *matcher {
	m := &matcher{groups: map[string]int{}}
	for _, p := range pats {
		m.add(p)
	}
	return m
}

// add appends a pattern; a name a pattern before it took keeps its group.
func (m *matcher) add(p string) {
	re := regexp.MustCompile(p)
	for i, name := range re.SubexpNames() {
		if _, taken := m.groups[name]; i > 0 && name != "" && !taken {
			m.groups[name] = m.n + i
		}
	}
	m.n += re.NumSubexp()
	m.pats = append(m.pats, p)
}

// with returns a copy of m with p added.
func (m *matcher) with(p string) *matcher {
	c := mustMatch(m.pats...)
	c.add(p)
	return c
}

func (m *matcher) patterns() []string { return append([]string(nil), m.pats...) }

// value turns a walk's text into a template expression of a string; dynamic reports
// whether it reads anything (${NAME}). A name the rule does not capture yet is looked up
// in the step's When pattern, then among the app task's asks, and that pattern joins the
// rule's.
func (m *matcher) value(v string, step *Step, asks map[string]*Ask) (expr string, dynamic bool, err error) {
	refs := valueRef.FindAllStringSubmatchIndex(v, -1)
	if len(refs) == 0 {
		return quote(v), false, nil
	}
	parts := []string{"print"}
	last := 0
	for _, r := range refs {
		name := v[r[2]:r[3]]
		n, err := m.group(name, step, asks)
		if err != nil {
			return "", false, err
		}
		if r[0] > last {
			parts = append(parts, quote(v[last:r[0]]))
		}
		parts = append(parts, fmt.Sprintf("(match %d)", n))
		last = r[1]
	}
	if last < len(v) {
		parts = append(parts, quote(v[last:]))
	}
	return strings.Join(parts, " "), true, nil
}

// group returns the {{match N}} number of name, adding the pattern that captures it.
func (m *matcher) group(name string, step *Step, asks map[string]*Ask) (int, error) {
	if n, ok := m.groups[name]; ok {
		return n, nil
	}
	if step.When != "" && regexp.MustCompile(step.When).SubexpIndex(name) > 0 {
		m.add(step.When)
		return m.groups[name], nil
	}
	if a := asks[name]; a != nil {
		m.add(answeredPattern(a.Reason, a.Options, name))
		return m.groups[name], nil
	}
	return 0, fmt.Errorf("${%s}: no group (?P<%s>…) in the step's screen or when, and no ask as %s", name, name, name)
}
