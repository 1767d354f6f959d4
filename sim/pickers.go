package sim

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"time"
)

// Pickers: Android's DatePicker (calendar mode: a month grid with previous and next month)
// and TimePicker (clock mode: a dial of hours, then of minutes; text input mode: an hour
// and a minute field), as DatePickerDialog and TimePickerDialog show them. An app binds a
// picker to a variable ("2006-01-02" for a date, "15:04" for a time, 24-hour) and puts it
// in a dialog screen with its own OK and Cancel buttons, which copy the variable or not.
//
// The dump shows them as Android does: android.widget.DatePicker with its days as
// android.view.View nodes (text "15", content-desc "15 October 2023", the chosen one
// checked), android.widget.TimePicker with the dial's numbers as
// RadialTimePickerView$RadialPickerTouchHelper nodes (content-desc the value) and, in text
// input mode, the EditTexts input_hour and input_minute.

// What a picker shows besides its value lives in its screen's scroll map under these keys
// (so it is forgotten when the dialog closes, as a new dialog starts afresh).
const (
	pickMonthKey   = "#month"   // date picker: months shown after (or before) the chosen one
	pickYearsKey   = "#years"   // date picker: 1 while the year list shows
	pickTextKey    = "#text"    // time picker: 1 in text input mode
	pickMinutesKey = "#minutes" // time picker: 1 while the dial shows minutes
)

const (
	pickHour   = "#h" // time picker text mode: the hour field's variable (bind + pickHour)
	pickMinute = "#m"
)

// Descriptions of the time picker's mode switch, as Android words them.
const (
	toTextMode  = "Switch to text input mode for the time input."
	toClockMode = "Switch to clock mode for the time input."
)

// timeParts adds the text input fields of a time picker as input elements bound to
// variables of their own, so that typing into them works as into any input.
func timeParts(e *ElementSpec) {
	e.parts = []*ElementSpec{
		{Type: "input", ID: "input_hour", Bind: e.Bind + pickHour, pickOf: e},
		{Type: "input", ID: "input_minute", Bind: e.Bind + pickMinute, pickOf: e},
	}
}

// pickerHeight is the height of a picker element in dp.
func pickerHeight(inst *screenInst, e *ElementSpec) float64 {
	if e.Type == "datepicker" {
		return 96 + 48 + 6*44
	}
	if inst.scroll[e.ID+pickTextKey] == 1 {
		return 96 + 72 + 56
	}
	return 96 + 280 + 56
}

