package scripted

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// element is one actionable line of perception's text form.
type element struct {
	Index int
	Role  string
	Label string
	ID    string
	State []string
}

// elementLine is the contract regex of an element line, plus the rest of the line.
var elementLine = regexp.MustCompile(`^\s*- \[(\d+)\] (\S+)(?: "((?:[^"\\]|\\.)*)")?(.*)$`)

// parseScreen reads the last screen in text: the last run of element lines whose indexes
// increase (a repeated or smaller index starts a new screen).
func parseScreen(text string) []element {
	var cur []element
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
		e := element{Index: n, Role: m[2]}
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

// find looks an element up by label or id: exact label, exact id, case-insensitive label,
// then case-insensitive substring of label, then of id. The first (lowest index) wins.
func find(els []element, q string) (element, bool) {
	lq := strings.ToLower(q)
	tests := []func(e element) bool{
		func(e element) bool { return e.Label == q },
		func(e element) bool { return e.ID != "" && e.ID == q },
		func(e element) bool { return strings.ToLower(e.Label) == lq },
		func(e element) bool { return lq != "" && strings.Contains(strings.ToLower(e.Label), lq) },
		func(e element) bool { return lq != "" && strings.Contains(strings.ToLower(e.ID), lq) },
	}
	for _, t := range tests {
		for _, e := range els {
			if t(e) {
				return e, true
			}
		}
	}
	return element{}, false
}

func describe(els []element) string {
	if len(els) == 0 {
		return "no screen (no element lines) in the prompt"
	}
	parts := make([]string, 0, len(els))
	for _, e := range els {
		s := fmt.Sprintf("[%d] %q", e.Index, e.Label)
		if e.ID != "" {
			s += " id=" + e.ID
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, ", ")
	if len(out) > 400 {
		out = out[:400] + "…"
	}
	return "screen has " + out
}
