package sim

import (
	"strings"
	"testing"
	"time"
)

// TestFairySimSeed: `fairy-sim seed` replaces a collection's records (the Notes list shows
// them), a reset brings back the declared ones, and bad input is an error that changes
// nothing.
func TestFairySimSeed(t *testing.T) {
	p := newPhone(t)
	line, err := SeedCommand("com.fairy.notes:notes", []Record{{"id": "a", "title": "Alpha", "body": "one"}, {"id": "b", "title": "Beta", "body": "two"}})
	if err != nil {
		t.Fatal(err)
	}
	if out, st := sh(t, p, line); st != 0 {
		t.Fatalf("seed: %d %s", st, out)
	}
	recs, err := p.Records("com.fairy.notes:notes")
	if err != nil || len(recs) != 2 || recs[0]["title"] != "Alpha" || recs[1]["id"] != "b" {
		t.Fatalf("records after seed: %v %v", recs, err)
	}
	launch(t, p, "com.fairy.notes")
	if !has(t, p, "Alpha") || has(t, p, "Shopping list") {
		t.Fatalf("the list does not show the seeded notes: %s", labels(t, p))
	}
	for _, bad := range []string{
		"fairy-sim seed com.fairy.notes:notes bm90IGpzb24=",                     // not JSON
		"fairy-sim seed com.fairy.notes:nope W10=",                              // no such collection
		"fairy-sim seed com.nope:notes W10=",                                    // no such app
		"fairy-sim seed notes W10=",                                             // no package
		"fairy-sim seed com.fairy.notes:notes W3sidGl0bGUiOiJ4In1d",             // a record without an id
		"fairy-sim seed com.fairy.notes:notes W3siaWQiOiJ4In0seyJpZCI6IngifV0=", // an id twice
		"fairy-sim seed com.fairy.notes:notes",
	} {
		out, st := sh(t, p, bad)
		if st == 0 || !strings.Contains(out, "fairy-sim") {
			t.Errorf("%q: status %d, %q; want an error", bad, st, out)
		}
	}
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 2 {
		t.Fatalf("a bad seed changed the records: %v", recs)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if recs, _ := p.Records("com.fairy.notes:notes"); len(recs) != 3 || recs[0]["title"] != "Shopping list" {
		t.Fatalf("reset did not bring back the declared notes: %v", recs)
	}
}

// TestFairySimClock: `fairy-sim clock` sets the phone's time (date, the status bar, the
// apps' now) and it runs on from there; a reset brings back the configured clock.
func TestFairySimClock(t *testing.T) {
	clk := &testClock{now: fixedNow}
	p := newPhone(t, func(c *Config) { c.Clock = clk.Now })
	if out, st := sh(t, p, "fairy-sim clock 2023-10-15T15:34:00Z"); st != 0 {
		t.Fatalf("clock: %d %s", st, out)
	}
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "15:34:00") || !strings.Contains(out, "2023") {
		t.Fatalf("date after clock: %q", out)
	}
	clk.now = clk.now.Add(90 * time.Second)
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "15:35:30") {
		t.Fatalf("the clock does not run on: %q", out)
	}
	if out, st := sh(t, p, "fairy-sim clock yesterday"); st == 0 {
		t.Fatalf("a bad time was accepted: %q", out)
	}
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	if out, _ := sh(t, p, "date"); !strings.Contains(out, "2025") {
		t.Fatalf("reset kept the set clock: %q", out)
	}
}
