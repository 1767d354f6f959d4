package androidworld

import (
	"context"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// phoneWith is a virtual phone whose collection holds rows (after fairy-sim seed).
func phoneWith(t *testing.T, collection string, rows []sim.Record) *sim.Phone {
	t.Helper()
	apps, err := apps()
	if err != nil {
		t.Fatal(err)
	}
	base, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	all, err := sim.MergeApps(base, apps)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sim.New(sim.Config{Seed: 1, Apps: all})
	if err != nil {
		t.Fatal(err)
	}
	if collection != "" {
		run(t, p, mustSeed(t, collection, rows))
	}
	return p
}

func mustSeed(t *testing.T, collection string, rows []sim.Record) string {
	t.Helper()
	line, err := sim.SeedCommand(collection, rows)
	if err != nil {
		t.Fatal(err)
	}
	return line
}

func run(t *testing.T, p *sim.Phone, line string) string {
	t.Helper()
	var b strings.Builder
	st, err := p.Shell(context.Background(), line, &b)
	if err != nil || st != 0 {
		t.Fatalf("%q: %d %v %s", line, st, err, b.String())
	}
	return b.String()
}

func notes() []sim.Record {
	return []sim.Record{
		{"id": "a", "title": "alpha.md", "body": "one"},
		{"id": "b", "title": "beta.md", "body": "two"},
		{"id": "c", "title": "gamma.md", "body": "three"},
	}
}

func evaluate(t *testing.T, c suite.CustomCheck, p suite.Probe) (bool, string) {
	t.Helper()
	ok, ev, err := c.Evaluate(context.Background(), p)
	if err != nil {
		t.Fatalf("%s: %v", c.Describe(), err)
	}
	return ok, ev
}

// TestRowsRemoval: in an SQLite table (the benchmark's validate_rows_removal_integrity),
// the target gone and every other row unchanged passes; the wrong row deleted, one extra
// row deleted, a changed row or nothing deleted fails.
func TestRowsRemoval(t *testing.T) {
	const coll = "com.fairy.expenses:expenses"
	check := &rowsCheck{Collection: coll, Before: notes(), Removed: []string{"b"}}
	for _, tc := range []struct {
		name  string
		after []sim.Record
		pass  bool
		why   string
	}{
		{"target deleted", []sim.Record{notes()[0], notes()[2]}, true, ""},
		{"wrong row deleted", []sim.Record{notes()[1], notes()[2]}, false, "row b (body=\"two\" title=\"beta.md\") is still there"},
		{"one extra row deleted", []sim.Record{notes()[2]}, false, "row a (body=\"one\" title=\"alpha.md\") was removed"},
		{"another row changed", []sim.Record{notes()[0], {"id": "c", "title": "gamma.md", "body": "edited"}}, false, "row c changed"},
		{"nothing deleted", notes(), false, "still there"},
		{"a row added too", []sim.Record{notes()[0], notes()[2], {"id": "x", "title": "new.md", "body": ""}}, false, "1 rows added, want 0"},
	} {
		p := phoneWith(t, coll, tc.after)
		ok, ev := evaluate(t, check, suite.Probe{Phone: p})
		if ok != tc.pass || !strings.Contains(ev, tc.why) {
			t.Errorf("%s: pass=%t (%s); want %t with %q", tc.name, ok, ev, tc.pass, tc.why)
		}
	}
	// Either copy of a duplicate may go, but only one.
	dup := []sim.Record{notes()[0], {"id": "t1", "title": "x", "body": "y"}, {"id": "t2", "title": "x", "body": "y"}}
	one := &rowsCheck{Collection: coll, Before: dup, OneOf: []string{"t1", "t2"}}
	for _, tc := range []struct {
		after []sim.Record
		pass  bool
	}{{dup[:2], true}, {[]sim.Record{dup[0], dup[2]}, true}, {dup[:1], false}, {dup, false}, {dup[1:], false}} {
		ok, ev := evaluate(t, one, suite.Probe{Phone: phoneWith(t, coll, tc.after)})
		if ok != tc.pass {
			t.Errorf("duplicates, %d rows left: pass=%t (%s), want %t", len(tc.after), ok, ev, tc.pass)
		}
	}
}

// TestRowsAddition: the new row (fuzzy on text, digits on numbers, numbers on amounts)
// passes; a wrong field, a second new row or a touched old row fails.
func TestRowsAddition(t *testing.T) {
	const coll = "com.fairy.expenses:expenses"
	before := []sim.Record{{"id": "n1", "seq": "1", "name": "Gas", "amount": "40.00", "category": "Transportation", "note": "ok"}}
	check := &rowsCheck{Collection: coll, Before: before, Added: []map[string]string{{"name": "Groceries", "amount": "$123.4", "category": "Food", "note": "Urgent"}}}
	added := func(f map[string]string) sim.Record {
		r := sim.Record{"id": "new", "seq": "2", "name": "Groceries", "amount": "123.40", "category": "Food", "note": "Urgent"}
		for k, v := range f {
			r[k] = v
		}
		return r
	}
	for _, tc := range []struct {
		name  string
		after []sim.Record
		pass  bool
	}{
		{"added", []sim.Record{before[0], added(nil)}, true},
		{"a typo within fuzzy 0.9", []sim.Record{before[0], added(map[string]string{"name": "Grocerie"})}, true},
		{"another name", []sim.Record{before[0], added(map[string]string{"name": "Rent"})}, false},
		{"wrong amount", []sim.Record{before[0], added(map[string]string{"amount": "132.40"})}, false},
		{"added twice", []sim.Record{before[0], added(nil), added(map[string]string{"id": "new2"})}, false},
		{"an old row removed", []sim.Record{added(nil)}, false},
		{"nothing added", before, false},
	} {
		ok, ev := evaluate(t, check, suite.Probe{Phone: phoneWith(t, coll, tc.after)})
		if ok != tc.pass {
			t.Errorf("%s: pass=%t (%s), want %t", tc.name, ok, ev, tc.pass)
		}
	}
	contact := &rowsCheck{Collection: "com.android.contacts:contacts", Added: []map[string]string{{"name": "Ana Silva", "phone": "+15551234567"}}}
	for _, tc := range []struct {
		phone string
		pass  bool
	}{{"+1 555-123-4567", true}, {"+15551234567", true}, {"+15551234568", false}} {
		p := phoneWith(t, "com.android.contacts:contacts", []sim.Record{{"id": "x", "name": "Ana Silva", "phone": tc.phone, "email": ""}})
		if ok, ev := evaluate(t, contact, suite.Probe{Phone: p}); ok != tc.pass {
			t.Errorf("contact number %q: pass=%t (%s), want %t", tc.phone, ok, ev, tc.pass)
		}
	}
}

// TestSMSCheck: a text to the number with the message passes (number formatting and a
// small typo do not matter); a text to another number (the benchmark's normalisation
// removes dashes and spaces only), another message or an incoming text does not.
func TestSMSCheck(t *testing.T) {
	const coll = "com.google.android.apps.messaging:messages"
	check := &smsCheck{Number: "+15551234567", Text: "Don't forget to water the plants while I'm away."}
	msg := func(phone, text, dir string) []sim.Record {
		return []sim.Record{{"id": "m1", "seq": "1", "to": phone, "phone": phone, "text": text, "dir": dir, "time": "15:40"}}
	}
	for _, tc := range []struct {
		name string
		rows []sim.Record
		pass bool
	}{
		{"sent", msg("+1 555-123-4567", "Don't forget to water the plants while I'm away.", "out"), true},
		{"a typo", msg("+15551234567", "Dont forget to water the plants while I'm away", "out"), true},
		{"to the wrong number", msg("+15551234568", "Don't forget to water the plants while I'm away.", "out"), false},
		// was_sent removes dashes and spaces only: other punctuation, or no "+", is another number.
		{"number in parentheses", msg("+1 (555) 123-4567", "Don't forget to water the plants while I'm away.", "out"), false},
		{"number without +", msg("15551234567", "Don't forget to water the plants while I'm away.", "out"), false},
		{"number with dots", msg("+1.555.123.4567", "Don't forget to water the plants while I'm away.", "out"), false},
		{"another message", msg("+15551234567", "Lunch meeting with Sarah at 1 PM.", "out"), false},
		{"received, not sent", msg("+15551234567", "Don't forget to water the plants while I'm away.", "in"), false},
	} {
		ok, ev := evaluate(t, check, suite.Probe{Phone: phoneWith(t, coll, tc.rows)})
		if ok != tc.pass {
			t.Errorf("%s: pass=%t (%s), want %t", tc.name, ok, ev, tc.pass)
		}
	}
	// With App, the messaging app must be in front too.
	p := phoneWith(t, coll, msg("+15551234567", "Don't forget to water the plants while I'm away.", "out"))
	inApp := &smsCheck{Number: check.Number, Text: check.Text, App: messagesPkg}
	if ok, ev := evaluate(t, inApp, suite.Probe{Phone: p}); ok {
		t.Errorf("passes with the launcher in front: %s", ev)
	}
	run(t, p, "monkey -p "+messagesPkg+" -c android.intent.category.LAUNCHER 1")
	if ok, ev := evaluate(t, inApp, suite.Probe{Phone: p}); !ok {
		t.Errorf("fails with Messages in front: %s", ev)
	}
	if ok, ev := evaluate(t, &foregroundCheck{Package: settingsPkg}, suite.Probe{Phone: p}); ok {
		t.Errorf("foreground: Settings passes with Messages in front: %s", ev)
	}
}

// TestSettingCheck reads `settings get` in the phone's shell.
func TestSettingCheck(t *testing.T) {
	p := phoneWith(t, "", nil)
	on := &settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"1", "2"}}
	if ok, ev := evaluate(t, on, suite.Probe{Phone: p}); !ok {
		t.Errorf("wifi on by default: %s", ev)
	}
	run(t, p, "settings put global wifi_on 0")
	if ok, ev := evaluate(t, on, suite.Probe{Phone: p}); ok || !strings.Contains(ev, "→ 0") {
		t.Errorf("wifi off passes as on: %s", ev)
	}
	// Through a shell function (a real device's adb shell) as well.
	shell := func(ctx context.Context, cmd string) (string, error) {
		var b strings.Builder
		_, err := p.Shell(ctx, cmd, &b)
		return b.String(), err
	}
	if ok, _ := evaluate(t, &settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"0"}}, suite.Probe{Shell: shell}); !ok {
		t.Error("wifi off not read through the shell")
	}
}

