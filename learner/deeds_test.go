package learner

import (
	"testing"

	"github.com/fairy-go/fairy/event"
)

// TestDeedsFromTheScreen: what an action did that cannot be taken back is read off the
// screens with language-free cues and recorded on its transition — a row gone (on the page,
// or on the list a dialog's button returns to), the typed text appended as a new line, an
// order number after an amount — with the element's place; a sort, a filter tab, a search,
// a way back and an action that changed nothing record none.
func TestDeedsFromTheScreen(t *testing.T) {
	const app = "com.example.tidy"
	id := func(s string) string { return app + ":id/" + s }
	list3 := screen{app, ".Main", "s-list", `- "Liste"
- [1] list id=rows
  - [2] item "Äpfel" id=row
  - [3] item "Birnen" id=row
  - [4] item "Kirschen" id=row
- [5] button "Los" id=go
- [6] button "Sortieren" id=sort
- [7] tab "Alle" id=tab_all selected
- [8] tab "Neu" id=tab_new`}
	list2 := screen{app, ".Main", "s-list", `- "Liste"
- [1] list id=rows
  - [2] item "Birnen" id=row
  - [3] item "Kirschen" id=row
- [4] button "Los" id=go
- [5] button "Sortieren" id=sort
- [6] tab "Alle" id=tab_all selected
- [7] tab "Neu" id=tab_new`}
	sorted := screen{app, ".Main", "s-list", `- "Liste"
- [1] list id=rows
  - [2] item "Kirschen" id=row
  - [3] item "Birnen" id=row
  - [4] item "Äpfel" id=row
- [5] button "Los" id=go
- [6] button "Sortieren" id=sort
- [7] tab "Alle" id=tab_all selected
- [8] tab "Neu" id=tab_new`}
	newOnly := screen{app, ".Main", "s-list", `- "Liste"
- [1] list id=rows
  - [2] item "Kirschen" id=row
- [3] button "Los" id=go
- [4] button "Sortieren" id=sort
- [5] tab "Alle" id=tab_all
- [6] tab "Neu" id=tab_new selected`}
	dialog := screen{app, ".Main", "s-dialog", `- "?"
- [1] button "✕" id=cancel_x
- [2] button "OK" id=button1`}
	detail := screen{app, ".Detail", "s-detail", `- [1] button "Navigate up" id=up
- "Äpfel"`}
	chat := screen{app, ".Chat", "s-chat", `- "Bob"
- "hi"
- [1] input "" id=compose
- [2] image "" id=fab`}
	chatTyped := screen{app, ".Chat", "s-chat", `- "Bob"
- "hi"
- [1] input "see you at 8" id=compose
- [2] image "" id=fab`}
	chatSent := screen{app, ".Chat", "s-chat", `- "Bob"
- "hi"
- "see you at 8"
- [1] input "" id=compose
- [2] image "" id=fab`}
	editor := screen{app, ".Main", "s-editor", `- "New note"
- [1] input "see you at 8" id=title
- [2] button "✓" id=save`}
	notes := screen{app, ".Main", "s-notes", `- "Notes"
- [1] item "see you at 8" id=note_row
- [2] item "Shopping" id=note_row
- [3] button "+" id=add`}
	checkout := screen{app, ".Checkout", "s-checkout", `- "Kasse"
- "Summe 36,00 €"
- "•••• 4242"
- [1] button "→" id=primary`}
	receipt := screen{app, ".Done", "s-done", `- "✓"
- "TH-1001"
- "36,00 €"`}

	plain := screen{app, ".Main", "s-plain", `- "Things"
- "Apples"
- "Pears"
- "Cherries"
- "09:30"
- [1] button "Refresh" id=refresh
- [2] button "Go" id=go`}
	plainGone := screen{app, ".Main", "s-plain", `- "Things"
- "Pears"
- "Cherries"
- "09:31"
- [1] button "Refresh" id=refresh
- [2] button "Go" id=go`}
	banner := screen{app, ".Main", "s-banner", `- "Things"
- "Tip: long-press a row"
- [1] button "Got it" id=tip_ok
- [2] button "Go" id=go`}
	noBanner := screen{app, ".Main", "s-banner", `- "Things"
- [1] button "Go" id=go`}

	flights := screen{app, ".Flights", "s-flights", `- "Flüge"
- [1] item "08:10 → 10:25" id=flight
  - "CHF 129.00"
- [2] item "12:40 → 14:55" id=flight
  - "CHF 99.00"`}
	flight := screen{app, ".Flight", "s-flight", `- "LX-1234"
- "CHF 129.00"
- [1] button "→" id=book`}

	goBtn := tap(5, "Los", id("go"), "android.widget.Button")
	goBtn.el.X, goBtn.el.Y = 540, 2000
	sortBtn := tap(6, "Sortieren", id("sort"), "android.widget.Button")
	newTab := tap(8, "Neu", id("tab_new"), "android.widget.TextView")
	rowDelete := act{a: event.Action{Type: event.LongPress, Index: 2}, el: &event.ElementRef{Label: "Äpfel", ResourceID: id("row"), Class: "android.widget.LinearLayout"}}
	ok := tap(2, "OK", id("button1"), "android.widget.Button")
	up := tap(1, "Navigate up", id("up"), "android.widget.ImageButton")
	row := tap(2, "Äpfel", id("row"), "android.widget.LinearLayout")
	typeMsg := act{a: event.Action{Type: event.Input, Index: 1, Text: "see you at 8"}, el: &event.ElementRef{ResourceID: id("compose"), Class: "android.widget.EditText"}}
	fab := act{a: event.Action{Type: event.Tap, Index: 2}, el: &event.ElementRef{Class: "android.widget.ImageView", X: 1000, Y: 2200}}
	arrow := tap(1, "→", id("primary"), "android.widget.Button")

	tests := []struct {
		name  string
		steps []effectStep
		want  map[string]string // target → category:evidence ("" none)
	}{
		{"a row gone on its page", []effectStep{{list3, []act{goBtn}}, {list2, nil}}, map[string]string{"Los": "delete:deleted a row"}},
		{"a line of text gone from a list of text", []effectStep{{plain, []act{tap(2, "Go", id("go"), "android.widget.Button")}}, {plainGone, nil}},
			map[string]string{"Go": "delete:deleted a row"}},
		{"a banner dismissed", []effectStep{{banner, []act{tap(1, "Got it", id("tip_ok"), "android.widget.Button")}}, {noBanner, nil}},
			map[string]string{"Got it": ""}},
		{"sorted", []effectStep{{list3, []act{sortBtn}}, {sorted, nil}}, map[string]string{"Sortieren": ""}},
		{"a filter tab", []effectStep{{list3, []act{newTab}}, {newOnly, nil}}, map[string]string{"Neu": ""}},
		{"a dialog's OK returns one row short", []effectStep{{list3, []act{rowDelete}}, {dialog, []act{ok}}, {list2, nil}},
			map[string]string{"OK": "delete:deleted a row", "Äpfel": ""}},
		{"a way back to a list one row short", []effectStep{{list3, []act{row}}, {detail, []act{up}}, {list2, nil}},
			map[string]string{"Navigate up": "", "Äpfel": ""}},
		{"the typed text sent", []effectStep{{chat, []act{typeMsg, fab}}, {chatSent, nil}}, map[string]string{"android.widget.ImageView": "send:sent the typed text: it showed as a new line"}},
		{"typed in one step, sent in the next", []effectStep{{chat, []act{typeMsg}}, {chatTyped, []act{fab}}, {chatSent, nil}},
			map[string]string{"android.widget.ImageView": "send:sent the typed text: it showed as a new line"}},
		{"typed, nothing sent", []effectStep{{chat, []act{typeMsg}}, {chatTyped, []act{fab}}, {chatTyped, nil}}, map[string]string{"android.widget.ImageView": ""}},
		{"a note saved onto a list", []effectStep{{editor, []act{typeMsg, tap(2, "✓", id("save"), "android.widget.Button")}}, {notes, nil}}, map[string]string{"✓": ""}},
		{"a row of prices opens an item with its code", []effectStep{{flights, []act{tap(1, "08:10 → 10:25", id("flight"), "android.widget.LinearLayout")}}, {flight, nil}},
			map[string]string{"08:10 → 10:25": ""}},
		{"paid", []effectStep{{checkout, []act{arrow}}, {receipt, nil}}, map[string]string{"→": "payment:paid: an order number appeared after an amount"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := tempStore(t)
			l := newLearner(t, st, nil)
			s := l.Start("", "")
			r := startRun(t, s, "r1", tc.name, app, tc.name)
			for i, stp := range tc.steps {
				r.see(stp.sc, map[bool]string{true: "A"}[i > 0], "go on")
				if len(stp.acts) > 0 {
					r.do(stp.sc.sig, stp.acts...)
				}
			}
			r.finish(event.OutcomeDone, "")
			if err := s.Err(); err != nil {
				t.Fatal(err)
			}
			m, err := st.Map(app)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, tr := range m.Transitions {
				name := tr.Action.Target.Text
				if name == "" {
					name = tr.Action.Target.Class
				}
				if tr.Successes > 0 && name != "" && got[name] == "" {
					got[name] = ""
					if !tr.Deed.IsZero() {
						got[name] = tr.Deed.Category + ":" + tr.Deed.Evidence
					}
				}
			}
			for name, want := range tc.want {
				if g, ok := got[name]; !ok || g != want {
					t.Errorf("%s: deed %q (recorded %v), want %q; map %+v", name, g, ok, want, edges(m))
				}
			}
			deeds, err := st.Deeds(app)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range deeds {
				if d.Target.Text == "Los" && (d.X != 540 || d.Y != 2000 || d.Activity != ".Main") {
					t.Errorf("Los's deed is at (%d,%d) on %q; want (540,2000) on .Main", d.X, d.Y, d.Activity)
				}
			}
		})
	}
}
