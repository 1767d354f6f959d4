package androidworld

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// calEvent is events_generator.generate_event: a title (a prefix and a name or subject)
// on a day of October 2023 at a whole hour.
type calEvent struct {
	title string
	day   int
	hour  int
}

func (g *gen) eventTitle() string {
	p := pick(g.r, g.list("events_generator.TITLES_PREFIXES"))
	if strings.Contains(p, "with") {
		return p + " " + pick(g.r, g.list("events_generator.NAMES"))
	}
	return p + " " + pick(g.r, g.list("events_generator.SUBJECTS"))
}

// event draws an event on a day in [from, to] (create_random_october_2023_unix_ts).
func (g *gen) event(from, to int) calEvent {
	return calEvent{title: g.eventTitle(), day: between(g.r, from, to), hour: between(g.r, 0, 23)}
}

func (e calEvent) date() string { return fmt.Sprintf("2023-10-%02d", e.day) }

func (e calEvent) record(id string) sim.Record {
	return sim.Record{"id": id, "title": e.title, "date": e.date(), "time": fmt.Sprintf("%02d:00", e.hour), "location": ""}
}

// noiseEvents is calendar.generate_noise_events: n events from day 1 on that keep.
// Noise never shares a target's title, so a row's title names one event.
func noiseEvents(g *gen, n int, keep func(calEvent) bool) []calEvent {
	var out []calEvent
	for len(out) < n {
		if e := g.event(1, 31); keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// calendarRows seeds targets and noise (ids t1…, n1…) in a random order.
func calendarRows(g *gen, targets, noise []calEvent) []sim.Record {
	var rows []sim.Record
	for i, e := range targets {
		rows = append(rows, e.record(fmt.Sprintf("t%d", i+1)))
	}
	for i, e := range noise {
		rows = append(rows, e.record(fmt.Sprintf("n%d", i+1)))
	}
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return rows
}

// pastDay is a screen pattern that shows the list went past day: a row of a later day,
// or the last row left once the targets (ids t…) are gone (the schedule is sorted by
// date, as the app sorts it).
func pastDay(rows []sim.Record, day int) string {
	var later []string
	for d := day + 1; d <= 31; d++ {
		later = append(later, strconv.Quote(fmt.Sprintf("2023-10-%02d", d))[:11])
	}
	// The last row of what remains: the targets' rows go.
	sorted := slices.DeleteFunc(slices.Clone(rows), func(r sim.Record) bool { return strings.HasPrefix(r["id"], "t") })
	slices.SortStableFunc(sorted, func(a, b sim.Record) int { return strings.Compare(a["date"], b["date"]) })
	last := sorted[len(sorted)-1]
	alts := []string{`item "` + q(last["title"]) + `" id=event_row\n *- "` + q(last["date"]+" "+last["time"]) + `"`}
	if len(later) > 0 {
		alts = append(alts, `- (?:`+strings.Join(later, "|")+`) `)
	}
	return strings.Join(alts, "|")
}

func calendarDeleteOne(g *gen) (*instance, error) {
	target := g.event(clock.Day(), 30)
	noise := laterNoise(g, noiseEvents(g, 20, func(e calEvent) bool {
		return e.title != target.title && (e.day != target.day || e.hour != target.hour)
	}), target.day)
	rows := calendarRows(g, []calEvent{target}, noise)
	setup, err := seed(calendarPkg+":events", rows)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range rows {
		if r["id"] != "t1" {
			ids = append(ids, r["id"])
		}
	}
	return &instance{
		params: map[string]string{"year": "2023", "month": "10", "day": strconv.Itoa(target.day), "hour": strconv.Itoa(target.hour), "event_title": target.title},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: []string{"t1"}}},
		walk: []walkthrough.Task{{App: calendarPkg, Done: pastDay(rows, target.day), Unless: `item "` + q(target.title) + `"|id=info_action_delete`,
			Steps: []walkthrough.Step{
				{Screen: `id=schedule_list`, Without: `item "` + q(target.title) + `" id=event_row\n *- "` + target.date() + ` `, Subgoal: "Scroll to the event", Loop: true, Do: []string{`Swipe "schedule_list" up`}},
				{Screen: `item "` + q(target.title) + `" id=event_row\n *- "` + target.date() + ` `, When: `with the title '(?P<title>[^\n]+)'`,
					Subgoal: "Open the event", Do: []string{`Tap "${title}"`}},
				{Screen: `id=info_action_delete`, Subgoal: "Delete the event", Do: []string{`Tap "Delete event"`}},
			}}},
	}, nil
}

