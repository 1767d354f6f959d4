package androidworld

import (
	"fmt"
	"strconv"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// The task families of Messages.

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
		checks: []suite.CustomCheck{&smsCheck{Number: number, Text: text, App: messagesPkg}},
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
		checks: []suite.CustomCheck{&smsCheck{Number: number, Text: text, App: messagesPkg}},
		walk:   []walkthrough.Task{walk(messagesPkg, sentDone(text), steps...)},
	}, nil
}

// smsReplyMostRecent is SimpleSmsReplyMostRecent: 0–5 texts from random numbers, then
// the most recent from the task's number, none of them saying the reply's message.
func smsReplyMostRecent(g *gen) (*instance, error) {
	number, text := g.number(), g.sentence()
	other := func() string {
		m := g.sentence()
		for m == text {
			m = g.sentence()
		}
		return m
	}
	var rows []sim.Record
	noise := between(g.r, 0, 5)
	for n := 1; n <= noise+1; n++ {
		from := g.number()
		if n == noise+1 {
			from = number
		}
		rows = append(rows, message(fmt.Sprintf("m%d", n), n, from, from, other(), "in", fmt.Sprintf("15:%02d", 10+n)))
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
		params: map[string]string{"number": number, "message": text},
		setup:  []string{setup},
		checks: []suite.CustomCheck{&smsCheck{Number: recent, Text: text, App: messagesPkg}},
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
		checks: []suite.CustomCheck{&rowsCheck{Collection: messagesPkg + ":messages", Before: rows,
			Added: []map[string]string{{"phone": number, "text": text, "dir": "out"}}}},
		walk: []walkthrough.Task{walk(messagesPkg, sentDone(text)+`[^\n]*\n(?:.*\n)*?- "`+q(text)+`"\n *- "You · `, steps...)},
	}, nil
}
