package learner

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// Deeds: what an action did that cannot be taken back, read off the screens before and
// after it with language-free cues only — counts of a list's rows, the typed text showing
// as a new line, a number shaped like an order's appearing after an amount. No word list
// and no model: what is recorded is what the screen showed, so the guard can hold the
// element next time in any language (knowledge.Deed).

// Categories of deeds, as the guard's rules name them.
const (
	deedDelete  = "delete"
	deedSend    = "send"
	deedPayment = "payment"
)

// Evidence notes, as a deed records them.
const (
	evidenceRowGone  = "deleted a row"
	evidenceSent     = "sent the typed text: it showed as a new line"
	evidenceReceipt  = "paid: an order number appeared after an amount"
	minTypedForASend = 2 // runes: a shorter text shows up anywhere
)

// deedOf reads what action k (executed as a), taken on screen before and leading to
// screen after, did that cannot be taken back; zero when the screens show nothing of the
// kind. earlier is the text the after page showed when it was last seen in this session
// ("" when never): a dialog's Delete returns to the list it was opened over, one row
// short. typed is the text typed on before's page since it was reached.
func deedOf(k knowledge.Action, a event.ActionExecuted, before, after observation, earlier string, typed []string) knowledge.Deed {
	switch k.Kind {
	case knowledge.ActionTap, knowledge.ActionLongPress, knowledge.ActionEnter:
	default:
		return knowledge.Deed{}
	}
	el := a.Element
	if before.pkg != after.pkg || isWayBack(el) || checkableClass(el) || (el != nil && editableClass(el.Class)) {
		return knowledge.Deed{}
	}
	if a.Action.Type == event.Back {
		return knowledge.Deed{}
	}
	d := knowledge.Deed{}
	switch {
	case sentTyped(before.text, after.text, typed):
		d = knowledge.Deed{Category: deedSend, Evidence: evidenceSent}
	case len(typed) == 0 && rowGone(before, after, earlier):
		// Typed text narrows a list (a search, a filter): rows gone after it are answers.
		d = knowledge.Deed{Category: deedDelete, Evidence: evidenceRowGone}
	case !rowOrTab(before.text, a.Action.Index) && receipt(before.text, after.text):
		// A row of prices opens an item's page, which may show its code: no payment.
		d = knowledge.Deed{Category: deedPayment, Evidence: evidenceReceipt}
	default:
		return knowledge.Deed{}
	}
	if el != nil {
		d.X, d.Y = max(el.X, 0), max(el.Y, 0)
	}
	return d
}

// textLine is one line of a screen's text form as a row is compared: its indent, its
// kind (an element's role and resource id, or static text) and the line without its
// element index (an added or removed line shifts the indices of the rest).
type textLine struct {
	indent     int
	kind, norm string
}

// staticKind is the kind of a static text line.
const staticKind = `"`

// linesOf reads a text form's lines, leaving out a clock's time (it moves by itself), and
// the states its elements show (checked, selected): a tab or filter chip that changed
// state narrows a list, it deletes nothing.
func linesOf(text string) (lines []textLine, states string) {
	var st strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(trimmed, "- ") {
			continue
		}
		l := textLine{indent: len(line) - len(trimmed), norm: elementIndex.ReplaceAllString(line, "[]")}
		if m := elementLine.FindStringSubmatch(line); m != nil {
			l.kind = m[2] + " " + m[4]
			for _, w := range strings.Fields(quoted.ReplaceAllString(line, `""`)) {
				switch w {
				case "checked", "unchecked", "selected":
					st.WriteString(unquote(m[3]) + "=" + w + "\n")
				}
			}
		} else if m := staticLine.FindStringSubmatch(line); m != nil {
			if clockTime.MatchString(m[1]) && len(strings.TrimSpace(clockTime.ReplaceAllString(m[1], ""))) == 0 {
				continue
			}
			l.kind = staticKind
		} else {
			l.kind = "?"
		}
		lines = append(lines, l)
	}
	return lines, st.String()
}

// The fewest lines of one kind, side by side, that make a list: two element rows, or
// three lines of text (a title and two rows; a title and a banner are no list).
const (
	minElementRows = 2
	minStaticRows  = 3
)

// rowGone reports a list that lost a row to the action: on the same page (or back on the
// page the action's page was opened over, shown then as earlier), lines are gone and none
// is new, each gone line (its children aside) was one of a list — lines of its kind side
// by side — and no tab or filter changed state.
func rowGone(before, after observation, earlier string) bool {
	was := before.text
	if before.key() != after.key() {
		if earlier == "" {
			return false
		}
		was = earlier
	}
	wl, statesBefore := linesOf(was)
	al, statesAfter := linesOf(after.text)
	if statesBefore != statesAfter || len(al) >= len(wl) {
		return false
	}
	left := map[string]int{}
	for _, l := range al {
		left[l.norm]++
	}
	for _, l := range wl {
		if left[l.norm] > 0 {
			left[l.norm]--
		}
	}
	for _, n := range left {
		if n > 0 {
			return false // a line that was not there: other content, not a row gone
		}
	}
	kept := map[string]int{}
	for _, l := range al {
		kept[l.norm]++
	}
	gone := make([]bool, len(wl))
	for i, l := range wl {
		if kept[l.norm] > 0 {
			kept[l.norm]--
			continue
		}
		gone[i] = true
	}
	found := false
	parent := -1 // the gone line whose children follow
	for i, l := range wl {
		if parent >= 0 && l.indent > wl[parent].indent {
			continue // a gone row's subtitle, price, …
		}
		parent = -1
		if !gone[i] {
			continue
		}
		parent = i
		need := minElementRows
		if l.kind == staticKind {
			need = minStaticRows
		}
		if runOf(wl, i) < need {
			return false
		}
		found = true
	}
	return found
}

