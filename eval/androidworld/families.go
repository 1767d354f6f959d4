package androidworld

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// builders are the families the mirror builds, each drawing its parameters, setup,
// checks and walkthrough from one instance's random source. A walkthrough reads what it
// types from the instruction (when: groups) or the screen, never from the parameters.
var builders = []builder{
	toggle("SystemWifiTurnOn", "wifi", "on", "off"),
	toggle("SystemWifiTurnOff", "wifi", "off", "on"),
	toggle("SystemWifiTurnOnVerify", "wifi", "on", "on"),
	toggle("SystemWifiTurnOffVerify", "wifi", "off", "off"),
	toggle("SystemBluetoothTurnOn", "bluetooth", "on", "off"),
	toggle("SystemBluetoothTurnOff", "bluetooth", "off", "on"),
	toggle("SystemBluetoothTurnOnVerify", "bluetooth", "on", "on"),
	toggle("SystemBluetoothTurnOffVerify", "bluetooth", "off", "off"),
	{name: "SystemBrightnessMax", app: "Settings", draw: brightness("max", false)},
	{name: "SystemBrightnessMin", app: "Settings", draw: brightness("min", false)},
	{name: "SystemBrightnessMaxVerify", app: "Settings", draw: brightness("max", true)},
	{name: "SystemBrightnessMinVerify", app: "Settings", draw: brightness("min", true)},
	{name: "TurnOffWifiAndTurnOnBluetooth", app: "Settings", draw: wifiOffBluetoothOn},
	{name: "ContactsAddContact", app: "Contacts", draw: contactsAdd},
	{name: "SimpleSmsSend", app: "Messages", draw: smsSend},
	{name: "SimpleSmsReply", app: "Messages", draw: smsReply},
	{name: "SimpleSmsReplyMostRecent", app: "Messages", draw: smsReplyMostRecent},
	{name: "SimpleSmsResend", app: "Messages", draw: smsResend},
	{name: "SimpleSmsSendReceivedAddress", app: "Messages", draw: smsForwardAddress},
	{name: "MarkorCreateNote", app: "Notes", draw: notesCreate},
	{name: "MarkorDeleteNote", app: "Notes", draw: notesDelete},
	{name: "MarkorDeleteAllNotes", app: "Notes", draw: notesDeleteAll},
	{name: "MarkorEditNote", app: "Notes", draw: notesEdit},
	{name: "MarkorCreateNoteAndSms", app: "Notes", draw: notesAndSMS},
	{name: "MarkorChangeNoteContent", app: "Notes", draw: notesChangeAndRename(false)},
	{name: "MarkorAddNoteHeader", app: "Notes", draw: notesChangeAndRename(true)},
	{name: "SimpleCalendarDeleteOneEvent", app: "Calendar", draw: calendarDeleteOne},
	{name: "SimpleCalendarDeleteEvents", app: "Calendar", draw: calendarDeleteOn(3, false)},
	{name: "SimpleCalendarDeleteEventsOnRelativeDay", app: "Calendar", draw: calendarDeleteOn(2, true)},
	{name: "SimpleCalendarAddOneEvent", app: "Calendar", draw: calendarAdd(func(g *gen) int { return between(g.r, clock.Day(), 31) })},
	{name: "SimpleCalendarAddOneEventTomorrow", app: "Calendar", draw: calendarAdd(func(*gen) int { return clock.Day() + 1 })},
	{name: "SimpleCalendarAddOneEventInTwoWeeks", app: "Calendar", draw: calendarAdd(func(*gen) int { return clock.Day() + 14 })},
	{name: "SimpleCalendarAddOneEventRelativeDay", app: "Calendar", draw: calendarAdd(func(g *gen) int { return between(g.r, clock.Day()+1, clock.Day()+6) })},
	{name: "OpenAppTaskEval", app: "Settings", draw: openApp},
	{name: "TurnOnWifiAndOpenApp", app: "Settings", draw: wifiOnOpenApp},
	{name: "SimpleCalendarLocationOfEvent", app: "Calendar", draw: calendarLocation},
	{name: "SimpleCalendarNextEvent", app: "Calendar", draw: calendarNext},
	{name: "SimpleCalendarEventsOnDate", app: "Calendar", draw: calendarOnDate("SimpleCalendarEventsOnDate", false)},
	{name: "SimpleCalendarAnyEventsOnDate", app: "Calendar", draw: calendarOnDate("SimpleCalendarAnyEventsOnDate", false)},
	{name: "SimpleCalendarNextMeetingWithPerson", app: "Calendar", draw: calendarMeetingWith},
	{name: "SimpleCalendarFirstEventAfterStartTime", app: "Calendar", draw: calendarFirstAfter},
	{name: "SimpleCalendarEventsInNextWeek", app: "Calendar", draw: calendarInNextWeek},
	{name: "SimpleCalendarEventsInTimeRange", app: "Calendar", draw: calendarInRange},
	{name: "SimpleCalendarEventOnDateAtTime", app: "Calendar", draw: calendarOnDate("SimpleCalendarEventOnDateAtTime", true)},
	{name: "OsmAndFavorite", app: "Maps", draw: mapsMark(true)},
	{name: "OsmAndMarker", app: "Maps", draw: mapsMark(false)},
	{name: "ExpenseDeleteSingle", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 1, 0, expenseDeleteGoal)},
	{name: "ExpenseDeleteMultiple", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 3, 0, expenseDeleteGoal)},
	{name: "ExpenseDeleteMultiple2", app: "Expenses", draw: recordsDelete(expensesApp, expenseRows, 3, 50, expenseDeleteGoal)},
	{name: "ExpenseAddSingle", app: "Expenses", draw: expenseAddSingle},
	{name: "ExpenseDeleteDuplicates", app: "Expenses", draw: recordsDeleteDuplicates(expensesApp, expenseRows, 5, expenseDuplicatesGoal)},
	{name: "RecipeAddSingleRecipe", app: "Recipes", draw: recipeAddSingle},
	{name: "RecipeAddMultipleRecipes", app: "Recipes", draw: recordsAddMultiple(recipeForm, 3, 10)},
	{name: "ExpenseAddMultiple", app: "Expenses", draw: recordsAddMultiple(expenseForm, 3, 10)},
	{name: "RecipeDeleteSingleRecipe", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 1, 0, recipeDeleteGoal)},
	{name: "RecipeDeleteSingleWithRecipeWithNoise", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 1, 29, recipeDeleteGoal)},
	{name: "RecipeDeleteMultipleRecipes", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 3, 0, recipeDeleteGoal)},
	{name: "RecipeDeleteMultipleRecipesWithNoise", app: "Recipes", draw: recordsDelete(recipesApp, recipeRows, 3, 29, recipeDeleteGoal)},
	{name: "RecipeDeleteDuplicateRecipes", app: "Recipes", draw: recordsDeleteDuplicates(recipesApp, recipeRows, 5, recipeDuplicatesGoal)},
}

