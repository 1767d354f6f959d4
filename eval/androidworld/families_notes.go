package androidworld

import (
	"fmt"
	"slices"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// The task families of Notes (Markor).

// noiseNotes draws n notes named from markor._NOTE_TITLES (generate_noise_files), none
// named like the targets.
func noiseNotes(g *gen, n int, exclude ...string) []sim.Record {
	var titles []string
	for _, t := range g.list("markor._NOTE_TITLES") {
		if !slices.Contains(exclude, t) {
			titles = append(titles, t)
		}
	}
	var rows []sim.Record
	for i, t := range sample(g.r, titles, min(n, len(titles))) {
		rows = append(rows, sim.Record{"id": fmt.Sprintf("noise%d", i+1), "title": t, "body": g.sentence()})
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
		checks: []eval.CustomCheck{&rowsCheck{Collection: notesPkg + ":notes", Added: []map[string]string{{"title": name, "body": text}}}},
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

func notesDelete(g *gen) (*instance, error) {
	name := g.fileName()
	noise := noiseNotes(g, between(g.r, 2, 6), name)
	rows := append(slices.Clone(noise), sim.Record{"id": "target", "title": name, "body": g.sentence()})
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	setup, err := seed(notesPkg+":notes", rows)
	if err != nil {
		return nil, err
	}
	return &instance{
		params: map[string]string{"file_name": name},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&rowsCheck{Collection: notesPkg + ":notes", Before: rows, Removed: []string{"target"}}},
		walk: []walkthrough.Task{{App: notesPkg, Done: `"Notes"`, Unless: `"` + q(name) + `"|Delete this note`,
			Steps: deleteNoteSteps(name, `named (?P<note>\S+?)\.\n`)}},
	}, nil
}

func notesDeleteAll(g *gen) (*instance, error) {
	rows := noiseNotes(g, between(g.r, 2, 6))
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
		checks: []eval.CustomCheck{&rowsCheck{Collection: notesPkg + ":notes", Before: rows, Removed: ids}},
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
			checks: []eval.CustomCheck{&settingCheck{Namespace: "system", Key: "screen_brightness", Want: []string{level}}},
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
	return &instance{
		params: map[string]string{"name1": name1, "name2": name2},
		setup:  []string{contacts, msgs},
		checks: []eval.CustomCheck{&smsCheck{Number: number1, Text: address, App: messagesPkg}},
		walk: []walkthrough.Task{walk(messagesPkg, sentDone(address),
			append(steps, composeAndSend(`(?m)^- address of the event: (?P<address>[^\n]+)$`, "${address}", address)...)...)},
	}, nil
}
