package androidworld

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// irFamilies are the calendar information-retrieval families and how many events each
// task of tasks.textproto sets up.
var irFamilies = map[string]int{
	"SimpleCalendarLocationOfEvent": 1, "SimpleCalendarNextEvent": 1, "SimpleCalendarEventsOnDate": 1,
	"SimpleCalendarAnyEventsOnDate": 3, "SimpleCalendarNextMeetingWithPerson": 1, "SimpleCalendarFirstEventAfterStartTime": 1,
	"SimpleCalendarEventsInNextWeek": 2, "SimpleCalendarEventsInTimeRange": 1, "SimpleCalendarEventOnDateAtTime": 1,
}

// scanParams reads the task_params of tasks.textproto line by line (a second reading,
// independent of the parser): TASK.PARAM → its possible_values.
func scanParams(t *testing.T) map[string][]string {
	t.Helper()
	b, err := irFS.ReadFile("testdata/ir/tasks.textproto")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var task, param string
	inParams := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "tasks {":
			task, inParams = "", false
		case line == "task_params {":
			inParams, param = true, ""
		case strings.HasPrefix(line, "name: "):
			v, err := strconv.Unquote(strings.TrimPrefix(line, "name: "))
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if inParams {
				param = v
				out["ir."+task+"."+param] = []string{}
			} else if task == "" {
				task = v
			}
		case strings.HasPrefix(line, "possible_values: ") && inParams:
			v, err := strconv.Unquote(strings.TrimPrefix(line, "possible_values: "))
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			out["ir."+task+"."+param] = append(out["ir."+task+"."+param], v)
		case line == "}" && inParams && param != "":
			inParams = false
		}
	}
	return out
}

// TestIRParams: the parameter lists come from tasks.textproto, parsed: the two the
// regular expression missed are there, and every list of the calendar families is
// non-empty and the textproto's, value for value (repeats kept).
func TestIRParams(t *testing.T) {
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	next, inRange := d.Lists["ir.SimpleCalendarNextEvent.time"], d.Lists["ir.SimpleCalendarEventsInTimeRange.start_time"]
	if len(next) != 20 || next[0] != "3:53pm" || len(inRange) != 13 || inRange[0] != "11:00am" || slices.Contains(inRange, "8pm") {
		t.Errorf("NextEvent.time %q, EventsInTimeRange.start_time %q", next, inRange)
	}
	scanned := scanParams(t)
	for fam := range irFamilies {
		task := d.IR[fam]
		if task == nil || len(task.Params) == 0 {
			t.Fatalf("%s: not in tasks.textproto", fam)
		}
		for _, p := range task.Params {
			name := "ir." + fam + "." + p.Name
			if got := d.Lists[name]; len(got) == 0 || !slices.Equal(got, scanned[name]) {
				t.Errorf("%s: parsed %q, the file has %q", name, got, scanned[name])
			}
		}
	}
	// Every list of the file, not only the calendar's, is read.
	for name, vs := range scanned {
		if !slices.Equal(d.Lists[name], vs) {
			t.Errorf("%s: parsed %q, the file has %q", name, d.Lists[name], vs)
		}
	}
	if len(scanned) < 100 {
		t.Errorf("the scan found %d lists: it reads the file wrong", len(scanned))
	}
}

