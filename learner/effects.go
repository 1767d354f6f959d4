package learner

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
)

// Side effects. A transition that changed the app's state is recorded with
// knowledge.ArgSideEffect set to why: no path, shortcut, replay or prediction goes
// through it. The learner sees four kinds, without a model:
const (
	// effectReturns: a control that is no way back returned to the page its page was
	// opened from ("加入购物车" adds to the cart and returns to the menu).
	effectReturns = "returns"
	// effectToggles: a tap on a checkable element (switch, checkbox, radio) that stayed
	// on its page, or on a switch, checkbox or radio button wherever it led.
	effectToggles = "toggles"
	// effectSensitive: an action the guard held (it used consent) or whose label says it
	// sends, deletes, pays or orders.
	effectSensitive = "sensitive"
	// effectChanges: a tap that stayed on its page and changed a counter or a checked
	// state there ("购物车 (0)" → "购物车 (1)", "×1" appearing) and little else.
	effectChanges = "changes"
	// effectUnknown: a tap that led from a page whose way in is unknown (the run started
	// there, inside the app) to another page. It may be a control that returned where the
	// page was opened from as a side effect ("加入购物车" back to the menu), and nothing
	// tells: a transition is a way to a page only when it is known to have no effect.
	effectUnknown = "unknown"
)

// sideEffectOf says why a's map action k, taken on page before and leading to page
// after, is a side effect; "" when it is none. origin is the key of the page before was
// opened from, when originKnown; typed says text was typed before a in its batch (what
// changed then is the answer to it: search results, not a state change).
func sideEffectOf(k knowledge.Action, a event.ActionExecuted, before, after observation, origin string, originKnown, typed bool) string {
	if k.Kind != knowledge.ActionTap && k.Kind != knowledge.ActionLongPress {
		if a.Consent != "" && k.Kind == knowledge.ActionEnter {
			return effectSensitive // a submit the guard held (a message sent with Enter)
		}
		return ""
	}
	from, to := before.key(), after.key()
	el := a.Element
	switch {
	case a.Consent != "" || sensitiveLabel(el):
		return effectSensitive
	case checkableClass(el) || (to == from && checkableOnScreen(before.text, a.Action.Index)):
		return effectToggles
	case to != from && to == origin && sideEffect(k, el):
		return effectReturns
	case !typed && to == from && before.pkg == after.pkg && stateChanged(before.text, after.text):
		return effectChanges
	case to != from && !originKnown && !isWayBack(el):
		return effectUnknown
	}
	return ""
}

// checkableClass reports a switch, toggle, checkbox or radio button by its Android class.
func checkableClass(el *event.ElementRef) bool {
	if el == nil {
		return false
	}
	c := shortClass(el.Class)
	return strings.Contains(c, "Switch") || strings.Contains(c, "ToggleButton") ||
		strings.Contains(c, "CheckBox") || strings.Contains(c, "RadioButton")
}

// shortClass is an Android class name without its package: android.widget.Switch → Switch.
func shortClass(c string) string {
	if i := strings.LastIndexAny(c, ".$"); i >= 0 {
		return c[i+1:]
	}
	return c
}

// quoted is a quoted label, desc or hint of a text-form line.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// checkableOnScreen reports whether element index of the screen's text form is a switch,
// checkbox or radio, or shows a checked state.
func checkableOnScreen(text string, index int) bool {
	role, words, ok := elementOnScreen(text, index)
	if !ok {
		return false
	}
	switch role {
	case "switch", "checkbox", "radio":
		return true
	}
	return slices.Contains(words, "checked") || slices.Contains(words, "unchecked")
}

// checkedOnScreen is the checked state element index of the screen's text form shows
// ("checked" or "unchecked"); ok is false when it shows none.
func checkedOnScreen(text string, index int) (checked, ok bool) {
	_, words, found := elementOnScreen(text, index)
	switch {
	case !found:
		return false, false
	case slices.Contains(words, "checked"):
		return true, true
	case slices.Contains(words, "unchecked"):
		return false, true
	}
	return switchUnder(text, index)
}

