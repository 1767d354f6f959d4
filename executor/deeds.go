package executor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/prompts"
)

// deed is a consented action that ran: what the person said yes to, which the screen after
// it must show before the run may say done — without the model, which may be wrong about
// what the tap did (a message to another conversation, another row deleted).
type deed struct {
	category string
	sp       event.Specifics
	step     int
	activity string // the page the action ran on
	// name is what a delete removes: the row beside the target, else the page's first text
	// (a detail page's title); rows are the other rows of the same list, which stay.
	name string
	row  bool           // name is a row's (not a page title's): a static text of it counts as shown
	rows map[string]int // resource id → how many other rows of that list the page showed
	// count is how many times the page the delete ran on showed name: deleting one of two
	// exact duplicates leaves the other.
	count int
	// signIn marks a "send" held on a sign-in page (its Next or Log in): what it typed is
	// an account name sent to the app, not a message that shows in a conversation.
	signIn bool
	// typed marks a send whose text the task typed or its words name (set when it is
	// reconciled): only then is it a message of the agent's to find after the send. A text read off the page
	// (a field's label, a receipt's lines) tells nothing the page must show afterwards.
	typed bool
}

// countNamed counts the elements and static texts of s that read name, case aside.
func countNamed(s *perception.Screen, name string) int {
	n := 0
	for _, e := range s.Elements {
		if !e.Editable && strings.EqualFold(strings.TrimSpace(e.Label), name) {
			n++
		}
	}
	for _, c := range s.Context {
		if strings.EqualFold(strings.TrimSpace(c), name) {
			n++
		}
	}
	return n
}

// did counts a consented action of category that ran, by any way of acting (a tap, Enter
// in a field, a routine's step): what a task that asks for a deed needs before done.
func (r *run) did(category string) {
	if r.didDeed == nil {
		r.didDeed = map[string]int{}
	}
	r.didDeed[category]++
}

// deedOf records the consented action a on screen s, with specifics sp. A delete that only
// opens its confirmation keeps the name of the deed it confirms (see reconcile).
func (r *run) recordDeed(category string, sp event.Specifics, target *perception.Element) {
	d := &deed{category: category, sp: sp, step: r.step}
	if s := r.screen; s != nil {
		d.activity = s.Activity
		_, by := secretNeed(s, true)
		d.signIn = by == handOverPolicy
		if category == "delete" {
			d.name = strings.TrimSpace(rowText(s, target))
			if d.name == "" {
				d.name = rowAbove(s, target)
			}
			d.row = d.name != ""
			if d.name == "" {
				d.name = strings.TrimSpace(firstOf(sp.What))
			}
			d.rows = siblingRows(s, d.name)
			d.count = countNamed(s, d.name)
		}
	}
	if p := r.confirming; p != nil && p.category == category {
		d.name, d.row, d.rows, d.count = p.name, p.row, p.rows, p.count // the dialog's Delete deletes what opened it
	}
	r.confirming = nil
	r.deed = d
}

// rowAbove is the label of the list row (an element whose resource id others of other
// labels share) beside target or just above it, within three target heights: the row a
// Delete button drawn under it removes. "" when there is none.
func rowAbove(s *perception.Screen, target *perception.Element) string {
	if target == nil || target.Bounds.Empty() {
		return ""
	}
	t := target.Bounds
	best, bestY := "", -1
	for id, n := range siblingRows(s, "") {
		if n < 2 || id == target.ResourceID {
			continue
		}
		for _, e := range s.Elements {
			b := e.Bounds
			if e.ResourceID != id || e.Index == target.Index || b.Y2 <= t.Y1-3*t.Dy() || b.Y1 >= t.Y2 {
				continue
			}
			if b.Y2 > bestY {
				best, bestY = strings.TrimSpace(e.Label), b.Y2
			}
		}
	}
	return best
}

// firstOf is the first part of a specifics' "what" ("Interest Income · $170.71").
func firstOf(what string) string {
	first, _, _ := strings.Cut(what, " · ")
	return first
}

// siblingRows counts, by resource id, the rows of the lists of s other than name's: the
// elements that share a resource id with others of other labels (a row's name, not the
// Delete button every row has). A delete of one row leaves them, and a list that scrolls
// shows as many.
func siblingRows(s *perception.Screen, name string) map[string]int {
	labels := map[string]map[string]bool{}
	for _, e := range s.Elements {
		if l := strings.ToLower(strings.TrimSpace(e.Label)); e.ResourceID != "" && l != "" && !e.Editable {
			if labels[e.ResourceID] == nil {
				labels[e.ResourceID] = map[string]bool{}
			}
			labels[e.ResourceID][l] = true
		}
	}
	rows := map[string]int{}
	for _, e := range s.Elements {
		l := strings.TrimSpace(e.Label)
		if len(labels[e.ResourceID]) >= 2 && l != "" && !e.Editable && !strings.EqualFold(l, name) {
			rows[e.ResourceID]++
		}
	}
	return rows
}