// calendarDeleteOn is SimpleCalendarDeleteEvents (n events on a day from today on) and,
// relative, SimpleCalendarDeleteEventsOnRelativeDay (on a day of the coming week, named
// by its weekday).
func calendarDeleteOn(n int, relative bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) { return calendarDeleteOnDay(g, n, relative) }
}

func calendarDeleteOnDay(g *gen, n int, relative bool) (*instance, error) {
	day := g.event(clock.Day(), 30).day
	if relative {
		day = between(g.r, clock.Day()+1, clock.Day()+6)
	}
	var targets []calEvent
	for range n {
		e := g.event(day, day)
		targets = append(targets, e)
	}
	noise := laterNoise(g, noiseEvents(g, 20, func(e calEvent) bool {
		return e.day != day && !slices.ContainsFunc(targets, func(t calEvent) bool { return t.title == e.title })
	}), day)
	rows := calendarRows(g, targets, noise)
	setup, err := seed(calendarPkg+":events", rows)
	if err != nil {
		return nil, err
	}
	date := fmt.Sprintf("2023-10-%02d", day)
	var ids []string
	for i := range targets {
		ids = append(ids, fmt.Sprintf("t%d", i+1))
	}
	return &instance{
		params: map[string]string{"year": "2023", "month": "10", "day": strconv.Itoa(day), "day_of_week": time.Date(2023, 10, day, 0, 0, 0, 0, time.UTC).Weekday().String()},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: ids}},
		walk: []walkthrough.Task{{App: calendarPkg, Done: pastDay(rows, day), Unless: `"` + date + ` |id=info_action_delete`,
			Steps: []walkthrough.Step{
				{Screen: `id=schedule_list`, Without: `"` + date + ` `, Subgoal: "Scroll to the events of " + date, Loop: true, Do: []string{`Swipe "schedule_list" up`}},
				{Screen: `item "(?P<title>[^"]+)" id=event_row\n *- "` + date + ` `, Subgoal: "Open an event of " + date, Loop: true, Do: []string{`Tap "${title}"`}},
				{Screen: `id=info_action_delete`, Subgoal: "Delete the event", Do: []string{`Tap "Delete event"`}},
			}}},
	}, nil
}

