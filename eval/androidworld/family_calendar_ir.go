package androidworld

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// The calendar's information-retrieval families, drawn as the benchmark's
// InformationRetrieval.initialize_task draws them from tasks.textproto: the task's
// parameters, its events (values "_without_replacement" drawn apart), the dates of the
// prompt reworded, and 75 noise events outside the exclusion conditions.

// irNoiseEvents is how many random events calendar_utils_ir.setup_task_state adds.
const irNoiseEvents = 75

// irDraw is one drawn instance of an information-retrieval task.
type irDraw struct {
	params  map[string]string // the prompt's, dates reworded
	targets []sim.Record      // the task's own events (ids t1…), in its order
	rows    []sim.Record      // targets and noise (ids n1…), as the app lists them
	check   *answerCheck
}

// irCalendar draws the calendar task name of tasks.textproto.
func irCalendar(g *gen, name string) (*irDraw, error) {
	t, ok := g.d.IR[name]
	if !ok || t.RelevantState.State.Calendar == nil {
		return nil, fmt.Errorf("tasks.textproto has no calendar task %s", name)
	}
	// generate_random_params: one value of each list, in the file's order.
	params := map[string]string{}
	var order []string
	for _, p := range t.Params {
		if _, ok := params[p.Name]; !ok {
			order = append(order, p.Name)
		}
		params[p.Name] = pick(g.r, p.Values)
	}
	// _format_params_with_params: the lists' values, then the values drawn, formatted
	// with the values drawn ("Meet with {person}").
	lists := make([]irParam, len(t.Params))
	for i, p := range t.Params {
		lists[i] = irParam{Name: p.Name, Values: make([]string, len(p.Values))}
		for j, v := range p.Values {
			s, err := pyFormat(v, params)
			if err != nil {
				return nil, err
			}
			lists[i].Values[j] = s
		}
	}
	for _, n := range order {
		s, err := pyFormat(params[n], params)
		if err != nil {
			return nil, err
		}
		params[n] = s
	}
	// format_relevant_state_with_params and format_state_with_params each take the values
	// drawn out of the lists (so a value listed twice leaves twice); what
	// "_without_replacement" fields draw leaves too.
	unused := removeUsed(removeUsed(lists, params), params)
	var events []irEvent
	for _, e := range t.RelevantState.State.Calendar.Events {
		for _, f := range e.fields() {
			if *f.v == nil {
				continue
			}
			s, err := irFormatField(g, **f.v, params, &unused)
			if err != nil {
				return nil, err
			}
			*f.v = &s
		}
		events = append(events, e)
	}
	var conds []irCondition
	for _, c := range t.RelevantState.Exclusions {
		v, err := pyFormat(c.Value, params)
		if err != nil {
			return nil, err
		}
		c.Value = v
		conds = append(conds, c)
	}
	check, err := irExpected(t.Success.Expectations, events)
	if err != nil {
		return nil, err
	}
	// _maybe_replace_date: every parameter that is a date is reworded for the prompt
	// (the events keep the date).
	for _, n := range order {
		if r, ok := rewordDate(g, params[n]); ok {
			params[n] = r
		}
	}
	d := &irDraw{params: params, check: check}
	for i, e := range events {
		r, err := irRecord(e)
		if err != nil {
			return nil, err
		}
		r["id"] = fmt.Sprintf("t%d", i+1)
		d.targets = append(d.targets, r)
	}
	d.rows = slices.Clone(d.targets)
	for i := range irNoiseEvents {
		r, err := irNoise(g, conds)
		if err != nil {
			return nil, err
		}
		r["id"] = fmt.Sprintf("n%d", i+1)
		d.rows = append(d.rows, r)
	}
	// The benchmark shuffles the events it inserts; the app lists them by start.
	g.r.Shuffle(len(d.rows), func(i, j int) { d.rows[i], d.rows[j] = d.rows[j], d.rows[i] })
	slices.SortStableFunc(d.rows, func(a, b sim.Record) int {
		return strings.Compare(a["date"]+" "+a["time"], b["date"]+" "+b["time"])
	})
	return d, nil
}

