package sim

import (
	"fmt"
	"strings"
	"testing"
)

// TestSummaryBounded: summary fills "{field}" in one pass, and its text stays a line's
// worth however it is nested: three summaries of 200 records each were 8 million records'
// worth of text, a render that an app file could make take the phone's memory.
func TestSummaryBounded(t *testing.T) {
	p := newPhone(t)
	a := p.apps[p.order[0]]
	for i := range 200 {
		a.records["items"] = append(a.records["items"], Record{"id": fmt.Sprint(i), "name": "name {id}", "qty": "2"})
	}
	if got := a.eval(`{{summary "items" "{qty}× {name}"}}`, tctx{}); !strings.HasPrefix(got, "2× name {id}, 2× name {id}") {
		t.Errorf("summary = %.80q…", got)
	}
	got := a.eval(`{{summary "items" (summary "items" (summary "items" "{name}{name}"))}}`, tctx{})
	if len(got) > maxSummary+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("a nested summary is %d bytes, want at most %d ending with …", len(got), maxSummary)
	}
}