// calendarAdd is SimpleCalendarAddOneEvent and its relative forms: an event of a given
// title, description, hour and duration on a day (when draws it; the walk writes the day
// as the model computes it from today, 2023-10-15), among 0–20 noise events. The app's
// editor is Simple Calendar Pro's: the day is picked on a date picker, the start and end
// on time pickers (typed in their text input mode); the check compares the start (date,
// time) and the end as the benchmark compares start_ts and end_ts.
func calendarAdd(when func(g *gen) int) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		e := g.event(1, 31)
		e.day = when(g)
		description := g.eventDescription()
		duration := pick(g.r, []int{15, 30, 45, 60})
		noise := noiseEvents(g, between(g.r, 0, 20), func(x calEvent) bool { return x.title != e.title })
		rows := calendarRows(g, nil, noise)
		setup, err := seed(calendarPkg+":events", rows)
		if err != nil {
			return nil, err
		}
		start := fmt.Sprintf("%02d:00", e.hour)
		endAt := time.Date(2023, 10, e.day, e.hour, duration, 0, 0, time.UTC)
		endDate, end := endAt.Format("2006-01-02"), endAt.Format("15:04")
		// The current sub-goal says the event was saved (the list looks as before).
		saved := `(?m)^Current sub-goal: (?:Save the event|Find the new event in the list)$`
		form := `"` + q(e.title) + `" id=title`
		dateSet := `text "` + e.date() + `" id=start_date`
		startSet := dateSet + `(?s:.*)text "` + start + `" id=start_time`
		endDateSet := startSet + `(?s:.*)text "` + endDate + `" id=end_date`
		steps := []walkthrough.Step{
			{Screen: `Create new event`, Unless: saved, Subgoal: "Open the new event form", Do: []string{`Tap "Create new event"`}},
			{Screen: `input "Add title" id=title`, When: `at (?P<hour>\d\d?)h with the title '(?P<title>[^\n]+?)' and the description '(?P<description>[^\n]+?)'\. The event should last for (?P<duration>\d+) mins`,
				Subgoal: "Fill in the title and the description", Do: []string{`Input "title" "${title}"`, `Input "description" "${description}"`}},
		}
		// Start date, start time, then the end (a new start moves the end with it: an hour
		// later, the length a new event has), each only when it is not what it should be.
		steps = append(steps, dateSteps(form, dateSet, "start", e.date())...)
		steps = append(steps, timeSteps(form+`(?s:.*)`+dateSet, startSet, "start", start)...)
		steps = append(steps, dateSteps(form+`(?s:.*)`+startSet, endDateSet, "end", endDate)...)
		steps = append(steps, timeSteps(form+`(?s:.*)`+endDateSet, endDateSet+`(?s:.*)text "`+end+`" id=end_time`, "end", end)...)
		steps = append(steps,
			walkthrough.Step{Screen: form + `(?s:.*)"` + q(description) + `" id=description(?s:.*)` + endDateSet + `(?s:.*)text "` + end + `" id=end_time`,
				Subgoal: "Save the event", Do: []string{`Tap "Save"`}},
			// Saved, the event may be below the fold: scroll to see it listed.
			walkthrough.Step{Screen: `id=schedule_list`, When: saved, Subgoal: "Find the new event in the list", Loop: true, Do: []string{`Swipe "schedule_list" up`}},
		)
		return &instance{
			params: map[string]string{"year": "2023", "month": "10", "day": strconv.Itoa(e.day), "hour": strconv.Itoa(e.hour),
				"event_title": e.title, "event_description": description, "duration_mins": strconv.Itoa(duration),
				"day_of_week": time.Date(2023, 10, e.day, 0, 0, 0, 0, time.UTC).Weekday().String()},
			setup: []string{setup},
			checks: []eval.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Added: []map[string]string{{
				"title": e.title, "date": e.date(), "time": start, "end_date": endDate, "end": end, "description": description}}}},
			walk: []walkthrough.Task{walk(calendarPkg, `item "`+q(e.title)+`" id=event_row\n *- "`+e.date(), steps...)},
		}, nil
	}
}

// dateSteps sets the editor's start or end date (which) to day ("2006-01-02", in October
// 2023) on its date picker: open the field (on a form that matches ready and not set),
// tap the day, OK. The picker does not say which field it sets: the current sub-goal does.
func dateSteps(ready, set, which, day string) []walkthrough.Step {
	d, _ := time.Parse("2006-01-02", day)
	desc := d.Format("02 January 2006")
	mine := `(?m)^Current sub-goal: [^\n]*` + which + ` date`
	return []walkthrough.Step{
		{Screen: ready, Without: set, Subgoal: "Open the " + which + " date", Do: []string{`Tap "` + which + `_date"`}},
		{Screen: `desc="\d\d ` + d.Format("January 2006") + `"`, Without: `checked selected desc="` + desc + `"`, When: mine,
			// The day's label is its number ("7"); its description names the month.
			Subgoal: "Pick " + desc + " for the " + which + " date", Do: []string{`Tap "` + strconv.Itoa(d.Day()) + `"`}},
		{Screen: `checked selected desc="` + desc + `"`, When: mine, Subgoal: "Confirm the " + which + " date", Do: []string{`Tap "OK"`}},
	}
}

