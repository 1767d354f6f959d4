package androidworld

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// The checks scored as the benchmark scores them: a run the benchmark fails fails here
// too; what the benchmark does not look at is a collateral change, reported and not
// failing the task.

// checkRun is one check's verdict on a phone, through suite.Evaluate, with the collateral
// check the suite adds beside it.
type checkRun struct {
	main, collateral suite.CheckResult
}

func runCheck(t *testing.T, c suite.CustomCheck, p *sim.Phone) checkRun {
	t.Helper()
	var r checkRun
	r.main = suite.Evaluate(context.Background(), suite.Check{Custom: c}, suite.Probe{Phone: p})
	r.collateral.Pass = true
	if h, ok := c.(collateralHolder); ok {
		if cc := h.collateral(); cc != nil {
			r.collateral = suite.Evaluate(context.Background(), suite.Check{Custom: cc}, suite.Probe{Phone: p})
			if !r.collateral.Collateral {
				t.Errorf("%s: its collateral check is not marked collateral", c.Describe())
			}
		}
	}
	return r
}

type benchCase struct {
	name  string
	rows  []sim.Record
	pass  bool
	saw   string // in the evidence of the check (pass) or of the collateral check
	extra string // in the collateral check's evidence: a collateral change
}

func (tc benchCase) verify(t *testing.T, c suite.CustomCheck, coll string) {
	t.Helper()
	r := runCheck(t, c, phoneWith(t, coll, tc.rows))
	if r.main.Pass != tc.pass || !strings.Contains(r.main.Evidence, tc.saw) {
		t.Errorf("%s: pass=%t (%s); want %t with %q", tc.name, r.main.Pass, r.main.Evidence, tc.pass, tc.saw)
	}
	if tc.extra == "" && !r.collateral.Pass {
		t.Errorf("%s: a collateral change reported: %s", tc.name, r.collateral.Evidence)
	}
	if tc.extra != "" && (r.collateral.Pass || !strings.Contains(r.collateral.Evidence, tc.extra)) {
		t.Errorf("%s: collateral pass=%t (%s); want the change %q", tc.name, r.collateral.Pass, r.collateral.Evidence, tc.extra)
	}
}

// TestMarkorNoteByExactName: Markor's CreateFile finds the file by its exact name and
// fuzzy-matches its stripped content: a near name (other case, a trailing space) fails;
// a trailing newline in the content passes; a noise note deleted or a second note added
// besides is a collateral change, not a failure.
func TestMarkorNoteByExactName(t *testing.T) {
	const coll = notesPkg + ":notes"
	noise := []sim.Record{{"id": "n1", "title": "todo.md", "body": "milk"}}
	check := &rowsCheck{Collection: coll, Before: noise, Added: []map[string]string{{"title": "note_ab3Kx.md", "body": "Call Bob at noon."}}}
	note := func(title, body string) sim.Record { return sim.Record{"id": "new", "title": title, "body": body} }
	for _, tc := range []benchCase{
		{"created", []sim.Record{noise[0], note("note_ab3Kx.md", "Call Bob at noon.")}, true, "", ""},
		{"a trailing newline in the file", []sim.Record{noise[0], note("note_ab3Kx.md", "Call Bob at noon.\n")}, true, "", ""},
		{"another case", []sim.Record{noise[0], note("Note_ab3Kx.md", "Call Bob at noon.")}, false, "no row like", ""},
		{"a trailing space in the name", []sim.Record{noise[0], note("note_ab3Kx.md ", "Call Bob at noon.")}, false, "no row like", ""},
		{"the noise note deleted", []sim.Record{note("note_ab3Kx.md", "Call Bob at noon.")}, true, "", `row n1 (body="milk" title="todo.md") was removed`},
		{"a second note", []sim.Record{noise[0], note("note_ab3Kx.md", "Call Bob at noon."), {"id": "x", "title": "b.md", "body": ""}}, true, "", "2 rows added, want 1"},
	} {
		tc.verify(t, check, coll)
	}
}

