package androidworld

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/sim"
)

// The cases of the Calendar, Maps, Expenses and Recipes families and of the apps in front.

// calendar rows.
const eventsColl = calendarPkg + ":events"

func onDate(date string) func(sim.Record) bool {
	return func(x sim.Record) bool { return x["date"] == date }
}

func (r *afterRun) date() string {
	d, _ := strconv.Atoi(r.param("day"))
	return fmt.Sprintf("2023-10-%02d", d)
}

// calendarAddCase: SimpleCalendarAddOneEvent's start_ts and end_ts are compared exactly,
// the title and description fuzzily, the table read whole.
func calendarAddCase() familyCase {
	event := func(day, extra int, title func(string) string) outcome {
		return func(r *afterRun) {
			d, _ := strconv.Atoi(r.param("day"))
			h, _ := strconv.Atoi(r.param("hour"))
			m, _ := strconv.Atoi(r.param("duration_mins"))
			start := time.Date(2023, 10, d+day, h, 0, 0, 0, time.UTC)
			end := start.Add(time.Duration(m+extra) * time.Minute)
			r.add(eventsColl, sim.Record{"title": title(r.param("event_title")),
				"date": start.Format("2006-01-02"), "time": start.Format("15:04"),
				"end_date": end.Format("2006-01-02"), "end": end.Format("15:04"),
				"description": r.param("event_description"), "location": ""})
		}
	}
	same := func(s string) string { return s }
	return familyCase{
		right: map[string]outcome{
			"added":                 event(0, 0, same),
			"added, title in lower": event(0, 0, strings.ToLower),
		},
		wrong: map[string]outcome{
			"a day late":            event(1, 0, same),
			"a quarter hour longer": event(0, 15, same),
			"another title":         event(0, 0, func(string) string { return "Dentist appointment" }),
			"added twice": func(r *afterRun) {
				event(0, 0, same)(r)
				event(0, 0, same)(r)
			},
		},
	}
}

// deleteOnDayCase: every event of the day gone, every other event kept (the table read
// whole).
func deleteOnDayCase() familyCase {
	return familyCase{
		right: map[string]outcome{"the day's events deleted": func(r *afterRun) { r.remove(eventsColl, onDate(r.date())) }},
		wrong: map[string]outcome{
			"one of them left": func(r *afterRun) {
				first := true
				r.remove(eventsColl, func(x sim.Record) bool {
					if x["date"] == r.date() && first {
						first = false
						return false
					}
					return x["date"] == r.date()
				})
			},
			"another day's event deleted too": func(r *afterRun) {
				other := ""
				for _, x := range r.rows(eventsColl) {
					if x["date"] != r.date() {
						other = x["id"]
						break
					}
				}
				r.remove(eventsColl, func(x sim.Record) bool { return x["date"] == r.date() || x["id"] == other })
			},
		},
	}
}

// appFor is the package of the app the instruction names.
func appFor(r *afterRun) string {
	for _, a := range launchable {
		if a.label == r.param("app_name") {
			return a.pkg
		}
	}
	r.t.Fatalf("no app %q", r.param("app_name"))
	return ""
}

func otherApp(r *afterRun) string {
	for _, a := range launchable {
		if a.label != r.param("app_name") {
			return a.pkg
		}
	}
	return ""
}

