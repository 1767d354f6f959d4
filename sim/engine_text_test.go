package sim

import (
	"strings"
	"testing"
)

// TestTemplateTextBounded: a variable that an action doubles at each tap stops at the
// bound, its template rendering nothing past it, instead of growing to gigabytes.
func TestTemplateTextBounded(t *testing.T) {
	p := newPhone(t)
	a := p.apps[p.order[0]]
	a.vars["x"] = strings.Repeat("ab", 1000)
	for range 12 { // 2000 bytes doubled twelve times: 8 MB
		if got := a.eval("{{.v.x}}{{.v.x}}", tctx{}); got != "" {
			a.vars["x"] = got
		}
	}
	if n := len(a.vars["x"]); n > maxTemplateText {
		t.Errorf("the doubled variable is %d bytes, over %d", n, maxTemplateText)
	}
	if got := a.eval("{{.v.x}}{{.v.x}}", tctx{}); got != "" {
		t.Errorf("a template past the bound rendered %d bytes", len(got))
	}
}
