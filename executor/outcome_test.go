package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
	"github.com/fairy-go/fairy/replay"
)

// laxChecker is a finish check that passes anything: the mechanisms under test hold
// without it.
func laxChecker(int, string) string { return `{"passed":true,"reason":"looks done"}` }

// TestQuestionNeedsAnAnswer: a task that asks a question does not end done without an
// answer, whatever the Re-Planner and the finish check say; with one it does.
func TestQuestionNeedsAnAnswer(t *testing.T) {
	const task = "What is the location of my Dinner with friends event in Calendar? Answer with the location only."
	for _, answer := range []string{"", "Cafe Luna"} {
		t.Run(fmt.Sprintf("answer %q", answer), func(t *testing.T) {
			phone := &fakePhone{pkg: "com.simplemobiletools.calendar.pro", cur: "event", screens: map[string][]fakeNode{
				"event": {{kind: "text", text: "Dinner with friends"}, {kind: "text", text: "Cafe Luna"}},
			}}
			m := &fakeModel{fn: map[llm.Role]func(int, string) string{
				// A false "done": Finished with no Finish answer (a routine's end, a slip).
				llm.RoleReplanner: func(int, string) string {
					if answer == "" {
						return plan("A", "Finished", 0, "")
					}
					return plan("", "Read the location", 0, "")
				},
				llm.RoleDecider: func(int, string) string {
					return fmt.Sprintf(`{"thought":"","actions":[{"type":"Finish","text":%q}],"expect":""}`, answer)
				},
				RoleChecker: laxChecker,
			}}
			h := newHarness(t, phone, m, nil, nil)
			res := h.run(t, task)
			if answer == "" {
				if res.Outcome == event.OutcomeDone || !strings.Contains(res.Reason, "no answer") {
					t.Fatalf("outcome %s (%s), want failed: a question without an answer", res.Outcome, res.Reason)
				}
				return
			}
			if res.Outcome != event.OutcomeDone || res.Answer != answer {
				t.Fatalf("outcome %s answer %q (%s), want done", res.Outcome, res.Answer, res.Reason)
			}
		})
	}
}

// TestAddTaskNeedsEveryNamedValue: an add task that names two records is not done after
// the first one was typed and saved, nor when both were typed and the second never shows
// in the list (not saved); it is once both were typed (the category picked by a tap) and
// show saved.
func TestAddTaskNeedsEveryNamedValue(t *testing.T) {
	const task = "Add the following expenses into the Expenses app:\nExpense: Bakery Items\n amount_dollars: $169.09\n category_name: Food\n\nExpense: Tuition Fees\n amount_dollars: $327.03\n category_name: Education\n"
	records := [][]string{{"Bakery Items", "$169.09", "Food"}, {"Tuition Fees", "$327.03", "Education"}}
	for _, tc := range []struct {
		name        string
		typed, save int
		done        bool
	}{{"one of two", 1, 1, false}, {"second not saved", 2, 1, false}, {"both", 2, 2, true}} {
		t.Run(tc.name, func(t *testing.T) {
			phone := &fakePhone{pkg: "com.fairy.expenses", cur: "list", screens: map[string][]fakeNode{
				"list": {{kind: "text", text: "Expenses"}, {kind: "button", text: "Add expense", to: "new"}},
				"new": {{kind: "edit", text: "", id: "name"}, {kind: "edit", text: "", id: "amount"},
					{kind: "button", text: "Food"}, {kind: "button", text: "Education"}, {kind: "button", text: "Save", to: "list"}},
			}}
			added := 0
			m := &fakeModel{fn: map[llm.Role]func(int, string) string{
				llm.RoleReplanner: func(int, string) string {
					if added >= tc.typed {
						return plan("A", "Finished", 0, "")
					}
					return plan("A", "Add the next expense", 0, "")
				},
				llm.RoleDecider: func(_ int, u string) string {
					if i := index(u, "Add expense"); i > 0 {
						return tap(i)
					}
					r := records[added]
					added++
					save := fmt.Sprintf(`,{"type":"Tap","index":%d}`, index(u, "Save"))
					if added > tc.save {
						save = ""
					} else {
						phone.screens["list"] = append(phone.screens["list"], fakeNode{kind: "text", text: r[0]})
					}
					return fmt.Sprintf(`{"thought":"","actions":[{"type":"Input","index":1,"text":%q},{"type":"Input","index":2,"text":%q},{"type":"Tap","index":%d}%s],"expect":""}`,
						r[0], strings.TrimPrefix(r[1], "$"), index(u, r[2]), save)
				},
				RoleChecker: laxChecker,
			}}
			h := newHarness(t, phone, m, nil, func(c *Config) { c.Device = &typingPhone{fakePhone: phone} })
			res := h.run(t, task)
			if done := res.Outcome == event.OutcomeDone; done != tc.done {
				t.Fatalf("outcome %s (%s), want done %t", res.Outcome, res.Reason, tc.done)
			}
			if !tc.done && !strings.Contains(res.Reason, "Tuition Fees") {
				t.Errorf("the reason %q does not name the record not added", res.Reason)
			}
		})
	}
}