// irCase: check_agent_answer: as many comma-separated parts as wanted, each matching.
func irCase() familyCase {
	want := func(r *afterRun) *answerCheck {
		for _, c := range r.in.checks {
			if a, ok := c.(*answerCheck); ok {
				return a
			}
		}
		r.t.Fatal("no answer check")
		return nil
	}
	// another is a value of the seeded events that is not wanted, written as the check
	// casts it.
	another := func(r *afterRun) string {
		a := want(r)
		for _, x := range r.rows(eventsColl) {
			var v string
			switch a.As {
			case answerString:
				v = x["title"]
			default:
				start, err := time.Parse("2006-01-02 15:04", x["date"]+" "+x["time"])
				if err != nil {
					r.t.Fatal(err)
				}
				v = pyFormatTime(start.Add(time.Hour), irDateTimeLayout)
			}
			if !slices.ContainsFunc(a.Want, func(w string) bool { return fuzzyMatch(w, v) }) {
				return v
			}
		}
		r.t.Fatal("every event is wanted")
		return ""
	}
	answer := func(f func(r *afterRun) []string) outcome {
		return func(r *afterRun) { r.answer = strings.Join(f(r), ", ") }
	}
	return familyCase{
		answerOnly: true,
		instances:  3,
		right: map[string]outcome{
			"answered": answer(func(r *afterRun) []string { return want(r).Want }),
			"answered in reverse order, lower case": answer(func(r *afterRun) []string {
				w := slices.Clone(want(r).Want)
				slices.Reverse(w)
				if want(r).As == answerString {
					for i := range w {
						w[i] = strings.ToLower(w[i])
					}
				}
				return w
			}),
		},
		wrong: map[string]outcome{
			"another event's": answer(func(r *afterRun) []string {
				w := slices.Clone(want(r).Want)
				if len(w) == 0 {
					return []string{another(r)}
				}
				w[0] = another(r)
				return w
			}),
			"one more part": answer(func(r *afterRun) []string { return append(slices.Clone(want(r).Want), another(r)) }),
			"one part short": answer(func(r *afterRun) []string {
				w := want(r).Want
				if len(w) < 2 {
					return []string{"I could not find it"}
				}
				return w[1:]
			}),
		},
	}
}

// mapsCase: OsmAnd's favourite or marker within 0.001° of the location (a favourite also
// by a name holding it), in its own list.
func mapsCase(favorite bool) familyCase {
	own, otherList := mapsPkg+":markers", mapsPkg+":favorites"
	if favorite {
		own, otherList = otherList, own
	}
	// place is the map's place the location names.
	place := func(r *afterRun) sim.Record {
		loc := r.param("location")
		for _, x := range r.rows(mapsPkg + ":places") {
			if x["name"] == loc || x["address"] == loc {
				return x
			}
		}
		r.t.Fatalf("location %q is no place of the map", loc)
		return nil
	}
	at := func(coll string, dlat float64, name func(sim.Record) string) outcome {
		return func(r *afterRun) {
			p := place(r)
			c, ok := parseCoords(p["address"])
			if !ok {
				r.t.Fatalf("place %v has no coordinates", p)
			}
			lat, lon := strconv.FormatFloat(c[0]+dlat, 'f', 7, 64), strconv.FormatFloat(c[1], 'f', 7, 64)
			r.add(coll, sim.Record{"name": name(p), "lat": lat, "lon": lon})
		}
	}
	named := func(p sim.Record) string { return p["name"] }
	pin := func(sim.Record) string { return "Dropped pin" }
	return familyCase{
		variant: func(in *instance) string {
			return strconv.FormatBool(coordsRE.MatchString(in.params["location"]))
		},
		variants: 2,
		right: map[string]outcome{
			"saved at the place":         at(own, 0, named),
			"saved a hair off, as a pin": at(own, 0.0004, pin),
		},
		wrong: map[string]outcome{
			"saved 0.002° off, as a pin": at(own, 0.002, pin),
			"saved in the other list":    at(otherList, 0, named),
			"saved another place": func(r *afterRun) {
				p := place(r)
				for _, x := range r.rows(mapsPkg + ":places") {
					if x["id"] != p["id"] && !strings.Contains(x["name"], r.param("location")) {
						r.add(own, sim.Record{"name": "Dropped pin", "place": x["id"]})
						return
					}
				}
				r.t.Fatal("the map has one place")
			},
		},
	}
}

// recordsDeleteCase: the rows the instruction names (ids t…) gone, every other kept
// (sqlite_validators: the table read whole).
func recordsDeleteCase(coll string) familyCase {
	target := func(x sim.Record) bool { return strings.HasPrefix(x["id"], "t") }
	targets := func(r *afterRun) int {
		n := 0
		for _, x := range r.rows(coll) {
			if target(x) {
				n++
			}
		}
		return n
	}
	noise := func(r *afterRun) string {
		for _, x := range r.rows(coll) {
			if !target(x) {
				return x["id"]
			}
		}
		return ""
	}
	return familyCase{
		right: map[string]outcome{"deleted": func(r *afterRun) { r.remove(coll, target) }},
		wrong: map[string]outcome{
			"one left": func(r *afterRun) {
				if r.moot = targets(r) == 1; r.moot {
					return
				}
				r.remove(coll, func(x sim.Record) bool { return target(x) && x["id"] != "t1" })
			},
			"a noise row deleted instead of one": func(r *afterRun) {
				if r.moot = targets(r) == 1 || noise(r) == ""; r.moot {
					return
				}
				r.remove(coll, func(x sim.Record) bool { return target(x) && x["id"] != "t1" || x["id"] == noise(r) })
			},
			"another row deleted too": func(r *afterRun) {
				other := noise(r)
				if r.moot = other == ""; r.moot {
					return
				}
				r.remove(coll, func(x sim.Record) bool { return target(x) || x["id"] == other })
			},
		},
	}
}