// TestAllCheckPartialCredit: a composite task passes when every part holds; the evidence
// gives the fraction that held.
func TestAllCheckPartialCredit(t *testing.T) {
	p := phoneWith(t, "", nil) // wifi on, bluetooth off
	all := &allCheck{Parts: []suite.CustomCheck{
		&settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"0"}},
		&settingCheck{Namespace: "global", Key: "bluetooth_on", Want: []string{"1"}},
	}}
	for _, tc := range []struct {
		setup  []string
		pass   bool
		credit float64
	}{
		{nil, false, 0},
		{[]string{"settings put global wifi_on 0"}, false, 0.5},
		{[]string{"settings put global bluetooth_on 1"}, true, 1},
	} {
		for _, s := range tc.setup {
			run(t, p, s)
		}
		r := suite.Evaluate(context.Background(), suite.Check{Custom: all}, suite.Probe{Phone: p})
		if r.Pass != tc.pass || r.Credit == nil || *r.Credit != tc.credit || partialCredit(r) != tc.credit {
			t.Errorf("after %v: pass=%t credit=%.2f (%s), want %t %.2f", tc.setup, r.Pass, partialCredit(r), r.Evidence, tc.pass, tc.credit)
		}
	}
}

// TestFuzzyMatch is the benchmark's threshold: difflib's ratio ≥ 0.9, case ignored, the
// texts otherwise as they are.
func TestFuzzyMatch(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"Hello World", "hello world", true}, {"Hello World", "Hello Wrld", true}, {"Hello World", "Help World!", false}, {"abc", "", false},
		{"", "", true}, {"note ", "note", false}, {" Call Bob\n", "Call Bob", false}} { // no trimming: the benchmark does none
		if got := fuzzyMatch(tc.a, tc.b); got != tc.want {
			t.Errorf("fuzzyMatch(%q, %q) = %t", tc.a, tc.b, got)
		}
	}
}

