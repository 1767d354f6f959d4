package guard

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// listPage is a list page as a phone shows it: a toolbar with a Delete action, a scrolling
// list of rows (each a title and its secondary texts) and a floating "Create" button.
// Every row has the same class, resource id and edges, as a RecyclerView's rows do.
func listPage(title, rowID string, rows ...[]string) *perception.Screen {
	s := &perception.Screen{Signature: "list " + title, Width: 1080, Height: 2400, Context: []string{title}}
	add := func(e perception.Element) {
		e.Index = len(s.Elements) + 1
		e.Center = e.Bounds.Center()
		s.Elements = append(s.Elements, e)
	}
	add(perception.Element{Role: "button", Label: "Delete", Desc: "Delete", Class: "android.widget.Button", ResourceID: "com.app:id/action_bar_item",
		Clickable: true, Enabled: true, Bounds: perception.Bounds{X1: 900, Y1: 80, X2: 1060, Y2: 220}})
	add(perception.Element{Role: "list", Class: "androidx.recyclerview.widget.RecyclerView", ResourceID: "com.app:id/list", Scrollable: true,
		Bounds: perception.Bounds{X1: 0, Y1: 240, X2: 1080, Y2: 2200}})
	for i, r := range rows {
		y := 240 + 200*i
		add(perception.Element{Role: "item", Label: r[0], Class: "android.widget.LinearLayout", ResourceID: rowID, Clickable: true, Enabled: true,
			Texts: r[1:], Bounds: perception.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 200}})
		// The row's own icon button (a Call icon on a contact row).
		add(perception.Element{Role: "button", Desc: "Call", Label: "Call", Class: "android.widget.ImageButton", ResourceID: "com.app:id/row_call",
			Clickable: true, Enabled: true, Bounds: perception.Bounds{X1: 940, Y1: y + 50, X2: 1040, Y2: y + 150}})
	}
	add(perception.Element{Role: "button", Desc: "Create", Label: "Create", Class: "com.google.android.material.floatingactionbutton.FloatingActionButton",
		Clickable: true, Enabled: true, Bounds: perception.Bounds{X1: 880, Y1: 2000, X2: 1040, Y2: 2160}})
	return s
}

// menuPage is a menu or an action sheet over a page: one line per action, rows alike in
// a list (which scrolls when the sheet is long).
func menuPage(scrolls bool, items ...string) *perception.Screen {
	s := &perception.Screen{Signature: "menu", Width: 1080, Height: 2400, Context: []string{"Call with HR"}}
	s.Elements = append(s.Elements, perception.Element{Index: 1, Role: "list", Class: "android.widget.ListView", Scrollable: scrolls,
		Bounds: perception.Bounds{X1: 0, Y1: 1400, X2: 1080, Y2: 2400}})
	for i, l := range items {
		y := 1400 + 140*i
		b := perception.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 140}
		s.Elements = append(s.Elements, perception.Element{Index: len(s.Elements) + 1, Role: "item", Label: l, Class: "android.widget.LinearLayout",
			Clickable: true, Enabled: true, Bounds: b, Center: b.Center()})
	}
	return s
}

// elementLabelled is the element of s labelled l.
func elementLabelled(t *testing.T, s *perception.Screen, l string) *perception.Element {
	t.Helper()
	for i := range s.Elements {
		if s.Elements[i].Label == l {
			return &s.Elements[i]
		}
	}
	t.Fatalf("no element %q on page %s", l, s.Signature)
	return nil
}

