package androidworld

import (
	"cmp"
	"strings"

	"github.com/fairy-go/fairy/sim"
)

// The cases of the Settings, Contacts, Messages and Notes families.

// toggleCase: _SystemWifiToggle and _SystemBluetoothToggle read `settings get global KEY`:
// on is "1" (Wi-Fi: "1" or "2", on in airplane mode), off is "0", nothing else.
func toggleCase(key, want string, verify bool) familyCase {
	c := familyCase{startPasses: verify, right: map[string]outcome{}, wrong: map[string]outcome{}}
	if want == "on" {
		c.right["switched on"] = setting("global", key, "1")
		c.wrong["switched off"] = setting("global", key, "0")
		if key == "wifi_on" {
			c.right["on in airplane mode"] = setting("global", key, "2")
		} else {
			c.wrong["a value other than 1"] = setting("global", key, "2")
		}
	} else {
		c.right["switched off"] = setting("global", key, "0")
		c.wrong["switched on"] = setting("global", key, "1")
		c.wrong["a value other than 0"] = setting("global", key, "2")
	}
	return c
}

// brightnessCase: _SystemBrightnessToggle wants exactly 255 or exactly 1.
func brightnessCase(level, near, other string, verify bool) familyCase {
	return familyCase{startPasses: verify,
		right: map[string]outcome{"set": setting("system", "screen_brightness", level)},
		wrong: map[string]outcome{
			"one step short": setting("system", "screen_brightness", near),
			"the other end":  setting("system", "screen_brightness", other),
		}}
}

// smsCase: SimpleSmsSend and SimpleSmsReply (sms_validators.was_sent, and Messages in
// front): the number as given, dashes and spaces aside; the text fuzzy at 0.9.
func smsCase() familyCase {
	send := func(number, body func(*afterRun) string) outcome {
		return func(r *afterRun) { r.text(number(r), body(r)) }
	}
	num := func(r *afterRun) string { return r.param("number") }
	msg := func(r *afterRun) string { return r.param("message") }
	return familyCase{
		right: map[string]outcome{
			"sent":                           send(num, msg),
			"sent to the number with dashes": send(func(r *afterRun) string { return dashed(num(r)) }, msg),
			"sent in another case":           send(num, func(r *afterRun) string { return strings.ToUpper(msg(r)) }),
		},
		wrong: map[string]outcome{
			"sent to another number": send(func(r *afterRun) string { return otherDigit(num(r)) }, msg),
			"sent half the text": send(num, func(r *afterRun) string {
				m := msg(r)
				return m[:len(m)/2]
			}),
			"sent, then left Messages": both(send(num, msg), launchOutcome(contactsPkg)),
			"received, not sent": func(r *afterRun) {
				r.add(messagesPkg+":messages", message("", 0, num(r), num(r), msg(r), "in", "15:40"))
				r.launch(messagesPkg)
			},
		},
	}
}

// noteOf is a note row. Markor's files are found by their exact name, their content
// fuzzy-matched once stripped (file_validators).
func noteOf(title, body string) sim.Record { return sim.Record{"title": title, "body": body} }

func isTitle(name string) func(sim.Record) bool {
	return func(x sim.Record) bool { return x["title"] == name }
}

// lookAlike is the first noise note: another name, often a modified form of the target's.
func lookAlike(r *afterRun, target string) sim.Record {
	for _, x := range r.rows(notesColl) {
		if x["title"] != target {
			return x
		}
	}
	r.t.Fatalf("no noise note beside %s", target)
	return nil
}