// TestRowsUpdated: an edited row must have its new fields and keep the others; editing
// another row, or leaving the row as it was, fails. Times and dates compare by value.
func TestRowsUpdated(t *testing.T) {
	const coll = "com.fairy.notes:notes"
	check := &rowsCheck{Collection: coll, Before: notes(), Updated: map[string]map[string]string{"b": {"title": "renamed.md", "body": "new text"}}}
	for _, tc := range []struct {
		name  string
		after []sim.Record
		pass  bool
	}{
		{"edited and renamed", []sim.Record{notes()[0], {"id": "b", "title": "renamed.md", "body": "new text"}, notes()[2]}, true},
		{"not renamed", []sim.Record{notes()[0], {"id": "b", "title": "beta.md", "body": "new text"}, notes()[2]}, false},
		{"left as it was", notes(), false},
		{"another row edited too", []sim.Record{{"id": "a", "title": "alpha.md", "body": "x"}, {"id": "b", "title": "renamed.md", "body": "new text"}, notes()[2]}, true},
	} {
		if ok, ev := evaluate(t, check, suite.Probe{Phone: phoneWith(t, coll, tc.after)}); ok != tc.pass {
			t.Errorf("%s: pass=%t (%s), want %t", tc.name, ok, ev, tc.pass)
		}
	}
	// Markor reads files by name: another note edited is a collateral change.
	p := phoneWith(t, coll, []sim.Record{{"id": "a", "title": "alpha.md", "body": "x"}, {"id": "b", "title": "renamed.md", "body": "new text"}, notes()[2]})
	if ok, ev := evaluate(t, check.collateral(), suite.Probe{Phone: p}); ok || !strings.Contains(ev, "row a changed") {
		t.Errorf("another note edited: collateral pass=%t (%s), want the change", ok, ev)
	}
	ev := &rowsCheck{Collection: "com.google.android.calendar:events", Added: []map[string]string{{"title": "Call with HR", "date": "2023-10-16", "time": "9:00"}}}
	for _, tc := range []struct {
		date, at string
		pass     bool
	}{{"2023-10-16", "09:00", true}, {"2023-10-16", "10:00", false}, {"2023-10-17", "09:00", false}} {
		p := phoneWith(t, "com.google.android.calendar:events", []sim.Record{{"id": "e", "title": "Call with HR", "date": tc.date, "time": tc.at, "location": ""}})
		if ok, e := evaluate(t, ev, suite.Probe{Phone: p}); ok != tc.pass {
			t.Errorf("event %s %s: pass=%t (%s), want %t", tc.date, tc.at, ok, e, tc.pass)
		}
	}
}
