package androidworld

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/sim"
)

// Checks: rows: addition and removal integrity.

// rowsCheck holds the rows of a collection as the setup seeded them. After the task,
// the rows whose ids are in Removed must be gone, exactly len(Added) new rows must be
// there, each matching one Added (fields compared with fuzzy match; "phone" fields by
// digits), and every other row must be unchanged (sqlite_validators' integrity checks).
//
// With OneOf, exactly one of those rows must be gone, any of them (the benchmark's
// duplicate removal: either copy may go).
type rowsCheck struct {
	Collection string
	Before     []sim.Record
	Removed    []string
	OneOf      []string
	Added      []map[string]string
	// Updated are rows that must have changed: their id → the fields they must now have
	// (fuzzy, as Added); their other fields must be unchanged.
	Updated map[string]map[string]string
}

func (c *rowsCheck) Kind() string  { return "rows" }
func (c *rowsCheck) Virtual() bool { return true }
func (c *rowsCheck) Describe() string {
	return fmt.Sprintf("%s: %d rows removed, %d added, the other %d unchanged", c.Collection, len(c.Removed), len(c.Added), len(c.Before)-len(c.Removed))
}

func (c *rowsCheck) Evaluate(_ context.Context, p eval.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	after, err := st.Records(c.Collection)
	if err != nil {
		return false, "", err
	}
	if len(c.OneOf) == 0 {
		return c.compare(after)
	}
	var ev []string
	for _, id := range c.OneOf {
		one := *c
		one.OneOf, one.Removed = nil, append(slices.Clone(c.Removed), id)
		ok, e, err := one.compare(after)
		if ok || err != nil {
			return ok, e, err
		}
		ev = append(ev, fmt.Sprintf("without %s: %s", id, e))
	}
	return false, strings.Join(ev, " | "), nil
}

func (c *rowsCheck) compare(after []sim.Record) (bool, string, error) {
	before := map[string]sim.Record{}
	for _, r := range c.Before {
		before[r["id"]] = r
	}
	var probs []string
	now := map[string]sim.Record{}
	var added []sim.Record
	for _, r := range after {
		if _, ok := before[r["id"]]; ok {
			now[r["id"]] = r
		} else {
			added = append(added, r)
		}
	}
	for _, id := range c.Removed {
		if r, ok := now[id]; ok {
			probs = append(probs, fmt.Sprintf("row %s (%s) is still there", id, rowText(r)))
		}
	}
	for _, r := range c.Before {
		id := r["id"]
		if slices.Contains(c.Removed, id) {
			continue
		}
		a, ok := now[id]
		want, updated := c.Updated[id]
		if updated && ok {
			r = maps.Clone(r)
			for k, v := range want {
				if !rowMatches(sim.Record{k: a[k]}, map[string]string{k: v}) {
					probs = append(probs, fmt.Sprintf("row %s: %s is %q, want %q", id, k, a[k], v))
				}
				r[k] = a[k]
			}
		}
		switch {
		case !ok:
			probs = append(probs, fmt.Sprintf("row %s (%s) was removed", id, rowText(r)))
		case !maps.Equal(a, r):
			probs = append(probs, fmt.Sprintf("row %s changed: %s → %s", id, rowText(r), rowText(a)))
		}
	}
	if len(added) != len(c.Added) {
		probs = append(probs, fmt.Sprintf("%d rows added, want %d", len(added), len(c.Added)))
	}
	used := make([]bool, len(added))
	for _, want := range c.Added {
		found := false
		for i, a := range added {
			if !used[i] && rowMatches(a, want) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			probs = append(probs, fmt.Sprintf("no added row like %s", rowText(want)))
		}
	}
	ev := fmt.Sprintf("%s: %d rows before, %d after", c.Collection, len(c.Before), len(after))
	if len(probs) > 0 {
		if len(probs) > 6 {
			probs = append(probs[:6], fmt.Sprintf("… %d more", len(probs)-6))
		}
		return false, ev + "; " + strings.Join(probs, "; "), nil
	}
	return true, ev, nil
}

func rowMatches(r sim.Record, want map[string]string) bool {
	for k, v := range want {
		got := r[k]
		if k == "phone" || k == "number" {
			if digits(got) != digits(v) {
				return false
			}
			continue
		}
		if k == "time" || k == "date" { // compared as times and dates, not as text
			if !sameWhen(k, got, v) {
				return false
			}
			continue
		}
		if k == "amount" {
			g, err1 := parseNumber(got)
			w, err2 := parseNumber(v)
			if err1 != nil || err2 != nil || math.Abs(g-w) > 0.005 {
				return false
			}
			continue
		}
		if !fuzzyMatch(got, v) {
			return false
		}
	}
	return true
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