// runOf counts the lines of line i's kind and indent side by side with it (its and their
// children between them), i among them.
func runOf(lines []textLine, i int) int {
	n := 1
	for _, step := range []int{-1, 1} {
		for j := i + step; j >= 0 && j < len(lines); j += step {
			l := lines[j]
			if l.indent > lines[i].indent {
				continue
			}
			if l.indent < lines[i].indent || l.kind != lines[i].kind {
				break
			}
			n++
		}
	}
	return n
}

// sentTyped reports the text typed before the action showing after it as a line that is
// no text field, more often than before, while no field holds it any more: a message
// appended to a conversation, a comment posted.
func sentTyped(before, after string, typed []string) bool {
	for _, t := range typed {
		t = strings.TrimSpace(t)
		if utf8.RuneCountInString(t) < minTypedForASend || t == maskedText {
			continue
		}
		shownBefore, _ := linesHolding(before, t)
		shown, inField := linesHolding(after, t)
		if shown > shownBefore && inField == 0 && stayed(before, after) {
			return true
		}
	}
	return false
}

// stayed reports whether the screen after is the page before with something added: at
// least half the lines before showed are still there (a text field's aside, it held what
// was typed). A note saved onto a list shows its typed title on another page; a message
// sent stays in the conversation it was written in.
func stayed(before, after string) bool {
	removed, _ := lineDiff(fieldless(before), fieldless(after))
	n := 0
	for line := range strings.SplitSeq(fieldless(before), "\n") {
		if strings.TrimSpace(line) != "" {
			n++
		}
	}
	return n > 0 && 2*len(removed) <= n
}

// fieldless is a text form without its text fields' lines.
func fieldless(text string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		if m := elementLine.FindStringSubmatch(line); m != nil && editableRole(m[2]) {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// maskedText is what the executor shows for text typed into a password field.
const maskedText = "••••••"

// linesHolding counts the lines of a text form that hold t: as shown text, and inside a
// text field.
func linesHolding(text, t string) (shown, inField int) {
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.Contains(unquoteLine(line), t) {
			continue
		}
		if m := elementLine.FindStringSubmatch(line); m != nil && editableRole(m[2]) {
			inField++
			continue
		}
		shown++
	}
	return shown, inField
}

// unquoteLine is a text-form line with its quoted parts unescaped.
func unquoteLine(line string) string {
	return quoted.ReplaceAllStringFunc(line, func(q string) string { return unquote(q[1 : len(q)-1]) })
}

// rowOrTab reports whether element index of a screen's text form is a list's row or a tab.
func rowOrTab(text string, index int) bool {
	role, _, ok := elementOnScreen(text, index)
	return ok && (role == "item" || role == "tab" || role == "list")
}

// orderNumber matches a number shaped like an order's or a receipt's: "#10482",
// "TH-1001", "ORD12345".
var orderNumber = regexp.MustCompile(`#\s?\d{3,}\b|\b[A-Z]{1,6}-?\d{3,}\b`)

// receipt reports an order number the screen before did not show appearing after an
// action taken where an amount was shown: a payment made, an order placed.
func receipt(before, after string) bool {
	if !showsAmount(before) {
		return false
	}
	had := map[string]bool{}
	for _, n := range orderNumber.FindAllString(before, -1) {
		had[n] = true
	}
	return slices.ContainsFunc(orderNumber.FindAllString(after, -1), func(n string) bool { return !had[n] })
}

// isoCurrency matches an ISO 4217-shaped code beside a number: "CHF 36.00", "300 USDT".
var isoCurrency = regexp.MustCompile(`\b[A-Z]{3}\s?\d|\d\s?[A-Z]{3,4}\b`)

// showsAmount reports an amount of money on a screen: a currency sign (any, by its
// Unicode category) or an ISO code beside a digit.
func showsAmount(text string) bool {
	if isoCurrency.MatchString(text) {
		return true
	}
	prevDigit, sign := false, false
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Sc, r):
			if prevDigit {
				return true
			}
			sign = true
			continue
		case unicode.IsDigit(r):
			if sign {
				return true
			}
			prevDigit = true
			continue
		case r == ' ' || r == '\u00a0' || r == '\u202f':
			continue // "36,00 €", "$ 36"
		}
		prevDigit, sign = false, false
	}
	return false
}
