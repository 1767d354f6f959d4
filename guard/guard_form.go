package guard

import "github.com/fairy-go/fairy/perception"

// A line break typed into one field of a form (a note's title and body, an event's
// fields) breaks a line or moves to the next field: it sends nothing. With nothing
// sensitive in sight, Enter counts as sending what a field holds only in a page's one text
// field (a chat's compose bar, whose Send may show once it holds text) or in a field named
// for a message (a hint, description or id with a compose word: Message, Reply, Email).

// formField reports whether field is one text field of several on s and is named for no
// message.
func (g *Guard) formField(field *perception.Element, s *perception.Screen) bool {
	if field == nil || s == nil {
		return false
	}
	others := 0
	for i := range s.Elements {
		if e := &s.Elements[i]; e.Editable && e.Index != field.Index {
			others++
		}
	}
	if others == 0 {
		return false
	}
	for _, t := range []string{field.Hint, field.Desc, idWords(field.ResourceID)} {
		if t == "" {
			continue
		}
		text := g.newGuardText(t)
		found := false
		g.compose.find(text, func(int, span) { found = true })
		for i := range text.toks {
			found = found || g.composeStems.has(text.tok(i))
		}
		if found {
			return false
		}
	}
	return true
}