// switchUnder reads the state of the switch a row holds (a settings row whose switch is
// its child: `[2] item "Battery Saver"` then `  - [3] switch … unchecked`): tapping the
// row flips it, so a replay must know it as the row's state.
func switchUnder(text string, index int) (checked, ok bool) {
	want := strconv.Itoa(index)
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		m := elementLine.FindStringSubmatch(line)
		if m == nil || m[1] != want {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		for _, child := range lines[i+1:] {
			if len(child)-len(strings.TrimLeft(child, " ")) <= indent {
				break
			}
			c := elementLine.FindStringSubmatch(child)
			if c == nil || c[2] != "switch" {
				continue
			}
			words := strings.Fields(quoted.ReplaceAllString(child, `""`))
			switch {
			case slices.Contains(words, "checked"):
				return true, true
			case slices.Contains(words, "unchecked"):
				return false, true
			}
		}
		return false, false
	}
	return false, false
}

// elementOnScreen finds element index in a screen's text form: its role and the words of
// its line outside quotes (state words such as checked); ok is false when it is not there.
func elementOnScreen(text string, index int) (role string, words []string, ok bool) {
	if index <= 0 {
		return "", nil, false
	}
	want := strconv.Itoa(index)
	for line := range strings.SplitSeq(text, "\n") {
		if m := elementLine.FindStringSubmatch(line); m != nil && m[1] == want {
			return m[2], strings.Fields(quoted.ReplaceAllString(line, `""`)), true
		}
	}
	return "", nil, false
}

// sensitiveWords are labels of actions that do something that cannot be taken back:
// send, delete, pay, order — a small part of the guard's vocabulary (the guard's own
// verdict arrives as the action's consent). Words in Latin script match whole words.
var sensitiveWords = regexp.MustCompile(`(?i)\b(send|send now|delete|remove|erase|pay|pay now|buy|buy now|purchase|place order|submit order|confirm order|order now|transfer)\b` +
	`|发送|删除|移除|支付|付款|购买|提交订单|下单|确认订单|转账|送信|削除|購入|注文する`)

// sensitiveLabel reports an element whose label or resource id says it sends, deletes,
// pays or orders.
func sensitiveLabel(el *event.ElementRef) bool {
	if el == nil {
		return false
	}
	id := el.ResourceID
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return sensitiveWords.MatchString(el.Label) || sensitiveWords.MatchString(strings.ReplaceAll(id, "_", " "))
}

// How much of a page may change for the change to read as a state change, not new
// content (a list filled after a search, a tab's rows).
const maxChangedLines = 4

var (
	elementIndex = regexp.MustCompile(`\[\d+\]`)
	digits       = regexp.MustCompile(`\d+`)
	clockTime    = regexp.MustCompile(`\d{1,2}:\d{2}`)
	quantity     = regexp.MustCompile(`[×✕]\s?\d+|(?:^|[\s"(])[xX]\s?\d+\b`)
	checkedWord  = regexp.MustCompile(`\b(un)?checked\b`)
)

// stateChanged reports whether the screen text after differs from before only in a few
// lines, one of which changed a counter ("购物车 (0)" → "购物车 (1)"), a checked state,
// or shows a quantity that was not there ("×1"). Element indices are ignored (an added
// line shifts them); a clock's time is no counter.
func stateChanged(before, after string) bool {
	if before == after {
		return false
	}
	removed, added := lineDiff(before, after)
	if len(added) == 0 || len(removed) > maxChangedLines || len(added) > maxChangedLines {
		return false
	}
	for _, r := range removed {
		for _, a := range added {
			if checkedWord.ReplaceAllString(stripQuoted(r), "") == checkedWord.ReplaceAllString(stripQuoted(a), "") &&
				quotedParts(r) == quotedParts(a) && r != a {
				return true // checked ↔ unchecked
			}
			if digits.MatchString(r) && !clockTime.MatchString(r) && !clockTime.MatchString(a) &&
				digits.ReplaceAllString(r, "#") == digits.ReplaceAllString(a, "#") {
				return true // a counter moved
			}
		}
	}
	for _, a := range added {
		if quantity.MatchString(strings.Join(quoted.FindAllString(a, -1), " ")) {
			return true // "×1" appeared
		}
	}
	return false
}

