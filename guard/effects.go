package guard

import (
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// Learned judges a tap or long press on el, on s, by what such an action was once seen to
// do there that cannot be taken back (known: the App Map's deeds, which the learner read
// off the screens, never a model's words): a "Go" that deleted a row is held as a delete
// from then on, in whatever language the app speaks next time. The element is the one the
// deed was seen on: by its resource id (on the same activity); with no id, by its place
// on the page (the deed's point inside it, same class) or by its label. The question says
// what it did last time. known comes from outside; nothing in it loosens the guard.
func (g *Guard) Learned(a event.Action, el *perception.Element, s *perception.Screen, known []event.LearnedEffect) (Verdict, bool) {
	if g == nil || el == nil || len(known) == 0 || el.Editable {
		return Verdict{}, false
	}
	var verb string
	switch a.Type {
	case event.Tap:
		verb = "tap"
	case event.LongPress:
		verb = "long-press"
	default:
		return Verdict{}, false
	}
	for _, k := range known {
		if !sameElement(k, el, s) {
			continue
		}
		r, ok := g.rule(k.Category)
		if !ok {
			continue // a category this policy does not hold
		}
		v := g.verdictOf(verb, el, s, r, false)
		if k.Evidence != "" {
			v.Subject += fmt.Sprintf(" — last time this %s", strings.TrimSpace(k.Evidence))
		}
		return v, true
	}
	return Verdict{}, false
}

// frameworkID matches a resource id Android gives many views (a dialog's buttons:
// android:id/button1): alone it names no one element of an app.
const frameworkID = "android:id/"

// sameElement reports whether el, on s, is the element the learned effect k was seen on.
func sameElement(k event.LearnedEffect, el *perception.Element, s *perception.Screen) bool {
	if s != nil && s.Activity != "" && k.Activity != "" && !sameActivity(s.Activity, k.Activity, s.Package) {
		return false
	}
	if k.Class != "" && el.Class != "" && shortClassName(k.Class) != shortClassName(el.Class) {
		return false
	}
	place := (k.X > 0 || k.Y > 0) && el.Bounds.Contains(perception.Point{X: k.X, Y: k.Y})
	switch {
	case k.ResourceID != "" && el.ResourceID != "":
		return k.ResourceID == el.ResourceID && (!strings.HasPrefix(el.ResourceID, frameworkID) || place)
	case k.ResourceID != "" || el.ResourceID != "":
		return false // one has an id, the other none: two elements
	case place:
		return true
	}
	return k.Label != "" && (k.Label == el.Label || k.Label == el.Desc || k.Label == el.Text)
}

// sameActivity compares activity names written in full or short (.MainActivity) forms.
func sameActivity(a, b, pkg string) bool {
	full := func(x string) string {
		if _, after, ok := strings.Cut(x, "/"); ok {
			x = after
		}
		if strings.HasPrefix(x, ".") {
			return pkg + x
		}
		return x
	}
	return full(a) == full(b)
}

// shortClassName is a class name without its package: android.widget.Button → Button.
func shortClassName(c string) string {
	if i := strings.LastIndexAny(c, ".$"); i >= 0 {
		return c[i+1:]
	}
	return c
}
