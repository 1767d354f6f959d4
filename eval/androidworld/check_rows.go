package androidworld

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// Checks: rows: addition and removal, scored as the benchmark scores them.

// match is how a field of a row is compared with what the task wants, as the benchmark
// compares it.
type match int

const (
	matchExact         match = iota // equal text (sqlite_validators' compare_fields; file and contact names)
	matchFuzzy                      // fuzzy_match_lib.fuzzy_match: difflib ratio ≥ 0.9, case ignored
	matchFile                       // a Markor file's content: "\r" removed and stripped, then fuzzy
	matchSMSNumber                  // sms_validators: the phone's number loses "-" and " ", then equal
	matchContactNumber              // contacts_utils.clean_phone_number: digits only, both sides
	matchContains                   // osmand: the saved name contains the location
	matchWhen                       // a time of day or a date, by value (the event's start_ts)
	matchAmount                     // an amount, to the cent (Expense.amount in cents)
)

// table is how the benchmark reads one of the phone's collections. An SQLite table
// (key "") is read whole: sqlite_validators' integrity checks score the rows the task
// did not name too (none removed, changed or added besides). Files and contacts are found
// by their name (key): the benchmark looks only at the named ones, so what else changed
// is a collateral change. newOnly: a wanted row is looked for among the new rows only,
// and how many were added is scored (SimpleSmsResend: one more sent message, the newest
// equal to the one sent before).
type table struct {
	sqlite  bool
	key     string
	fields  map[string]match // fields not listed are compared exactly
	newOnly bool
}

// tables are the collections the families check, by collection name.
var tables = map[string]table{
	// expense.py: compare_fields name, amount, category, note; free_form name, note.
	"expenses": {sqlite: true, fields: map[string]match{"name": matchFuzzy, "note": matchFuzzy, "amount": matchAmount}},
	// recipe.py: every compared field free-form but favorite.
	"recipes": {sqlite: true, fields: map[string]match{"title": matchFuzzy, "description": matchFuzzy, "servings": matchFuzzy,
		"preparationTime": matchFuzzy, "source": matchFuzzy, "ingredients": matchFuzzy, "directions": matchFuzzy}},
	// calendar_evaluators: start_ts, end_ts exact; title, location, description fuzzy.
	"events": {sqlite: true, fields: map[string]match{"title": matchFuzzy, "location": matchFuzzy, "description": matchFuzzy,
		"date": matchWhen, "time": matchWhen}},
	// file_validators / markor.py: a file found by its exact name, its content fuzzy.
	"notes": {key: "title", fields: map[string]match{"body": matchFile}},
	// contacts_validators.AddContact: Contact(name, clean number) in the list.
	"contacts": {key: "name", fields: map[string]match{"phone": matchContactNumber}},
	// sms.py SimpleSmsResend: one more sent message, equal to the last sent (sms_are_equal).
	"messages": {newOnly: true, fields: map[string]match{"phone": matchSMSNumber, "text": matchFuzzy}},
	// osmand.py: a favourite whose name contains the location (or at its coordinates); a
	// marker at the location's coordinates, here the place of that name.
	"favorites": {key: "name", fields: map[string]match{"name": matchContains}},
	"markers":   {key: "name"},
}

// rowsCheck holds the rows of a collection as the setup seeded them and what the task
// must have done to them: the rows whose ids are in Removed gone, a row like each of
// Added there, the rows in Updated changed to their fields. It scores as the benchmark
// does for the collection (tables); the stricter rest (no other row removed, changed or
// added; each wanted row added on its own) is its collateral check (collateral).
//
// With OneOf, exactly one of those rows must be gone, any of them (the benchmark's
// duplicate removal: either copy may go).
type rowsCheck struct {
	Collection string
	Before     []sim.Record
	Removed    []string
	OneOf      []string
	// All: the task asks for every row to go (MarkorDeleteAllNotes), whatever their
	// number; the person means any delete there.
	All   bool
	Added []map[string]string
	// Updated are rows that must have changed: their id → the fields they must now have
	// (compared as Added); their other fields must be unchanged.
	Updated map[string]map[string]string
	// Exact lists fields compared exactly where the table compares them otherwise
	// (MarkorAddNoteHeader: the content, exact_match=True).
	Exact []string
}

func (c *rowsCheck) Kind() string  { return "rows" }
func (c *rowsCheck) Virtual() bool { return true }
func (c *rowsCheck) Describe() string {
	return fmt.Sprintf("%s: %d rows removed, %d added, %d changed", c.Collection, len(c.Removed)+min(len(c.OneOf), 1), len(c.Added), len(c.Updated))
}

func (c *rowsCheck) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	v, err := c.verdict(p)
	if err != nil {
		return false, "", err
	}
	return len(v.scored) == 0, v.evidence(v.scored), nil
}

