package sim

import (
	"bytes"
	"fmt"
	"image/png"
	"testing"
)

// node returns the dump's node of class class whose content-desc (or, with no desc, text)
// is label; the test fails without one.
func pickerNode(t *testing.T, p *Phone, class, label string) xnode {
	t.Helper()
	for _, n := range dumpNodes(t, p) {
		if n.Class == class && (n.Desc == label || n.Desc == "" && n.Text == label) {
			return n
		}
	}
	t.Fatalf("no %s %q on screen %s; screen has: %s", class, label, p.ScreenID(), labels(t, p))
	return xnode{}
}

func tapNode(t *testing.T, p *Phone, n xnode) {
	t.Helper()
	if _, st := sh(t, p, fmt.Sprintf("input tap %d %d", (n.X1+n.X2)/2, (n.Y1+n.Y2)/2)); st != 0 {
		t.Fatalf("tap %+v: status %d", n, st)
	}
}

func textOf(t *testing.T, p *Phone, rid string) string {
	t.Helper()
	n, ok := find(t, p, rid)
	if !ok {
		t.Fatalf("no %s on screen %s; screen has: %s", rid, p.ScreenID(), labels(t, p))
	}
	return n.Text
}

const calPkg = "com.google.android.calendar"

// The start date is picked on DatePickerDialog's month grid: the dump shows the DatePicker
// with its days, a tap on a day (after "Next month") and OK set the date, Cancel keeps it.
func TestCalendarDatePicker(t *testing.T) {
	p := newPhone(t)
	launch(t, p, calPkg)
	tap(t, p, "Create new event")
	if d := textOf(t, p, calPkg+":id/start_date"); d != "2025-06-11" {
		t.Fatalf("new event starts on %q, want today 2025-06-11", d)
	}
	tap(t, p, calPkg+":id/start_date")
	pickerNode(t, p, "android.widget.DatePicker", "")
	today := pickerNode(t, p, "android.view.View", "11 June 2025")
	if !today.Checked || today.Text != "11" {
		t.Fatalf("the chosen day %+v: want text 11, checked", today)
	}
	if got := textOf(t, p, "android:id/date_picker_header_date"); got != "Wed, Jun 11" {
		t.Errorf("header %q, want Wed, Jun 11", got)
	}
	// Drawn: the chosen day is a filled circle in the primary colour, another day is not.
	img, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	pic, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	other := pickerNode(t, p, "android.view.View", "12 June 2025")
	at := func(n xnode) string {
		r, g, b, _ := pic.At((n.X1+n.X2)/2, n.Y1+3).RGBA()
		return fmt.Sprint(r>>8, g>>8, b>>8)
	}
	if at(today) == at(other) {
		t.Errorf("the chosen day is drawn as another day (%s)", at(today))
	}

	tap(t, p, "Next month")
	if has(t, p, "11 June 2025") {
		t.Fatal("Next month still shows June")
	}
	tapNode(t, p, pickerNode(t, p, "android.view.View", "15 July 2025"))
	if !pickerNode(t, p, "android.view.View", "15 July 2025").Checked {
		t.Fatal("the tapped day is not checked")
	}
	tap(t, p, "OK")
	if d := textOf(t, p, calPkg+":id/start_date"); d != "2025-07-15" {
		t.Fatalf("after OK the start date is %q, want 2025-07-15", d)
	}

	tap(t, p, calPkg+":id/start_date")
	tapNode(t, p, pickerNode(t, p, "android.view.View", "03 July 2025"))
	tap(t, p, "Cancel")
	if d := textOf(t, p, calPkg+":id/start_date"); d != "2025-07-15" {
		t.Fatalf("after Cancel the start date is %q, want it kept at 2025-07-15", d)
	}
}

// Start and end times are picked on TimePickerDialog: on its clock (an hour, then the dial
// shows minutes) or typed in its text input mode; the end moves with the start; Cancel
// keeps the time; the saved event keeps its start and end.
func TestCalendarTimePicker(t *testing.T) {
	p := newPhone(t)
	launch(t, p, calPkg)
	tap(t, p, "Create new event")
	if s, e := textOf(t, p, calPkg+":id/start_time"), textOf(t, p, calPkg+":id/end_time"); s != "10:00" || e != "11:00" {
		t.Fatalf("a new event at 09:41 runs %s–%s, want 10:00–11:00", s, e)
	}
	typeInto(t, p, "Add title", "Lunch with Bob")
	p.mu.Lock()
	p.hideKeyboard()
	p.mu.Unlock()

	const dial = "android.widget.RadialTimePickerView$RadialPickerTouchHelper"
	tap(t, p, calPkg+":id/start_time")
	pickerNode(t, p, "android.widget.TimePicker", "")
	tapNode(t, p, pickerNode(t, p, dial, "19"))
	if has(t, p, "23") { // the inner ring of hours is gone: the dial shows minutes
		t.Fatal("after an hour the dial still shows hours")
	}
	tapNode(t, p, pickerNode(t, p, dial, "30"))
	if h, m := textOf(t, p, "android:id/hours"), textOf(t, p, "android:id/minutes"); h != "19" || m != "30" {
		t.Fatalf("header %s:%s, want 19:30", h, m)
	}
	tap(t, p, "OK")
	if s, e := textOf(t, p, calPkg+":id/start_time"), textOf(t, p, calPkg+":id/end_time"); s != "19:30" || e != "20:30" {
		t.Fatalf("after 19:30 the event runs %s–%s, want 19:30–20:30 (the end keeps the hour)", s, e)
	}

	tap(t, p, calPkg+":id/start_time")
	tapNode(t, p, pickerNode(t, p, dial, "5"))
	tap(t, p, "Cancel")
	if s := textOf(t, p, calPkg+":id/start_time"); s != "19:30" {
		t.Fatalf("after Cancel the start is %q, want 19:30", s)
	}

	tap(t, p, calPkg+":id/end_time")
	tap(t, p, toTextMode)
	if h := textOf(t, p, "android:id/input_hour"); h != "20" {
		t.Fatalf("text mode hour %q, want 20", h)
	}
	tap(t, p, "android:id/input_hour")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input text 21")
	tap(t, p, "android:id/input_minute")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input text 45")
	tap(t, p, "OK")
	if e := textOf(t, p, calPkg+":id/end_time"); e != "21:45" {
		t.Fatalf("typed end %q, want 21:45", e)
	}

	tap(t, p, "Save")
	ev := p.Events()
	last := ev[len(ev)-1]
	if last.Title != "Lunch with Bob" || last.Date != "2025-06-11" || last.Time != "19:30" || last.End != "21:45" {
		t.Fatalf("saved %+v, want Lunch with Bob on 2025-06-11 19:30–21:45", last)
	}
	recs, _ := p.Records("events")
	if d := recs[len(recs)-1]["duration"]; d != "135" {
		t.Errorf("duration %q, want 135", d)
	}
}

