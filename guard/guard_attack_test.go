package guard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// attackTap judges a tap on el on s and returns the category held ("" for none).
func attackTap(g *Guard, el perception.Element, s *perception.Screen) string {
	v, hit := g.Check(event.Action{Type: event.Tap, Index: el.Index}, &el, s)
	return map[bool]string{true: v.Category}[hit]
}

// TestGuardHoldsContinueOnAWarning: a dialog that warns what will be lost, with Continue,
// is a destructive confirmation: Continue is held as delete, Cancel is free.
func TestGuardHoldsContinueOnAWarning(t *testing.T) {
	g := defaultGuard(t)
	for _, warning := range []string{"All your messages will be erased.", "This will permanently remove 12 photos.", "Your account data will be wiped."} {
		s := &perception.Screen{Signature: "w", Context: []string{"Reset chat history?", warning},
			Elements: []perception.Element{button(1, "Cancel", 1500), button(2, "Continue", 1700)}}
		if got := attackTap(g, s.Elements[1], s); got != "delete" {
			t.Errorf("Continue under %q: category %q, want delete", warning, got)
		}
		if got := attackTap(g, s.Elements[0], s); got != "" {
			t.Errorf("Cancel under %q: held as %q", warning, got)
		}
	}
	// A harmless notice with Continue is no warning.
	s := &perception.Screen{Signature: "n", Context: []string{"Your messages are end-to-end encrypted."},
		Elements: []perception.Element{button(1, "Continue", 1700)}}
	if got := attackTap(g, s.Elements[0], s); got != "" {
		t.Errorf("Continue under a notice: held as %q", got)
	}
}

// TestGuardReadsOneWordIcons: an icon whose only description is one word or glyph of a
// deed (Trash, Bin, 🗑, 📤, 💸, ➤) is held; the same word as a row's visible text (the
// Trash folder) opens a page and is free.
func TestGuardReadsOneWordIcons(t *testing.T) {
	g := defaultGuard(t)
	plain := &perception.Screen{Signature: "x"}
	icon := func(desc string) perception.Element {
		return perception.Element{Index: 1, Role: "button", Label: desc, Desc: desc, Class: "android.widget.ImageButton", Clickable: true,
			Bounds: perception.Bounds{X1: 900, Y1: 100, X2: 1040, Y2: 240}, Center: perception.Point{X: 970, Y: 170}}
	}
	for _, tc := range []struct{ desc, category string }{
		{"Trash", "delete"}, {"Bin", "delete"}, {"🗑", "delete"}, {"🗑️", "delete"}, {"📤", "send"}, {"💸", "payment"}, {"➤", "send"},
		{"Menu", ""}, {"⋮", ""}, {"🔍", ""}, {"✖", ""}, {"Close", ""},
	} {
		if got := attackTap(g, icon(tc.desc), plain); got != tc.category {
			t.Errorf("icon described %q: category %q, want %q", tc.desc, got, tc.category)
		}
	}
	folder := perception.Element{Index: 1, Role: "item", Label: "Trash", Text: "Trash", Class: "android.widget.TextView", Clickable: true,
		Bounds: perception.Bounds{X1: 0, Y1: 600, X2: 800, Y2: 720}, Center: perception.Point{X: 400, Y: 660}}
	if got := attackTap(g, folder, plain); got != "" {
		t.Errorf("the Trash folder's row: held as %q", got)
	}
}