// recordsDuplicatesCase: one of the two equal rows gone, any of them; nothing else.
func recordsDuplicatesCase(coll string) familyCase {
	twins := func(r *afterRun) (string, string) {
		rows := r.rows(coll)
		for i, a := range rows {
			for _, b := range rows[i+1:] {
				if sameRow(a, b) {
					return a["id"], b["id"]
				}
			}
		}
		r.t.Fatal("no two equal rows")
		return "", ""
	}
	drop := func(which func(a, b string) []string) outcome {
		return func(r *afterRun) {
			ids := which(twins(r))
			r.remove(coll, func(x sim.Record) bool { return slices.Contains(ids, x["id"]) })
		}
	}
	return familyCase{
		right: map[string]outcome{
			"the first copy deleted":  drop(func(a, _ string) []string { return []string{a} }),
			"the second copy deleted": drop(func(_, b string) []string { return []string{b} }),
		},
		wrong: map[string]outcome{
			"both copies deleted": drop(func(a, b string) []string { return []string{a, b} }),
			"a near-duplicate deleted instead": drop(func(a, b string) []string {
				return []string{"n1"}
			}),
		},
	}
}

// recordsAddCase: each wanted row added (free-form fields fuzzy, the rest exact), nothing
// else changed. The wanted rows are the instruction's, as the check lists them.
func recordsAddCase(coll string, exact map[string]func(string) string) familyCase {
	added := func(r *afterRun) []map[string]string {
		for _, c := range r.in.checks {
			if rc, ok := c.(*rowsCheck); ok {
				return rc.Added
			}
		}
		r.t.Fatal("no rows check")
		return nil
	}
	addAll := func(change func(i int, x sim.Record)) outcome {
		return func(r *afterRun) {
			var rows []sim.Record
			for i, w := range added(r) {
				x := sim.Record(maps.Clone(w))
				x["seq"] = "0"
				if a, ok := x["amount"]; ok { // the form's dollars, stored as the app stores them
					v, err := strconv.ParseFloat(strings.TrimPrefix(a, "$"), 64)
					if err != nil {
						r.t.Fatal(err)
					}
					x["amount"] = fmt.Sprintf("%.2f", v)
				}
				change(i, x)
				rows = append(rows, x)
			}
			r.add(coll, rows...)
		}
	}
	c := familyCase{
		instances: 2, // the rows given as CSV or as a text block
		right:     map[string]outcome{"added": addAll(func(int, sim.Record) {})},
		wrong: map[string]outcome{
			"the last one not added": func(r *afterRun) {
				w := added(r)
				if r.moot = len(w) == 1; r.moot {
					return
				}
				var rows []sim.Record
				for _, x := range w[:len(w)-1] {
					rows = append(rows, sim.Record(maps.Clone(x)))
				}
				r.add(coll, rows...)
			},
			"one added twice": func(r *afterRun) {
				addAll(func(int, sim.Record) {})(r)
				x := sim.Record(maps.Clone(added(r)[0]))
				r.add(coll, x)
			},
		},
	}
	for field, off := range exact {
		c.wrong["one's "+field+" off"] = addAll(func(i int, x sim.Record) {
			if i == 0 {
				x[field] = off(x[field])
			}
		})
	}
	return c
}