// typingPhone is a fakePhone whose fields hold what is typed into the field tapped last.
type typingPhone struct {
	*fakePhone
	field int // the index of the field tapped last on the current screen, -1: none
}

func (p *typingPhone) Tap(ctx context.Context, x, y int) error {
	p.mu.Lock()
	p.field = -1
	for i, n := range p.screens[p.cur] {
		if top := 200 + i*120; y >= top && y < top+100 && n.kind == "edit" {
			p.field = i
		}
	}
	p.mu.Unlock()
	return p.fakePhone.Tap(ctx, x, y)
}

func (p *typingPhone) TypeText(ctx context.Context, s string) error {
	p.mu.Lock()
	if p.field >= 0 {
		p.screens[p.cur][p.field].text = s
	}
	p.mu.Unlock()
	return p.fakePhone.TypeText(ctx, s)
}

// TestConsentedSendShowsAfterIt: a send the person consented to must show in the
// conversation after it, with that recipient and text; a Send that led elsewhere (another
// conversation, the text still in the field) is judged wrong and the run ends failed, not
// done, whatever the Re-Planner and the finish check say.
func TestConsentedSendShowsAfterIt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after []fakeNode
		done  bool
	}{
		{"shown", []fakeNode{{kind: "text", text: "Alice Chen"}, {kind: "text", text: "see you at 7"}, {kind: "text", text: "You · 15:34"}}, true},
		{"another conversation", []fakeNode{{kind: "text", text: "Bob Smith"}, {kind: "text", text: "see you at 7"}}, false},
		{"not sent", []fakeNode{{kind: "text", text: "Alice Chen"}, {kind: "edit", text: "see you at 7"}, {kind: "text", text: "Not delivered"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone := &fakePhone{pkg: "com.google.android.apps.messaging", cur: "compose", screens: map[string][]fakeNode{
				"compose": {{kind: "text", text: "Alice Chen"}, {kind: "edit", text: "see you at 7", id: "compose"}, {kind: "button", text: "Send SMS", to: "sent"}},
				"sent":    tc.after,
			}}
			h := consentHarness(t, phone, "Send SMS", plainModel("Send SMS"))
			res := h.run(t, "Send Alice Chen a message saying: see you at 7")
			if phone.tapped("Send SMS") != 1 {
				t.Fatalf("Send tapped %d times", phone.tapped("Send SMS"))
			}
			if done := res.Outcome == event.OutcomeDone; done != tc.done {
				t.Fatalf("outcome %s (%s), want done %t", res.Outcome, res.Reason, tc.done)
			}
			if !tc.done && !judgedWrong(h) {
				t.Errorf("the step after the send was not judged wrong (C): %+v", find[event.Reflected](h))
			}
		})
	}
}

// TestConsentedDeleteRemovesOnlyItsRow: a delete the person consented to leaves its row
// gone and the rows not named there.
func TestConsentedDeleteRemovesOnlyItsRow(t *testing.T) {
	rows := func(labels ...string) []fakeNode {
		out := []fakeNode{{kind: "text", text: "Expenses"}}
		for _, l := range labels {
			out = append(out, fakeNode{kind: "button", text: l, id: "expense_row"}, fakeNode{kind: "button", text: "Delete", id: "delete_row"})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		after []fakeNode
		done  bool
	}{
		{"only its row", rows("Rent", "Taxi"), true},
		{"still there", rows("Rent", "Lunch", "Taxi"), false},
		{"another row too", rows("Rent"), false},
		{"one of two duplicates", rows("Rent", "Lunch", "Taxi"), true}, // below: the list held Lunch twice
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := rows("Rent", "Lunch", "Taxi")
			if tc.name == "one of two duplicates" {
				list = rows("Rent", "Lunch", "Lunch", "Taxi")
			}
			list[4].to = "after" // the first Lunch's Delete
			phone := &fakePhone{pkg: "com.fairy.expenses", cur: "list", screens: map[string][]fakeNode{"list": list, "after": tc.after}}
			h := consentHarness(t, phone, "Delete", deleteModel())
			res := h.run(t, "Delete the expense Lunch")
			if done := res.Outcome == event.OutcomeDone; done != tc.done {
				t.Fatalf("outcome %s (%s), want done %t", res.Outcome, res.Reason, tc.done)
			}
		})
	}
}