// collateral is the check of what else changed, when the benchmark does not score it.
func (c *rowsCheck) collateral() suite.CustomCheck {
	if c.table().sqlite && len(c.Added) < 2 {
		return nil // the benchmark scores it all; one row added cannot be matched twice
	}
	return &rowsCollateral{c}
}

func (c *rowsCheck) table() table {
	_, name, _ := strings.Cut(c.Collection, ":")
	return tables[name] // unknown: an SQLite table compared exactly
}

// rowsVerdict are the problems a rowsCheck saw: scored ones fail the task, collateral
// ones are reported apart.
type rowsVerdict struct {
	head               string
	scored, collateral []string
}

func (v rowsVerdict) evidence(probs []string) string {
	if len(probs) == 0 {
		return v.head
	}
	if len(probs) > 6 {
		probs = append(slices.Clip(probs[:6]), fmt.Sprintf("… %d more", len(probs)-6))
	}
	return v.head + "; " + strings.Join(probs, "; ")
}

func (c *rowsCheck) verdict(p suite.Probe) (rowsVerdict, error) {
	st, err := phoneState(p)
	if err != nil {
		return rowsVerdict{}, err
	}
	after, err := st.Records(c.Collection)
	if err != nil {
		return rowsVerdict{}, err
	}
	if len(c.OneOf) == 0 {
		return c.compare(after), nil
	}
	var ev []string
	for _, id := range c.OneOf {
		one := *c
		one.OneOf, one.Removed = nil, append(slices.Clone(c.Removed), id)
		v := one.compare(after)
		if len(v.scored) == 0 {
			return v, nil
		}
		ev = append(ev, fmt.Sprintf("without %s: %s", id, strings.Join(v.scored, "; ")))
	}
	head := fmt.Sprintf("%s: %d rows before, %d after", c.Collection, len(c.Before), len(after))
	return rowsVerdict{head: head, scored: ev}, nil
}

// compare sorts what differs between the rows before and after into what the task asked
// (target), what else changed (integrity) and a wanted row matched by a row another
// wanted row matched (oneToOne), then scores them as the collection's table says.
func (c *rowsCheck) compare(after []sim.Record) rowsVerdict {
	t := c.table()
	before := map[string]sim.Record{}
	for _, r := range c.Before {
		before[r["id"]] = r
	}
	now := map[string]sim.Record{}
	var added []sim.Record
	for _, r := range after {
		if _, ok := before[r["id"]]; ok {
			now[r["id"]] = r
		} else {
			added = append(added, r)
		}
	}
	var target, integrity []string
	// The rows to remove.
	for _, id := range c.Removed {
		r, still := now[id]
		switch {
		case t.key == "" && still:
			target = append(target, fmt.Sprintf("row %s (%s) is still there", id, rowText(r)))
		case t.key != "":
			name := before[id][t.key]
			if i := slices.IndexFunc(after, func(a sim.Record) bool { return a[t.key] == name }); i >= 0 {
				target = append(target, fmt.Sprintf("%s %q is still there", t.key, name))
			} else if still {
				integrity = append(integrity, fmt.Sprintf("row %s was kept as %s", id, rowText(r)))
			}
		}
	}
	if t.key != "" && len(c.Before) > 0 && len(c.Removed) == len(c.Before) && len(c.Added) == 0 && len(c.Updated) == 0 && len(after) > 0 {
		// Everything to go (MarkorDeleteAllNotes): the benchmark wants the folder empty.
		target = append(target, fmt.Sprintf("%d rows left, want none", len(after)))
	}
	// The rows to change.
	for _, id := range slices.Sorted(maps.Keys(c.Updated)) {
		want, old := c.Updated[id], before[id]
		if t.key != "" {
			target = append(target, c.updatedByKey(t, old, want, after)...)
		} else if a, ok := now[id]; ok {
			for _, k := range slices.Sorted(maps.Keys(want)) {
				if !c.fieldMatches(t, k, a[k], want[k]) {
					target = append(target, fmt.Sprintf("row %s: %s is %q, want %q", id, k, a[k], want[k]))
				}
			}
		}
	}
	// Every row not named must be as it was; a changed row keeps its other fields.
	for _, r := range c.Before {
		id := r["id"]
		if slices.Contains(c.Removed, id) {
			continue
		}
		a, ok := now[id]
		if want, updated := c.Updated[id]; updated && ok {
			r = maps.Clone(r)
			for k := range want {
				r[k] = a[k]
			}
		}
		switch {
		case !ok:
			integrity = append(integrity, fmt.Sprintf("row %s (%s) was removed", id, rowText(r)))
		case !maps.Equal(a, r):
			integrity = append(integrity, fmt.Sprintf("row %s changed: %s → %s", id, rowText(r), rowText(a)))
		}
	}
	// The rows to add: each like a row there (the benchmark looks through every row)…
	among := after
	if t.newOnly {
		among = added
	}
	for _, want := range c.Added {
		if !slices.ContainsFunc(among, func(a sim.Record) bool { return c.rowMatches(t, a, want) }) {
			target = append(target, fmt.Sprintf("no row like %s", rowText(want)))
		}
	}
	count := ""
	if len(added) != len(c.Added) {
		count = fmt.Sprintf("%d rows added, want %d", len(added), len(c.Added))
	}
	// … and, stricter, each by a new row of its own.
	var oneToOne []string
	used := make([]bool, len(added))
	for _, want := range c.Added {
		i := slices.IndexFunc(added, func(a sim.Record) bool { return c.rowMatches(t, a, want) })
		for i >= 0 && used[i] {
			j := slices.IndexFunc(added[i+1:], func(a sim.Record) bool { return c.rowMatches(t, a, want) })
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			if slices.ContainsFunc(among, func(a sim.Record) bool { return c.rowMatches(t, a, want) }) {
				oneToOne = append(oneToOne, fmt.Sprintf("no added row of its own like %s", rowText(want)))
			}
			continue
		}
		used[i] = true
	}
	v := rowsVerdict{head: fmt.Sprintf("%s: %d rows before, %d after", c.Collection, len(c.Before), len(after))}
	v.scored = target
	switch {
	case t.sqlite:
		v.scored = append(v.scored, integrity...)
		if count != "" {
			v.scored = append(v.scored, count)
		}
	case t.newOnly:
		if count != "" {
			v.scored = append(v.scored, count)
		}
		v.collateral = integrity
	default:
		v.collateral = integrity
		if count != "" {
			v.collateral = append(v.collateral, count)
		}
	}
	v.collateral = append(v.collateral, oneToOne...)
	return v
}