// removeUsed is _remove_used_params: each list loses the first copy of its drawn value.
func removeUsed(lists []irParam, used map[string]string) []irParam {
	out := make([]irParam, len(lists))
	for i, p := range lists {
		out[i] = p
		v, ok := used[p.Name]
		if j := slices.Index(p.Values, v); ok && j >= 0 {
			out[i].Values = slices.Delete(slices.Clone(p.Values), j, j+1)
		}
	}
	return out
}

var irPlaceholder = regexp.MustCompile(`\{.+?\}`)

// irFormatField is _format_field_if_exists: a field naming {X_without_replacement} takes a
// value of list X not drawn yet (and takes it out); any other is formatted with params.
func irFormatField(g *gen, v string, params map[string]string, unused *[]irParam) (string, error) {
	if !strings.Contains(v, "_without_replacement}") {
		return pyFormat(v, params)
	}
	for _, ph := range irPlaceholder.FindAllString(v, -1) {
		name, ok := strings.CutSuffix(ph[1:len(ph)-1], "_without_replacement")
		if !ok {
			continue
		}
		i := slices.IndexFunc(*unused, func(p irParam) bool { return p.Name == name })
		if i < 0 || len((*unused)[i].Values) == 0 {
			return "", fmt.Errorf("tasks.textproto: no value of %s is left for {%s_without_replacement}", name, name)
		}
		val := pick(g.r, (*unused)[i].Values)
		*unused = removeUsed(*unused, map[string]string{name: val})
		v = strings.Replace(v, ph, val, 1)
	}
	return v, nil
}

// pyFormat is str.format with named fields only ({name}; {{ and }} are braces).
func pyFormat(s string, params map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{"), strings.HasPrefix(s[i:], "}}"):
			b.WriteByte(s[i])
			i++
		case s[i] == '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return "", fmt.Errorf("tasks.textproto: %q: unclosed {", s)
			}
			v, ok := params[s[i+1:i+j]]
			if !ok {
				return "", fmt.Errorf("tasks.textproto: %q names no parameter %q", s, s[i+1:i+j])
			}
			b.WriteString(v)
			i += j
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// rewordDate is datetime_utils_ir.generate_reworded_date on a parameter: a date of the
// benchmark's layout ("October 17 2023") becomes one of the ways a person says it, seen
// from the device's today (2023-10-15): "October 17", "October 17 2023", "today",
// "tomorrow", "yesterday", "Tuesday", "this Tuesday", "the Tuesday after next".
func rewordDate(g *gen, v string) (string, bool) {
	if v == "" {
		return "", false
	}
	d, err := strptime(v, irDateLayout)
	if err != nil {
		return "", false
	}
	return pick(g.r, rewordings(d)), true
}

// rewordings are _generate_nl_date_options of d.
func rewordings(d time.Time) []string {
	today := time.Date(clock.Year(), clock.Month(), clock.Day(), 0, 0, 0, 0, time.UTC)
	days := int(d.Sub(today).Hours() / 24)
	day := d.Weekday().String()
	opts := []string{pyFormatTime(d, "%B %d"), pyFormatTime(d, irDateLayout)}
	switch days {
	case 0:
		opts = append(opts, "today")
	case 1:
		opts = append(opts, "tomorrow")
	case -1:
		opts = append(opts, "yesterday")
	}
	switch {
	case days > 0 && days <= 7:
		opts = append(opts, day, "this "+day)
	case days > 7 && days <= 14:
		opts = append(opts, "the "+day+" after next")
	case days < 0 && days >= -7:
		opts = append(opts, day)
	}
	return opts
}

// irStart is an event's start: its date ("October 17 2023") at its time (parse_time's
// layouts; none is midnight).
func irStart(date, at string) (time.Time, error) {
	d, err := strptime(date, irDateLayout)
	if err != nil {
		return time.Time{}, err
	}
	if at == "" {
		return d, nil
	}
	t, err := parseTime(at)
	if err != nil {
		return time.Time{}, err
	}
	return d.Add(time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute), nil
}