// The goals of the records families (the benchmark builds them in code, not templates).
const (
	expenseDeleteGoal     = "Delete the following expenses from arduia pro expense: %s."
	expenseDuplicatesGoal = "Delete all but one of any expenses in arduia pro expense that are exact duplicates, ensuring at least one instance of each unique expense remains"
	recipeDeleteGoal      = "Delete the following recipes from Broccoli app: %s."
	recipeDuplicatesGoal  = "Delete all but one of any recipes in the Broccoli app that are exact duplicates, ensuring at least one instance of each unique recipe remains"
)

// ---- Settings ----

type switchRow struct {
	key, page, row, label, onSub string
}

var switches = map[string]switchRow{
	"wifi":      {key: "wifi_on", page: "Network & internet", row: "Wi-Fi", label: "Wi-Fi"},
	"bluetooth": {key: "bluetooth_on", page: "Connected devices", row: "Bluetooth", label: "Bluetooth"},
}

// toggle is the _SystemWifiToggle / _SystemBluetoothToggle family: the switch starts in
// state from and must end in want, read with `settings get global KEY`.
func toggle(name, what, want, from string) builder {
	return builder{name: name, app: "Settings", draw: func(g *gen) (*instance, error) {
		sw := switches[what]
		v := map[string]string{"on": "1", "off": "0"}
		wantVals := []string{v[want]}
		if what == "wifi" && want == "on" {
			wantVals = []string{"1", "2"} // 2: on while in airplane mode
		}
		shown := map[string]string{"on": "On", "off": "Off"}
		return &instance{
			params: map[string]string{"on_or_off": want},
			setup:  []string{"settings put global " + sw.key + " " + v[from]},
			checks: []eval.CustomCheck{&settingCheck{Namespace: "global", Key: sw.key, Want: wantVals}},
			walk: []walkthrough.Task{walk(settingsPkg, `item "`+sw.row+`".*\n *- "`+shown[want]+`"`,
				walkthrough.Step{Screen: `item "` + q(sw.page) + `"`, Subgoal: "Open " + sw.page, Do: []string{`Tap "` + sw.page + `"`}},
				walkthrough.Step{Screen: `item "` + sw.row + `".*\n *- "` + shown[from] + `"`, When: `(?i)Turn ` + what + ` ` + want + `\.`,
					Subgoal: "Switch " + sw.label + " " + want, Do: []string{`Tap "` + sw.row + `"`}},
			)},
		}, nil
	}}
}

