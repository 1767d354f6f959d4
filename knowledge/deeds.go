package knowledge

import (
	"fmt"
	"slices"
	"strings"
)

// Deeds: what an action did that cannot be taken back, as the screens before and after it
// showed — a row gone, the typed text appended to a conversation, an order number issued
// after an amount. The learner reads it off the screens (never off a model's words) and
// records it on the transition; the guard is then given the app's deeds and holds the
// element they were seen on, in whatever language the app speaks next time and on every
// agent that shares the knowledge.

// Deed is the irreversible effect a transition's action was seen to have.
type Deed struct {
	// Category is the guard's category of what it did: delete, send or payment.
	Category string `json:"category"`
	// Evidence says, in a few words that follow "last time this", what the screen showed:
	// "deleted a row".
	Evidence string `json:"evidence"`
	// X and Y are the centre of the element acted on, in the screen's pixels: its place
	// on the page, which names an element that has no resource id in any language.
	X int `json:"x,omitempty"`
	Y int `json:"y,omitempty"`
	// Seen counts the times the action was seen to do it.
	Seen int `json:"seen,omitempty"`
}

// IsZero reports whether no deed was seen.
func (d Deed) IsZero() bool { return d.Category == "" }

// KnownDeed is a deed with where it was seen: the action's kind and element, and the
// activity of its page (the page's key, which holds its title, differs in another
// language; the activity does not).
type KnownDeed struct {
	Deed
	Activity string
	Kind     ActionKind
	Target   Element
}

// maxDeeds bounds the deeds Deeds returns for one app: the guard checks each element of a
// screen against them.
const maxDeeds = 256

// Deeds returns the deeds recorded in app's map, the most recently seen first; none (not
// an error) for an unknown app. One element's deed seen on several pages is returned once
// per page activity.
func (s *Store) Deeds(app string) ([]KnownDeed, error) {
	var out []KnownDeed
	err := s.withMap(app, func(m *appMap) error {
		type seen struct {
			k    KnownDeed
			last int64
		}
		var all []seen
		have := map[string]bool{}
		for _, t := range m.trans {
			if t.Deed.IsZero() || t.Successes == 0 {
				continue
			}
			act := ""
			if p, ok := m.pages[t.From]; ok {
				act = p.Activity
			} else if a, _, ok := strings.Cut(t.From, "#"); ok {
				act = a
			}
			k := KnownDeed{Deed: t.Deed, Activity: act, Kind: t.Action.Kind, Target: t.Action.Target}
			id := fmt.Sprintf("%s\x00%s\x00%s\x00%s", act, k.Kind, k.Target.String(), k.Category)
			if have[id] {
				continue
			}
			have[id] = true
			all = append(all, seen{k, t.LastSeen.UnixNano()})
		}
		slices.SortStableFunc(all, func(a, b seen) int {
			switch {
			case a.last > b.last:
				return -1
			case a.last < b.last:
				return 1
			}
			return strings.Compare(a.k.Target.String(), b.k.Target.String())
		})
		for _, d := range all[:min(len(all), maxDeeds)] {
			out = append(out, d.k)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("deeds of %s: %w", app, err)
	}
	return out, nil
}

// deedCategories are the categories a deed may name.
var deedCategories = []string{"delete", "send", "payment"}

// checkDeed refuses a deed that names no known category or carries more than a note.
func checkDeed(d Deed) error {
	if d.IsZero() {
		return nil
	}
	if !slices.Contains(deedCategories, d.Category) {
		return fmt.Errorf("deed category %q: want one of %s: %w", clipName(d.Category), strings.Join(deedCategories, ", "), ErrInvalid)
	}
	if len(d.Evidence) > MaxName || d.X < 0 || d.Y < 0 || d.Seen < 0 {
		return fmt.Errorf("deed %s: evidence over %d bytes or a negative place: %w", d.Category, MaxName, ErrInvalid)
	}
	return nil
}

// withDeed is the deed a transition keeps when d is seen again (or not): a deed once seen
// stays — an action that deleted a row deletes one next time, even when the list it
// acted on was empty — and is counted.
func withDeed(stored, d Deed) Deed {
	if d.IsZero() {
		return stored
	}
	n := stored.Seen
	if stored.Category != d.Category {
		n = 0
	}
	d.Seen = n + 1
	return d
}