// timeSteps sets the editor's start or end time (which) to hh:mm on its time picker, as a
// person who types it: open the field (on a form that matches ready and not set), switch
// the picker to text input, type the hour and the minutes, OK. The picker does not say
// which field it sets: the current sub-goal does.
func timeSteps(ready, set, which, hhmm string) []walkthrough.Step {
	hh, mm, _ := strings.Cut(hhmm, ":")
	mine := `(?m)^Current sub-goal: [^\n]*` + which + ` time`
	hour, minute := `input "`+hh+`" id=input_hour`, `input "`+mm+`" id=input_minute`
	return []walkthrough.Step{
		{Screen: ready, Without: set, Subgoal: "Open the " + which + " time", Do: []string{`Tap "` + which + `_time"`}},
		{Screen: `Switch to text input mode`, When: mine, Subgoal: "Type the " + which + " time", Do: []string{`Tap "Switch to text input mode for the time input."`}},
		{Screen: `id=input_hour`, Without: hour, When: mine, Subgoal: "Type the hour of the " + which + " time", Do: []string{`Input "input_hour" "` + hh + `"`}},
		{Screen: hour, Without: minute, When: mine, Subgoal: "Type the minutes of the " + which + " time", Do: []string{`Input "input_minute" "` + mm + `"`}},
		{Screen: hour + `(?s:.*)` + minute, When: mine, Subgoal: "Confirm the " + which + " time", Do: []string{`Tap "OK"`}},
	}
}

func (g *gen) eventDescription() string {
	d := "We will " + pick(g.r, g.list("events_generator.ACTIONS")) + " " + pick(g.r, g.list("events_generator.SUBJECTS_DESCRIPTIONS")) + "."
	if g.r.IntN(2) == 1 {
		d += " " + pick(g.r, g.list("events_generator.ADDITIONAL_NOTES"))
	}
	return d
}

// irDate reads the information-retrieval tasks' dates ("October 20 2023").
func irDate(s string) (time.Time, error) { return time.Parse("January 2 2006", s) }

// irTime reads their times ("11:00am", "12pm", "21:45") as HH:MM.
func irTime(s string) (string, error) {
	for _, l := range []string{"3:04pm", "3pm", "15:04"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.Format("15:04"), nil
		}
	}
	return "", fmt.Errorf("time %q", s)
}

// calendarLocation is SimpleCalendarLocationOfEvent: one event of the title with a
// location among 20 noise events whose titles do not contain it; the answer is the
// location, compared part by part.
func calendarLocation(g *gen) (*instance, error) {
	title := pick(g.r, g.list("ir.SimpleCalendarLocationOfEvent.title"))
	location := pick(g.r, g.list("ir.SimpleCalendarLocationOfEvent.location"))
	d, err := irDate(pick(g.r, g.list("ir.SimpleCalendarLocationOfEvent.date")))
	if err != nil {
		return nil, err
	}
	at, err := irTime(pick(g.r, g.list("ir.SimpleCalendarLocationOfEvent.time")))
	if err != nil {
		return nil, err
	}
	noise := noiseEvents(g, 20, func(e calEvent) bool { return !strings.Contains(e.title, title) })
	rows := calendarRows(g, nil, noise)
	rows = append(rows, sim.Record{"id": "t1", "title": title, "date": d.Format("2006-01-02"), "time": at, "location": location})
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	setup, err := seed(calendarPkg+":events", rows)
	if err != nil {
		return nil, err
	}
	row := `item "` + q(title) + `" id=event_row`
	return &instance{
		params: map[string]string{"title": title},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: splitAnswer(location), As: answerString}},
		walk: []walkthrough.Task{{App: calendarPkg, Steps: []walkthrough.Step{
			{Screen: `id=schedule_list`, Without: row + `\n *- "`, Subgoal: "Scroll to the " + title + " event", Loop: true, Do: []string{`Swipe "schedule_list" up`}},
			{Screen: row + `\n *- "[^"]* · (?P<place>[^"]+)"`, Subgoal: "Read the location", Do: []string{`Finish "${place}"`}},
		}}},
	}, nil
}