// judgedWrong reports whether a Re-Planner's verdict after the first was C.
func judgedWrong(h *harness) bool {
	for _, r := range find[event.Reflected](h) {
		if r.Result == "C" {
			return true
		}
	}
	return false
}

// plainModel taps label while the screen offers it, then says Finished; its finish check
// passes anything.
func plainModel(label string) *fakeModel {
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if index(u, label) > 0 {
				return plan("A", "Tap "+label, 0, "")
			}
			return plan("A", "Finished", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string { return tap(index(u, label)) },
		RoleChecker:     laxChecker,
	}}
}

// deleteModel taps the Delete under Lunch once, then says Finished.
func deleteModel() *fakeModel {
	deleted := false
	return &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(_ int, u string) string {
			if !deleted {
				return plan("A", "Delete Lunch", 0, "")
			}
			return plan("A", "Finished", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			deleted = true
			return tap(index(u, "Lunch") + 1) // the Delete under Lunch
		},
		RoleChecker: laxChecker,
	}}
}

// consentHarness is a harness in which the person consented, as the task began, to the
// guarded tap on label (any specifics).
func consentHarness(t *testing.T, phone *fakePhone, label string, m *fakeModel) *harness {
	t.Helper()
	xml, _ := phone.Dump(context.Background())
	s, err := perception.Parse(xml)
	if err != nil {
		t.Fatal(err)
	}
	el := s.Elements[indexOf(s, label)-1]
	for i := range s.Elements {
		if s.Elements[i].Label == label {
			el = s.Elements[i]
		}
	}
	g, _ := guard.New(guard.DefaultPolicy())
	v, hit := g.Check(event.Action{Type: event.Tap, Index: el.Index}, &el, s)
	if !hit {
		t.Fatalf("%q is not guarded", label)
	}
	h := newHarness(t, phone, m, nil, nil)
	h.bus.Subscribe(func(r event.Record) {
		if _, ok := r.Event.(event.AppTaskStarted); ok {
			h.mem.Handle(event.Record{Event: event.InteractionEnded{Settled: true, Summary: "The person agreed.",
				Consent: &event.Consent{Granted: true, Category: v.Category, Action: v.Action, Subject: v.Subject}}})
		}
	})
	return h
}

// TestEndStateOfARoutine: a routine that ran to its end page is taken as done without the
// Re-Planner only where the page shows the state learned with it; with none learned, or
// another state (the switch it found already on), the Re-Planner judges.
func TestEndStateOfARoutine(t *testing.T) {
	for _, tc := range []struct {
		name     string
		end      *replay.End
		verified bool
	}{
		{"the learned state", &replay.End{Labels: map[string]bool{"Notifications off": true, "Maps": false}}, true},
		{"no state learned", nil, false},
		{"another state", &replay.End{Labels: map[string]bool{"Maps": true}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone := deepPhone()
			phone.cur = "off"
			xml, _ := phone.Dump(context.Background())
			off, err := perception.Parse(xml)
			if err != nil {
				t.Fatal(err)
			}
			phone.cur = "home"
			var asked []string
			rt := &endRoutine{oneRoutine: oneRoutine{phone: phone}, end: off.Signature, state: tc.end}
			h := newHarness(t, phone, routineModel("Turn off notifications for {1}", []string{"Maps"}, &asked), nil, func(c *Config) { c.Routines = rt })
			res := h.run(t, "Turn off Maps notifications")
			if res.Outcome != event.OutcomeDone {
				t.Fatalf("outcome %s (%s)", res.Outcome, res.Reason)
			}
			verified := false
			for _, r := range find[event.Reflected](h) {
				verified = verified || (r.Verified && strings.Contains(r.Reflection, "routine reached"))
			}
			if verified != tc.verified {
				t.Errorf("taken as done without the Re-Planner: %t, want %t", verified, tc.verified)
			}
			if tc.end != nil && !tc.verified && !strings.Contains(strings.Join(asked, "\n"), "not in the state the task needs") {
				t.Error("the Re-Planner is not told the end page's state differs")
			}
		})
	}
}

// endRoutine is oneRoutine with an end page and its learned state.
type endRoutine struct {
	oneRoutine
	end   string
	state *replay.End
}