// parseDay reads a date picker's variable; an empty or unreadable one is today.
func (p *Phone) parseDay(v string) time.Time {
	if t, err := time.Parse("2006-01-02", strings.TrimSpace(v)); err == nil {
		return t
	}
	now := p.cfg.Clock()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// parseClock reads "15:04" (or "9:30") as hour and minute; ok is false for anything else.
func parseClock(v string) (h, m int, ok bool) {
	hs, ms, found := strings.Cut(strings.TrimSpace(v), ":")
	if !found {
		return 0, 0, false
	}
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(hs) > 2 || len(ms) != 2 {
		return 0, 0, false
	}
	return h, m, true
}

// datePickerNode builds a DatePicker in calendar mode in r.
func (p *Phone) datePickerNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, r image.Rectangle) *node {
	a := inst.app
	chosen := p.parseDay(a.vars[e.Bind])
	key := e.ID + pickMonthKey
	first := time.Date(chosen.Year(), chosen.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, inst.scroll[key], 0)
	n := baseNode("android.widget.DatePicker", pkg, r)
	n.rid = "android:id/" + e.ID
	text := func(id, s, kind string, b image.Rectangle) *node {
		t := baseNode("android.widget.TextView", pkg, b)
		t.rid, t.text, t.kind, t.lines = "android:id/"+id, s, kind, []string{s}
		return t
	}
	y := r.Min.Y
	header := baseNode("android.widget.LinearLayout", pkg, image.Rect(r.Min.X, y, r.Max.X, y+m.dp(96)))
	header.rid, header.kind = "android:id/date_picker_header", "toolbar"
	years := inst.scroll[e.ID+pickYearsKey] == 1
	// The header's year opens the year list, its date the month grid, as Android's do.
	hy := text("date_picker_header_year", strconv.Itoa(chosen.Year()), "small", image.Rect(r.Min.X+m.dp(24), y+m.dp(12),
		r.Max.X-m.dp(24), y+m.dp(40)))
	hd := text("date_picker_header_date", chosen.Format("Mon, Jan 2"), "title", image.Rect(r.Min.X+m.dp(24), y+m.dp(44),
		r.Max.X-m.dp(24), y+m.dp(84)))
	for i, t := range []*node{hy, hd} {
		show := 1 - i
		t.clickable, t.focusable = true, true
		t.selected = (i == 0) == years
		t.act = &hit{inst: inst, el: e, pick: func(*Phone) { inst.scroll[e.ID+pickYearsKey] = show }}
	}
	header.children = []*node{hy, hd}
	n.children = append(n.children, header)
	y += m.dp(96)
	if years {
		// The year list, the chosen year in the middle: a tap picks the same day of that
		// year (28 February for a 29th in a common year) and shows its month.
		list := baseNode("android.widget.ListView", pkg, image.Rect(r.Min.X, y, r.Max.X, r.Max.Y))
		list.rid = "android:id/date_picker_year_picker"
		for i := -3; i <= 3; i++ {
			yr := chosen.Year() + i
			if yr < 1900 || yr > 2100 {
				continue
			}
			b := image.Rect(r.Min.X+m.dp(24), y+(i+3)*m.dp(44), r.Max.X-m.dp(24), y+(i+4)*m.dp(44))
			t := text("text1", strconv.Itoa(yr), "rowtitle", b)
			t.clickable, t.focusable = true, true
			if i == 0 {
				t.kind, t.selected, t.checked = "avatar", true, true
			}
			day := time.Date(yr, chosen.Month(), chosen.Day(), 0, 0, 0, 0, time.UTC)
			if day.Month() != chosen.Month() {
				day = time.Date(yr, chosen.Month()+1, 0, 0, 0, 0, 0, time.UTC)
			}
			t.act = &hit{inst: inst, el: e, pick: func(*Phone) {
				a.vars[e.Bind] = day.Format("2006-01-02")
				inst.scroll[key] = 0
				inst.scroll[e.ID+pickYearsKey] = 0
			}}
			list.children = append(list.children, t)
		}
		n.children = append(n.children, list)
		return n
	}
	pager := baseNode("com.android.internal.widget.ViewPager", pkg, image.Rect(r.Min.X, y, r.Max.X, r.Max.Y))
	pager.rid = "android:id/day_picker_view_pager"
	month := baseNode("android.view.View", pkg, pager.b)
	month.rid = "android:id/month_view"
	title := first.Format("January 2006")
	tw := p.fonts.width(title, m.dp(16)) + m.dp(16)
	cx := (r.Min.X + r.Max.X) / 2
	month.children = append(month.children, text("month_title", title, "rowtitle", image.Rect(cx-tw/2, y+m.dp(12),
		cx+tw/2, y+m.dp(40))))
	cw := r.Dx() / 7
	row0 := y + m.dp(48)
	lead := int(first.Weekday()) // Sunday first, as en-US shows it
	for d := first; d.Month() == first.Month(); d = d.AddDate(0, 0, 1) {
		i := lead + d.Day() - 1
		x0, y0 := r.Min.X+(i%7)*cw, row0+(i/7)*m.dp(44)
		b := image.Rect(x0+(cw-m.dp(40))/2, y0+m.dp(2), x0+(cw+m.dp(40))/2, y0+m.dp(42))
		c := baseNode("android.view.View", pkg, b)
		c.text = strconv.Itoa(d.Day())
		c.desc = d.Format("02 January 2006")
		c.lines = []string{c.text}
		c.clickable, c.focusable, c.checkable = true, true, true
		c.checked = d.Equal(chosen)
		c.selected = c.checked
		c.kind = "icon"
		if c.checked {
			c.kind = "avatar"
		}
		day := d.Format("2006-01-02")
		c.act = &hit{inst: inst, el: e, pick: func(*Phone) {
			a.vars[e.Bind] = day
			inst.scroll[key] = 0
		}}
		month.children = append(month.children, c)
	}
	pager.children = []*node{month}
	n.children = append(n.children, pager)
	arrow := func(id, desc, glyph string, x, step int) *node {
		b := baseNode("android.widget.ImageButton", pkg, image.Rect(x, y+m.dp(4), x+m.dp(48), y+m.dp(48)))
		b.rid, b.desc, b.kind, b.lines = "android:id/"+id, desc, "icon", []string{glyph}
		b.clickable, b.focusable = true, true
		next := first.AddDate(0, step, 0)
		if next.Year() < 1900 || next.Year() > 2100 {
			b.enabled = false // DatePicker's range ends there
			return b
		}
		b.act = &hit{inst: inst, el: e, pick: func(*Phone) { inst.scroll[key] += step }}
		return b
	}
	n.children = append(n.children, arrow("prev", "Previous month", "<", r.Min.X+m.dp(8), -1), arrow("next",
		"Next month", ">", r.Max.X-m.dp(56), 1))
	return n
}