// calendarNext is SimpleCalendarNextEvent: the first event after now (2023-10-15 15:34)
// among past events and later ones; the answer is its title.
func calendarNext(g *gen) (*instance, error) {
	title := pick(g.r, g.list("ir.SimpleCalendarNextEvent.title"))
	next := calEvent{title: title, day: between(g.r, clock.Day()+1, 25), hour: between(g.r, 8, 20)}
	noise := noiseEvents(g, 20, func(e calEvent) bool {
		return e.title != title && (e.day < clock.Day() || e.day > next.day)
	})
	rows := calendarRows(g, []calEvent{next}, noise)
	setup, err := seed(calendarPkg+":events", rows)
	if err != nil {
		return nil, err
	}
	when := next.date() + " " + fmt.Sprintf("%02d:00", next.hour)
	return &instance{
		params: map[string]string{},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: []string{title}, As: answerString}},
		walk: []walkthrough.Task{{App: calendarPkg, Steps: []walkthrough.Step{
			{Screen: `id=schedule_list`, Without: `id=event_row\n *- "` + when + `"`, Subgoal: "Scroll to the events after today, " + clock.Format("2006-01-02 15:04"), Loop: true, Do: []string{`Swipe "schedule_list" up`}},
			{Screen: `item "(?P<title>[^"]+)" id=event_row\n *- "` + when + `"`, Subgoal: "Read the first event after now", Do: []string{`Finish "${title}"`}},
		}}},
	}, nil
}

// calendarOnDate is the information-retrieval family task (SimpleCalendarEventsOnDate,
// SimpleCalendarAnyEventsOnDate, and with atTime SimpleCalendarEventOnDateAtTime): 1–2
// events of its title list on its date among 20 noise events of other days; the answer is
// their titles, comma-separated, matched part by part. With atTime one event is at the
// asked time and another on that day is not.
func calendarOnDate(task string, atTime bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		dateText := pick(g.r, g.list("ir."+task+".date"))
		d, err := irDate(dateText)
		if err != nil {
			return nil, err
		}
		n := between(g.r, 1, 2)
		titles := sample(g.r, g.list("ir."+task+".title"), n)
		timesText := sample(g.r, g.list("ir."+task+".time"), n)
		var times []string
		for _, t := range timesText {
			hm, err := irTime(t)
			if err != nil {
				return nil, err
			}
			times = append(times, hm)
		}
		date := d.Format("2006-01-02")
		noise := noiseEvents(g, 20, func(e calEvent) bool { return e.day != d.Day() })
		rows := calendarRows(g, nil, noise)
		for i := range titles {
			rows = append(rows, sim.Record{"id": fmt.Sprintf("t%d", i+1), "title": titles[i], "date": date, "time": times[i], "location": ""})
		}
		g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		setup, err := seed(calendarPkg+":events", rows)
		if err != nil {
			return nil, err
		}
		params := map[string]string{"date": dateText}
		want := titles
		row := func(group, at string) string {
			return `item "(?P<` + group + `>[^"]+)" id=event_row\n *- "` + date + ` ` + at + `"`
		}
		var read, answer string
		switch {
		case atTime:
			params["time"] = timesText[0]
			want = titles[:1]
			read, answer = row("t1", times[0]), "${t1}"
		case n == 1:
			read, answer = row("t1", `[^"]*`), "${t1}"
		default:
			// The day's rows are next to each other (the list is sorted by date).
			read, answer = row("t1", `[^"]*`)+`\n *- \[\d+\] `+row("t2", `[^"]*`), "${t1}, ${t2}"
		}
		return &instance{
			params: params,
			setup:  []string{setup},
			checks: []eval.CustomCheck{&answerCheck{Want: want, As: answerString}},
			walk: []walkthrough.Task{{App: calendarPkg, Steps: []walkthrough.Step{
				{Screen: `id=schedule_list`, Without: read, Subgoal: "Scroll to the events of " + date, Loop: true, Do: []string{`Swipe "schedule_list" up`}},
				{Screen: read, Subgoal: "Read the titles of " + date, Do: []string{`Finish "` + answer + `"`}},
			}}},
		}, nil
	}
}