// wifiOffBluetoothOn is the composite TurnOffWifiAndTurnOnBluetooth: two settings, with
// partial credit.
func wifiOffBluetoothOn(g *gen) (*instance, error) {
	return &instance{
		params: map[string]string{},
		setup:  []string{"settings put global wifi_on 1", "settings put global bluetooth_on 0"},
		checks: []eval.CustomCheck{&allCheck{Parts: []eval.CustomCheck{
			&settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"0"}},
			&settingCheck{Namespace: "global", Key: "bluetooth_on", Want: []string{"1"}},
		}}},
		walk: []walkthrough.Task{walk(settingsPkg, `item "Bluetooth".*\n *- "On"`,
			walkthrough.Step{Screen: `item "Network & internet"\n *- "Wi-Fi is on"`, Subgoal: "Open Network & internet", Do: []string{`Tap "Network & internet"`}},
			walkthrough.Step{Screen: `item "Wi-Fi".*\n *- "On"`, Subgoal: "Switch Wi-Fi off", Do: []string{`Tap "Wi-Fi"`}},
			walkthrough.Step{Screen: `item "Wi-Fi".*\n *- "Off"`, Subgoal: "Go back to Settings for Bluetooth", Do: []string{`Back`}},
			walkthrough.Step{Screen: `item "Network & internet"\n *- "Wi-Fi is off"`, Subgoal: "Open Connected devices", Do: []string{`Tap "Connected devices"`}},
			walkthrough.Step{Screen: `item "Bluetooth".*\n *- "Off"`, Subgoal: "Switch Bluetooth on", Do: []string{`Tap "Bluetooth"`}},
		)},
	}, nil
}

// ---- Contacts ----

func contactsAdd(g *gen) (*instance, error) {
	name, number := g.name(), g.number()
	clear, err := seed(contactsPkg+":contacts", nil)
	if err != nil {
		return nil, err
	}
	return &instance{
		params: map[string]string{"name": name, "number": number},
		setup:  []string{clear},
		checks: []eval.CustomCheck{&rowsCheck{Collection: contactsPkg + ":contacts", Added: []map[string]string{{"name": name, "phone": number}}}},
		walk: []walkthrough.Task{walk(contactsPkg, `item "`+q(name)+`"`,
			walkthrough.Step{Screen: `Create contact`, Unless: `on button "Save"`, Subgoal: "Open the new contact form", Do: []string{`Tap "Create contact"`}},
			walkthrough.Step{Screen: `id=name_field`, When: `contact for (?P<name>[^\n]+?)\. Their number is (?P<phone>\+?[\d -]+)\.`,
				Subgoal: "Fill in the name and number", Do: []string{`Input "name_field" "${name}"`, `Input "phone_field" "${phone}"`}},
			walkthrough.Step{Screen: `"` + q(name) + `" id=name_field`, Subgoal: "Save the contact", Expect: "the contact list with the new contact", Do: []string{`Tap "Save"`}},
		)},
	}, nil
}

// ---- Messages ----

func message(id string, seq int, who, number, text, dir, at string) sim.Record {
	return sim.Record{"id": id, "seq": strconv.Itoa(seq), "to": who, "phone": number, "text": text, "dir": dir, "time": at}
}

// composeAndSend are the last two steps of every texting walk: write what the
// instruction (or the screen) says, then send it.
func composeAndSend(when, value, text string) []walkthrough.Step {
	return []walkthrough.Step{
		{Screen: `input "Text message" id=compose_message_text`, When: when, Subgoal: "Write the message", Do: []string{`Input "compose_message_text" "` + value + `"`}},
		{Screen: `input "` + q(text) + `" id=compose_message_text`, Subgoal: "Send the message", Do: []string{`Tap "Send SMS"`}},
	}
}

func sentDone(text string) string { return `"` + q(text) + `"\n *- "You · ` }

// incoming draws the benchmark's 1–5 texts from random numbers with the target's text
// among them (SimpleSmsReply.initialize_task): ids from seq.
func incoming(g *gen, target string) []sim.Record {
	var rows []sim.Record
	sent := false
	add := func(number string) {
		n := len(rows) + 1
		rows = append(rows, message(fmt.Sprintf("m%d", n), n, number, number, g.sentence(), "in", fmt.Sprintf("15:%02d", 10+n)))
	}
	for range between(g.r, 1, 5) {
		if !sent && g.r.IntN(2) == 0 {
			add(target)
			sent = true
		}
		add(g.number())
	}
	if !sent {
		add(target)
	}
	return rows
}