// timePickerNode builds a TimePicker (24-hour) in r: the clock or the text input fields.
func (p *Phone) timePickerNode(m metrics, pkg string, inst *screenInst, e *ElementSpec, r image.Rectangle) *node {
	a := inst.app
	h, mi, ok := parseClock(a.vars[e.Bind])
	if !ok {
		h, mi = 0, 0
	}
	n := baseNode("android.widget.TimePicker", pkg, r)
	n.rid = "android:id/" + e.ID
	text := func(id, s, kind string, b image.Rectangle) *node {
		t := baseNode("android.widget.TextView", pkg, b)
		t.rid, t.text, t.kind, t.lines = "android:id/"+id, s, kind, []string{s}
		return t
	}
	textMode := inst.scroll[e.ID+pickTextKey] == 1
	minutes := inst.scroll[e.ID+pickMinutesKey] == 1
	y := r.Min.Y
	toggle := baseNode("android.widget.ImageButton", pkg,
		image.Rect(r.Min.X+m.dp(8), r.Max.Y-m.dp(52), r.Min.X+m.dp(56), r.Max.Y-m.dp(4)))
	toggle.rid, toggle.kind = "android:id/toggle_mode", "icon"
	toggle.clickable, toggle.focusable = true, true
	if textMode {
		n.children = append(n.children, text("top_label", "Type in time", "small", image.Rect(r.Min.X+m.dp(24), y+m.dp(16),
			r.Max.X-m.dp(24), y+m.dp(48))))
		y += m.dp(56)
		half := (r.Dx() - m.dp(48)) / 2
		for i, part := range e.parts {
			x0 := r.Min.X + m.dp(16) + i*(half+m.dp(16))
			f := baseNode("android.widget.EditText", pkg, image.Rect(x0, y, x0+half, y+m.dp(64)))
			f.rid, f.kind = "android:id/"+part.ID, "input"
			f.text = a.vars[part.Bind]
			f.clickable, f.focusable, f.longClickable = true, true, true
			f.focused = inst.focus == part.ID
			f.act = &hit{inst: inst, el: part, input: part.ID}
			n.children = append(n.children, f)
			label := []string{"hour", "minute"}[i]
			n.children = append(n.children, text("label_"+label, label, "small", image.Rect(x0, y+m.dp(68),
				x0+half, y+m.dp(92))))
		}
		n.children = append(n.children, text("input_separator", ":", "title", image.Rect(r.Min.X+m.dp(16)+half, y,
			r.Min.X+m.dp(32)+half, y+m.dp(64))))
		if a.vars[e.Bind] == "" {
			n.children = append(n.children, text("label_error", "Invalid time", "small", image.Rect(r.Min.X+m.dp(24),
				y+m.dp(96), r.Max.X-m.dp(24), y+m.dp(120))))
		}
		toggle.desc, toggle.lines = toClockMode, []string{"◷"}
		toggle.act = &hit{inst: inst, el: e, pick: func(p *Phone) {
			inst.scroll[e.ID+pickTextKey] = 0
			if inst.focus == "input_hour" || inst.focus == "input_minute" {
				inst.focus = ""
				p.kbShown = false
			}
		}}
		n.children = append(n.children, toggle)
		return n
	}
	header := baseNode("android.widget.LinearLayout", pkg, image.Rect(r.Min.X, y, r.Max.X, y+m.dp(96)))
	header.rid, header.kind = "android:id/time_header", "toolbar"
	cx := (r.Min.X + r.Max.X) / 2
	hours := text("hours", fmt.Sprintf("%02d", h), "title", image.Rect(cx-m.dp(72), y+m.dp(20), cx-m.dp(8), y+m.dp(76)))
	mins := text("minutes", fmt.Sprintf("%02d", mi), "title", image.Rect(cx+m.dp(8), y+m.dp(20), cx+m.dp(72), y+m.dp(76)))
	for i, t := range []*node{hours, mins} {
		show := i
		t.clickable, t.focusable = true, true
		t.selected = (i == 1) == minutes
		t.act = &hit{inst: inst, el: e, pick: func(*Phone) { inst.scroll[e.ID+pickMinutesKey] = show }}
	}
	header.children = []*node{hours, text("separator", ":", "title", image.Rect(cx-m.dp(8), y+m.dp(20), cx+m.dp(8),
		y+m.dp(76))), mins}
	n.children = append(n.children, header)
	y += m.dp(96)
	dial := baseNode("android.view.View", pkg, image.Rect(cx-m.dp(136), y+m.dp(4), cx+m.dp(136), y+m.dp(276)))
	dial.rid = "android:id/radial_picker"
	center := image.Pt(cx, y+m.dp(140))
	type num struct {
		value  int
		label  string
		radius float64
		slot   int // position on the dial, 0 at the top, clockwise
	}
	var nums []num
	if minutes {
		for i := range 12 {
			nums = append(nums, num{i * 5, fmt.Sprintf("%02d", i*5), 112, i})
		}
	} else {
		for i := range 12 {
			outer := i // 12, 1, 2 … 11 outside
			if i == 0 {
				outer = 12
			}
			nums = append(nums, num{outer, strconv.Itoa(outer), 112, i})
			inner := 12 + i // 00, 13 … 23 inside
			if i == 0 {
				inner = 0
			}
			nums = append(nums, num{inner, fmt.Sprintf("%02d", inner), 72, i})
		}
	}
	for _, nu := range nums {
		ang := float64(nu.slot) * math.Pi / 6
		px := center.X + int(math.Round(math.Sin(ang)*float64(m.dp(nu.radius))))
		py := center.Y - int(math.Round(math.Cos(ang)*float64(m.dp(nu.radius))))
		c := baseNode("android.widget.RadialTimePickerView$RadialPickerTouchHelper", pkg, image.Rect(px-m.dp(18),
			py-m.dp(18), px+m.dp(18), py+m.dp(18)))
		c.desc = strconv.Itoa(nu.value)
		c.lines = []string{nu.label}
		c.clickable, c.focusable = true, true
		c.kind = "icon"
		if (minutes && nu.value == mi) || (!minutes && nu.value == h) {
			c.kind, c.selected = "avatar", true
		}
		v := nu.value
		c.act = &hit{inst: inst, el: e, pick: func(*Phone) {
			if minutes {
				a.vars[e.Bind] = fmt.Sprintf("%02d:%02d", h, v)
				return
			}
			a.vars[e.Bind] = fmt.Sprintf("%02d:%02d", v, mi)
			inst.scroll[e.ID+pickMinutesKey] = 1 // the dial moves on to the minutes, as Android's does
		}}
		dial.children = append(dial.children, c)
	}
	n.children = append(n.children, dial)
	toggle.desc, toggle.lines = toTextMode, []string{"⌨"}
	toggle.act = &hit{inst: inst, el: e, pick: func(*Phone) {
		inst.scroll[e.ID+pickTextKey] = 1
		a.vars[e.Bind+pickHour] = fmt.Sprintf("%02d", h)
		a.vars[e.Bind+pickMinute] = fmt.Sprintf("%02d", mi)
	}}
	n.children = append(n.children, toggle)
	return n
}

// pickerEdited is called after a text input field of a time picker changed: the time is
// what the two fields say, or "" (and the picker says "Invalid time") while they do not
// say a time.
func pickerEdited(a *appState, part *ElementSpec) {
	e := part.pickOf
	if e == nil {
		return
	}
	hs, ms := strings.TrimSpace(a.vars[e.Bind+pickHour]), strings.TrimSpace(a.vars[e.Bind+pickMinute])
	if len(ms) == 1 {
		ms = "0" + ms
	}
	if _, _, ok := parseClock(hs + ":" + ms); ok && len(hs) > 0 {
		h, _ := strconv.Atoi(hs)
		a.vars[e.Bind] = fmt.Sprintf("%02d:%s", h, ms)
		return
	}
	a.vars[e.Bind] = ""
}