// familyCases are the cases of every family, by name.
func familyCases() map[string]familyCase {
	same := func(s string) string { return s }
	// contact adds the contact the instruction names, its name and number as written.
	contact := func(name, number func(string) string) outcome {
		return func(r *afterRun) {
			row := sim.Record{"name": name(r.param("name")), "phone": number(r.param("number")), "email": ""}
			r.add(contactsPkg+":contacts", row)
		}
	}
	reply := func(r *afterRun) { r.text(r.param("number"), r.param("message")) }
	cases := map[string]familyCase{
		"SystemWifiTurnOn":             toggleCase("wifi_on", "on", false),
		"SystemWifiTurnOff":            toggleCase("wifi_on", "off", false),
		"SystemWifiTurnOnVerify":       toggleCase("wifi_on", "on", true),
		"SystemWifiTurnOffVerify":      toggleCase("wifi_on", "off", true),
		"SystemBluetoothTurnOn":        toggleCase("bluetooth_on", "on", false),
		"SystemBluetoothTurnOff":       toggleCase("bluetooth_on", "off", false),
		"SystemBluetoothTurnOnVerify":  toggleCase("bluetooth_on", "on", true),
		"SystemBluetoothTurnOffVerify": toggleCase("bluetooth_on", "off", true),
		"SystemBrightnessMax":          brightnessCase("255", "254", "1", false),
		"SystemBrightnessMin":          brightnessCase("1", "2", "255", false),
		"SystemBrightnessMaxVerify":    brightnessCase("255", "254", "1", true),
		"SystemBrightnessMinVerify":    brightnessCase("1", "2", "255", true),
		"TurnOffWifiAndTurnOnBluetooth": {
			right: map[string]outcome{"both": both(setting("global", "wifi_on", "0"), setting("global", "bluetooth_on", "1"))},
			wrong: map[string]outcome{
				"Wi-Fi off only":    setting("global", "wifi_on", "0"),
				"Bluetooth on only": setting("global", "bluetooth_on", "1"),
			},
		},
		"ContactsAddContact": {
			right: map[string]outcome{
				"added":                         contact(same, same),
				"added, the number with dashes": contact(same, dashed),
			},
			wrong: map[string]outcome{
				"the name in another case": contact(nearName, same),
				"a digit off":              contact(same, otherDigit),
			},
		},
		"SimpleSmsSend":  smsCase(),
		"SimpleSmsReply": smsCase(),
		"SimpleSmsReplyMostRecent": {
			right: map[string]outcome{"replied to the most recent": reply},
			wrong: map[string]outcome{
				"replied to an older conversation": func(r *afterRun) {
					older := otherDigit(r.param("number"))
					for _, x := range r.rows(messagesPkg + ":messages") {
						if x["phone"] != r.param("number") {
							older = x["phone"]
							break
						}
					}
					r.text(older, r.param("message"))
				},
				"replied, then left Messages": both(reply, launchOutcome(contactsPkg)),
			},
		},
	}
	resend := func(times int, body func(last string) string) outcome {
		return func(r *afterRun) {
			var to, last string
			for _, x := range r.rows(messagesPkg + ":messages") {
				if x["dir"] == "out" {
					to, last = x["phone"], x["text"]
				}
			}
			for range times {
				r.text(to, body(last))
			}
		}
	}
	cases["SimpleSmsResend"] = familyCase{
		right: map[string]outcome{"sent again": resend(1, func(s string) string { return s })},
		wrong: map[string]outcome{
			"sent twice": resend(2, func(s string) string { return s }),
			"sent the glitch text": resend(1, func(string) string {
				return "Sorry, there was a glitch, what was the last message you sent me?"
			}),
		},
	}
	forward := func(to func(r *afterRun) string, body func(string) string) outcome {
		return func(r *afterRun) {
			var address string
			for _, x := range r.rows(messagesPkg + ":messages") {
				if x["dir"] == "in" {
					address = x["text"]
				}
			}
			r.text(to(r), body(address))
		}
	}
	numberOf := func(name string) func(r *afterRun) string {
		return func(r *afterRun) string {
			for _, x := range r.rows(contactsPkg + ":contacts") {
				if x["name"] == r.param(name) {
					return x["phone"]
				}
			}
			r.t.Fatalf("no contact %s", r.param(name))
			return ""
		}
	}
	cases["SimpleSmsSendReceivedAddress"] = familyCase{
		right: map[string]outcome{"forwarded": forward(numberOf("name1"), same)},
		wrong: map[string]outcome{
			"sent back to the sender": forward(numberOf("name2"), same),
			"sent the street only": forward(numberOf("name1"), func(a string) string {
				street, _, _ := strings.Cut(a, ",")
				return street
			}),
		},
	}

	// Notes.
	create := func(title func(string) string, body func(string) string) outcome {
		return func(r *afterRun) {
			r.add(notesColl, noteOf(title(r.param("file_name")), body(r.param("text"))))
		}
	}
	cases["MarkorCreateNote"] = familyCase{
		right: map[string]outcome{
			"created":                      create(same, func(s string) string { return s + "\n" }),
			"created, no final line break": create(same, same),
		},
		wrong: map[string]outcome{
			"a letter's case off in the name": create(nearName, same),
			"without its extension":           create(func(s string) string { return strings.TrimSuffix(s, splitExt(s)) }, same),
			"another text":                    create(same, func(string) string { return "Meeting notes: nothing yet." }),
		},
	}
	cases["MarkorDeleteNote"] = familyCase{
		right: map[string]outcome{"deleted": func(r *afterRun) { r.remove(notesColl, isTitle(r.param("file_name"))) }},
		wrong: map[string]outcome{"a look-alike deleted": func(r *afterRun) {
			r.remove(notesColl, isTitle(lookAlike(r, r.param("file_name"))["title"]))
		}},
	}
	cases["MarkorDeleteAllNotes"] = familyCase{
		right: map[string]outcome{"all deleted": func(r *afterRun) {
			r.remove(notesColl, func(sim.Record) bool { return true })
		}},
		wrong: map[string]outcome{"one left": func(r *afterRun) {
			keep := r.rows(notesColl)[0]["id"]
			r.remove(notesColl, func(x sim.Record) bool { return x["id"] != keep })
		}},
	}
	edited := func(r *afterRun, orig string) string {
		orig = strings.TrimSuffix(orig, "\n")
		switch r.param("edit_type") {
		case "header":
			return r.param("header") + "\n" + orig
		case "footer":
			return orig + "\n" + r.param("footer")
		}
		return r.param("replace_text")
	}
	cases["MarkorEditNote"] = familyCase{
		variant:  func(in *instance) string { return in.params["edit_type"] },
		variants: 3,
		right: map[string]outcome{"edited": func(r *afterRun) {
			r.edit(notesColl, isTitle(r.param("file_name")), func(x sim.Record) { x["body"] = edited(r, x["body"]) })
		}},
		wrong: map[string]outcome{
			"a look-alike edited": func(r *afterRun) {
				other := lookAlike(r, r.param("file_name"))["title"]
				r.edit(notesColl, isTitle(other), func(x sim.Record) { x["body"] = edited(r, x["body"]) })
			},
			"the text replaced by the new line alone": func(r *afterRun) {
				r.edit(notesColl, isTitle(r.param("file_name")), func(x sim.Record) {
					x["body"] = cmp.Or(r.in.params["header"], r.in.params["footer"], firstLine(r.in.params["replace_text"]))
				})
			},
		},
	}
	rename := func(header, renamed, changed bool, body func(r *afterRun, content string) string) outcome {
		return func(r *afterRun) {
			r.edit(notesColl, isTitle(r.param("original_name")), func(x sim.Record) {
				if renamed {
					x["title"] = r.param("new_name")
				}
				if changed {
					x["body"] = body(r, x["body"])
				}
			})
		}
	}
	headed := func(r *afterRun, content string) string { return r.param("header") + "\n\n" + content }
	cases["MarkorAddNoteHeader"] = familyCase{
		right: map[string]outcome{"headed and renamed": rename(true, true, true, headed)},
		wrong: map[string]outcome{
			"headed, not renamed": rename(true, false, true, headed),
			"renamed only":        rename(true, true, false, nil),
			"no blank line between": rename(true, true, true, func(r *afterRun, c string) string {
				return r.param("header") + "\n" + c
			}),
		},
	}
	updated := func(r *afterRun, _ string) string { return r.param("updated_content") }
	cases["MarkorChangeNoteContent"] = familyCase{
		right: map[string]outcome{
			"changed and renamed": rename(false, true, true, updated),
			"changed with a final line break": rename(false, true, true, func(r *afterRun, c string) string {
				return updated(r, c) + "\n"
			}),
		},
		wrong: map[string]outcome{
			"changed, not renamed": rename(false, false, true, updated),
			"renamed only":         rename(false, true, false, nil),
		},
	}
	noteHalf := create(same, same)
	smsHalf := func(r *afterRun) { r.text(r.param("number"), r.param("text")) }
	cases["MarkorCreateNoteAndSms"] = familyCase{
		right: map[string]outcome{"note and text": both(noteHalf, smsHalf)},
		wrong: map[string]outcome{"the note only": noteHalf, "the text only": smsHalf},
	}

	addCalendarAndRecordCases(cases)
	return cases
}

// firstLine is the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
