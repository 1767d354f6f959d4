package androidworld

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// drawn is instance 0 of family for seed, with the phone its setup leaves.
func drawn(t *testing.T, family string, seed int64) (*instance, *sim.Phone) {
	t.Helper()
	p := phoneWith(t, "", nil)
	return drawOn(t, p, family, seed), p
}

// drawOn is instance 0 of family for seed, its setup run on p.
func drawOn(t *testing.T, p *sim.Phone, family string, seed int64) *instance {
	t.Helper()
	d, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range builders {
		if f.name != family {
			continue
		}
		in, err := f.draw(&gen{r: instanceRand(seed, family, 0), d: d})
		if err != nil {
			t.Fatalf("%s seed %d: %v", family, seed, err)
		}
		for _, line := range in.setup {
			run(t, p, line)
		}
		return in
	}
	t.Fatalf("no family %s", family)
	return nil
}

func param(t *testing.T, in *instance, name string) string {
	t.Helper()
	v, ok := in.params[name]
	if !ok || v == "" {
		t.Fatalf("the instance has no parameter %s (params %v)", name, in.params)
	}
	return v
}

func records(t *testing.T, p *sim.Phone, collection string) []sim.Record {
	t.Helper()
	rows, err := p.Records(collection)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// passes evaluates every check of in the way a task's checks are all needed.
func passes(t *testing.T, in *instance, p *sim.Phone) (bool, string) {
	t.Helper()
	var ev []string
	for _, c := range in.checks {
		ok, e, err := c.Evaluate(context.Background(), suite.Probe{Phone: p})
		if err != nil {
			t.Fatalf("%s: %v", c.Describe(), err)
		}
		if !ok {
			return false, e
		}
		ev = append(ev, e)
	}
	return true, strings.Join(ev, " | ")
}

// withTarget reseeds collection with the task's target row changed by f (nil: removed).
func withTarget(t *testing.T, p *sim.Phone, collection string, f func(r sim.Record) sim.Record, extra ...sim.Record) *sim.Phone {
	t.Helper()
	var rows []sim.Record
	for _, r := range records(t, p, collection) {
		if r["id"] == "target" {
			if f == nil {
				continue
			}
			r = f(maps.Clone(r))
		}
		rows = append(rows, r)
	}
	return phoneWith(t, collection, append(rows, extra...))
}

const notesColl = notesPkg + ":notes"

// nearName is a name a fuzzy match takes for name: its first letter's case changed.
func nearName(name string) string {
	first := name[:1]
	if up := strings.ToUpper(first); up != first {
		return up + name[1:]
	}
	return strings.ToLower(first) + name[1:]
}

// TestMarkorNamesExact: the benchmark finds a note's file by its exact name, so a note
// created or renamed under a near name (a letter's case) fails, and the exact name
// passes.
func TestMarkorNamesExact(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		in, p := drawn(t, "MarkorCreateNote", seed)
		name, text := param(t, in, "file_name"), param(t, in, "text")
		if ok, ev := passes(t, in, phoneWith(t, notesColl, []sim.Record{{"id": "x", "title": name, "body": text + "\n"}})); !ok {
			t.Errorf("MarkorCreateNote seed %d: the exact name fails: %s", seed, ev)
		}
		if ok, ev := passes(t, in, phoneWith(t, notesColl, []sim.Record{{"id": "x", "title": nearName(name), "body": text + "\n"}})); ok {
			t.Errorf("MarkorCreateNote seed %d: %q passes for %q: %s", seed, nearName(name), name, ev)
		}
		_ = p

		in, p = drawn(t, "MarkorChangeNoteContent", seed)
		renamed, content := param(t, in, "new_name"), param(t, in, "updated_content")
		set := func(title string) func(r sim.Record) sim.Record {
			return func(r sim.Record) sim.Record { r["title"], r["body"] = title, content+"\n"; return r }
		}
		if ok, ev := passes(t, in, withTarget(t, p, notesColl, set(renamed))); !ok {
			t.Errorf("MarkorChangeNoteContent seed %d: the exact new name fails: %s", seed, ev)
		}
		if ok, ev := passes(t, in, withTarget(t, p, notesColl, set(nearName(renamed)))); ok {
			t.Errorf("MarkorChangeNoteContent seed %d: renamed %q passes for %q: %s", seed, nearName(renamed), renamed, ev)
		}
	}
}

// TestMarkorHeaderBody: MarkorAddNoteHeader's text must be exactly the header, a blank
// line, the note's text and its line break; without the blank line, or with the line
// break lost, it fails, though a fuzzy match would take either.
func TestMarkorHeaderBody(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		in, p := drawn(t, "MarkorAddNoteHeader", seed)
		renamed, header, content := param(t, in, "new_name"), param(t, in, "header"), param(t, in, "original_content")
		var target sim.Record
		for _, r := range records(t, p, notesColl) {
			if r["id"] == "target" {
				target = r
			}
		}
		if target["body"] != content+"\n" || target["title"] != param(t, in, "original_name") {
			t.Fatalf("seed %d: the note is %v, want %q as create_file writes it", seed, target, content+"\n")
		}
		for _, tc := range []struct {
			body string
			pass bool
		}{
			{header + "\n\n" + content + "\n", true},
			{header + "\n" + content + "\n", false},    // no blank line
			{header + "\n\n" + content, false},         // the last line break lost
			{header + " \n\n" + content + "\n", false}, // a space typed
			{header + "\n\n\n" + content + "\n", false},
		} {
			after := withTarget(t, p, notesColl, func(r sim.Record) sim.Record { r["title"], r["body"] = renamed, tc.body; return r })
			if ok, ev := passes(t, in, after); ok != tc.pass {
				t.Errorf("seed %d: body %q: pass=%t (%s), want %t", seed, tc.body, ok, ev, tc.pass)
			}
		}
	}
}