// TestMarkorDeleteByName: DeleteFile wants no file of that name: the target deleted with
// another note is a pass with a collateral change, as is the target renamed; a look-alike
// name deleted instead fails. Deleting all wants the folder empty.
func TestMarkorDeleteByName(t *testing.T) {
	const coll = notesPkg + ":notes"
	rows := []sim.Record{{"id": "target", "title": "plan.md", "body": "x"}, {"id": "n1", "title": "plan_2.md", "body": "y"}, {"id": "n2", "title": "todo.md", "body": "z"}}
	check := &rowsCheck{Collection: coll, Before: rows, Removed: []string{"target"}}
	for _, tc := range []benchCase{
		{"deleted", rows[1:], true, "", ""},
		{"deleted with another", rows[2:], true, "", "row n1"},
		{"renamed, not deleted", []sim.Record{{"id": "target", "title": "old_plan.md", "body": "x"}, rows[1], rows[2]}, true, "", "row target was kept as"},
		{"the look-alike deleted", []sim.Record{rows[0], rows[2]}, false, `title "plan.md" is still there`, "row n1"},
	} {
		tc.verify(t, check, coll)
	}
	all := &rowsCheck{Collection: coll, Before: rows, Removed: []string{"target", "n1", "n2"}}
	for _, tc := range []benchCase{
		{"all deleted", nil, true, "", ""},
		{"a new note left", []sim.Record{{"id": "x", "title": "new.md", "body": ""}}, false, "1 rows left, want none", "1 rows added, want 0"},
	} {
		tc.verify(t, all, coll)
	}
}

// TestExpenseFieldsAsBenchmark: the expense's category is an id compared exactly (a
// category in another case fails), the amount to the cent, name and note fuzzy; two
// wanted rows matched by one added row pass as the benchmark's any() passes them, the
// row missing its own match a collateral change.
func TestExpenseFieldsAsBenchmark(t *testing.T) {
	const coll = expensesPkg + ":expenses"
	before := []sim.Record{{"id": "n1", "name": "Gas", "amount": "40.00", "category": "Transportation", "note": "ok"}}
	want := map[string]string{"name": "Dentist", "amount": "$120.5", "category": "Health Care", "note": "Checkup"}
	row := func(id, name, category string) sim.Record {
		return sim.Record{"id": id, "name": name, "amount": "120.50", "category": category, "note": "Checkup"}
	}
	one := &rowsCheck{Collection: coll, Before: before, Added: []map[string]string{want}}
	for _, tc := range []benchCase{
		{"added", []sim.Record{before[0], row("x", "Dentist", "Health Care")}, true, "", ""},
		{"a name typo", []sim.Record{before[0], row("x", "Dentst", "Health Care")}, true, "", ""},
		{"the category in another case", []sim.Record{before[0], row("x", "Dentist", "Health care")}, false, "no row like", ""},
		{"another category", []sim.Record{before[0], row("x", "Dentist", "Healthcare")}, false, "no row like", ""},
		{"a noise row deleted (the benchmark scores it)", []sim.Record{row("x", "Dentist", "Health Care")}, false, "was removed", ""},
	} {
		tc.verify(t, one, coll)
	}
	two := &rowsCheck{Collection: coll, Before: before, Added: []map[string]string{want, want}}
	benchCase{"one row for two wanted", []sim.Record{before[0], row("x", "Dentist", "Health Care"), row("y", "Rent", "Housing")}, true, "",
		"no added row of its own like"}.verify(t, two, coll)
}

// TestContactAsBenchmark: the contact's display name is compared exactly (another case
// fails) and its number by digits only; another contact added besides is a collateral
// change.
func TestContactAsBenchmark(t *testing.T) {
	const coll = contactsPkg + ":contacts"
	check := &rowsCheck{Collection: coll, Added: []map[string]string{{"name": "Ana Silva", "phone": "+15551234567"}}}
	c := func(id, name, phone string) sim.Record {
		return sim.Record{"id": id, "name": name, "phone": phone, "email": ""}
	}
	for _, tc := range []benchCase{
		{"added", []sim.Record{c("x", "Ana Silva", "+1 (555) 123-4567")}, true, "", ""},
		{"the name in another case", []sim.Record{c("x", "ana silva", "+15551234567")}, false, "no row like", ""},
		{"a near name", []sim.Record{c("x", "Ana Silvа", "+15551234567")}, false, "no row like", ""}, // a Cyrillic а
		{"another contact too", []sim.Record{c("x", "Ana Silva", "+15551234567"), c("y", "Bo Li", "+15550000000")}, true, "", "2 rows added, want 1"},
	} {
		tc.verify(t, check, coll)
	}
}

// TestResendAsBenchmark: sms_are_equal takes only "-" and " " out of a number: a number
// in another format fails; one more sent message is scored, an incoming text deleted is
// a collateral change.
func TestResendAsBenchmark(t *testing.T) {
	const coll = messagesPkg + ":messages"
	before := []sim.Record{message("m1", 1, "Ana", "+15551234567", "See you at 5.", "out", "15:20"), message("m2", 2, "Ana", "+15551234567", "What did you say?", "in", "15:23")}
	check := &rowsCheck{Collection: coll, Before: before, Added: []map[string]string{{"phone": "+15551234567", "text": "See you at 5.", "dir": "out"}}}
	sent := func(id, phone string) sim.Record {
		return message(id, 3, "Ana", phone, "See you at 5.", "out", "15:30")
	}
	for _, tc := range []benchCase{
		{"resent", append(before[:2:2], sent("m3", "+1 555-123-4567")), true, "", ""},
		{"the number in another format", append(before[:2:2], sent("m3", "+1 (555) 123-4567")), false, "no row like", ""},
		{"sent twice", append(before[:2:2], sent("m3", "+15551234567"), sent("m4", "+15551234567")), false, "2 rows added, want 1", ""},
		{"the incoming text deleted", []sim.Record{before[0], sent("m3", "+15551234567")}, true, "", "row m2"},
	} {
		tc.verify(t, check, coll)
	}
}

