package androidworld

import (
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
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

// editSteps open the note named title and its editor; then write are the editor's
// actions (reading the note's text off the screen as ${orig}, without its last line
// break, which the text form does not show). A text with line breaks is typed in one
// Input: the guard asks before it (a line break may send), and the batch is cut there, so
// every action before it must leave the step's screen as it was (the title typed again).
func editSteps(title, when string, write []string, saved string) []walkthrough.Step {
	return []walkthrough.Step{
		{Screen: `id=notes_recycler`, Without: `item "` + q(title) + `"`, Subgoal: "Scroll to the note", Loop: true, Do: []string{`Swipe "notes_recycler" up`}},
		{Screen: `item "` + q(title) + `" id=note_row`, Subgoal: "Open the note", Do: []string{`Tap ` + label(title)}},
		{Screen: `"Edit note" id=edit_note`, Subgoal: "Edit the note", Do: []string{`Tap "Edit note"`}},
		{Screen: `input "(?P<orig>[^"]*)" id=edit_body`, Without: saved, When: when, Subgoal: "Change the note", Do: write},
		{Screen: saved, Subgoal: "Save the note", Do: []string{`Tap "Save"`}},
	}
}

// notesEdit is MarkorEditNote: a line added at the top or the bottom of the note, or its
// text replaced by three lines. The note (create_file's text: a sentence and a line
// break) is among up to 20 noise notes, some of them look-alikes of its name.
func notesEdit(g *gen) (*instance, error) {
	name := "note_" + g.randomString(5) + pick(g.r, g.list("markor.extensions"))
	kind := pick(g.r, []string{"header", "footer", "replace"})
	params := map[string]string{"file_name": name, "edit_type": kind}
	var instr, want, when, text string
	switch kind {
	case "header":
		params["header"] = g.sentence()
		instr = "Edit " + name + " in Notes. Add to the top of the note " + params["header"]
		when, text = `Add to the top of the note (?P<text>[^\n]+)`, "${text}\n${orig}"
	case "footer":
		params["footer"] = g.sentence()
		instr = "Edit " + name + " in Notes. Add to the bottom of the note " + params["footer"]
		when, text = `Add to the bottom of the note (?P<text>[^\n]+)`, "${orig}\n${text}"
	default:
		params["replace_text"] = strings.Join([]string{g.sentence(), g.sentence(), g.sentence()}, "\n")
		instr = "Edit " + name + " in Notes. Replace the text with " + params["replace_text"]
		when, text = `Replace the text with (?P<text>[^\n]+\n[^\n]+\n[^\n]+)`, "${text}"
	}
	noise := noiseNotes(g, name, 20, name)
	orig := g.sentence()
	switch kind {
	case "header":
		want = params["header"] + "\n" + orig
	case "footer":
		want = orig + "\n" + params["footer"]
	default:
		want = params["replace_text"]
	}
	rows := append(noise, noteFile("target", name, orig))
	g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	setup, err := seed(notesPkg+":notes", rows)
	if err != nil {
		return nil, err
	}
	// What the note shows once changed: its new start, or (a footer) its text and more —
	// a footer leaves the start as it was.
	changed := q(lead(want))
	if kind == "footer" {
		changed = q(orig) + ` [^"]+"`
	}
	return &instance{
		params:      params,
		instruction: instr,
		setup:       []string{setup},
		checks: []suite.CustomCheck{&noteCheck{Name: name, Text: want},
			&rowsCheck{Collection: notesPkg + ":notes", Before: rows, Updated: map[string]map[string]string{"target": {"body": want}}}},
		walk: []walkthrough.Task{walk(notesPkg, `item "`+q(name)+`" id=note_row\n *- "`+changed,
			editSteps(name, when, []string{`Input "edit_body" ` + label(text)}, `input "`+changed)...)},
	}, nil
}

// lead is the start of a text as the screen's text form shows it: white space runs as
// one space, and short of the form's cut (perception.DefaultMaxText runes).
func lead(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	return string(r[:min(len(r), 40)])
}

// notesChangeAndRename is MarkorChangeNoteContent and (header) MarkorAddNoteHeader as the
// benchmark's classes word them: change the text and rename the note. The note (the
// header family's a sentence, the other's 20 random characters, each with create_file's
// line break) is among up to 20 noise notes, some of them look-alikes of its name. The
// header family's text must then be exactly the header, a blank line, and the note's
// text with its line break.
func notesChangeAndRename(header bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		orig := g.fileName()
		var params map[string]string
		var instr, content, want, when, text string
		var check *noteCheck
		if header {
			content = g.sentence()
			params = map[string]string{"original_name": orig, "original_content": content, "new_name": g.fileName(), "header": g.randomString(20)}
			instr = `Update the Notes note ` + orig + ` by adding the following text, along with a new blank line before the existing content: "` +
				params["header"] + `", and rename it to ` + params["new_name"] + `.`
			want = params["header"] + "\n\n" + content + "\n"
			when, text = `the existing content: "(?P<text>[^"\n]+)", and rename it to (?P<name>\S+)\.`, "${text}\n\n${orig}\n"
			check = &noteCheck{Name: params["new_name"], Gone: []string{orig}, Text: want, Exact: true}
		} else {
			params = map[string]string{"original_name": orig, "new_name": g.fileName(), "updated_content": g.randomString(20)}
			content = g.randomString(20)
			instr = `Update the content of ` + orig + ` to "` + params["updated_content"] + `" in Notes and change its name to ` + params["new_name"] + `.`
			want = params["updated_content"]
			when, text = `to "(?P<text>[^"\n]+)" in Notes and change its name to (?P<name>\S+)\.`, "${text}"
			check = &noteCheck{Name: params["new_name"], Gone: []string{orig}, Text: want}
		}
		renamed := params["new_name"]
		rows := append([]sim.Record{noteFile("target", orig, content)}, noiseNotes(g, orig, 20, orig, renamed)...)
		g.r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		setup, err := seed(notesPkg+":notes", rows)
		if err != nil {
			return nil, err
		}
		saved := `"` + q(renamed) + `" id=edit_title\n(?:.*\n)*?.*input "` + q(lead(want)) + `[^"\n]*" id=edit_body`
		return &instance{
			params:      params,
			instruction: instr,
			setup:       []string{setup},
			checks: []suite.CustomCheck{check, &rowsCheck{Collection: notesPkg + ":notes", Before: rows,
				Updated: map[string]map[string]string{"target": {"title": renamed, "body": want}}}},
			walk: []walkthrough.Task{walk(notesPkg, `item "`+q(renamed)+`" id=note_row`,
				editSteps(orig, when, []string{`Input "edit_title" "${name}"`, `Input "edit_body" ` + label(text)}, saved)...)},
		}, nil
	}
}

// notesAndSMS is MarkorCreateNoteAndSms: a note created, then its text sent to a number;
// partial credit for each half, the text's half with Messages in front (the benchmark's
// SimpleSMSSendSms checks the app in front).
func notesAndSMS(g *gen) (*instance, error) {
	name, number := g.fileName(), g.number()
	text := g.sentence() // the template writes a full stop after it, as the benchmark's does ("fire.. Share")
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
		checks: []suite.CustomCheck{&allCheck{Parts: []suite.CustomCheck{
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
