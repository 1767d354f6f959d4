package perception

import (
	"strconv"
	"strings"
)

// Name is the best human name of e: its label, else its text, its description, its
// resource id, its role. The executor's events, the guard's verdicts and the explorer's
// pages name an element by it, so that an action, a consent and a check name it alike.
func (e *Element) Name() string {
	for _, s := range []string{e.Label, e.Text, e.Desc} {
		if s != "" {
			return s
		}
	}
	if e.ResourceID != "" {
		return e.ResourceID
	}
	return e.Role
}

// FieldName names a text field by what it is for, never by what it holds (a field's text
// may be a password or a message not yet sent): its hint, its description, its resource
// id's last part, its role. A nil field is "the focused field".
func (e *Element) FieldName() string {
	switch {
	case e == nil:
		return "the focused field"
	case e.Hint != "":
		return strconv.QuoteToGraphic(e.Hint)
	case e.Desc != "":
		return strconv.QuoteToGraphic(e.Desc)
	case e.ResourceID != "":
		id := e.ResourceID
		if i := strings.LastIndex(id, "/"); i >= 0 {
			id = id[i+1:]
		}
		return "the field " + id
	}
	return "the " + e.Role
}
