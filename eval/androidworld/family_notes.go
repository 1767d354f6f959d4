package androidworld

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// The task families of Notes (Markor).

// modifiedName is user_data_generation.generate_modified_file_name: a date (2023_01_01 …
// 2023_10_14), four random letters or digits, or one of backup, copy, final, edited, put
// before or after the name, ahead of its extension ("2023_05_17_happy_cat.md",
// "happy_cat_backup.md").
func (g *gen) modifiedName(base string) string {
	var mod string
	switch pick(g.r, []string{"date_prefix", "random_suffix", "fixed_suffix"}) {
	case "date_prefix":
		start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
		mod = start.AddDate(0, 0, between(g.r, 0, 286)).Format("2006_01_02") // to 2023-10-14
	case "random_suffix":
		mod = g.randomString(4)
	default:
		mod = pick(g.r, g.list("user_data_generation.meaningful_modifications"))
	}
	ext := splitExt(base)
	name := strings.TrimSuffix(base, ext)
	if g.r.IntN(2) == 0 {
		return mod + "_" + name + ext
	}
	return name + "_" + mod + ext
}

// splitExt is os.path.splitext's extension: from the last dot, unless the dot starts the
// name.
func splitExt(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || strings.Trim(name[:i], ".") == "" {
		return ""
	}
	return name[i:]
}

// randomFileName is user_data_generation.generate_random_file_name: an adjective and a
// noun, modified (modifiedName), with no extension.
func (g *gen) randomFileName() string {
	return g.modifiedName(pick(g.r, g.list("user_data_generation._ADJECTIVES")) + "_" + pick(g.r, g.list("user_data_generation._NOUNS")))
}

// fileName is a note's name as markor._generate_random_note draws it: randomFileName,
// then .md or .txt.
func (g *gen) fileName() string {
	return g.randomFileName() + pick(g.r, g.list("markor.extensions"))
}

// noteFile is a note as file_utils.create_file writes the file: echo adds a line break
// to its content.
func noteFile(id, name, content string) sim.Record {
	return sim.Record{"id": id, "title": name, "body": content + "\n"}
}

// noiseNotes is user_data_generation.generate_noise_files: 1–n distinct notes, each named
// (85%) as a modified markor._NOTE_TITLES title or (15%) as a modified base, a look-alike
// of the task's note ("happy_cat_copy.md" beside "happy_cat.md"); a name left without an
// extension takes a title's. Each holds 20 random letters and digits (create_file's text
// when given none). A name equal to one in exclude (the task's own notes) is drawn again.
func noiseNotes(g *gen, base string, n int, exclude ...string) []sim.Record {
	titles := g.list("markor._NOTE_TITLES")
	count := between(g.r, 1, n)
	var names []string
	for len(names) < count {
		var name string
		if g.r.Float64() <= 0.85 {
			name = g.modifiedName(pick(g.r, titles))
		} else {
			name = g.modifiedName(base)
		}
		if !strings.Contains(name, ".") {
			name += splitExt(pick(g.r, titles))
		}
		if !slices.Contains(names, name) && !slices.Contains(exclude, name) {
			names = append(names, name)
		}
	}
	var rows []sim.Record
	for i, name := range names {
		rows = append(rows, noteFile(fmt.Sprintf("noise%d", i+1), name, g.randomString(20)))
	}
	return rows
}

func notesCreate(g *gen) (*instance, error) {
	name, text := g.fileName(), g.sentence()
	setup, err := seed(notesPkg+":notes", nil)
	if err != nil {
		return nil, err
	}
	return &instance{
		params: map[string]string{"file_name": name, "text": text},
		setup:  []string{setup},
		checks: []suite.CustomCheck{&noteCheck{Name: name, Text: text}, &rowsCheck{Collection: notesPkg + ":notes", Added: []map[string]string{{"title": name, "body": text}}}},
		walk: []walkthrough.Task{walk(notesPkg, `item "`+q(name)+`"`,
			walkthrough.Step{Screen: `"New note" id=add_note`, Subgoal: "Start a new note", Do: []string{`Tap "New note"`}},
			walkthrough.Step{Screen: `id=note_title`, When: `note in Notes named (?P<title>\S+) with the following text: (?P<body>[^\n]+)`, Subgoal: "Write the note",
				Do: []string{`Input "note_title" "${title}"`, `Input "note_body" "${body}"`}},
			walkthrough.Step{Screen: `"` + q(name) + `" id=note_title`, Subgoal: "Save the note", Do: []string{`Tap "Save"`}},
		)},
	}, nil
}

