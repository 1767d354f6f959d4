package guard

import (
	"strings"
	"unicode/utf8"

	"github.com/fairy-go/fairy/perception"
)

// An icon's description is often one word or one glyph that names the deed by its
// picture: a bin ("Trash", "Bin", 🗑), an outbox or an arrowhead that sends (📤, ➤),
// money with wings (💸). As a button's only description it stands for the deed; as a
// row's visible text ("Trash", the folder) it names a place, and the words decide.

// iconWords are the one-word and one-glyph descriptions of deeds, by category, lower-cased
// and read as normLabel reads them (variation selectors dropped: 🗑️ is 🗑).
var iconWords = map[string]string{
	"trash": "delete", "bin": "delete", "wastebasket": "delete", "garbage": "delete", "recycle bin": "delete", "trash can": "delete",
	"🗑": "delete",
	"📤": "send", "➤": "send", "➢": "send",
	"💸": "payment",
}

// Not ✖ or ❌ (a close button's glyph), 💳 (a way to the payment methods) or ✈ (flight
// mode): they name no deed.

// maxIconWord is the longest description, in bytes, iconWord looks up: a description
// longer than the longest of iconWords with a few invisible characters in it is none.
const maxIconWord = 40

// iconWord is the rule an icon described by one word or glyph of iconWords trips: a
// clickable element with a content description and no text of its own.
func (g *Guard) iconWord(el *perception.Element) (compiledRule, bool) {
	if el == nil || el.Desc == "" || el.Text != "" || len(el.Texts) > 0 || el.Editable || el.Checkable || !(el.Clickable || el.LongClickable) {
		return compiledRule{}, false
	}
	d := strings.TrimSpace(el.Desc)
	if len(d) > maxIconWord {
		return compiledRule{}, false
	}
	if strings.IndexFunc(d, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
		d = g.normLabel(d) // drops what draws nothing (🗑️ is 🗑, T​rash is Trash)
	}
	cat, ok := iconWords[strings.ToLower(d)]
	if !ok {
		return compiledRule{}, false
	}
	return g.rule(cat)
}
