package replay

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// End is what the page a routine's task was done on must show when a replay reaches it,
// before that counts as the task done: each toggle's checked state as it was when the
// routine was learned, and each parameter's value shown or gone (a row deleted, a title
// saved), bound to this replay's arguments. Reaching the page alone proves nothing: the
// switch may be in the other state, the row deleted another.
type End struct {
	Toggles map[string]bool // checked state by the toggle's label (its row's)
	Labels  map[string]bool // a value shown on the page (true) or not (false)
}

// Miss says what of e the page whose text form is text does not show; "" when it shows
// it all.
func (e *End) Miss(text string) string {
	now := Toggles(text)
	for _, l := range slices.Sorted(maps.Keys(e.Toggles)) {
		want := e.Toggles[l]
		got, ok := now[l]
		switch {
		case !ok:
			return fmt.Sprintf("the page shows no toggle %q", l)
		case got != want:
			return fmt.Sprintf("%q is %s, and the routine's task ended with it %s", l, onOff(got), onOff(want))
		}
	}
	for _, l := range slices.Sorted(maps.Keys(e.Labels)) {
		if want := e.Labels[l]; LabelShown(text, l) != want {
			if want {
				return fmt.Sprintf("%q is not on the page, and the routine's task ended with it shown", l)
			}
			return fmt.Sprintf("%q is still on the page, and the routine's task ended with it gone", l)
		}
	}
	return ""
}

var (
	// quotedLabel is the first quoted label of a text-form line.
	quotedLabel = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	// checkedState is a checked state word outside quotes.
	checkedState = regexp.MustCompile(`\b(un)?checked\b`)
	// indexed marks an element line ("[3] switch …").
	indexed = regexp.MustCompile(`\[\d+\]`)
)

// Toggles reads the toggles of a page's text form (perception's Screen.Text): each
// element line that shows a checked state, by its label — its own, else that of the
// nearest line above it with a label and less indent (a switch inside its row: `[2] item
// "Wi-Fi"` over `  - [3] switch … unchecked`). A label seen twice is told apart by "#2".
func Toggles(text string) map[string]bool {
	out := map[string]bool{}
	type row struct {
		indent int
		label  string
	}
	var above []row
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		label := ""
		if m := quotedLabel.FindStringSubmatch(trimmed); m != nil {
			label = m[1]
		}
		for len(above) > 0 && above[len(above)-1].indent >= indent {
			above = above[:len(above)-1]
		}
		bare := quotedLabel.ReplaceAllString(trimmed, "")
		if m := checkedState.FindStringSubmatch(bare); m != nil && indexed.MatchString(bare) {
			l := label
			for i := len(above) - 1; l == "" && i >= 0; i-- {
				l = above[i].label
			}
			key := l
			for n := 2; ; n++ {
				if _, dup := out[key]; !dup {
					break
				}
				key = fmt.Sprintf("%s#%d", l, n)
			}
			out[key] = m[1] == ""
		}
		if label != "" && indexed.MatchString(trimmed) {
			above = append(above, row{indent, label})
		}
	}
	return out
}

// LabelShown reports whether the text form shows value as a label or a text of its own
// (quoted whole), case aside.
func LabelShown(text, value string) bool {
	v := strings.ToLower(strings.TrimSpace(value))
	if v == "" {
		return false
	}
	for _, m := range quotedLabel.FindAllStringSubmatch(strings.ToLower(text), -1) {
		if m[1] == v {
			return true
		}
	}
	return false
}