// deleteNoteSteps open a note by its title, scrolling the list to it, and delete it.
func deleteNoteSteps(title, when string) []walkthrough.Step {
	tap := `Tap ` + label(title)
	if when != "" {
		tap = `Tap "${note}"`
	}
	return []walkthrough.Step{
		{Screen: `id=notes_recycler`, Without: `item "` + q(title) + `"`, Subgoal: "Scroll to the note", Loop: true, Do: []string{`Swipe "notes_recycler" up`}},
		{Screen: `item "` + q(title) + `"`, When: when, Subgoal: "Open the note", Loop: true, Do: []string{tap}},
		{Screen: `"Delete note" id=delete_note`, Subgoal: "Ask to delete the note", Do: []string{`Tap "Delete note"`}},
		{Screen: `Delete this note\?`, Subgoal: "Confirm the deletion", Do: []string{`Tap "Delete"`}},
	}
}

// notesDelete is MarkorDeleteNote: its note is named as generate_random_file_name names
// it, with no extension (file_validators.DeleteFile writes it empty: create_file's 20
// random characters), among up to 20 noise notes, some of them look-alikes.
func notesDelete(g *gen) (*instance, error) {
	name := g.randomFileName()
	target := noteFile("target", name, g.randomString(20))
	rows := append([]sim.Record{target}, noiseNotes(g, name, 20, name)...)
	setup, err := seed(notesPkg+":notes", rows)
	if err != nil {
		return nil, err
	}
	return &instance{
		params: map[string]string{"file_name": name},
		setup:  []string{setup},
		checks: []suite.CustomCheck{&noteCheck{Gone: []string{name}}, &rowsCheck{Collection: notesPkg + ":notes", Before: rows, Removed: []string{"target"}}},
		walk: []walkthrough.Task{{App: notesPkg, Done: `"Notes"`, Unless: `"` + q(name) + `"|Delete this note`,
			Steps: deleteNoteSteps(name, `named (?P<note>\S+?)\.\n`)}},
	}, nil
}

// notesDeleteAll is MarkorDeleteAllNotes: noise notes only, 1 to 2–6 of them, the
// look-alikes of a random five-character name.
func notesDeleteAll(g *gen) (*instance, error) {
	rows := noiseNotes(g, g.randomString(5), between(g.r, 2, 6))
	setup, err := seed(notesPkg+":notes", rows)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r["id"])
	}
	return &instance{
		params: map[string]string{},
		setup:  []string{setup},
		checks: []suite.CustomCheck{&noteCheck{Empty: true}, &rowsCheck{Collection: notesPkg + ":notes", Before: rows, Removed: ids, All: true}},
		walk: []walkthrough.Task{walk(notesPkg, `No notes\. Tap \+ to write one\.`,
			walkthrough.Step{Screen: `id=action_select\n- \[\d+\] item "[^"]+" id=note_row`, Subgoal: "Select the notes", Do: []string{`Tap "Select notes"`}},
			walkthrough.Step{Screen: `button "Select all"`, Without: `Delete selected`, Subgoal: "Select all the notes", Do: []string{`Tap "Select all"`}},
			walkthrough.Step{Screen: `"Delete selected" id=action_delete_selected`, Subgoal: "Delete the selected notes", Do: []string{`Tap "Delete selected"`}},
			walkthrough.Step{Screen: `Delete \d+ notes\?`, Subgoal: "Confirm the deletion", Do: []string{`Tap "Delete"`}},
		)},
	}, nil
}

