package learner

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// How a page is described from its screen text, without a model.
const (
	maxPageElements = 12 // representative elements kept per page
	maxRowsPerID    = 3  // of them, elements sharing one resource-id (rows of a list)
	maxLabel        = 40 // longer labels are content (a message, an address), not structure
	maxDescription  = 80
)

var (
	// elementLine is perception's text-form element line (see PLAN: keep it in step).
	elementLine = regexp.MustCompile(`^\s*- \[(\d+)\] (\S+)(?: "((?:[^"\\]|\\.)*)")?(?: id=(\S+))?`)
	// staticLine is a text-form line of static text.
	staticLine = regexp.MustCompile(`^\s*- "((?:[^"\\]|\\.)*)"`)
)

// textElement is one element line of a screen's text form.
type textElement struct {
	role, label, id string
}

// parseText reads the element and static lines of a screen's text form.
func parseText(text string) (elems []textElement, statics []string) {
	for line := range strings.SplitSeq(text, "\n") {
		if m := elementLine.FindStringSubmatch(line); m != nil {
			elems = append(elems, textElement{role: m[2], label: unquote(m[3]), id: m[4]})
			continue
		}
		if m := staticLine.FindStringSubmatch(line); m != nil {
			statics = append(statics, unquote(m[1]))
		}
	}
	return elems, statics
}

func unquote(s string) string {
	if s == "" {
		return ""
	}
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// editableRole reports a text-form role whose label is what the person typed.
func editableRole(role string) bool {
	switch role {
	case "input", "edit", "field", "password", "search":
		return true
	}
	return false
}

// editableClass reports an Android class whose text is what the person typed.
func editableClass(class string) bool {
	return strings.Contains(class, "EditText") || strings.Contains(class, "AutoCompleteTextView") ||
		strings.Contains(class, "SearchView")
}

// describePage writes a short description of a page and picks its representative elements,
// from the text form alone: the first short static text (usually the title bar), else the
// first labels. Typed text (input labels) and long content never become part of the map.
func describePage(activity, text string) (string, []knowledge.Element) {
	elems, statics := parseText(text)
	var rep []knowledge.Element
	seen := map[knowledge.Element]bool{}
	perID := map[string]int{} // a list's rows share a resource-id: keep a few, not the list
	var labels []string
	for _, e := range elems {
		el := knowledge.Element{ResourceID: e.id}
		if !editableRole(e.role) && short(e.label) {
			el.Text = e.label
		}
		if el.IsZero() {
			continue
		}
		if el.Text != "" && len(labels) < 3 {
			labels = append(labels, el.Text)
		}
		if seen[el] || len(rep) >= maxPageElements || (el.ResourceID != "" && perID[el.ResourceID] >= maxRowsPerID) {
			continue
		}
		seen[el] = true
		if el.ResourceID != "" {
			perID[el.ResourceID]++
		}
		rep = append(rep, el)
	}
	var title string
	for _, s := range statics {
		if short(s) && strings.TrimSpace(s) != "" {
			title = strings.TrimSpace(s)
			break
		}
	}
	var desc string
	switch {
	case title != "" && len(labels) > 0:
		desc = title + ": " + strings.Join(labels, ", ")
	case title != "":
		desc = title
	case len(labels) > 0:
		desc = strings.Join(labels, ", ")
	default:
		desc = lastPart(activity)
	}
	return clip(desc, maxDescription), rep
}

func short(s string) bool { return s != "" && utf8.RuneCountInString(s) <= maxLabel }

func lastPart(activity string) string {
	if i := strings.LastIndexAny(activity, "./"); i >= 0 {
		return activity[i+1:]
	}
	return activity
}

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:n]) + "…"
}

// target identifies the element an action touched: resource-id, label and class, never
// its index. The label of an editable field is what was typed, so it is left out.
func target(ref *event.ElementRef) knowledge.Element {
	if ref == nil {
		return knowledge.Element{}
	}
	el := knowledge.Element{ResourceID: ref.ResourceID, Class: ref.Class}
	if !editableClass(ref.Class) && ref.Label != ref.ResourceID && short(ref.Label) {
		el.Text = ref.Label
	}
	return el
}

// mapAction turns an executed action into a map action. Typed text, seconds and shell
// commands never go into Args. ok is false for actions that are no UI transition (Finish,
// NeedInteraction, Shell).
func mapAction(a event.Action, ref *event.ElementRef) (knowledge.Action, bool) {
	var k knowledge.Action
	switch a.Type {
	case event.Tap:
		k = knowledge.Action{Kind: knowledge.ActionTap, Target: target(ref)}
	case event.LongPress:
		k = knowledge.Action{Kind: knowledge.ActionLongPress, Target: target(ref)}
	case event.Swipe:
		k = knowledge.Action{Kind: knowledge.ActionSwipe, Args: map[string]string{"direction": a.Direction}}
		if a.Index > 0 {
			k.Target = target(ref)
		}
	case event.Input:
		k = knowledge.Action{Kind: knowledge.ActionInput, Target: target(ref)}
	case event.Clear:
		k = knowledge.Action{Kind: knowledge.ActionClear, Target: target(ref)}
	case event.Back:
		k = knowledge.Action{Kind: knowledge.ActionBack}
	case event.Home:
		k = knowledge.Action{Kind: knowledge.ActionHome}
	case event.Enter:
		k = knowledge.Action{Kind: knowledge.ActionEnter}
	case event.Wait:
		k = knowledge.Action{Kind: knowledge.ActionWait}
	case event.OpenApp:
		k = knowledge.Action{Kind: knowledge.ActionOpenApp, Args: map[string]string{"package": a.Package}}
	default:
		return knowledge.Action{}, false
	}
	if a.Targeted() && k.Target.IsZero() {
		// An element we cannot name again is no use to the map.
		return knowledge.Action{}, false
	}
	return k, true
}

// inPage reports an action that stays on its page (typing, clearing, waiting, focusing a
// field), so later actions of the same batch still act on the step's page.
func inPage(k knowledge.Action) bool {
	switch k.Kind {
	case knowledge.ActionInput, knowledge.ActionClear, knowledge.ActionWait:
		return true
	case knowledge.ActionTap:
		return editableClass(k.Target.Class)
	}
	return false
}

// effect classifies what a step's actions did: another page (signature or activity
// changed), the same page with other content, or nothing.
func effect(before, after observation) knowledge.Effect {
	switch {
	case before.key() != after.key() || before.pkg != after.pkg:
		return knowledge.EffectNewPage
	case before.text != after.text:
		return knowledge.EffectSamePage
	default:
		return knowledge.EffectNoChange
	}
}

// observation is one perceived screen as the events describe it.
type observation struct {
	step                     int
	pkg, activity, signature string
	text                     string
	secure                   bool
}

func (o observation) key() string { return knowledge.PageKey(o.activity, o.signature) }

func (o observation) page() knowledge.Page {
	desc, elems := describePage(o.activity, o.text)
	return knowledge.Page{Activity: o.activity, Signature: o.signature, Description: desc, Elements: elems, Secure: o.secure}
}