// irEvent draws an event of an information-retrieval task's lists: its title list, on
// date at a time of its list.
func irEvent(g *gen, task, title, date string) (sim.Record, error) {
	hm, err := irTime(pick(g.r, g.list("ir."+task+".time")))
	if err != nil {
		return nil, err
	}
	return sim.Record{"title": title, "date": date, "time": hm, "location": ""}, nil
}

// irRows seeds targets (ids t…) among 20 noise events that keep says may stay.
func irRows(g *gen, targets []sim.Record, keep func(calEvent) bool) ([]sim.Record, string, error) {
	rows := calendarRows(g, nil, noiseEvents(g, 20, keep))
	for i, t := range targets {
		t["id"] = fmt.Sprintf("t%d", i+1)
		rows = append(rows, t)
	}
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	setup, err := seed(calendarPkg+":events", rows)
	return rows, setup, err
}

// readWalk scrolls the schedule to the rows read matches, then answers from them.
func readWalk(read, answer, what string) []walkthrough.Task {
	return []walkthrough.Task{{App: calendarPkg, Steps: []walkthrough.Step{
		{Screen: `id=schedule_list`, Without: read, Subgoal: "Scroll to " + what, Loop: true, Do: []string{`Swipe "schedule_list" up`}},
		{Screen: read, Subgoal: "Read " + what, Do: []string{`Finish "` + answer + `"`}},
	}}}
}

// calendarMeetingWith is SimpleCalendarNextMeetingWithPerson: "Drinks with PERSON" on a
// day; the answer is its date and time (dates compared parsed).
func calendarMeetingWith(g *gen) (*instance, error) {
	const task = "SimpleCalendarNextMeetingWithPerson"
	person := pick(g.r, g.list("ir."+task+".person"))
	d, err := irDate(pick(g.r, g.list("ir."+task+".date")))
	if err != nil {
		return nil, err
	}
	t, err := irEvent(g, task, "Drinks with "+person, d.Format("2006-01-02"))
	if err != nil {
		return nil, err
	}
	_, setup, err := irRows(g, []sim.Record{t}, func(e calEvent) bool { return !strings.Contains(e.title, person) && e.day != d.Day() })
	if err != nil {
		return nil, err
	}
	when, _ := time.Parse("2006-01-02 15:04", t["date"]+" "+t["time"])
	return &instance{
		params: map[string]string{"person": person},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: []string{when.Format("January 2 2006 15:04")}, As: answerDate}},
		walk:   readWalk(`item "[^"]*`+q(person)+`[^"]*" id=event_row\n *- "(?P<date>\d{4}-\d\d-\d\d) (?P<time>\d\d:\d\d)"`, "${date} ${time}", "the meeting with "+person),
	}, nil
}

// calendarFirstAfter is SimpleCalendarFirstEventAfterStartTime: on a day, the first event
// after a time (an earlier one that day is not it).
func calendarFirstAfter(g *gen) (*instance, error) {
	const task = "SimpleCalendarFirstEventAfterStartTime"
	dateText := pick(g.r, g.list("ir."+task+".date"))
	d, err := irDate(dateText)
	if err != nil {
		return nil, err
	}
	titles := sample(g.r, g.list("ir."+task+".title"), 2)
	after := between(g.r, 9, 15)
	date := d.Format("2006-01-02")
	first := sim.Record{"title": titles[0], "date": date, "time": fmt.Sprintf("%02d:30", after), "location": ""}
	before := sim.Record{"title": titles[1], "date": date, "time": fmt.Sprintf("%02d:00", after-between(g.r, 1, 5)), "location": ""}
	_, setup, err := irRows(g, []sim.Record{first, before}, func(e calEvent) bool { return e.day != d.Day() })
	if err != nil {
		return nil, err
	}
	at := fmt.Sprintf("%d:00", after)
	return &instance{
		params: map[string]string{"time": at, "date": dateText},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: []string{titles[0]}, As: answerString}},
		walk:   readWalk(`item "(?P<t1>[^"]+)" id=event_row\n *- "`+date+` `+first["time"]+`"`, "${t1}", "the first event after "+at),
	}, nil
}