func (o *endRoutine) Offer(ctx context.Context, app, sig, task string, a, l []string) []replay.Offer {
	out := o.oneRoutine.Offer(ctx, app, sig, task, a, l)
	for i := range out {
		out[i].End = o.end
	}
	return out
}

func (o *endRoutine) Steps(ctx context.Context, app, id, sig string, args []string, at int) (replay.Run, error) {
	run, err := o.oneRoutine.Steps(ctx, app, id, sig, args, at)
	run.End = o.state
	return run, err
}

// TestNamedValues: an add task's "key: value" lines and quoted values are what it names;
// an apostrophe in a word quotes nothing, and a task that is no add names none.
func TestNamedValues(t *testing.T) {
	for _, tc := range []struct {
		task string
		want []string
	}{
		{"In Calendar, create a calendar event for tomorrow at 2h with the title 'Review session' and the description 'We will plan.'. The event should last for 60 mins.",
			[]string{"Review session", "We will plan."}},
		{"Create a new note in Notes named a.md with the following text: Lunch at Cafe L'amour.", nil},
		{"Delete the following expenses:\nExpense: Rent\nExpense: Taxi", nil},
		{"Add the following recipes:\nRecipe: Pesto Pasta\n servings: 2 servings\n", []string{"Pesto Pasta", "2 servings"}},
	} {
		if got := namedValues(tc.task); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("namedValues(%q) = %q, want %q", tc.task, got, tc.want)
		}
	}
	if got := recordTitles("Add the following expenses:\nExpense: A\n note: x\n\nExpense: B\n note: y"); strings.Join(got, "|") != "A|B" {
		t.Errorf("recordTitles = %q, want A, B", got)
	}
}

// TestAsksQuestion: a question asks for an answer; a request phrased as one does not.
func TestAsksQuestion(t *testing.T) {
	for task, want := range map[string]bool{
		"What is Bob Smith's phone number?":                          true,
		"Do I have any events the Wednesday after next in Calendar?": true,
		"Which events do I have today. Answer with the titles only.": true,
		"Find the guest Wi-Fi password. Answer as a single word.":    true,
		"Can you turn off Wi-Fi?":                                    false,
		"Turn off Wi-Fi.":                                            false,
		"Send Bob a message saying: what time is it?":                false,
		"Create an event with the title 'Why now?' tomorrow.":        false,
	} {
		if got := asksQuestion(task); got != want {
			t.Errorf("asksQuestion(%q) = %t, want %t", task, got, want)
		}
	}
}

// TestSentTextReadOffSeveralLines: a send's text the consent read off several lines of the
// page ("Paiement reussi · Commande TH-1001 reglee", TeaHouse's receipt) shows when each
// line shows; a line gone is a send that did not show.
func TestSentTextReadOffSeveralLines(t *testing.T) {
	d := &deed{category: "send", sp: event.Specifics{Text: "Paiement reussi · Commande TH-1001 reglee"}, activity: ".Web", typed: true}
	both := &perception.Screen{Activity: ".Web", Elements: []perception.Element{{Index: 1, Label: "Paiement reussi"}, {Index: 2, Label: "Commande TH-1001 reglee"}, {Index: 3, Label: "Ticket parti"}}}
	if why := d.unshown(both); why != "" {
		t.Errorf("each line shown: %q, want the send reconciled", why)
	}
	one := &perception.Screen{Activity: ".Web", Elements: []perception.Element{{Index: 1, Label: "Paiement reussi"}, {Index: 3, Label: "Ticket parti"}}}
	if why := d.unshown(one); why == "" {
		t.Error("a line of the text gone: reconciled, want the send unshown")
	}
}

// TestSendTextNotTypedIsNotLookedFor: a send's text the consent read off the page and the
// task never typed (the "To" label of a compose page's empty field) is not looked for
// after the send; one the task typed is.
func TestSendTextNotTypedIsNotLookedFor(t *testing.T) {
	after := &perception.Screen{Activity: ".Compose", Elements: []perception.Element{{Index: 1, Label: "Sent"}}}
	r := &run{deed: &deed{category: "send", sp: event.Specifics{Text: "To"}, activity: ".Compose"}}
	r.reconcile(after, false)
	if len(r.unreconciled) != 0 {
		t.Errorf("a label read as the text: unreconciled %v, want none", r.unreconciled)
	}
	r = &run{typed: []string{"Running late"}, deed: &deed{category: "send", sp: event.Specifics{Text: "Running late"}, activity: ".Compose"}}
	r.reconcile(after, false)
	if len(r.unreconciled) == 0 {
		t.Error("a typed message not shown after its send: reconciled, want unreconciled")
	}
}