// brightness is _SystemBrightnessToggle: the brightest (255) or the dimmest (1) level,
// read with `settings get system screen_brightness`; verify starts at it already.
func brightness(want string, verify bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		level := map[string]string{"max": "255", "min": "1"}[want]
		from := map[string]string{"max": "1", "min": "255"}[want] // set_brightness to the other end
		if verify {
			from = level
		}
		dir := map[string]string{"max": "right", "min": "left"}[want]
		return &instance{
			params: map[string]string{"max_or_min": want},
			setup:  []string{"settings put system screen_brightness " + from},
			checks: []suite.CustomCheck{&settingCheck{Namespace: "system", Key: "screen_brightness", Want: []string{level}}},
			walk: []walkthrough.Task{walk(settingsPkg, `"Brightness `+level+` of 255"`,
				walkthrough.Step{Screen: `item "Display"`, Subgoal: "Open Display settings", Do: []string{`Tap "Display"`}},
				walkthrough.Step{Screen: `item "Brightness level"`, Subgoal: "Open the brightness level", Do: []string{`Tap "Brightness level"`}},
				walkthrough.Step{Screen: `id=brightness_slider`, When: `brightness to the (?P<end>max|min) value`, Subgoal: "Slide the brightness to the " + want,
					Do: []string{`Swipe "brightness_slider" ` + dir}},
			)},
		}, nil
	}
}

// smsForwardAddress is SimpleSmsSendReceivedAddress: name2 texted an address; text it to
// name1. The walk reads the address in name2's conversation (key context), goes back and
// writes it to name1.
func smsForwardAddress(g *gen) (*instance, error) {
	name1, number1 := g.name(), g.number()
	name2 := g.name()
	for name2 == name1 {
		name2 = g.name()
	}
	number2, address := g.number(), pick(g.r, g.list("user_data_generation.generate_random_address"))
	contacts, err := seed(contactsPkg+":contacts", []sim.Record{
		{"id": "c1", "name": name1, "phone": number1, "email": ""}, {"id": "c2", "name": name2, "phone": number2, "email": ""}})
	if err != nil {
		return nil, err
	}
	msgs, err := seed(messagesPkg+":messages", []sim.Record{message("m1", 1, name2, number2, address, "in", "15:30")})
	if err != nil {
		return nil, err
	}
	known := `(?m)^- address of the event: ` // the key context read in name2's conversation
	steps := []walkthrough.Step{
		{Screen: `item "` + q(name2) + `" id=swipeableContainer`, Unless: known, When: `that (?P<from>[^\n]+?) just sent me`, Subgoal: "Open " + name2 + "'s message", Do: []string{`Tap "${from}"`}},
		{Screen: `- "(?P<address>[^"\n]+)"\n *- "` + q(name2) + ` · `, Subgoal: "Read the address and go back", Loop: true, Do: []string{`Back`},
			Facts: map[string]string{"address of the event": "${address}"}},
		{Screen: `Start chat`, When: known, Subgoal: "Start a new conversation", Do: []string{`Tap "Start chat"`}},
		{Screen: `id=recipient_text_view`, Without: `id=contact_picker_row`, When: `event to (?P<to>[^\n]+?) that`, Subgoal: "Find " + name1, Do: []string{`Input "recipient_text_view" "${to}"`}},
		{Screen: `item "` + q(name1) + `"[^\n]*id=contact_picker_row`, Subgoal: "Pick " + name1, Do: []string{`Tap ` + label(name1)}},
	}
	// Write and send only outside name2's conversation: the address may be known (key
	// context) while that conversation, with its own text box, is still on the screen.
	write := composeAndSend(`(?m)^- address of the event: (?P<address>[^\n]+)$`, "${address}", address)
	for i := range write {
		write[i].Without = `"` + q(name2) + `"`
	}
	return &instance{
		params: map[string]string{"name1": name1, "name2": name2},
		setup:  []string{contacts, msgs},
		checks: []suite.CustomCheck{&smsCheck{Number: number1, Text: address, App: messagesPkg}},
		walk: []walkthrough.Task{walk(messagesPkg, sentDone(address),
			append(steps, write...)...)},
	}, nil
}
