package perception

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The page title and the signature.
//
// One activity often hosts many pages: Android's Settings shows Notifications, Storage,
// Accessibility, System, Font size… all in SubSettings, each a toolbar over a list of
// preferences whose rows share their resource ids. Their structure is one; only the title
// in the toolbar tells them apart, so the title is part of the signature.
//
// A detail page, in contrast, names the record it shows in its toolbar (a contact, a
// product, a place, a note, a conversation, a search): the title is content there, and
// the page stays one page whatever record it shows. Such a page names the record in its
// body too — the header of a contact or a product, the sender of a conversation's
// messages ("Alice Chen · 12:02"), the search box holding the query — and that is how
// perception tells content from a page's own name: a title said again elsewhere on the
// screen is content, and is left out of the signature.

// maxTitle bounds a title that may name a page, in runes: a longer text is content.
const maxTitle = 60

// titleDigits are numbers in a title ("3 selected", "Inbox (12)"): a count, not a page.
var titleDigits = regexp.MustCompile(`\d+`)

// pageTitle returns the title of the page in the foreground app's window, normalised, when
// it names the page: the first text of a toolbar (a non-clickable text that is a direct
// child of a toolbar or action bar, or the toolbar's own description) that the screen says
// nowhere else. "" when there is none, or when it is content.
func (b *builder) pageTitle() string {
	t := b.t
	title, bar := "", int32(-1)
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.vis.Empty() || n.pkg != b.s.Package || !isToolbar(n) {
			continue
		}
		for _, k := range t.children(int32(i)) {
			c := &t.nodes[k]
			if c.vis.Empty() || c.has(fClickable) || c.has(fEditable) {
				continue
			}
			if s := strings.TrimSpace(c.text); s != "" {
				title = s
				break
			}
		}
		if title == "" && !n.has(fClickable) {
			// A collapsing toolbar says its title as its description.
			title = strings.TrimSpace(n.desc)
		}
		if title != "" {
			bar = int32(i)
			break
		}
	}
	if title == "" || utf8.RuneCountInString(title) > maxTitle {
		return ""
	}
	// The toolbar's own nodes: a parent comes before its children in t.nodes.
	inBar := make([]bool, len(t.nodes))
	inBar[bar] = true
	for i := bar + 1; i < int32(len(t.nodes)); i++ {
		if p := t.nodes[i].parent; p >= 0 && inBar[p] {
			inBar[i] = true
		}
	}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.vis.Empty() || n.pkg != b.s.Package || inBar[i] {
			continue
		}
		if names(n.text, title) || names(n.desc, title) {
			return "" // the title names what the page shows
		}
	}
	return titleDigits.ReplaceAllString(title, "#")
}

// isToolbar reports a toolbar or action bar: by class (Toolbar, ActionBarView), or by a
// resource id that ends so (toolbar, action_bar, collapsing_toolbar…; not
// action_bar_root or action_bar_button_back).
func isToolbar(n *node) bool {
	c := shortClass(n.class)
	if strings.Contains(c, "Toolbar") || strings.Contains(c, "ActionBarView") {
		return true
	}
	id := n.rid
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	id = strings.ToLower(id)
	return strings.HasSuffix(id, "toolbar") || strings.HasSuffix(id, "action_bar") || strings.HasSuffix(id, "actionbar")
}

// names reports whether text says title: it is the title, or begins with it followed by
// a word boundary ("Alice Chen · 12:02" names "Alice Chen"; "Notification history" does
// not name "Notifications").
func names(text, title string) bool {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, title) {
		return false
	}
	rest := text[len(title):]
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
