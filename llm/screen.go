package llm

import (
	"regexp"
	"strconv"
	"strings"
)

// ScreenElement is one numbered element line of perception's text form as a prompt shows
// it: `- [N] role "label" id=… state…`.
type ScreenElement struct {
	Index int
	Role  string
	Label string
	ID    string
	State []string
}

// elementLine is the contract regex of an element line (perception's parse tests hold the
// text form to it), plus the rest of the line.
var elementLine = regexp.MustCompile(`^\s*- \[(\d+)\] (\S+)(?: "((?:[^"\\]|\\.)*)")?(.*)$`)

// ScreenOf reads the last screen in a prompt's text: the last run of element lines whose
// indexes increase (a repeated or smaller index starts a new screen). The model doubles
// read prompts with it: the scripted model to find an element by label, error injection
// to pick another element of the same screen.
func ScreenOf(text string) []ScreenElement {
	var cur []ScreenElement
	for _, line := range strings.Split(text, "\n") {
		m := elementLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		if len(cur) > 0 && n <= cur[len(cur)-1].Index {
			cur = nil
		}
		e := ScreenElement{Index: n, Role: m[2]}
		if m[3] != "" {
			if s, err := strconv.Unquote(`"` + m[3] + `"`); err == nil {
				e.Label = s
			} else {
				e.Label = m[3]
			}
		}
		for _, w := range strings.Fields(m[4]) {
			if id, ok := strings.CutPrefix(w, "id="); ok {
				e.ID = id
			} else {
				e.State = append(e.State, w)
			}
		}
		cur = append(cur, e)
	}
	return cur
}
