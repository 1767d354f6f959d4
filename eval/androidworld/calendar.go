package androidworld

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval"
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
// or the list's last row (the schedule is sorted by date, as the app sorts it).
func pastDay(rows []sim.Record, day int) string {
	var later []string
	for d := day + 1; d <= 31; d++ {
		later = append(later, strconv.Quote(fmt.Sprintf("2023-10-%02d", d))[:11])
	}
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b sim.Record) int { return strings.Compare(a["date"], b["date"]) })
	last := sorted[len(sorted)-1]
	alts := []string{`item "` + q(last["title"]) + `" id=event_row\n *- "` + q(last["date"]+" "+last["time"]) + `"`}
	if len(later) > 0 {
		alts = append(alts, `- (?:`+strings.Join(later, "|")+`) `)
	}
	return strings.Join(alts, "|")
}

func calendarDeleteOne(g *gen) (*instance, error) {
	target := g.event(Clock.Day(), 31)
	noise := noiseEvents(g, 20, func(e calEvent) bool {
		return e.title != target.title && (e.day != target.day || e.hour != target.hour)
	})
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
		checks: []eval.CustomCheck{&RowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: []string{"t1"}}},
		walk: []eval.WalkTask{{App: calendarPkg, Done: pastDay(rows, target.day), Unless: `item "` + q(target.title) + `"|id=info_action_delete`,
			Steps: []eval.WalkStep{
				{Screen: `id=schedule_list`, Without: `item "` + q(target.title) + `"`, Subgoal: "Scroll to the event", Loop: true, Do: []string{`Swipe "schedule_list" up`}},
				{Screen: `item "` + q(target.title) + `" id=event_row\n *- "` + target.date() + ` `, When: `with the title '(?P<title>[^'\n]+)'`,
					Subgoal: "Open the event", Do: []string{`Tap "${title}"`}},
				{Screen: `id=info_action_delete`, Subgoal: "Delete the event", Do: []string{`Tap "Delete event"`}},
			}}},
	}, nil
}

func calendarDeleteOnDay(g *gen) (*instance, error) {
	day := g.event(Clock.Day(), 31).day
	var targets []calEvent
	for range 3 {
		e := g.event(day, day)
		targets = append(targets, e)
	}
	noise := noiseEvents(g, 20, func(e calEvent) bool {
		return e.day != day && !slices.ContainsFunc(targets, func(t calEvent) bool { return t.title == e.title })
	})
	rows := calendarRows(g, targets, noise)
	setup, err := seed(calendarPkg+":events", rows)
	if err != nil {
		return nil, err
	}
	date := fmt.Sprintf("2023-10-%02d", day)
	return &instance{
		params: map[string]string{"year": "2023", "month": "10", "day": strconv.Itoa(day)},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&RowsCheck{Collection: calendarPkg + ":events", Before: rows, Removed: []string{"t1", "t2", "t3"}}},
		walk: []eval.WalkTask{{App: calendarPkg, Done: pastDay(rows, day), Unless: `"` + date + ` |id=info_action_delete`,
			Steps: []eval.WalkStep{
				{Screen: `id=schedule_list`, Without: `"` + date + ` `, Subgoal: "Scroll to the events of " + date, Loop: true, Do: []string{`Swipe "schedule_list" up`}},
				{Screen: `item "(?P<title>[^"]+)" id=event_row\n *- "` + date + ` `, Subgoal: "Open an event of " + date, Loop: true, Do: []string{`Tap "${title}"`}},
				{Screen: `id=info_action_delete`, Subgoal: "Delete the event", Do: []string{`Tap "Delete event"`}},
			}}},
	}, nil
}