// An invalid typed time is not accepted, and an end before the start is refused.
func TestCalendarTimePickerRefuses(t *testing.T) {
	p := newPhone(t)
	launch(t, p, calPkg)
	tap(t, p, "Create new event")
	typeInto(t, p, "Add title", "Late")
	tap(t, p, calPkg+":id/end_time")
	tap(t, p, toTextMode)
	tap(t, p, "android:id/input_hour")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input text 27")
	if !has(t, p, "Invalid time") {
		t.Fatal("hour 27 is not said invalid")
	}
	tap(t, p, "OK")
	if p.ScreenID() != "time_dialog" {
		t.Fatalf("OK with hour 27 closed the dialog (screen %s)", p.ScreenID())
	}
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input keyevent KEYCODE_DEL")
	sh(t, p, "input text 8")
	tap(t, p, "OK")
	n := len(p.Events())
	tap(t, p, "Save")
	if len(p.Events()) != n || p.ScreenID() != "edit_event" {
		t.Fatalf("an event 10:00–08:00 was saved: %+v", p.Events())
	}
}

// setTime sets the Calendar editor's time field (start_time, end_time) as a person who
// types it: the time picker's text input mode, hour and minute, OK.
func setTime(t *testing.T, p *Phone, field, hour, minute string) {
	t.Helper()
	tap(t, p, calPkg+":id/"+field)
	tap(t, p, toTextMode)
	for _, f := range []struct{ id, v string }{{"input_hour", hour}, {"input_minute", minute}} {
		tap(t, p, "android:id/"+f.id)
		sh(t, p, "input keyevent KEYCODE_DEL")
		sh(t, p, "input keyevent KEYCODE_DEL")
		sh(t, p, "input text "+f.v)
	}
	tap(t, p, "OK")
}

// An event that starts at 23:30 and keeps its hour ends the next day: the end has a date
// of its own, and the saved event keeps it.
func TestCalendarEventPastMidnight(t *testing.T) {
	p := newPhone(t)
	launch(t, p, calPkg)
	tap(t, p, "Create new event")
	typeInto(t, p, "Add title", "Night train")
	p.mu.Lock()
	p.hideKeyboard()
	p.mu.Unlock()
	setTime(t, p, "start_time", "23", "30")
	if d, e := textOf(t, p, calPkg+":id/end_date"), textOf(t, p, calPkg+":id/end_time"); d != "2025-06-12" || e != "00:30" {
		t.Fatalf("a 23:30 start ends %s %s, want 2025-06-12 00:30", d, e)
	}
	tap(t, p, "Save")
	recs, _ := p.Records("events")
	r := recs[len(recs)-1]
	if r["date"] != "2025-06-11" || r["time"] != "23:30" || r["end_date"] != "2025-06-12" || r["end"] != "00:30" || r["duration"] != "60" {
		t.Fatalf("saved %v", r)
	}
}

// The header's year opens the year list: a tap on a year picks the same day in it.
func TestCalendarDatePickerYear(t *testing.T) {
	p := newPhone(t)
	launch(t, p, calPkg)
	tap(t, p, "Create new event")
	tap(t, p, calPkg+":id/start_date")
	tap(t, p, "android:id/date_picker_header_year")
	if has(t, p, "11 June 2025") {
		t.Fatal("the year list does not replace the month grid")
	}
	pickerNode(t, p, "android.widget.TextView", "2027")
	tapNode(t, p, pickerNode(t, p, "android.widget.TextView", "2027"))
	if !pickerNode(t, p, "android.view.View", "11 June 2027").Checked {
		t.Fatal("after 2027 the month grid does not show 11 June 2027 chosen")
	}
	tap(t, p, "OK")
	if d := textOf(t, p, calPkg+":id/start_date"); d != "2027-06-11" {
		t.Fatalf("start date %q, want 2027-06-11", d)
	}
}