func stripQuoted(line string) string { return quoted.ReplaceAllString(line, `""`) }

func quotedParts(line string) string { return strings.Join(quoted.FindAllString(line, -1), "\x00") }

// lineDiff returns the lines of before missing from after and those of after missing
// from before, as multisets, with element indices dropped.
func lineDiff(before, after string) (removed, added []string) {
	count := map[string]int{}
	for line := range strings.SplitSeq(before, "\n") {
		if strings.TrimSpace(line) != "" {
			count[elementIndex.ReplaceAllString(line, "[]")]++
		}
	}
	for line := range strings.SplitSeq(after, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		l := elementIndex.ReplaceAllString(line, "[]")
		if count[l] > 0 {
			count[l]--
			continue
		}
		added = append(added, l)
	}
	for line := range strings.SplitSeq(before, "\n") {
		l := elementIndex.ReplaceAllString(line, "[]")
		if strings.TrimSpace(line) != "" && count[l] > 0 {
			count[l]--
			removed = append(removed, l)
		}
	}
	return removed, added
}

// wayBack matches controls that go back: a back or up arrow, close, cancel, done.
var wayBack = regexp.MustCompile(`(?i)\b(back|navigate up|up|close|cancel|dismiss|done|exit)\b|返回|关闭|取消|完成|戻る|閉じる|atrás|zurück|retour|назад|뒤로`)

// sideEffect reports whether k, an action that returned to the page its page was opened
// from, did so as a side effect of doing something: a tap or long press on a control that
// is not a way back.
func sideEffect(k knowledge.Action, el *event.ElementRef) bool {
	if k.Kind != knowledge.ActionTap && k.Kind != knowledge.ActionLongPress {
		return false
	}
	return el != nil && !isWayBack(el)
}

// upControl matches the Up or Back control of a page's toolbar: a page with one is no
// entry page of its app.
var upControl = regexp.MustCompile(`(?i)^(navigate up|up|back|go back|返回|向上导航)$`)

// entryPage reports whether o, a screen of app whose way in is not known, is an entry
// page of app: its launcher activity (when the knowledge file knows it) showing no Up or
// Back control. Nothing opened an entry page, so where a tap from it leads is known to be
// no return.
func (s *Session) entryPage(app string, o observation) bool {
	if a, err := s.l.cfg.Store.GetApp(app); err == nil && a.LauncherActivity != "" {
		act := a.LauncherActivity
		if _, after, ok := strings.Cut(act, "/"); ok {
			act = after
		}
		if strings.HasPrefix(act, ".") {
			act = app + act
		}
		if o.activity != "" && o.activity != act {
			return false
		}
	}
	elems, _ := parseText(o.text)
	for _, e := range elems {
		id := e.id
		if i := strings.LastIndex(id, "/"); i >= 0 {
			id = id[i+1:]
		}
		if upControl.MatchString(strings.TrimSpace(e.label)) || upControl.MatchString(strings.ReplaceAll(id, "_", " ")) {
			return false
		}
	}
	return true
}

// isWayBack reports whether el is a control that goes back.
func isWayBack(el *event.ElementRef) bool {
	if el == nil {
		return false
	}
	id := el.ResourceID
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	return wayBack.MatchString(el.Label) || wayBack.MatchString(strings.ReplaceAll(id, "_", " "))
}