// irDuration is calendar_utils_ir.parse_duration in minutes ("1.5 hours" is 90, "45min"
// 45); an event without one lasts 30 minutes.
func irDuration(s *string) (int, error) {
	if s == nil {
		return 30, nil
	}
	if i := strings.IndexByte(*s, 'h'); i >= 0 {
		f, err := pyFloat((*s)[:i])
		if err != nil {
			return 0, fmt.Errorf("duration %q: %w", *s, err)
		}
		return int(3600*f) / 60, nil
	}
	if i := strings.IndexByte(*s, 'm'); i >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace((*s)[:i]))
		if err != nil {
			return 0, fmt.Errorf("duration %q: %w", *s, err)
		}
		return n, nil
	}
	return 0, fmt.Errorf("invalid duration %q", *s)
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// irRecord is a task event as the app's row: date and time as the app writes them.
func irRecord(e irEvent) (sim.Record, error) {
	start, err := irStart(str(e.StartDate), str(e.StartTime))
	if err != nil {
		return nil, err
	}
	dur, err := irDuration(e.Duration)
	if err != nil {
		return nil, err
	}
	return calRecord(str(e.Title), start, dur, str(e.Location), str(e.Description)), nil
}

func calRecord(title string, start time.Time, minutes int, location, description string) sim.Record {
	return sim.Record{"title": title, "date": start.Format("2006-01-02"), "time": start.Format("15:04"),
		"duration": strconv.Itoa(minutes), "location": location, "description": description}
}

// irNoise is calendar_utils_ir.generate_random_event: an event of events_generator's
// titles and descriptions starting at a random minute of the 30 days around the device's
// now, lasting 15–60 minutes, drawn again (up to 100 times) while it meets every
// exclusion condition.
func irNoise(g *gen, conds []irCondition) (sim.Record, error) {
	window := 30 * 24 * time.Hour
	for range 100 {
		start := clock.Add(-window / 2).Add(time.Duration(g.r.IntN(int(window/time.Minute))) * time.Minute)
		minutes := pick(g.r, []int{15, 30, 45, 60})
		title, description := g.eventTitle(), g.eventDescription()
		excluded, err := irExcluded(start, minutes, title, conds)
		if err != nil {
			return nil, err
		}
		if !excluded {
			return calRecord(title, start, minutes, "", description), nil
		}
	}
	return nil, fmt.Errorf("no random event outside the exclusion conditions %+v in 100 draws", conds)
}

// irExcluded is check_event_conditions negated: the event meets every condition. A
// start_date or start_time condition is met when the event's start or end meets it (EQUAL_TO:
// the event spans the value); an exact date with an exact time compare as one instant.
func irExcluded(start time.Time, minutes int, title string, conds []irCondition) (bool, error) {
	if len(conds) == 0 {
		return false, nil
	}
	end := start.Add(time.Duration(minutes) * time.Minute)
	var at *time.Time
	exact := map[string]string{}
	for _, c := range conds {
		if c.Operation == "EQUAL_TO" {
			exact[c.Field] = c.Value
		}
	}
	if d, ok := exact["start_date"]; ok {
		if tm, ok := exact["start_time"]; ok {
			t, err := irStart(d, tm)
			if err != nil {
				return false, err
			}
			at = &t
		}
	}
	dateOf := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	clockOf := func(t time.Time) time.Time { return time.Date(1900, 1, 1, t.Hour(), t.Minute(), 0, 0, time.UTC) }
	all := true
	for _, c := range conds {
		var v, s, e time.Time
		switch c.Field {
		case "start_date", "start_time":
			switch {
			case at != nil:
				v, s, e = *at, start, end
			case c.Field == "start_date":
				d, err := strptime(c.Value, irDateLayout)
				if err != nil {
					return false, err
				}
				v, s, e = d, dateOf(start), dateOf(end)
			default:
				t, err := parseTime(c.Value)
				if err != nil {
					return false, err
				}
				v, s, e = t, clockOf(start), clockOf(end)
			}
			var met bool
			if c.Operation == "EQUAL_TO" {
				met = !s.After(v) && !e.Before(v)
			} else {
				met = compareTimes(s, c.Operation, v) || compareTimes(e, c.Operation, v)
			}
			all = all && met
		case "title":
			all = all && compareStrings(strings.ToLower(title), c.Operation, strings.ToLower(c.Value))
		}
	}
	return all, nil
}