// reconcile compares the deed the last batch ran with the screen it led to, s. A deed the
// screen does not show is a wrong result: the Re-Planner hears it, the step is judged C,
// and the run may not say done until a later deed of the same kind shows (unreconciled).
// A deed whose page asks to confirm it (opened) is judged once the confirmation ran.
func (r *run) reconcile(s *perception.Screen, opened bool) {
	d := r.deed
	r.deed = nil
	if d == nil || s == nil || len(s.Elements)+len(s.Context)+len(s.Read) == 0 {
		return
	}
	if opened {
		r.confirming = d
		return
	}
	d.typed = typedText(r.typed, d.sp.Text) || namesWords(r.a.Task.Task, d.sp.Text)
	why := d.unshown(s)
	if why == "" {
		if r.unreconciled[d.category] != "" {
			delete(r.unreconciled, d.category)
		}
		return
	}
	if r.unreconciled == nil {
		r.unreconciled = map[string]string{}
	}
	r.unreconciled[d.category] = why
	r.deedMiss = why
	r.planNote = append(r.planNote, prompts.NoteDeedUnshown{Why: why})
}

// unshown says what of the deed s does not show; "" when it shows it all, or nothing
// can be told.
func (d *deed) unshown(s *perception.Screen) string {
	switch d.category {
	case "send":
		text := strings.TrimSpace(d.sp.Text)
		if text == "" || d.signIn || !d.typed {
			return ""
		}
		// A text the consent read off several lines of the page is named with " · " between
		// them (specifics): each line shows on a line of its own.
		for _, part := range strings.Split(text, " · ") {
			if part = strings.TrimSpace(part); part != "" && !shownStatic(s, part) {
				return fmt.Sprintf("the message %q is not in the conversation", text)
			}
		}
		// The recipient is the page's title the consent named; on another page of the same
		// kind (the same activity) the title must still name them.
		if to := strings.TrimSpace(d.sp.To); to != "" && s.Activity == d.activity && !strings.Contains(strings.ToLower(s.Text()), strings.ToLower(to)) {
			return fmt.Sprintf("the conversation shown is not with %q", to)
		}
	case "delete":
		if d.name == "" {
			return ""
		}
		// A row deleted from a list is one row fewer of its name there (a duplicate may
		// stay); from a detail page, how many the list held is not known.
		if d.row && s.Activity == d.activity && countNamed(s, d.name) >= d.count {
			return fmt.Sprintf("the row %q is still in the list", d.name)
		}
		if len(d.rows) == 0 {
			return ""
		}
		// Rows the person did not name stay: the list the delete ran on shows as many.
		if s.Activity != d.activity {
			return ""
		}
		now := siblingRows(s, d.name)
		for id, n := range d.rows {
			if now[id] < n {
				return fmt.Sprintf("%d row(s) of the list (%s) that the person did not name are gone with %q", n-now[id], id, d.name)
			}
		}
	}
	return ""
}

// shownStatic reports whether s shows text outside an editable field: a message in a
// conversation, a row in a list.
func shownStatic(s *perception.Screen, text string) bool {
	want := strings.ToLower(strings.TrimSpace(text))
	for _, c := range s.Context {
		if strings.Contains(strings.ToLower(c), want) {
			return true
		}
	}
	for _, e := range s.Elements {
		if e.Editable {
			continue
		}
		if strings.Contains(strings.ToLower(e.Label), want) {
			return true
		}
		for _, t := range e.Texts {
			if strings.Contains(strings.ToLower(t), want) {
				return true
			}
		}
	}
	for _, b := range s.Read {
		if strings.Contains(strings.ToLower(b.Text), want) {
			return true
		}
	}
	return false
}

// typedText reports whether text is, or is part of, a text the task typed.
func typedText(typed []string, text string) bool {
	want := strings.ToLower(strings.TrimSpace(text))
	if want == "" {
		return false
	}
	for _, t := range typed {
		if t = strings.ToLower(strings.TrimSpace(t)); t == want || strings.Contains(t, want) || strings.Contains(want, t) {
			return true
		}
	}
	return false
}

// namesWords reports whether task holds text as whole words, case aside.
func namesWords(task, text string) bool {
	text = strings.TrimSpace(text)
	if text == "" {
		return false
	}
	re, err := regexp.Compile(`(?i)(^|\W)` + regexp.QuoteMeta(text) + `($|\W)`)
	return err == nil && re.MatchString(task)
}
