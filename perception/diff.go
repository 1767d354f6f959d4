package perception

import (
	"strings"
)

// ScreenDiff says how a screen changed, for the Re-Planner's reflection.
type ScreenDiff struct {
	// SamePage is true when both screens have the same package and signature.
	SamePage bool `json:"same_page"`
	// PackageChanged is true when the foreground package differs.
	PackageChanged bool `json:"package_changed,omitempty"`
	// KeyboardChanged is true when the keyboard appeared or went away.
	KeyboardChanged bool `json:"keyboard_changed,omitempty"`
	// Appeared and Disappeared list elements (`button "Send" id=send`) and
	// static texts (`"Sent"`) found only in the second or only in the first
	// screen, without indexes.
	Appeared    []string `json:"appeared,omitempty"`
	Disappeared []string `json:"disappeared,omitempty"`
	// Changed lists elements present in both whose state words differ,
	// e.g. `switch "Wi-Fi": unchecked -> checked`.
	Changed []string `json:"changed,omitempty"`
}

// Unchanged reports that nothing a model could see changed.
func (d ScreenDiff) Unchanged() bool {
	return d.SamePage && !d.KeyboardChanged && len(d.Appeared) == 0 &&
		len(d.Disappeared) == 0 && len(d.Changed) == 0
}

// String summarises d in a few lines for a prompt.
func (d ScreenDiff) String() string {
	var b strings.Builder
	switch {
	case d.Unchanged():
		return "nothing changed\n"
	case d.PackageChanged:
		b.WriteString("another app is in front\n")
	case d.SamePage:
		b.WriteString("same page\n")
	default:
		b.WriteString("another page\n")
	}
	if d.KeyboardChanged {
		b.WriteString("keyboard toggled\n")
	}
	for _, x := range []struct {
		head string
		list []string
	}{{"appeared", d.Appeared}, {"disappeared", d.Disappeared}, {"changed", d.Changed}} {
		for _, s := range x.list {
			b.WriteString(x.head)
			b.WriteString(": ")
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

type diffItem struct {
	key    string // role, label and id, or a quoted text
	states string
}

func (s *Screen) diffItems() []diffItem {
	items := make([]diffItem, 0, len(s.lines))
	for _, l := range s.lines {
		if l.elem < 0 {
			items = append(items, diffItem{key: string(appendQuoted(nil, l.text, DefaultMaxText))})
			continue
		}
		e := &s.Elements[l.elem]
		k := []byte(e.Role)
		if lab := e.Label; lab != "" {
			k = append(k, ' ')
			k = appendQuoted(k, lab, DefaultMaxText)
		}
		if id := idSuffix(e.ResourceID); id != "" {
			k = append(k, " id="...)
			k = append(k, id...)
		}
		items = append(items, diffItem{key: string(k), states: strings.TrimSpace(string(appendStates(nil, e)))})
	}
	return items
}

// Diff compares the screen before an action (a) with the screen after it (b).
// A nil screen counts as an empty one.
func Diff(a, b *Screen) ScreenDiff {
	if a == nil {
		a = &Screen{}
	}
	if b == nil {
		b = &Screen{}
	}
	d := ScreenDiff{
		SamePage:        a.Package == b.Package && a.Signature == b.Signature,
		PackageChanged:  a.Package != b.Package,
		KeyboardChanged: a.Keyboard != b.Keyboard,
	}
	before := map[string][]string{} // key -> states, in order
	for _, it := range a.diffItems() {
		before[it.key] = append(before[it.key], it.states)
	}
	for _, it := range b.diffItems() {
		old, ok := before[it.key]
		if !ok || len(old) == 0 {
			d.Appeared = append(d.Appeared, it.key)
			continue
		}
		if old[0] != it.states {
			d.Changed = append(d.Changed, it.key+": "+orNone(old[0])+" -> "+orNone(it.states))
		}
		before[it.key] = old[1:]
	}
	for _, it := range a.diffItems() {
		if rest := before[it.key]; len(rest) > 0 {
			d.Disappeared = append(d.Disappeared, it.key)
			before[it.key] = rest[1:]
		}
	}
	return d
}

func orNone(s string) string {
	if s == "" {
		return "(plain)"
	}
	return s
}
