package androidworld

import (
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// randomString is user_data_generation.generate_random_string: letters and digits.
func (g *gen) randomString(n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	for range n {
		b.WriteByte(chars[g.r.IntN(len(chars))])
	}
	return b.String()
}

// noteToEdit seeds a note (id "target") among 2–6 noise notes.
func noteToEdit(g *gen, name, body string) ([]sim.Record, string, error) {
	rows := append(noiseNotes(g, between(g.r, 2, 6), name), sim.Record{"id": "target", "title": name, "body": body})
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	setup, err := seed(notesPkg+":notes", rows)
	return slices.Clip(rows), setup, err
}

// The notes' text field is one line: the walk writes a header or a footer on the same
// line as the text, a space between; the benchmark's fuzzy match (0.9) takes it for its
// newline.

// editSteps open the note named title and its editor; then write are the editor's
// actions (reading the note's text off the screen as ${orig}).
func editSteps(title, when string, write []string, saved string) []walkthrough.Step {
	return []walkthrough.Step{
		{Screen: `id=notes_recycler`, Without: `item "` + q(title) + `"`, Subgoal: "Scroll to the note", Loop: true, Do: []string{`Swipe "notes_recycler" up`}},
		{Screen: `item "` + q(title) + `" id=note_row`, Subgoal: "Open the note", Do: []string{`Tap ` + label(title)}},
		{Screen: `"Edit note" id=edit_note`, Subgoal: "Edit the note", Do: []string{`Tap "Edit note"`}},
		{Screen: `input "(?P<orig>[^"]*)" id=edit_body`, Without: saved, When: when, Subgoal: "Change the note", Do: write},
		{Screen: saved, Subgoal: "Save the note", Do: []string{`Tap "Save"`}},
	}
}

// notesEdit is MarkorEditNote: add a line at the top or the bottom, or replace the text.
func notesEdit(g *gen) (*instance, error) {
	name := "note_" + g.randomString(5) + pick(g.r, g.list("markor.extensions"))
	orig := g.sentence()
	rows, setup, err := noteToEdit(g, name, orig)
	if err != nil {
		return nil, err
	}
	var instr, want, when, text string
	footer := false
	switch pick(g.r, []string{"header", "footer", "replace"}) {
	case "header":
		text = g.sentence()
		instr, want = "Edit "+name+" in Notes. Add to the top of the note "+text, text+"\n"+orig
		when, text = `Add to the top of the note (?P<text>[^\n]+)`, "${text} ${orig}"
	case "footer":
		text = g.sentence()
		footer = true
		instr, want = "Edit "+name+" in Notes. Add to the bottom of the note "+text, orig+"\n"+text
		when, text = `Add to the bottom of the note (?P<text>[^\n]+)`, "${orig} ${text}"
	default:
		lines := []string{g.sentence(), g.sentence(), g.sentence()}
		text = strings.Join(lines, " ")
		instr, want = "Edit "+name+" in Notes. Replace the text with "+text, text
		when, text = `Replace the text with (?P<text>[^\n]+)`, "${text}"
	}
	// What the note shows once changed: its new start, or (a footer) its text and more.
	changed := q(lead(want))
	if footer {
		changed = q(orig) + ` [^"]+"`
	}
	return &instance{
		instruction: instr,
		setup:       []string{setup},
		checks:      []eval.CustomCheck{&rowsCheck{Collection: notesPkg + ":notes", Before: rows, Updated: map[string]map[string]string{"target": {"body": want}}}},
		walk: []walkthrough.Task{walk(notesPkg, `item "`+q(name)+`" id=note_row\n *- "`+changed,
			editSteps(name, when, []string{`Clear "edit_body"`, `Input "edit_body" "` + text + `"`}, `input "`+changed)...)},
	}, nil
}

// lead is the start of a text as the screen's text form shows it: white space runs as
// one space, and short of the form's cut (perception.DefaultMaxText runes).
func lead(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	return string(r[:min(len(r), 40)])
}

// notesChangeAndRename is MarkorChangeNoteContent and (header) MarkorAddNoteHeader as the
// benchmark's classes word them: change the text and rename the note.
func notesChangeAndRename(header bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		orig, renamed := g.fileName(), g.fileName()
		for renamed == orig {
			renamed = g.fileName()
		}
		var instr, content, want, when, text string
		if header {
			content = g.sentence()
			h := g.sentence()
			instr = `Update the Notes note ` + orig + ` by adding the following text, along with a new blank line before the existing content: "` + h + `", and rename it to ` + renamed + `.`
			want = h + "\n\n" + content
			when, text = `the existing content: "(?P<text>[^"\n]+)", and rename it to (?P<name>\S+)\.`, "${text} ${orig}"
		} else {
			content = g.randomString(20)
			updated := g.randomString(20)
			instr = `Update the content of ` + orig + ` to "` + updated + `" in Notes and change its name to ` + renamed + `.`
			want = updated
			when, text = `to "(?P<text>[^"\n]+)" in Notes and change its name to (?P<name>\S+)\.`, "${text}"
		}
		rows, setup, err := noteToEdit(g, orig, content)
		if err != nil {
			return nil, err
		}
		return &instance{
			instruction: instr,
			setup:       []string{setup},
			checks: []eval.CustomCheck{&rowsCheck{Collection: notesPkg + ":notes", Before: rows,
				Updated: map[string]map[string]string{"target": {"title": renamed, "body": want}}}},
			walk: []walkthrough.Task{walk(notesPkg, `item "`+q(renamed)+`" id=note_row`,
				editSteps(orig, when, []string{`Clear "edit_title"`, `Input "edit_title" "${name}"`, `Clear "edit_body"`, `Input "edit_body" "` + text + `"`},
					`"`+q(renamed)+`" id=edit_title`)...)},
		}, nil
	}
}