// TestMarkorCreateNoteAndSmsCredit: the composite scores (note + text) / 2, and its text
// half is SimpleSMSSendSms's, which wants Simple SMS Messenger in front: the note and
// the text there with the launcher in front is half a credit, with Messages in front a
// pass.
func TestMarkorCreateNoteAndSmsCredit(t *testing.T) {
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	in, err := notesAndSMS(&gen{r: instanceRand(3, "MarkorCreateNoteAndSms", 0), d: d})
	if err != nil {
		t.Fatal(err)
	}
	name, text, number := in.params["file_name"], in.params["text"], in.params["number"]
	p := phoneWith(t, notesPkg+":notes", []sim.Record{{"id": "x", "title": name, "body": text}})
	run(t, p, mustSeed(t, messagesPkg+":messages", []sim.Record{message("m1", 1, number, number, text, "out", "15:40")}))
	credit := func() (bool, float64, string) {
		r := suite.Evaluate(context.Background(), suite.Check{Custom: in.checks[0]}, suite.Probe{Phone: p})
		if r.Credit == nil {
			t.Fatalf("no credit: %+v", r)
		}
		return r.Pass, *r.Credit, r.Evidence
	}
	if ok, c, ev := credit(); ok || c != 0.5 || !strings.Contains(ev, "is in front, not "+messagesPkg) {
		t.Errorf("the launcher in front: pass=%t credit %.2f (%s), want half a credit", ok, c, ev)
	}
	run(t, p, "monkey -p "+messagesPkg+" -c android.intent.category.LAUNCHER 1")
	if ok, c, ev := credit(); !ok || c != 1 {
		t.Errorf("Messages in front: pass=%t credit %.2f (%s), want a pass", ok, c, ev)
	}
}

// TestBudgetInActions: every task's budget is the benchmark's (10 × complexity) in
// actions, with the same step limit; the families read by name have their collateral
// check beside the scoring one.
func TestBudgetInActions(t *testing.T) {
	for _, task := range load(t, 1, 1, "*").Tasks {
		budget := TagValue(task.Tags, TagBudget)
		if l := task.Limits; budget == "" || l.Actions == 0 || l.Steps != l.Actions || budget != strconv.Itoa(l.Actions) {
			t.Errorf("%s: limits %+v, budget %q", task.ID, l, budget)
		}
		var collateral int
		for _, c := range task.Checks {
			if cc, ok := c.Custom.(suite.CollateralCheck); ok && cc.Collateral() {
				collateral++
			}
		}
		if strings.HasPrefix(task.ID, "Markor") || strings.HasPrefix(task.ID, "ContactsAdd") {
			if collateral != 1 {
				t.Errorf("%s: %d collateral checks, want 1", task.ID, collateral)
			}
		}
	}
}

// TestOsmAndAsBenchmark: a marker is the place of that name (the benchmark compares its
// coordinates: another place whose name is near, in another case, is elsewhere); a
// favourite's name contains the location; another point saved besides is a collateral
// change.
func TestOsmAndAsBenchmark(t *testing.T) {
	const markers, favorites = mapsPkg + ":markers", mapsPkg + ":favorites"
	point := func(id, name string) sim.Record { return sim.Record{"id": id, "name": name, "place": "p" + id} }
	marker := &rowsCheck{Collection: markers, Added: []map[string]string{{"name": "Vaduz Castle"}}}
	for _, tc := range []benchCase{
		{"marked", []sim.Record{point("1", "Vaduz Castle")}, true, "", ""},
		{"another place", []sim.Record{point("1", "vaduz castle")}, false, "no row like", ""},
		{"two marked", []sim.Record{point("1", "Vaduz Castle"), point("2", "Red House")}, true, "", "2 rows added, want 1"},
	} {
		tc.verify(t, marker, markers)
	}
	fav := &rowsCheck{Collection: favorites, Added: []map[string]string{{"name": "Vaduz Castle"}}}
	benchCase{"a favourite named with more", []sim.Record{point("1", "Vaduz Castle, Vaduz")}, true, "", ""}.verify(t, fav, favorites)
}