// updatedByKey checks a changed file (or contact) as the benchmark finds it, by its name:
// renamed, no row keeps the old name; a row with the new name has the wanted fields.
func (c *rowsCheck) updatedByKey(t table, old sim.Record, want map[string]string, after []sim.Record) []string {
	name := old[t.key]
	if n, ok := want[t.key]; ok && n != name {
		if slices.ContainsFunc(after, func(a sim.Record) bool { return a[t.key] == name }) {
			return []string{fmt.Sprintf("%s %q is still there", t.key, name)}
		}
		name = n
	}
	i := slices.IndexFunc(after, func(a sim.Record) bool { return a[t.key] == name })
	if i < 0 {
		return []string{fmt.Sprintf("no row with %s %q", t.key, name)}
	}
	var probs []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if k != t.key && !c.fieldMatches(t, k, after[i][k], want[k]) {
			probs = append(probs, fmt.Sprintf("%s %q: %s is %q, want %q", t.key, name, k, after[i][k], want[k]))
		}
	}
	return probs
}

func (c *rowsCheck) rowMatches(t table, r sim.Record, want map[string]string) bool {
	for k, v := range want {
		if !c.fieldMatches(t, k, r[k], v) {
			return false
		}
	}
	return true
}

// fieldMatches compares the phone's value got of field k with the wanted value as the
// benchmark does for the table.
func (c *rowsCheck) fieldMatches(t table, k, got, want string) bool {
	m := t.fields[k]
	if slices.Contains(c.Exact, k) {
		m = matchExact
	}
	switch m {
	case matchFuzzy:
		return fuzzyMatch(got, want)
	case matchFile:
		return fuzzyMatch(strings.TrimSpace(strings.ReplaceAll(got, "\r", "")), want)
	case matchSMSNumber:
		return smsNumber(got) == smsNumber(want)
	case matchContactNumber:
		return cleanNumber(got) == cleanNumber(want)
	case matchContains:
		return strings.Contains(got, want)
	case matchWhen:
		return sameWhen(k, got, want)
	case matchAmount:
		g, err1 := parseNumber(got)
		w, err2 := parseNumber(want)
		return err1 == nil && err2 == nil && math.Round(g*100) == math.Round(w*100)
	}
	return got == want
}

// rowsCollateral is a rowsCheck's collateral check: the rows the task did not name are
// as they were and each wanted row was added on its own, where the benchmark does not
// score it. It never fails the task.
type rowsCollateral struct{ c *rowsCheck }

func (c *rowsCollateral) Kind() string     { return "rows" }
func (c *rowsCollateral) Virtual() bool    { return true }
func (c *rowsCollateral) Collateral() bool { return true }
func (c *rowsCollateral) Describe() string {
	return c.c.Collection + ": nothing else changed (collateral)"
}

func (c *rowsCollateral) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	v, err := c.c.verdict(p)
	if err != nil {
		return false, "", err
	}
	return len(v.collateral) == 0, v.evidence(v.collateral), nil
}

func rowText(r map[string]string) string {
	keys := slices.Sorted(maps.Keys(r))
	var parts []string
	for _, k := range keys {
		if k != "id" {
			parts = append(parts, fmt.Sprintf("%s=%q", k, r[k]))
		}
	}
	return strings.Join(parts, " ")
}