// TestMarkorNoise: the noise notes are generate_noise_files': 1–20 of them (1 to 2–6 for
// MarkorDeleteAllNotes), all named differently, some look-alikes of the task's note
// (its name with a date, four characters or backup/copy/final/edited added) across seeds;
// the same seed draws the same notes.
func TestMarkorNoise(t *testing.T) {
	p, q := phoneWith(t, "", nil), phoneWith(t, "", nil)
	for _, fam := range []struct{ name, base string }{
		{"MarkorEditNote", "file_name"}, {"MarkorDeleteNote", "file_name"},
		{"MarkorChangeNoteContent", "original_name"}, {"MarkorAddNoteHeader", "original_name"},
		{"MarkorDeleteAllNotes", ""},
	} {
		most, lookAlikes := 0, 0
		counts := map[int]bool{}
		for seed := int64(1); seed <= 60; seed++ {
			in := drawOn(t, p, fam.name, seed)
			again := drawOn(t, q, fam.name, seed)
			if strings.Join(in.setup, "\n") != strings.Join(again.setup, "\n") {
				t.Fatalf("%s seed %d: two draws differ", fam.name, seed)
			}
			seen := map[string]bool{}
			noise := 0
			var base string
			if fam.base != "" {
				base = param(t, in, fam.base)
				if i := strings.LastIndexByte(base, '.'); i > 0 {
					base = base[:i]
				}
			}
			for _, r := range records(t, p, notesColl) {
				if seen[r["title"]] {
					t.Errorf("%s seed %d: two notes named %q", fam.name, seed, r["title"])
				}
				seen[r["title"]] = true
				if !strings.HasPrefix(r["id"], "noise") {
					continue
				}
				noise++
				if base != "" && strings.Contains(r["title"], base) {
					lookAlikes++
				}
				if len(r["body"]) != 21 || !strings.HasSuffix(r["body"], "\n") {
					t.Errorf("%s seed %d: noise note %q holds %q, want 20 characters and a line break", fam.name, seed, r["title"], r["body"])
				}
			}
			hi := 20
			if fam.base == "" {
				hi = 6
			}
			if noise < 1 || noise > hi {
				t.Errorf("%s seed %d: %d noise notes, want 1–%d", fam.name, seed, noise, hi)
			}
			counts[noise] = true
			most = max(most, noise)
		}
		if fam.base == "" {
			if !counts[1] {
				t.Errorf("%s: never a single note in 60 seeds (counts %v)", fam.name, counts)
			}
			continue
		}
		if most < 15 || !counts[1] && !counts[2] {
			t.Errorf("%s: noise counts %v over 60 seeds, want the spread of 1–20", fam.name, counts)
		}
		if lookAlikes == 0 {
			t.Errorf("%s: no look-alike of the note's name in 60 seeds", fam.name)
		}
	}
}

// TestContactDisplayNameExact: ContactsAddContact finds the contact by its display name
// exactly and its number by digits alone (both sides), as contacts_utils lists them.
func TestContactDisplayNameExact(t *testing.T) {
	in, _ := drawn(t, "ContactsAddContact", 1)
	name, number := param(t, in, "name"), param(t, in, "number")
	const coll = contactsPkg + ":contacts"
	spaced := number[:2] + " (" + number[2:5] + ") " + number[5:8] + "-" + number[8:]
	for _, tc := range []struct {
		name, phone string
		pass        bool
	}{
		{name, number, true},
		{name, spaced, true},
		{name, strings.TrimPrefix(number, "+"), true}, // clean_phone_number drops the + too
		{strings.ToLower(name), number, false},
		{name + ".", number, false},
		{strings.Replace(name, " ", "  ", 1), number, false},
		{name, number[:len(number)-1] + fmt.Sprint((int(number[len(number)-1]-'0')+1)%10), false},
	} {
		p := phoneWith(t, coll, []sim.Record{{"id": "new1", "name": tc.name, "phone": tc.phone, "email": ""}})
		if ok, ev := passes(t, in, p); ok != tc.pass {
			t.Errorf("contact %q %s: pass=%t (%s), want %t", tc.name, tc.phone, ok, ev, tc.pass)
		}
	}
}

// TestSmsReplyMostRecentNoise: SimpleSmsReplyMostRecent has 0–5 texts before the most
// recent one, which comes from the task's number; none says the reply's message.
func TestSmsReplyMostRecentNoise(t *testing.T) {
	counts := map[int]bool{}
	p := phoneWith(t, "", nil)
	for seed := int64(1); seed <= 60; seed++ {
		in := drawOn(t, p, "SimpleSmsReplyMostRecent", seed)
		rows := records(t, p, messagesPkg+":messages")
		counts[len(rows)] = true
		if len(rows) < 1 || len(rows) > 6 {
			t.Errorf("seed %d: %d texts, want 1–6", seed, len(rows))
			continue
		}
		last := rows[0]
		for _, r := range rows {
			if r["text"] == param(t, in, "message") {
				t.Errorf("seed %d: a text already says the reply %q", seed, r["text"])
			}
			if r["seq"] > last["seq"] || len(r["seq"]) > len(last["seq"]) {
				last = r
			}
		}
		if last["phone"] != param(t, in, "number") {
			t.Errorf("seed %d: the most recent text is from %s, not the task's number %s", seed, last["phone"], param(t, in, "number"))
		}
	}
	if !counts[1] || !counts[6] {
		t.Errorf("text counts over 60 seeds: %v, want 1 to 6", counts)
	}
}