// TestIRParseErrors: the textproto is read with the benchmark's schema: a field it does
// not have or a bad enum is an error, not a list cut short.
func TestIRParseErrors(t *testing.T) {
	for _, bad := range []string{
		`tasks { name: "X" prompt: "p" task_param { name: "date" } }`,                 // no such field
		`tasks { name: "X" success_criteria { expectations { match_type: FUZZY } } }`, // no such enum value
		`tasks { name: "X" task_params { name: "t" possible_values: "11:00am }`,       // an open string
		`tasks { name: "X" } tasks { name: "X" }`,                                     // a name twice
		`tasks { name: "X" relevant_state { state { calendar { events { start_dat: "" } } } } }`,
	} {
		if _, err := parseIRText([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if got, err := parseIRText([]byte(`tasks { name: "X" task_params { name: "t" possible_values: "a" possible_values: "a" } }`)); err != nil || !slices.Equal(got[0].Params[0].Values, []string{"a", "a"}) {
		t.Errorf("%+v, %v", got, err)
	}
	tasks, err := parseIRTasks()
	if err != nil {
		t.Fatal(err)
	}
	next := tasks[slices.IndexFunc(tasks, func(x irTask) bool { return x.Name == "SimpleCalendarNextEvent" })]
	if c := next.RelevantState.Exclusions; len(c) != 3 || c[1].Operation != "LESS_THAN_OR_EQUAL_TO" || c[1].Value != "{time}" {
		t.Errorf("NextEvent's exclusions %+v", c)
	}
	if x := next.Success.Expectations; len(x) != 1 || x[0].MatchType != "STRING_MATCH" || x[0].Transformation.FieldName != "title" {
		t.Errorf("NextEvent's expectations %+v", x)
	}
}

// drawnIR is family's instance i of seed as Load draws it (without loading the suite):
// its instruction and what its builder drew.
type drawnIR struct {
	instruction string
	*instance
}

func (x drawnIR) fingerprint() string { return x.instruction + "\n" + strings.Join(x.setup, "\n") }

func irInstance(t *testing.T, seed int64, family string, i int) drawnIR {
	t.Helper()
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	b := builders[slices.IndexFunc(builders, func(b builder) bool { return b.name == family })]
	in, err := b.draw(&gen{r: instanceRand(seed, family, i), d: d})
	if err != nil {
		t.Fatalf("%s seed %d: %v", family, seed, err)
	}
	instr, err := fill(d.Families[family].Template, in.params)
	if err != nil {
		t.Fatalf("%s seed %d: %v", family, seed, err)
	}
	return drawnIR{instr, in}
}

// seeded decodes the rows an instance's setup seeds.
func seeded(t *testing.T, x drawnIR) []sim.Record {
	t.Helper()
	for _, line := range x.setup {
		if rest, ok := strings.CutPrefix(line, "fairy-sim seed "+calendarPkg+":events "); ok {
			b, err := base64.StdEncoding.DecodeString(rest)
			if err != nil {
				t.Fatal(err)
			}
			var rows []sim.Record
			if err := json.Unmarshal(b, &rows); err != nil {
				t.Fatal(err)
			}
			return rows
		}
	}
	t.Fatalf("%q seeds no events", x.instruction)
	return nil
}

// draw draws family's instance i of seed.
func draw(t *testing.T, seed int64, family string, i int) *irDraw {
	t.Helper()
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	x, err := irCalendar(&gen{r: instanceRand(seed, family, i), d: d}, family)
	if err != nil {
		t.Fatalf("%s seed %d: %v", family, seed, err)
	}
	return x
}

func at(t *testing.T, r sim.Record) (time.Time, time.Time) {
	t.Helper()
	s, err := time.Parse("2006-01-02 15:04", r["date"]+" "+r["time"])
	if err != nil {
		t.Fatal(err)
	}
	m, err := strconv.Atoi(r["duration"])
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Add(time.Duration(m) * time.Minute)
}

// TestIRNoise: 75 noise events besides the task's own (3 for AnyEventsOnDate, 2 for
// EventsInNextWeek), within 15 days of the device's now, none where the task's exclusion
// conditions keep them out; the same day's events outside the asked time stay as
// distractors; the schedule is in start order.
func TestIRNoise(t *testing.T) {
	from, to := clock.Add(-15*24*time.Hour), clock.Add(15*24*time.Hour)
	distractors := map[string]int{}
	for fam, n := range irFamilies {
		for seed := range int64(12) {
			d := draw(t, seed, fam, 0)
			if len(d.targets) != n || len(d.rows) != n+irNoiseEvents {
				t.Fatalf("%s seed %d: %d targets, %d rows", fam, seed, len(d.targets), len(d.rows))
			}
			if !slices.IsSortedFunc(d.rows, func(a, b sim.Record) int { return strings.Compare(a["date"]+a["time"], b["date"]+b["time"]) }) {
				t.Errorf("%s seed %d: the rows are not in start order", fam, seed)
			}
			t1s, _ := at(t, d.targets[0])
			for _, r := range d.rows {
				if strings.HasPrefix(r["id"], "t") {
					continue
				}
				s, e := at(t, r)
				if s.Before(from) || !s.Before(to) || !slices.Contains([]string{"15", "30", "45", "60"}, r["duration"]) || r["location"] != "" {
					t.Errorf("%s seed %d: noise %v outside the benchmark's draw", fam, seed, r)
				}
				sameDay := s.Format("2006-01-02") == d.targets[0]["date"] || e.Format("2006-01-02") == d.targets[0]["date"]
				bad := false
				switch fam {
				case "SimpleCalendarEventsOnDate", "SimpleCalendarAnyEventsOnDate":
					bad = sameDay
				case "SimpleCalendarEventOnDateAtTime":
					bad = !s.After(t1s) && !e.Before(t1s)
				case "SimpleCalendarFirstEventAfterStartTime":
					// Excluded: that day, starting or ending at or after the time.
					bad = sameDay && (clockOf(s) >= clockOf(t1s) || clockOf(e) >= clockOf(t1s))
				case "SimpleCalendarEventsInTimeRange":
					in := func(x time.Time) bool { return clockOf(x) >= clockOf(t1s) }
					eight := func(x time.Time) bool { return clockOf(x) <= "20:00" }
					bad = sameDay && (in(s) || in(e)) && (eight(s) || eight(e))
				case "SimpleCalendarNextEvent":
					bad = sameDay && (clockOf(s) <= clockOf(t1s) || clockOf(e) <= clockOf(t1s)) && (clockOf(s) >= "15:30" || clockOf(e) >= "15:30")
				case "SimpleCalendarEventsInNextWeek":
					bad = !(e.Before(time.Date(2023, 10, 15, 0, 0, 0, 0, time.UTC)) || !s.Before(time.Date(2023, 10, 23, 0, 0, 0, 0, time.UTC)))
				case "SimpleCalendarNextMeetingWithPerson":
					bad = sameDay && strings.Contains(strings.ToLower(r["title"]), strings.ToLower(d.params["person"]))
				case "SimpleCalendarLocationOfEvent":
					bad = strings.Contains(strings.ToLower(r["title"]), strings.ToLower(d.targets[0]["title"]))
				}
				if bad {
					t.Errorf("%s seed %d: noise %v meets the task's exclusion conditions (target %v)", fam, seed, r, d.targets[0])
				}
				if sameDay && !strings.HasPrefix(fam, "SimpleCalendarNextMeeting") {
					distractors[fam]++
				}
			}
		}
	}
	for _, fam := range []string{"SimpleCalendarEventOnDateAtTime", "SimpleCalendarFirstEventAfterStartTime", "SimpleCalendarEventsInTimeRange", "SimpleCalendarNextEvent"} {
		if distractors[fam] == 0 {
			t.Errorf("%s: no same-day distractor in 12 seeds", fam)
		}
	}
	for _, fam := range []string{"SimpleCalendarEventsOnDate", "SimpleCalendarAnyEventsOnDate"} {
		if distractors[fam] != 0 {
			t.Errorf("%s: %d events share the asked day", fam, distractors[fam])
		}
	}
}

func clockOf(t time.Time) string { return t.Format("15:04") }

// TestIRTargets: the task's own events as the textproto sets them: AnyEventsOnDate's
// three on the day with three different titles and times, an hour each; EventsInNextWeek's
// two on different days of the week; the meeting is "Drinks with PERSON".
func TestIRTargets(t *testing.T) {
	for seed := range int64(20) {
		any3 := draw(t, seed, "SimpleCalendarAnyEventsOnDate", 0).targets
		titles, times := map[string]bool{}, map[string]bool{}
		for _, r := range any3 {
			titles[r["title"]], times[r["time"]] = true, true
			if r["date"] != any3[0]["date"] || r["duration"] != "60" {
				t.Errorf("seed %d: AnyEventsOnDate %v", seed, any3)
			}
		}
		if len(titles) != 3 || len(times) != 3 {
			t.Errorf("seed %d: AnyEventsOnDate titles or times repeat: %v", seed, any3)
		}
		week := draw(t, seed, "SimpleCalendarEventsInNextWeek", 0).targets
		if week[0]["date"] == week[1]["date"] || week[0]["title"] == week[1]["title"] || week[0]["date"] < "2023-10-16" || week[1]["date"] > "2023-10-22" || strings.Contains(week[0]["title"]+week[1]["title"], "{") {
			t.Errorf("seed %d: EventsInNextWeek %v", seed, week)
		}
		m := draw(t, seed, "SimpleCalendarNextMeetingWithPerson", 0)
		if m.targets[0]["title"] != "Drinks with "+m.params["person"] || m.check.As != answerDateTime {
			t.Errorf("seed %d: meeting %v %+v", seed, m.targets[0], m.check)
		}
	}
}

// TestRewordDate: dates in the prompt are reworded as datetime_utils_ir does, seen from
// 2023-10-15 (a Sunday).
func TestRewordDate(t *testing.T) {
	for day, want := range map[int][]string{
		15: {"October 15", "October 15 2023", "today"},
		16: {"October 16", "October 16 2023", "tomorrow", "Monday", "this Monday"},
		14: {"October 14", "October 14 2023", "yesterday", "Saturday"},
		22: {"October 22", "October 22 2023", "Sunday", "this Sunday"},
		24: {"October 24", "October 24 2023", "the Tuesday after next"},
		29: {"October 29", "October 29 2023", "the Sunday after next"},
		30: {"October 30", "October 30 2023"},
		5:  {"October 05", "October 05 2023"},
	} {
		if got := rewordings(time.Date(2023, 10, day, 0, 0, 0, 0, time.UTC)); !slices.Equal(got, want) {
			t.Errorf("October %d: %q, want %q", day, got, want)
		}
	}
	// Over seeds, the prompt names its day every way the benchmark does.
	seen := map[string]bool{}
	for seed := range int64(300) {
		in := irInstance(t, seed, "SimpleCalendarEventsOnDate", 0).instruction
		for _, w := range []string{"today", "tomorrow", "this ", "after next", "2023 in"} {
			if strings.Contains(in, w) {
				seen[w] = true
			}
		}
	}
	if len(seen) != 5 {
		t.Errorf("300 seeds of EventsOnDate reworded their dates only as %v", seen)
	}
}

// TestIRSeeding: the same seed draws the same instance; other seeds and instances
// others; each seeds 75 noise events besides the task's own.
func TestIRSeeding(t *testing.T) {
	for fam, n := range irFamilies {
		a0, a1, b0, c0 := irInstance(t, 3, fam, 0), irInstance(t, 3, fam, 1), irInstance(t, 3, fam, 0), irInstance(t, 4, fam, 0)
		if a0.fingerprint() != b0.fingerprint() {
			t.Errorf("%s: seed 3 drew two different instances", fam)
		}
		if a0.fingerprint() == c0.fingerprint() || a0.fingerprint() == a1.fingerprint() {
			t.Errorf("%s: seeds 3 and 4, or instances 0 and 1, drew the same", fam)
		}
		rows := seeded(t, a0)
		noise := slices.DeleteFunc(slices.Clone(rows), func(r sim.Record) bool { return strings.HasPrefix(r["id"], "t") })
		if len(noise) != irNoiseEvents || len(rows) != irNoiseEvents+n {
			t.Errorf("%s: %d rows seeded, %d of them noise; want %d noise and %d of the task's", fam, len(rows), len(noise), irNoiseEvents, n)
		}
	}
}

// TestIRAnswerFormats: per family, the answer the benchmark expects passes and answers
// it scores 0 fail: a trailing comma (an empty part), the app's own date layout for the
// meeting's date.
func TestIRAnswerFormats(t *testing.T) {
	for fam := range irFamilies {
		for seed := range int64(4) {
			x := irInstance(t, seed, fam, 0)
			c, ok := x.checks[0].(*answerCheck)
			if !ok {
				t.Fatalf("%s: check %T", fam, x.checks[0])
			}
			right := strings.Join(c.Want, ", ")
			wrong := []string{right + ",", "", strings.Join(c.Want, "; ")}
			if fam == "SimpleCalendarNextMeetingWithPerson" {
				when, err := strptime(c.Want[0], irDateTimeLayout)
				if err != nil {
					t.Fatal(err)
				}
				right = fmt.Sprintf("%s %d %d %s", when.Month(), when.Day(), when.Year(), when.Format("15:04"))
				wrong = append(wrong, when.Format("2006-01-02 15:04"), when.Format("Jan 2 2006 15:04"), when.Format("January 2, 2006 15:04"), when.Format("January 2 2006 3:04pm"))
			}
			if len(c.Want) > 1 {
				wrong = append(wrong, c.Want[0]) // a title missing
			}
			for _, a := range append([]string{right}, wrong...) {
				ok, ev, err := c.Evaluate(t.Context(), suite.Probe{Answer: a})
				if err != nil {
					t.Fatal(err)
				}
				if ok != (a == right) && !(len(c.Want) == 1 && a == strings.Join(c.Want, "; ")) {
					t.Errorf("%s seed %d: %q passes=%t (%s)", fam, seed, a, ok, ev)
				}
			}
		}
	}
}