// deepPage is a WebView nesting a button levels deep (see perception's TestDeepTreeIsUnplaced),
// its bounds [100,1800][980,1950].
func deepPage(t *testing.T, levels int, label string) *perception.Screen {
	t.Helper()
	node := func(attrs string) string {
		return `<node index="0" text="" resource-id="" package="com.example.app" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" ` + attrs
	}
	button := node(fmt.Sprintf(`class="android.widget.Button" bounds="[100,1800][980,1950]" text=%q clickable="true" />`, label))
	wrap := node(`class="android.view.View" bounds="[0,300][1080,2400]">`)
	back := node(`class="android.widget.ImageButton" content-desc="Back" clickable="true" bounds="[0,0][150,150]" />`)
	xml := `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
		node(`class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">`) + back +
		node(`class="android.webkit.WebView" bounds="[0,300][1080,2400]">`) +
		strings.Repeat(wrap, levels) + button + strings.Repeat("</node>", levels) + "</node></node></hierarchy>"
	s, err := perception.Parse([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGuardHoldsWhatTheTreeCannotPlace: a tap at the coordinates of a button nested deeper
// than the parser keeps is judged by the text read from the picture there, or held when
// nothing was read; a tap outside the deep region (Back) is free.
func TestGuardHoldsWhatTheTreeCannotPlace(t *testing.T) {
	g := defaultGuard(t)
	tap := func(s *perception.Screen, x, y int) string {
		v, hit := g.Check(event.Action{Type: event.Shell, Command: fmt.Sprintf("input tap %d %d", x, y)}, nil, s)
		return map[bool]string{true: v.Category}[hit]
	}
	s := deepPage(t, 600, "Delete all")
	if got := tap(s, 540, 1875); got == "" {
		t.Errorf("a tap on a button 600 levels deep, nothing read from the picture: not held")
	}
	if got := tap(s, 75, 75); got != "" {
		t.Errorf("a tap on Back beside the deep page: held as %q", got)
	}
	read := deepPage(t, 600, "Delete all")
	read.AddRead([]perception.TextBox{{Text: "Delete all", Bounds: perception.Bounds{X1: 400, Y1: 1850, X2: 680, Y2: 1900}, Confidence: 90}})
	if got := tap(read, 540, 1875); got != "delete" {
		t.Errorf("a tap on a deep button whose label the picture shows: category %q, want delete", got)
	}
	harmless := deepPage(t, 600, "Read more")
	harmless.AddRead([]perception.TextBox{{Text: "Read more", Bounds: perception.Bounds{X1: 400, Y1: 1850, X2: 680, Y2: 1900}, Confidence: 90}})
	if got := tap(harmless, 540, 1875); got != "" {
		t.Errorf("a tap on a deep button the picture shows as Read more: held as %q", got)
	}
	// The same button within the parser's depth is an element, judged by its words.
	if got := tap(deepPage(t, 30, "Delete all"), 540, 1875); got != "delete" {
		t.Errorf("a shallow Delete all: category %q", got)
	}
}

// TestGuardLetsARecipientBePicked: on a new conversation, the button that offers the typed
// number back ("Send to +1 415 555 0199") only opens the conversation: it is free. The
// same words with a message written in another field, a Send that repeats no typed
// address, and the conversation's own Send are held.
func TestGuardLetsARecipientBePicked(t *testing.T) {
	g := defaultGuard(t)
	field := func(i int, hint, text string, y int) perception.Element {
		return perception.Element{Index: i, Role: "input", Label: text, Text: text, Hint: hint, Class: "android.widget.EditText", Editable: true, Clickable: true,
			Bounds: perception.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 120}, Center: perception.Point{X: 540, Y: y + 60}}
	}
	for _, tc := range []struct {
		name     string
		fields   []perception.Element
		label    string
		category string
	}{
		{"a typed number", []perception.Element{field(1, "Type a name, phone number, or email", "+11175550123", 200)}, "Send to +11175550123", ""},
		{"a typed e-mail", []perception.Element{field(1, "To", "bob@example.com", 200)}, "Send to bob@example.com", ""},
		{"a message written too", []perception.Element{field(1, "To", "+11175550123", 200), field(2, "Message", "hi", 1800)}, "Send to +11175550123", "send"},
		{"another number", []perception.Element{field(1, "To", "+11175550123", 200)}, "Send to +12025550199", "send"},
		{"a name, not an address", []perception.Element{field(1, "To", "Bob", 200)}, "Send to Bob", "send"},
		{"a chat's Send", []perception.Element{field(1, "Text message", "+11175550123", 1800)}, "Send", "send"},
	} {
		s := &perception.Screen{Signature: "new", Context: []string{"New conversation"}, Elements: append(tc.fields, button(len(tc.fields)+1, tc.label, 400))}
		if got := attackTap(g, s.Elements[len(s.Elements)-1], s); got != tc.category {
			t.Errorf("%s: tap %q held as %q, want %q", tc.name, tc.label, got, tc.category)
		}
	}
}

// TestGuardLetsAFormTakeLineBreaks: with nothing sensitive in sight, a line break typed
// into a note's body (a form of two fields) writes a line; in a page's one field, or a
// field named for a message, it may send what the field holds, as before.
func TestGuardLetsAFormTakeLineBreaks(t *testing.T) {
	g := defaultGuard(t)
	field := func(i int, hint, id string, y int) perception.Element {
		return perception.Element{Index: i, Role: "input", Hint: hint, ResourceID: id, Class: "android.widget.EditText", Editable: true, Clickable: true, Focused: i == 2,
			Bounds: perception.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 120}, Center: perception.Point{X: 540, Y: y + 60}}
	}
	typed := event.Action{Type: event.Input, Index: 2, Text: "line one\nline two"}
	for _, tc := range []struct {
		name   string
		fields []perception.Element
		held   bool
	}{
		{"a note's body", []perception.Element{field(1, "Title", "com.fairy.notes:id/edit_title", 300), field(2, "Note", "com.fairy.notes:id/edit_body", 500)}, false},
		{"a chat's one field", []perception.Element{field(2, "Text message", "compose", 2000)}, true},
		{"a message under a To field", []perception.Element{field(1, "To", "recipient", 300), field(2, "Message", "body", 2000)}, true},
	} {
		s := &perception.Screen{Signature: "f", Keyboard: true, Elements: tc.fields}
		el := &s.Elements[len(s.Elements)-1]
		if v, held := g.Check(typed, el, s); held != tc.held {
			t.Errorf("%s: held %t (%+v), want %t", tc.name, held, v, tc.held)
		}
	}
}