// addCalendarAndRecordCases adds the cases of the Calendar, Maps, Expenses and Recipes
// families and of the apps in front.
func addCalendarAndRecordCases(cases map[string]familyCase) {
	// Calendar.
	cases["SimpleCalendarDeleteOneEvent"] = familyCase{
		right: map[string]outcome{"deleted": func(r *afterRun) { r.remove(eventsColl, isTitle(r.param("event_title"))) }},
		wrong: map[string]outcome{
			"another event deleted": func(r *afterRun) {
				for _, x := range r.rows(eventsColl) {
					if x["title"] != r.param("event_title") {
						r.remove(eventsColl, func(y sim.Record) bool { return y["id"] == x["id"] })
						return
					}
				}
			},
			"another deleted too": func(r *afterRun) {
				other := ""
				for _, x := range r.rows(eventsColl) {
					if x["title"] != r.param("event_title") {
						other = x["id"]
					}
				}
				r.remove(eventsColl, func(y sim.Record) bool { return y["title"] == r.param("event_title") || y["id"] == other })
			},
		},
	}
	cases["SimpleCalendarDeleteEvents"] = deleteOnDayCase()
	cases["SimpleCalendarDeleteEventsOnRelativeDay"] = deleteOnDayCase()
	for _, f := range []string{"SimpleCalendarAddOneEvent", "SimpleCalendarAddOneEventTomorrow",
		"SimpleCalendarAddOneEventInTwoWeeks",
		"SimpleCalendarAddOneEventRelativeDay"} {
		cases[f] = calendarAddCase()
	}
	for _, f := range []string{"SimpleCalendarLocationOfEvent", "SimpleCalendarNextEvent", "SimpleCalendarEventsOnDate",
		"SimpleCalendarAnyEventsOnDate", "SimpleCalendarNextMeetingWithPerson", "SimpleCalendarFirstEventAfterStartTime",
		"SimpleCalendarEventsInNextWeek", "SimpleCalendarEventsInTimeRange", "SimpleCalendarEventOnDateAtTime"} {
		cases[f] = irCase()
	}

	// Apps in front.
	open := func(r *afterRun) { r.launch(appFor(r)) }
	openOther := func(r *afterRun) { r.launch(otherApp(r)) }
	cases["OpenAppTaskEval"] = familyCase{
		right: map[string]outcome{"opened": open},
		wrong: map[string]outcome{"another app opened": openOther, "opened, then another": both(open, openOther)},
	}
	cases["TurnOnWifiAndOpenApp"] = familyCase{
		right: map[string]outcome{"both": both(setting("global", "wifi_on", "1"), open)},
		wrong: map[string]outcome{
			"Wi-Fi on only":         setting("global", "wifi_on", "1"),
			"the app only":          open,
			"Wi-Fi on, another app": both(setting("global", "wifi_on", "1"), openOther),
		},
	}

	// Maps and records.
	cases["OsmAndFavorite"] = mapsCase(true)
	cases["OsmAndMarker"] = mapsCase(false)
	expenses, recipes := expensesApp.coll(), recipesApp.coll()
	for _, f := range []string{"ExpenseDeleteSingle", "ExpenseDeleteMultiple", "ExpenseDeleteMultiple2"} {
		cases[f] = recordsDeleteCase(expenses)
	}
	for _, f := range []string{"RecipeDeleteSingleRecipe", "RecipeDeleteSingleWithRecipeWithNoise",
		"RecipeDeleteMultipleRecipes",
		"RecipeDeleteMultipleRecipesWithNoise"} {
		cases[f] = recordsDeleteCase(recipes)
	}
	cases["ExpenseDeleteDuplicates"] = recordsDuplicatesCase(expenses)
	cases["RecipeDeleteDuplicateRecipes"] = recordsDuplicatesCase(recipes)
	// A category is an id, compared exactly; a recipe's favourite flag too.
	nextCategory := func(id string) string {
		n, _ := strconv.Atoi(id)
		return strconv.Itoa(n%len(expenseCategories()) + 1)
	}
	flip := func(v string) string {
		if v == "1" {
			return "0"
		}
		return "1"
	}
	aCentMore := func(a string) string {
		v, _ := strconv.ParseFloat(a, 64)
		return fmt.Sprintf("%.2f", v+0.01)
	}
	expenseExact := map[string]func(string) string{"category": nextCategory, "amount": aCentMore}
	recipeExact := map[string]func(string) string{"favorite": flip}
	cases["ExpenseAddSingle"] = recordsAddCase(expenses, expenseExact)
	cases["ExpenseAddMultiple"] = recordsAddCase(expenses, expenseExact)
	cases["RecipeAddSingleRecipe"] = recordsAddCase(recipes, recipeExact)
	cases["RecipeAddMultipleRecipes"] = recordsAddCase(recipes, recipeExact)
}