// calendarInNextWeek is SimpleCalendarEventsInNextWeek: 1–2 events in the week from Monday
// 2023-10-16 to Sunday 2023-10-22, none else that week; the answer is their titles.
func calendarInNextWeek(g *gen) (*instance, error) {
	const task = "SimpleCalendarEventsInNextWeek"
	n := between(g.r, 1, 2)
	titles := sample(g.r, g.list("ir."+task+".title"), n)
	var targets []sim.Record
	for _, title := range titles {
		d, err := irDate(pick(g.r, g.list("ir."+task+".date")))
		if err != nil {
			return nil, err
		}
		if d.Day() > 22 {
			d = d.AddDate(0, 0, -7) // keep it in the week the task asks about
		}
		t, err := irEvent(g, task, title, d.Format("2006-01-02"))
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	rows, setup, err := irRows(g, targets, func(e calEvent) bool { return e.day < 16 || e.day > 22 })
	if err != nil {
		return nil, err
	}
	// The week's rows are next to each other in the sorted list: read them in order.
	var in []sim.Record
	for _, r := range rows {
		if strings.HasPrefix(r["id"], "t") {
			in = append(in, r)
		}
	}
	slices.SortStableFunc(in, func(a, b sim.Record) int { return strings.Compare(a["date"], b["date"]) })
	week := `2023-10-(?:1[6-9]|2[0-2]) \d\d:\d\d`
	read, answer := `item "(?P<t1>[^"]+)" id=event_row\n *- "`+week+`"`, "${t1}"
	if n == 2 {
		read += `\n *- \[\d+\] item "(?P<t2>[^"]+)" id=event_row\n *- "` + week + `"`
		answer = "${t1}, ${t2}"
	}
	return &instance{
		params: map[string]string{},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: titles, As: answerString}},
		walk:   readWalk(read, answer, "the events of the week of 2023-10-16"),
	}, nil
}

// calendarInRange is SimpleCalendarEventsInTimeRange: 1–2 events on a day between a start
// time and 8pm, no other event that day; the answer is their titles.
func calendarInRange(g *gen) (*instance, error) {
	const task = "SimpleCalendarEventsInTimeRange"
	dateText := pick(g.r, g.list("ir."+task+".date"))
	d, err := irDate(dateText)
	if err != nil {
		return nil, err
	}
	start := between(g.r, 12, 17)
	n := between(g.r, 1, 2)
	titles := sample(g.r, g.list("ir."+task+".title"), n)
	date := d.Format("2006-01-02")
	var targets []sim.Record
	for i, title := range titles {
		targets = append(targets, sim.Record{"title": title, "date": date, "time": fmt.Sprintf("%02d:%02d", start+1+i, 15*between(g.r, 0, 3)), "location": ""})
	}
	_, setup, err := irRows(g, targets, func(e calEvent) bool { return e.day != d.Day() })
	if err != nil {
		return nil, err
	}
	row := func(group string) string {
		return `item "(?P<` + group + `>[^"]+)" id=event_row\n *- "` + date + ` \d\d:\d\d"`
	}
	read, answer := row("t1"), "${t1}"
	if n == 2 {
		read, answer = read+`\n *- \[\d+\] `+row("t2"), "${t1}, ${t2}"
	}
	return &instance{
		params: map[string]string{"start_time": fmt.Sprintf("%dpm", start-12), "date": dateText},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&answerCheck{Want: titles, As: answerString}},
		walk:   readWalk(read, answer, "the events of "+date+" before 8pm"),
	}, nil
}

// laterNoise makes sure some noise event comes after day, so that the sorted schedule
// shows a row past the targets (the walk's sign that none is left): the delete families
// draw their day up to the 30th and, if no noise event is later, move one to a later day.
func laterNoise(g *gen, noise []calEvent, day int) []calEvent {
	if len(noise) == 0 || slices.ContainsFunc(noise, func(e calEvent) bool { return e.day > day }) {
		return noise
	}
	noise[0].day = between(g.r, day+1, 31)
	return noise
}