func smsSend(g *gen) (*instance, error) {
	number, text := g.number(), g.sentence()
	clear, err := seed(messagesPkg+":messages", nil)
	if err != nil {
		return nil, err
	}
	steps := []walkthrough.Step{
		{Screen: `Start chat`, Subgoal: "Start a new conversation", Do: []string{`Tap "Start chat"`}},
		{Screen: `id=recipient_text_view`, Without: `id=send_to_number`, When: `to (?P<number>\+\d+) with message`, Subgoal: "Type the number", Do: []string{`Input "recipient_text_view" "${number}"`}},
		{Screen: `id=send_to_number`, Subgoal: "Text the number", Do: []string{`Tap "send_to_number"`}},
	}
	steps = append(steps, composeAndSend(`with message: (?P<text>[^\n]+?)\n`, "${text}", text)...)
	return &instance{
		params: map[string]string{"number": number, "message": text},
		setup:  []string{clear},
		checks: []eval.CustomCheck{&smsCheck{Number: number, Text: text, App: messagesPkg}},
		walk:   []walkthrough.Task{walk(messagesPkg, sentDone(text), steps...)},
	}, nil
}

func smsReply(g *gen) (*instance, error) {
	number, text := g.number(), g.sentence()
	rows := incoming(g, number)
	setup, err := seed(messagesPkg+":messages", rows)
	if err != nil {
		return nil, err
	}
	steps := append([]walkthrough.Step{{Screen: `item "` + q(number) + `" id=swipeableContainer`, When: `Reply to (?P<number>\+\d+) with`,
		Subgoal: "Open the conversation with the number", Do: []string{`Tap "${number}"`}}},
		composeAndSend(`with message: (?P<text>[^\n]+?) in Messages`, "${text}", text)...)
	return &instance{
		params: map[string]string{"number": number, "message": text},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&smsCheck{Number: number, Text: text, App: messagesPkg}},
		walk:   []walkthrough.Task{walk(messagesPkg, sentDone(text), steps...)},
	}, nil
}

func smsReplyMostRecent(g *gen) (*instance, error) {
	text := g.sentence()
	var rows []sim.Record
	for n := 1; n <= between(g.r, 2, 5)+1; n++ {
		number := g.number()
		rows = append(rows, message(fmt.Sprintf("m%d", n), n, number, number, g.sentence(), "in", fmt.Sprintf("15:%02d", 10+n)))
	}
	recent := rows[len(rows)-1]["phone"]
	setup, err := seed(messagesPkg+":messages", rows)
	if err != nil {
		return nil, err
	}
	// The conversation list is newest first: the first row is the most recent text.
	steps := append([]walkthrough.Step{{Screen: `"Messages"\n(?:- \[\d+\] list[^\n]*\n)?\s*- \[\d+\] item "(?P<who>[^"]+)" id=swipeableContainer`,
		Subgoal: "Open the most recent conversation", Do: []string{`Tap "${who}"`}}},
		composeAndSend(`with message: (?P<text>[^\n]+?)\n`, "${text}", text)...)
	return &instance{
		params: map[string]string{"message": text},
		setup:  []string{setup},
		checks: []eval.CustomCheck{&smsCheck{Number: recent, Text: text, App: messagesPkg}},
		walk:   []walkthrough.Task{walk(messagesPkg, sentDone(text), steps...)},
	}, nil
}

func smsResend(g *gen) (*instance, error) {
	name, number, text := g.name(), g.number(), g.sentence()
	contacts, err := seed(contactsPkg+":contacts", []sim.Record{{"id": "c1", "name": name, "phone": number, "email": ""}})
	if err != nil {
		return nil, err
	}
	rows := []sim.Record{
		message("m1", 1, name, number, text, "out", "15:20"),
		message("m2", 2, name, number, "Sorry, there was a glitch, what was the last message you sent me?", "in", "15:23"),
	}
	msgs, err := seed(messagesPkg+":messages", rows)
	if err != nil {
		return nil, err
	}
	steps := []walkthrough.Step{
		{Screen: `item "` + q(name) + `" id=swipeableContainer`, When: `sent to (?P<name>[^\n]+?) in Messages`, Subgoal: "Open the conversation", Do: []string{`Tap "${name}"`}},
		{Screen: `"(?P<last>[^"\n]+)"\n *- "You · [^\n]*\n(?:.*\n)*?- \[\d+\] input "Text message" id=compose_message_text`, Subgoal: "Write the last message I sent again",
			Do: []string{`Input "compose_message_text" "${last}"`}},
		{Screen: `input "` + q(text) + `" id=compose_message_text`, Subgoal: "Send the message", Do: []string{`Tap "Send SMS"`}},
	}
	return &instance{
		params: map[string]string{"name": name},
		setup:  []string{contacts, msgs},
		checks: []eval.CustomCheck{&rowsCheck{Collection: messagesPkg + ":messages", Before: rows,
			Added: []map[string]string{{"phone": number, "text": text, "dir": "out"}}}},
		walk: []walkthrough.Task{walk(messagesPkg, sentDone(text)+`[^\n]*\n(?:.*\n)*?- "`+q(text)+`"\n *- "You · `, steps...)},
	}, nil
}

// ---- Notes (Markor) ----

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
