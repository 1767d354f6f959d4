package androidworld

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
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
		checks: []suite.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: []string{"t1"}}},
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
		checks: []suite.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: ids}},
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
			checks: []suite.CustomCheck{&rowsCheck{Collection: calendarPkg + ":events", Before: rows, Added: []map[string]string{{
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