// TestGuardRecordRowsAreNotActions: opening a record — a row of a list whose words are the
// record's own (an event, a note, a contact, a conversation, an email) — is not the action
// its title or preview names, in any language or script; the page's controls still are: a
// Delete in the action bar, a Call icon on a contact row, a menu's or an action sheet's
// Delete row, a confirm dialog's Delete, a lone card that is no list, a row that names the
// action on a page that pays.
func TestGuardRecordRowsAreNotActions(t *testing.T) {
	g := defaultGuard(t)
	calendar := listPage("Calendar", "com.google.android.calendar:id/event_row",
		[]string{"Meeting with Bob", "2023-10-11 15:00"}, []string{"Call with HR", "2023-10-17 09:00"},
		[]string{"Call with Dr. Smith", "2023-10-17 10:00"}, []string{"Workshop on Project X", "2023-10-19 12:00"})
	contacts := listPage("Contacts", "com.android.contacts:id/contact_row",
		[]string{"Alex Chen", "+1 415-555-0100"}, []string{"Pay Day", "+1 415-555-0163"}, []string{"Zoe Park", "+44 20 7946 0958"})
	notes := listPage("Notes", "com.app:id/note_row",
		[]string{"Delete old photos", "Free up space on the phone"}, []string{"lively_quilt.txt", "Reminder to call Grandma for her birthday."},
		[]string{"Shopping", "Milk, eggs, bread"})
	messages := listPage("Messages", "com.app:id/conversation",
		[]string{"Alex", "Send me the file", "09:12"}, []string{"Bob", "Pay me back when you can", "Yesterday"}, []string{"Mum", "Call me", "Mon"})
	mail := listPage("Inbox", "",
		[]string{"Delete your old account", "Security team · 3 Oct"}, []string{"Transfer confirmation", "Bank · 2 Oct"}, []string{"Weekly digest", "News · 1 Oct"})
	// Records in other languages and scripts: an event, a note, a contact, a message.
	langs := listPage("Agenda", "com.app:id/event_row",
		[]string{"给张经理打电话", "10月17日 09:00"}, []string{"删除旧照片", "昨天"}, []string{"古い写真を削除", "10/17 9:00"},
		[]string{"오래된 사진 삭제", "어제"}, []string{"HR anrufen", "17.10. 09:00"}, []string{"Llamar a mamá", "17 oct 09:00"},
		[]string{"Удалить старые фото", "вчера"}, []string{"Позвонить маме", "17 окт., 09:00"}, []string{"حذف الصور القديمة", "١٧ أكتوبر"},
		[]string{"पुरानी फ़ोटो हटाएं", "17 अक्टूबर"}, []string{"ลบรูปเก่า", "17 ต.ค."}, []string{"Xóa ảnh cũ", "17 thg 10"},
		[]string{"Payer le loyer", "17 oct."}, []string{"Wyślij raport", "17 paź"}, []string{"Hapus foto lama", "17 Okt"},
		[]string{"Eski fotoğrafları sil", "17 Eki"}, []string{"Ligar para a mãe", "17 de out."})
	dialog := &perception.Screen{Signature: "dialog", Width: 1080, Height: 2400, Context: []string{"Delete this event?", "Call with HR"},
		Elements: []perception.Element{button(1, "Cancel", 1300), button(2, "Delete", 1300)}}
	dialog.Elements[1].Bounds.X1, dialog.Elements[1].Bounds.X2 = 600, 980
	card := &perception.Screen{Signature: "home", Width: 1080, Height: 2400, Context: []string{"Home"},
		Elements: []perception.Element{{Index: 1, Role: "item", Label: "Pay your bill", Texts: []string{"Due 3 Oct", "$45.00"}, Class: "android.widget.LinearLayout",
			Clickable: true, Bounds: perception.Bounds{X1: 40, Y1: 600, X2: 1040, Y2: 900}, Center: perception.Point{X: 540, Y: 750}}}}
	// A payment sheet: an amount and the rows of the ways to pay, each with its account.
	paySheet := listPage("Payment", "com.app:id/method", []string{"Pay with PayPal", "alex@example.com"},
		[]string{"Pay with card", "Visa •••• 4242"}, []string{"Pay with bank transfer", "IBAN DE89 •••• 3000"})
	paySheet.Context = append(paySheet.Context, "Total $20.00")
	// A contact's page: each phone number's row calls it, and its description says so.
	numbers := listPage("Alex Chen", "com.android.contacts:id/number_row", []string{"+1 415-555-0100", "Mobile"},
		[]string{"+1 415-555-0101", "Work"}, []string{"+1 415-555-0102", "Home"})
	for i := range numbers.Elements {
		if e := &numbers.Elements[i]; e.Role == "item" {
			// As perception reads such a row: its description is its label, and the
			// number and its kind are the texts it shows.
			number, kind := e.Label, e.Texts[0]
			e.Desc = "Call " + kind + " " + number
			e.Label, e.Texts = e.Desc, []string{number, kind}
		}
	}
	sheet := menuPage(false, "Edit event", "Duplicate", "Share", "Delete event")
	longSheet := menuPage(true, "Open", "Edit", "Share", "Copy link", "Move", "Make a copy", "Print", "Details", "Delete event")

	tap := event.Action{Type: event.Tap, Index: 1}
	for _, tc := range []struct {
		name     string
		s        *perception.Screen
		el       string
		a        event.Action
		category string // "" = not held
	}{
		// Records: opening one asks nothing.
		{"event titled Call with HR", calendar, "Call with HR", tap, ""},
		{"event titled Call with Dr. Smith, long press", calendar, "Call with Dr. Smith", event.Action{Type: event.LongPress, Index: 1}, ""},
		{"contact named Pay Day", contacts, "Pay Day", tap, ""},
		{"note titled Delete old photos", notes, "Delete old photos", tap, ""},
		{"note whose first line says call", notes, "lively_quilt.txt", tap, ""},
		{"conversation whose last message says send", messages, "Alex", tap, ""},
		{"conversation whose last message says pay", messages, "Bob", tap, ""},
		{"email subject Delete your old account", mail, "Delete your old account", tap, ""},
		{"email subject Transfer confirmation", mail, "Transfer confirmation", tap, ""},
		{"Chinese event: call", langs, "给张经理打电话", tap, ""},
		{"Chinese note: delete", langs, "删除旧照片", tap, ""},
		{"Japanese note: delete", langs, "古い写真を削除", tap, ""},
		{"Korean note: delete", langs, "오래된 사진 삭제", tap, ""},
		{"German event: call", langs, "HR anrufen", tap, ""},
		{"Spanish event: call", langs, "Llamar a mamá", tap, ""},
		{"Russian note: delete", langs, "Удалить старые фото", tap, ""},
		{"Russian event: call", langs, "Позвонить маме", tap, ""},
		{"Arabic note: delete", langs, "حذف الصور القديمة", tap, ""},
		{"Hindi note: delete", langs, "पुरानी फ़ोटो हटाएं", tap, ""},
		{"Thai note: delete", langs, "ลบรูปเก่า", tap, ""},
		{"Vietnamese note: delete", langs, "Xóa ảnh cũ", tap, ""},
		{"French event: pay", langs, "Payer le loyer", tap, ""},
		{"Polish event: send", langs, "Wyślij raport", tap, ""},
		{"Indonesian note: delete", langs, "Hapus foto lama", tap, ""},
		{"Turkish note: delete", langs, "Eski fotoğrafları sil", tap, ""},
		{"Portuguese event: call", langs, "Ligar para a mãe", tap, ""},
		// Controls on the same pages: held.
		{"Delete in the list's action bar", calendar, "Delete", tap, "delete"},
		{"Call icon on a contact row", contacts, "Call", tap, "call"},
		{"Delete in the notes' action bar", notes, "Delete", tap, "delete"},
		{"a menu sheet's Delete event", sheet, "Delete event", tap, "delete"},
		{"a long action sheet's Delete event, in a list that scrolls", longSheet, "Delete event", tap, "delete"},
		{"a confirm dialog's Delete", dialog, "Delete", tap, "delete"},
		{"a lone card is no list of records", card, "Pay your bill", tap, "payment"},
		{"a way to pay on a payment sheet", paySheet, "Pay with PayPal", tap, "payment"},
		{"a phone number's row described as a call", numbers, "Call Mobile +1 415-555-0100", tap, "call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := elementLabelled(t, tc.s, tc.el)
			a := tc.a
			a.Index = el.Index
			v, hit := g.Check(a, el, tc.s)
			if got := map[bool]string{true: v.Category}[hit]; got != tc.category {
				t.Errorf("%s %q: category %q, want %q (%+v)", a.Type, tc.el, got, tc.category, v)
			}
		})
	}

	// A swipe that scrolls the list starts on a record row: it opens nothing and is no call.
	list := elementLabelled(t, calendar, "")
	if v, hit := g.Check(event.Action{Type: event.Swipe, Index: list.Index, Direction: "up"}, list, calendar); hit {
		t.Errorf("swipe on the calendar's list: held as %q (%s)", v.Category, v.Subject)
	}
	// What the page offers to consent to is its controls, not its records.
	for _, v := range g.Offers(calendar) {
		if v.Target != "Delete" && v.Target != "Call" {
			t.Errorf("the calendar page offers %s (%s) as sensitive", v.Subject, v.Category)
		}
	}
}
