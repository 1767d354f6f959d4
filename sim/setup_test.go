package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFairySimSeed: `fairy-sim seed` replaces a collection's records (the Notes list shows
// them), a reset brings back the declared ones, and bad input is an error that changes
// nothing.
func TestFairySimSeed(t *testing.T) {
	p := newPhone(t)
	line, err := SeedCommand("com.fairy.notes:notes", []Record{{"id": "a", "title": "Alpha", "body": "one"}, {"id": "b", "title": "Beta", "body": "two"}})
	if err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, line); st != 0 {
		t.Fatalf("seed: %d %s", st, out)
	}
	recs, err := p.Records("com.fairy.notes:notes")
	if err != nil || len(recs) != 2 || recs[0]["title"] != "Alpha" || recs[1]["id"] != "b" {
		t.Fatalf("records after seed: %v %v", recs, err)
	}
	launch(t, p, "com.fairy.notes")
	if !has(t, p, "Alpha") || has(t, p, "Shopping list") {
		t.Fatalf("the list does not show the seeded notes: %s", labels(t, p))
	}
	for _, bad := range []string{
		"fairy-sim seed com.fairy.notes:notes bm90IGpzb24=",                     // not JSON
		"fairy-sim seed com.fairy.notes:nope W10=",                              // no such collection
		"fairy-sim seed com.nope:notes W10=",                                    // no such app
		"fairy-sim seed notes W10=",                                             // no package
		"fairy-sim seed com.fairy.notes:notes W3sidGl0bGUiOiJ4In1d",             // a record without an id
		"fairy-sim seed com.fairy.notes:notes W3siaWQiOiJ4In0seyJpZCI6IngifV0=", // an id twice
		"fairy-sim seed com.fairy.notes:notes",
	} {
		out, st := sh(t, p, bad)
		if st == 0 || !strings.Contains(out, "fairy-sim") {
			t.Errorf("%q: status %d, %q; want an error", bad, st, out)
		}
	}
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 2 {
		t.Fatalf("a bad seed changed the records: %v", recs)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 3 || recs[0]["title"] != "Shopping list" {
		t.Fatalf("reset did not bring back the declared notes: %v", recs)
	}
}

// TestFairySimClock: `fairy-sim clock` sets the phone's time (date, the status bar, the
// apps' now) and it runs on from there; a reset brings back the configured clock.
func TestFairySimClock(t *testing.T) {
	clk := &testClock{now: fixedNow}
	p := newPhone(t, func(c *Config) { c.Clock = clk.Now })
	if out, st := sh(t, p, "fairy-sim clock 2023-10-15T15:34:00Z"); st != 0 {
		t.Fatalf("clock: %d %s", st, out)
	}
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "15:34:00") || !strings.Contains(out, "2023") {
		t.Fatalf("date after clock: %q", out)
	}
	clk.now = clk.now.Add(90 * time.Second)
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "15:35:30") {
		t.Fatalf("the clock does not run on: %q", out)
	}
	if out, st := sh(t, p, "fairy-sim clock yesterday"); st == 0 {
		t.Fatalf("a bad time was accepted: %q", out)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "2025") {
		t.Fatalf("reset kept the set clock: %q", out)
	}
}

// TestNotesSelectAll: Notes' selection mode deletes every note at once, after a
// confirmation that names how many.
func TestNotesSelectAll(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.notes")
	tap(t, p, "Select notes")
	if has(t, p, "Delete selected") {
		t.Fatal("Delete selected shows before anything is selected")
	}
	tap(t, p, "Select all")
	tap(t, p, "Delete selected")
	if !has(t, p, "Delete 3 notes?") {
		t.Fatalf("no confirmation naming the count: %s", labels(t, p))
	}
	tap(t, p, "Delete")
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 0 {
		t.Fatalf("notes left: %v", recs)
	}
	if !has(t, p, "No notes. Tap + to write one.") {
		t.Fatalf("not back on the empty list: %s", labels(t, p))
	}
}

// TestMessagesTextANumber: a typed number (no letters) can be texted as it is; a typed
// name offers no such row.
func TestMessagesTextANumber(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.google.android.apps.messaging")
	tap(t, p, "Start chat")
	typeInto(t, p, "Type a name, phone number, or email", "Bob")
	if has(t, p, "Send to Bob") {
		t.Fatal("a name offers to text it as a number")
	}
	sh(t, p, "input keyevent KEYCODE_MOVE_END")
	for range 3 {
		sh(t, p, "input keyevent 67")
	}
	typeInto(t, p, "Type a name, phone number, or email", "+15550100")
	tap(t, p, "Send to +15550100")
	typeInto(t, p, "Text message", "hello there")
	tap(t, p, "Send SMS")
	var found bool
	for _, m := range p.Messages() {
		found = found || (m.Outgoing && m.Phone == "+15550100" && m.Text == "hello there")
	}
	if !found {
		t.Fatalf("no text to the number: %+v", p.Messages())
	}
}

// TestBrightnessSlider: Settings' brightness is a level slider — a swipe across it to
// the right end sets the brightest level, to the left end the dimmest; a short swipe
// changes nothing.
func TestBrightnessSlider(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.android.settings")
	tap(t, p, "Display")
	tap(t, p, "Brightness level")
	n, ok := find(t, p, "Brightness 102 of 255")
	if !ok {
		t.Fatalf("no brightness slider: %s", labels(t, p))
	}
	y := (n.Y1 + n.Y2) / 2
	for _, tc := range []struct {
		x1, x2 int
		want   string
	}{
		{n.X1 + 5, n.X2 - 2, "255"},
		{n.X2 - 5, n.X1 + 2, "1"},
		{n.X1 + (n.X2-n.X1)/3, n.X1 + (n.X2-n.X1)/2, "1"},
	} {
		sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", tc.x1, y, tc.x2, y))
		if got := p.Setting("system/screen_brightness"); got != tc.want {
			t.Errorf("swipe %d→%d: brightness %s, want %s", tc.x1, tc.x2, got, tc.want)
		}
	}
}