func compareTimes(x time.Time, op string, y time.Time) bool {
	switch op {
	case "EQUAL_TO":
		return x.Equal(y)
	case "GREATER_THAN":
		return x.After(y)
	case "GREATER_THAN_OR_EQUAL_TO":
		return !x.Before(y)
	case "LESS_THAN":
		return x.Before(y)
	case "LESS_THAN_OR_EQUAL_TO":
		return !x.After(y)
	}
	return false
}

func compareStrings(x, op, y string) bool {
	switch op {
	case "CONTAINS":
		return strings.Contains(x, y)
	case "EQUAL_TO":
		return x == y
	case "GREATER_THAN":
		return x > y
	case "GREATER_THAN_OR_EQUAL_TO":
		return x >= y
	case "LESS_THAN":
		return x < y
	case "LESS_THAN_OR_EQUAL_TO":
		return x <= y
	}
	return false
}

// irExpected is get_expected_answer for the calendar's expectations: the identity of a
// field of the task's events, a date matched with a time combined into one instant.
func irExpected(exps []irExpectation, events []irEvent) (*answerCheck, error) {
	var kinds []string
	var values [][]string
	for _, x := range exps {
		kinds = append(kinds, x.MatchType)
		if x.ExpectedValue != nil || x.Transformation == nil || x.Transformation.Operation != "IDENTITY" {
			return nil, fmt.Errorf("tasks.textproto: expectation %+v: only field identities are mirrored", x)
		}
		var vs []string
		for _, e := range events {
			for _, f := range e.fields() {
				if f.name == x.Transformation.FieldName && *f.v != nil {
					vs = append(vs, **f.v)
				}
			}
		}
		values = append(values, vs)
	}
	switch strings.Join(kinds, "+") {
	case "STRING_MATCH":
		return &answerCheck{Want: values[0], As: answerString}, nil
	case "DATE_MATCH+TIME_MATCH", "TIME_MATCH+DATE_MATCH":
		dates, times := values[0], values[1]
		if kinds[0] == "TIME_MATCH" {
			dates, times = times, dates
		}
		var want []string
		for i := range min(len(dates), len(times)) {
			t, err := irStart(dates[i], times[i])
			if err != nil {
				return nil, err
			}
			want = append(want, pyFormatTime(t, irDateTimeLayout))
		}
		return &answerCheck{Want: want, As: answerDateTime}, nil
	}
	return nil, fmt.Errorf("tasks.textproto: match types %v are not mirrored", kinds)
}

// irCalendarFamily builds a calendar information-retrieval family: the task drawn as the
// benchmark draws it, its check, and walk's walkthrough.
func irCalendarFamily(name string, walk func(d *irDraw) []walkthrough.Task) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		d, err := irCalendar(g, name)
		if err != nil {
			return nil, err
		}
		setup, err := seed(calendarPkg+":events", d.rows)
		if err != nil {
			return nil, err
		}
		checks := []suite.CustomCheck{d.check}
		if len(d.check.Want) > 1 {
			checks = append(checks, &answerPairing{Answer: d.check})
		}
		return &instance{params: d.params, setup: []string{setup}, checks: checks, walk: walk(d)}, nil
	}
}

// searchWalk types query into the calendar's search (typed is what the walk types: the
// query, or a ${group} of when, read from the instruction), scrolls if the rows read
// matches are still below, then answers from them.
func searchWalk(query, typed, when, read, answer, what string) []walkthrough.Task {
	return []walkthrough.Task{{App: calendarPkg, Steps: []walkthrough.Step{
		{Screen: `id=search`, When: when, Without: `input "` + q(query) + `" id=search|` + read, Subgoal: "Search " + what,
			Do: []string{`Input "search" "` + typed + `"`}},
		{Screen: `input "` + q(query) + `" id=search(?s:.*)id=schedule_list`, Without: read, Subgoal: "Scroll to " + what, Loop: true, Do: []string{`Swipe "schedule_list" up`}},
		{Screen: read, Subgoal: "Read " + what, Do: []string{`Finish "` + answer + `"`}},
	}}}
}

