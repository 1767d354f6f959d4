package scripted

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/llm"
)

// element is one actionable line of perception's text form.
type element = llm.ScreenElement

// parseScreen reads the last screen in text (llm.ScreenOf).
func parseScreen(text string) []element { return llm.ScreenOf(text) }

// find looks an element up by label or id: exact label, exact id, case-insensitive label,
// then case-insensitive substring of label, then of id. The first (lowest index) wins.
// "#N" is the element numbered N on the screen (one of two rows with the same label, told
// apart by the lines under them).
func find(els []element, q string) (element, bool) {
	if n, err := strconv.Atoi(strings.TrimPrefix(q, "#")); err == nil && strings.HasPrefix(q, "#") {
		for _, e := range els {
			if e.Index == n {
				return e, true
			}
		}
		return element{}, false
	}
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