// notesAndSMS is MarkorCreateNoteAndSms: a note created, then its text sent to a number;
// partial credit for each half.
func notesAndSMS(g *gen) (*instance, error) {
	name, number := g.fileName(), g.number()
	text := strings.TrimSuffix(g.sentence(), ".") // the template adds the full stop
	clear, err := seed(notesPkg+":notes", nil)
	if err != nil {
		return nil, err
	}
	clearSMS, err := seed(messagesPkg+":messages", nil)
	if err != nil {
		return nil, err
	}
	sms := []walkthrough.Step{
		{Screen: `Start chat`, Subgoal: "Start a new conversation", Do: []string{`Tap "Start chat"`}},
		{Screen: `id=recipient_text_view`, Without: `id=send_to_number`, When: `phone number (?P<number>\+\d+) via SMS`, Subgoal: "Type the number", Do: []string{`Input "recipient_text_view" "${number}"`}},
		{Screen: `id=send_to_number`, Subgoal: "Text the number", Do: []string{`Tap "send_to_number"`}},
	}
	sms = append(sms, composeAndSend(`with the following text: (?P<text>[^\n]+?)\. Share the entire content`, "${text}", text)...)
	return &instance{
		params: map[string]string{"file_name": name, "text": text, "number": number},
		setup:  []string{clear, clearSMS},
		checks: []eval.CustomCheck{&allCheck{Parts: []eval.CustomCheck{
			&rowsCheck{Collection: notesPkg + ":notes", Added: []map[string]string{{"title": name, "body": text}}},
			&smsCheck{Number: number, Text: text, App: messagesPkg}, // SimpleSMSSendSms wants its app in front
		}}},
		walk: []walkthrough.Task{
			{App: notesPkg, Task: "Create the note " + name, Done: `item "` + q(name) + `"`, Steps: []walkthrough.Step{
				{Screen: `"New note" id=add_note`, Subgoal: "Start a new note", Do: []string{`Tap "New note"`}},
				{Screen: `id=note_title`, When: `named (?P<title>\S+) with the following text: (?P<body>[^\n]+?)\. Share the entire content`, Subgoal: "Write the note",
					Do: []string{`Input "note_title" "${title}"`, `Input "note_body" "${body}"`}},
				{Screen: `"` + q(name) + `" id=note_title`, Subgoal: "Save the note", Do: []string{`Tap "Save"`}},
			}},
			{App: messagesPkg, Task: "Text the note to " + number, Done: sentDone(text), Steps: sms},
		},
	}, nil
}