// eventRow is a screen pattern for a row of the schedule, its title read into group, its
// date and time matching when (a regular expression).
func eventRow(group, when string) string {
	return `item "(?P<` + group + `>[^"]+)" id=event_row\n *- "` + when + `[^\d:]`
}

// eventRows are n rows next to each other (t1…tn) whose date and time match when.
func eventRows(n int, when string) (read, answer string) {
	var rows, names []string
	for i := range n {
		rows = append(rows, eventRow(fmt.Sprintf("t%d", i+1), when))
		names = append(names, fmt.Sprintf("${t%d}", i+1))
	}
	return strings.Join(rows, `[^\n]*\n *- \[\d+\] `), strings.Join(names, ", ")
}

// The walkthroughs: what a person types and reads for each family. They search the day
// the task names (the date as a person works it out from "this Tuesday" and today,
// 2023-10-15), a person or a title the instruction names; they pick the rows by what the
// task asks (the day, the time); what they answer comes from the screen.

// readTitlesOn reads the titles of every target, all on one day (EventsOnDate,
// AnyEventsOnDate: no other event that day).
func readTitlesOn(d *irDraw) []walkthrough.Task {
	date := d.targets[0]["date"]
	read, answer := eventRows(len(d.targets), date+` \d\d:\d\d`)
	return searchWalk(date, date, "", read, answer, "the events of "+date)
}

// readTitleAt reads the title of the event at the target's date and time
// (EventOnDateAtTime, FirstEventAfterStartTime, EventsInTimeRange, NextEvent: other
// events that day are outside the asked time).
func readTitleAt(d *irDraw) []walkthrough.Task {
	t := d.targets[0]
	return searchWalk(t["date"], t["date"], "", eventRow("t1", t["date"]+" "+t["time"]), "${t1}", "the event of "+t["date"]+" at "+t["time"])
}

// readLocation searches the asked title and reads its event's location.
func readLocation(d *irDraw) []walkthrough.Task {
	t := d.targets[0]
	read := `item "` + q(t["title"]) + `" id=event_row\n *- "[^"]* · (?P<place>[^"]+)"`
	return searchWalk(t["title"], "${title}", `location of my (?P<title>.+?) event in`, read, "${place}", "the location of "+t["title"])
}

// readMeeting searches the asked person and reads the meeting's date and time, answered
// in the layout the task asks for (<month name> <day> <year> <hour>:<minutes>): the app's
// 2023-10-17 is October 17 2023.
func readMeeting(d *irDraw) []walkthrough.Task {
	t, person := d.targets[0], d.params["person"]
	start, _ := time.Parse("2006-01-02", t["date"])
	read := `item "[^"]*` + q(person) + `[^"]*" id=event_row\n *- "(?P<year>\d{4})-` + start.Format("01") + `-(?P<day>\d\d) (?P<at>\d\d:\d\d)[^\d:]`
	return searchWalk(person, "${person}", `meeting with (?P<person>.+?) in `, read, start.Month().String()+" ${day} ${year} ${at}", "the meeting with "+person)
}

// readWeek searches the seven days from Monday 2023-10-16 to Sunday 2023-10-22 at once
// (the app's search, as its others, keeps a row matching any word of the query: the
// stand-in for the real app's week view) and reads their titles (no other event is in
// that week or today).
func readWeek(d *irDraw) []walkthrough.Task {
	var days []string
	for day := 16; day <= 22; day++ {
		days = append(days, fmt.Sprintf("2023-10-%02d", day))
	}
	read, answer := eventRows(len(d.targets), `2023-10-(?:1[6-9]|2[0-2]) \d\d:\d\d`)
	week := strings.Join(days, " ")
	return searchWalk(week, week, "", read, answer, "the events of the week of 2023-10-16")
}
