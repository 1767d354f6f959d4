package guard

import (
	"strings"
	"sync"

	"github.com/fairy-go/fairy/perception"
)

// A record row is a row of a list whose words are a record's own: an event's title and
// time, a note's name and first line, a contact and number, a conversation and its last
// message, an email's subject and date. Opening a record is not the action its words name
// ("Call with HR", "Pay Day", "Delete old photos", "Send me the file"): the action is a
// control — a button, an icon, a menu item, a confirm dialog's button, a row of a menu or
// an action sheet. What tells the two apart is the page's structure, in any language:
//
//   - a record row is drawn as a row, not as a control: not a Button or ImageButton, an
//     icon or picture, a floating action button, a slider, a menu item, a switch, a check
//     box or a field, and it is no text read from the screenshot;
//   - it shows more than its title: secondary text in the same row (a date, a time, a
//     preview, a number) — the record's attributes. A menu, an action sheet or a dialog's
//     list offers one line per action, however long it is and whether it scrolls;
//   - it is one of at least minRecordRows rows alike in a column: the same class and
//     resource id, the same left and right edges, each with secondary text. A lone card
//     ("Pay your bill · due 3 Oct") may be an action, and is judged by its words.
//
// The texts a record row shows trip no rule; its resource id and its own content
// description still do (they are the app's words for what the row does, not the
// record's: a phone number's row described "Call Mobile …" calls). On a page whose structure says it pays,
// sends or deletes (an amount with a PIN or payment words, a delete dialog), rows are
// judged by their words as before: a payment sheet's "Pay with PayPal" row pays.
const minRecordRows = 3

// rowKey is what rows alike share: class, resource id and left and right edges.
type rowKey struct {
	class, id string
	x1, x2    int
}

// recordRows counts a page's candidate record rows by rowKey. It is worked out the first
// time a row's words trip a rule, not for every page: most pages have no such row.
type recordRows struct {
	once  sync.Once
	count map[rowKey]int
}

// isRecordRow reports whether el is a row of records on s, whose texts are content and not
// an action (see minRecordRows).
func (g *Guard) isRecordRow(el *perception.Element, s *perception.Screen) bool {
	if s == nil || !g.rowLike(el) {
		return false
	}
	info := g.page(s)
	rows := info.rows
	if rows == nil {
		return false
	}
	rows.once.Do(func() {
		rows.count = map[rowKey]int{}
		for i := range s.Elements {
			if e := &s.Elements[i]; g.rowLike(e) {
				rows.count[keyOfRow(e)]++
			}
		}
	})
	return rows.count[keyOfRow(el)] >= minRecordRows
}

func keyOfRow(e *perception.Element) rowKey {
	return rowKey{class: e.Class, id: e.ResourceID, x1: e.Bounds.X1, x2: e.Bounds.X2}
}

// rowLike reports whether e is drawn as a row that shows more than its title: clickable,
// no control, and with secondary text of its own.
func (g *Guard) rowLike(e *perception.Element) bool {
	if !(e.Clickable || e.LongClickable) || e.Editable || e.Checkable || e.Scrollable || e.FromPicture || isFAB(e) {
		return false
	}
	for _, kind := range []string{"Button", "Image", "MenuItem", "SeekBar", "Slider", "Switch", "CheckBox", "RadioButton", "Spinner"} {
		if strings.Contains(e.Class, kind) {
			return false
		}
	}
	for _, t := range e.Texts {
		if t != e.Label && hasWordy(t) {
			return true
		}
	}
	return false
}
