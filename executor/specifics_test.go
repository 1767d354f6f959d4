package executor

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"

	"github.com/fairy-go/fairy/memory"
	"github.com/fairy-go/fairy/perception"
)

// TestReadSpecifics: a consent's specifics come from the screen the action waits on:
// the conversation's contact and the compose text for a send, the item lines, the total
// and the payee for an order, the item lines seen earlier for a payment page that shows
// only the amount, the page's words for a delete.
func TestReadSpecifics(t *testing.T) {
	conv := &perception.Screen{Context: []string{"Bob Smith", "Are we still on for lunch tomorrow?", "Bob Smith · 09:12"},
		Elements: []perception.Element{{Index: 1, Role: "button", Label: "Navigate up"},
			{Index: 2, Role: "input", Label: "Heads up: moved to 3pm", Text: "Heads up: moved to 3pm", Editable: true},
			{Index: 3, Role: "button", Label: "Send SMS"}}}
	order := &perception.Screen{Context: []string{"确认订单", "送达地址：66 Mint St", "椰果奶茶 ×1", "选择送达时间（当前：19:00）", "合计 ¥13"}}
	pay := &perception.Screen{Context: []string{"支付", "订单号 1001", "应付金额 ¥13", "支付方式：余额支付"}}
	del := &perception.Screen{Context: []string{"Delete this event?", "Dentist · Tue 10:00"}}
	tests := []struct {
		category string
		s        *perception.Screen
		items    []string
		want     string
		named    bool
	}{
		{"send", conv, nil, `to: Bob Smith; text: "Heads up: moved to 3pm"`, true},
		{"order", order, nil, "items: 椰果奶茶 ×1; amount: ¥13; payee: com.fairy.shop", true},
		{"payment", pay, []string{"椰果奶茶 ×1"}, "items: 椰果奶茶 ×1; amount: ¥13; payee: com.fairy.shop", true},
		{"delete", del, nil, "what: Delete this event? · Dentist · Tue 10:00", true},
		{"send", &perception.Screen{Context: []string{"Bob Smith"}}, nil, "to: Bob Smith", false},
		// Pages drawn in pixels: their texts are the lines read from the picture.
		{"payment", &perception.Screen{Context: []string{"城市地图"}, Read: []perception.TextBox{{Text: "停车场"}, {Text: "停车费 ¥36"}, {Text: "支付停车费"}}},
			nil, "amount: ¥36; payee: com.fairy.shop", true},
		{"send", &perception.Screen{Context: []string{"TeaHouse"}, Read: []perception.TextBox{{Text: "Paiement reussi"}, {Text: "Commande TH-1001 reglee"}, {Text: "Envoyer le ticket"}}},
			nil, `to: TeaHouse; text: "Paiement reussi · Commande TH-1001 reglee"`, true},
	}
	for _, tc := range tests {
		sp := readSpecifics(tc.category, tc.s, nil, tc.items, "com.fairy.shop")
		if got := sp.String(); got != tc.want || named(tc.category, sp) != tc.named {
			t.Errorf("%s: %q (named %t), want %q (named %t)", tc.category, got, named(tc.category, sp), tc.want, tc.named)
		}
	}
	// The amount the action names is what it pays, whatever the page's total is called;
	// a button without one takes the page's total.
	de := &perception.Screen{Context: []string{"TeaHouse"}, Read: []perception.TextBox{{Text: "Ihre Bestellung"}, {Text: "Oolong Tee x2"}, {Text: "¥24"},
		{Text: "Mandelkuchen x1"}, {Text: "¥12"}, {Text: "Summe ¥36"}, {Text: "Bezahlen ¥36"}}}
	for _, tc := range []struct {
		s      *perception.Screen
		target *perception.Element
		want   string
	}{
		{de, &perception.Element{Label: "Bezahlen ¥36"}, "amount: ¥36"},
		{order, &perception.Element{Label: "提交订单"}, "amount: ¥13"},
		{&perception.Screen{Context: []string{"Order", "Tea x2 ¥24", "Total ¥36"}}, &perception.Element{Label: "Pay ¥24"}, "amount: ¥24"},
	} {
		sp := readSpecifics("payment", tc.s, tc.target, nil, "com.fairy.teahouse")
		if got := sp.String(); !strings.Contains(got, tc.want+";") {
			t.Errorf("paying with %q: %q, want %q", tc.target.Label, got, tc.want)
		}
	}
}

// TestDeleteNamesItsRow: a Remove drawn under an item's line names that item, not only
// the page; a delete with no text by it names the page as before.
func TestDeleteNamesItsRow(t *testing.T) {
	box := func(text string, x1, y1, x2, y2 int) perception.TextBox {
		return perception.TextBox{Text: text, Bounds: perception.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2}}
	}
	s := &perception.Screen{Context: []string{"TeaHouse"}, Read: []perception.TextBox{box("Your order", 40, 40, 900, 140),
		box("Oolong tea x2", 40, 180, 640, 260), box("¥24", 680, 180, 880, 260),
		box("Almond cake x1", 40, 280, 640, 360), box("¥12", 680, 280, 880, 360), box("Remove", 680, 370, 1000, 450),
		box("Total ¥36", 40, 500, 800, 600)}}
	remove := &perception.Element{Index: 9, Label: "Remove", Bounds: perception.Bounds{X1: 680, Y1: 370, X2: 1000, Y2: 450}}
	if got := readSpecifics("delete", s, remove, nil, "com.fairy.teahouse").String(); got != "what: Almond cake x1 · TeaHouse · Your order" {
		t.Errorf("Remove under the cake: %q", got)
	}
	far := &perception.Element{Index: 9, Label: "Remove", Bounds: perception.Bounds{X1: 680, Y1: 1500, X2: 1000, Y2: 1580}}
	if got := readSpecifics("delete", s, far, nil, "com.fairy.teahouse").String(); got != "what: TeaHouse · Your order" {
		t.Errorf("Remove with nothing by it: %q", got)
	}
}

func TestCorrects(t *testing.T) {
	for a, want := range map[string]bool{
		"No — that would go to Bob Smith, and I meant Carol Diaz.": true,
		"No, that order should hold 红豆奶茶":                          true,
		"不是这个，我要红豆奶茶":                                              true,
		"No, do not do that.":                                      false,
		"no":                                                       false,
	} {
		if corrects(a) != want {
			t.Errorf("corrects(%q) = %t", a, !want)
		}
	}
}

// TestConsentCoversItsSpecifics: a yes to "send to Alice Chen" covers the Send button
// while the screen shows that conversation and text; the same Send on Bob Smith's
// conversation is held and asked again, with Bob Smith named.
func TestConsentCoversItsSpecifics(t *testing.T) {
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	conv := func(who string) *perception.Screen {
		return &perception.Screen{Signature: "conv", Context: []string{who},
			Elements: []perception.Element{{Index: 1, Role: "input", Label: "see you at 7", Text: "see you at 7", Editable: true, Enabled: true},
				{Index: 2, Role: "button", Label: "Send SMS", Desc: "Send SMS", Clickable: true, Enabled: true, Class: "android.widget.ImageButton"}}}
	}
	tap := event.Action{Type: event.Tap, Index: 2}
	alice := conv("Alice Chen")
	v, hit := g.Check(tap, &alice.Elements[1], alice)
	if !hit || v.Category != "send" {
		t.Fatalf("the guard does not hold the Send: %+v", v)
	}
	spec := readSpecifics("send", alice, &alice.Elements[1], nil, "")
	for _, tc := range []struct {
		who  string
		held bool
	}{{"Alice Chen", false}, {"Bob Smith", true}} {
		bus := event.NewBus(nil)
		mem := memory.NewStacks()
		mem.Attach(bus)
		bus.Publish(event.AppTaskStarted{Instruction: "Send Alice a message saying: see you at 7", Task: event.AppTask{App: "messages", Task: "send"}})
		bus.Publish(event.InteractionEnded{Settled: true, Summary: "The person agreed.",
			Consent: &event.Consent{Granted: true, Category: v.Category, Action: v.Action, Subject: v.Subject, Specifics: spec}})
		r := &run{cfg: &Config{Guard: g, Memory: mem, Bus: bus}, screen: conv(tc.who), batch: []event.Action{tap}}
		if _, err := r.guard(); err != nil {
			t.Fatal(err)
		}
		if held := r.need != nil; held != tc.held {
			t.Errorf("%s: held %t, want %t", tc.who, held, tc.held)
		}
		if tc.held && !strings.Contains(r.need.Reason, "to: Bob Smith") {
			t.Errorf("the question %q does not name Bob Smith", r.need.Reason)
		}
		if tc.held && (r.need.Specifics.To != "Bob Smith" || r.need.Specifics.Text != "see you at 7") {
			t.Errorf("the consent carries specifics %+v, want Bob Smith and the text typed", r.need.Specifics)
		}
	}
}

// TestConsentSaysItIsAgain: a consent for an action this task already ran under a consent
// (the same category, action and specifics) says so in its specifics, so a yes cannot
// order twice unknowingly; another action's question is unchanged, and so is the same
// button on another thing ("Delete recipe" on another recipe's page).
func TestConsentSaysItIsAgain(t *testing.T) {
	tea := event.Specifics{Items: []string{"tea ×1"}, Amount: "¥14"}
	r := &run{spent: map[string]int{spentKey("order", "page p: submit", tea.String()): 7, spentKey("order", "page p: submit", ""): 7}}
	if got := r.again(guard.Verdict{Category: "order", Action: "page p: submit"}, tea).String(); got != "items: tea ×1; amount: ¥14; again: done once already in this task, at step 7" {
		t.Errorf("the same order again: %q", got)
	}
	if got := r.again(guard.Verdict{Category: "order", Action: "page p: submit"}, event.Specifics{}).String(); got != "again: done once already in this task, at step 7" {
		t.Errorf("the same order again, no specifics read: %q", got)
	}
	if got := r.again(guard.Verdict{Category: "payment", Action: "page q: pay"}, event.Specifics{Amount: "¥14"}).String(); got != "amount: ¥14" {
		t.Errorf("another action: %q", got)
	}
	r.spent[spentKey("delete", "page r: delete recipe", "what: BBQ Chicken Quesadillas")] = 4
	if got := r.again(guard.Verdict{Category: "delete", Action: "page r: delete recipe"}, event.Specifics{What: "Spicy Tuna Wraps"}).String(); got != "what: Spicy Tuna Wraps" {
		t.Errorf("the same button on another recipe: %q, want no \"again\"", got)
	}

	// "Delete note" ran and opened a dialog; the person said yes to its "Delete": the
	// first was a step toward the second, and tapping it again is no second deletion. A
	// yes to a payment leaves the order placed before it as done.
	r.spent[spentKey("delete", "page n: delete note", "what: Shopping list")] = 3
	r.step = 4 // the dialog's question comes at the step after "Delete note"
	r.supersede("delete", "page d: delete")
	r.supersede("payment", "page q: pay")
	if got := r.again(guard.Verdict{Category: "delete", Action: "page n: delete note"}, event.Specifics{What: "Shopping list"}).String(); got != "what: Shopping list" {
		t.Errorf("the dialog's opener after a yes to its Delete: %q", got)
	}
	if got := r.again(guard.Verdict{Category: "order", Action: "page p: submit"}, tea).String(); !strings.Contains(got, "again") {
		t.Errorf("the order after a yes to its payment: %q, want it still done once", got)
	}
	// A payment done at step 4; at step 11 a wrong tap on "Paiement par TeaPay" is held as a
	// payment and granted. The payment of step 4 stays done, and so does a yes to the same
	// action again.
	paySpec := event.Specifics{Items: []string{"The oolong x2"}, Amount: "¥24"}
	payer := `page m: android.view.View "Payer ¥24"`
	r.spent[spentKey("payment", payer, paySpec.String())] = 4
	r.step = 11
	r.supersede("payment", `page m2: android.view.View "Paiement par TeaPay"`)
	r.supersede("payment", "page m3"+payer[len("page m"):])
	if got := r.again(guard.Verdict{Category: "payment", Action: "page m4: android.view.View \"Payer ¥24\""}, paySpec).String(); !strings.Contains(got, "again: done once already in this task, at step 4") {
		t.Errorf("a payment done at step 4, after a yes at step 11 to another payment element: %q, want it still done once", got)
	}
}

// TestConfirmationTakesBackTheOpener: "Delete note" ran under a consent and opened a dialog
// asking to confirm the deletion; a wrong tap on its Cancel left nothing deleted, so the
// next "Delete note" is no second deletion. A submitted order whose next page asks for a
// payment (another kind) stays done.
func TestConfirmationTakesBackTheOpener(t *testing.T) {
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	dialog := &perception.Screen{Signature: "dlg", Elements: []perception.Element{
		{Index: 1, Label: "Delete this note?", Class: "android.widget.TextView"},
		{Index: 2, Label: "Cancel", Class: "android.widget.Button", Clickable: true, ResourceID: "android:id/button2"},
		{Index: 3, Label: "Delete", Class: "android.widget.Button", Clickable: true, ResourceID: "android:id/button1"},
	}}
	pay := &perception.Screen{Signature: "pay", Elements: []perception.Element{
		{Index: 1, Label: "Navigate up", Class: "android.widget.ImageButton", Clickable: true},
		{Index: 2, Label: "应付金额 ¥15", Class: "android.widget.TextView"},
		{Index: 3, Label: "支付", Class: "android.widget.Button", Clickable: true, ResourceID: "com.fairy.shop:id/pay_button"},
	}}
	opener, order := spentKey("delete", "page n: delete note", "what: Shopping list"), spentKey("order", "page c: submit", "amount: ¥15")
	bus := event.NewBus(nil)
	var opened []event.ConfirmationOpened
	bus.Subscribe(func(rec event.Record) {
		if x, ok := rec.Event.(event.ConfirmationOpened); ok {
			opened = append(opened, x)
		}
	})
	r := &run{cfg: &Config{Guard: g, Bus: bus}, spent: map[string]int{opener: 3}, justSpent: opener}
	r.openedConfirmation(dialog)
	if got := r.again(guard.Verdict{Category: "delete", Action: "page n: delete note"}, event.Specifics{What: "Shopping list"}).String(); got != "what: Shopping list" {
		t.Errorf("the opener of a delete dialog after Cancel: %q, want no \"again\"", got)
	}
	if len(opened) != 1 || opened[0].Category != "delete" {
		t.Errorf("events = %+v, want one ConfirmationOpened for delete (the learner reads it)", opened)
	}
	r.spent[order], r.justSpent = 8, order
	r.openedConfirmation(pay)
	if got := r.again(guard.Verdict{Category: "order", Action: "page c: submit"}, event.Specifics{Amount: "¥15"}).String(); !strings.Contains(got, "again") {
		t.Errorf("the order after its payment page: %q, want it still done once", got)
	}
	if len(opened) != 1 {
		t.Errorf("events = %+v: an order's payment page is no confirmation of the order", opened)
	}
	// A payment's success page shows the amount, and the guard holds its "完成" (Done) as
	// a payment by the page: that is what the payment led to, not its confirmation.
	paid := &perception.Screen{Signature: "paid", Context: []string{"支付成功", "订单 1001 已支付 ¥15"}, Elements: []perception.Element{
		{Index: 1, Label: "完成", Class: "android.widget.Button", Clickable: true, ResourceID: "com.fairy.shop:id/done_button"},
	}}
	payment := spentKey("payment", "page p: 支付", "amount: ¥15")
	r.spent[payment], r.justSpent = 9, payment
	held := false
	for _, v := range g.Offers(paid) {
		held = held || v.Category == "payment" && v.Page
	}
	r.openedConfirmation(paid)
	if got := r.again(guard.Verdict{Category: "payment", Action: "page p: 支付"}, event.Specifics{Amount: "¥15"}).String(); !strings.Contains(got, "again") {
		t.Errorf("the payment after its success page (Done held by the page: %t): %q, want it still done once", held, got)
	}
	if len(opened) != 1 {
		t.Errorf("events = %+v: a success page is no confirmation", opened)
	}
	// Only the screen right after the action counts: a dialog met later is another matter.
	r.spent[opener] = 12
	r.openedConfirmation(dialog)
	if got := r.again(guard.Verdict{Category: "delete", Action: "page n: delete note"}, event.Specifics{What: "Shopping list"}).String(); !strings.Contains(got, "again") {
		t.Errorf("a delete dialog met later: %q, want the deletion still done once", got)
	}
}

// TestTapAgainstCorrection: after the person refused a send to Frank Miller saying they
// meant Bob Smith, a tap on another contact row (a second wrong tap) is rejected before it
// acts; the row they named passes, and so does any row when the answer names none.
func TestTapAgainstCorrection(t *testing.T) {
	const row = "com.google.android.apps.messaging:id/contact_picker_row"
	s := &perception.Screen{Elements: []perception.Element{
		{Index: 1, Label: "Navigate up"},
		{Index: 2, Label: "Bob Smith", ResourceID: row},
		{Index: 3, Label: "Frank Miller", ResourceID: row},
		{Index: 4, Label: "Grace Kim", ResourceID: row},
	}}
	r := &run{screen: s, corrected: []correction{{answer: "No — that would go to Frank Miller, and I meant Bob Smith.", refused: `to: Frank Miller; text: "running late"`}}}
	if why := r.againstChoice(event.Action{Type: event.Tap, Index: 4}); !strings.Contains(why, "Bob Smith") {
		t.Errorf("a tap on Grace Kim: %q, want it rejected for Bob Smith", why)
	}
	if why := r.againstChoice(event.Action{Type: event.Tap, Index: 3}); why == "" {
		t.Error("a tap on Frank Miller, the one refused, was not rejected")
	}
	if why := r.againstChoice(event.Action{Type: event.Tap, Index: 2}); why != "" {
		t.Errorf("a tap on Bob Smith: %q", why)
	}
	r.corrected = []correction{{answer: "No — the message should say \"late\".", refused: "to: Bob Smith"}}
	if why := r.againstChoice(event.Action{Type: event.Tap, Index: 4}); why != "" {
		t.Errorf("an answer naming no row: %q", why)
	}
}

// TestSubmitMidBatchIsRejected: a PIN batch whose Enter comes before its digits (one wrong
// key) would submit a wrong PIN, a wrong attempt the app counts, and type the digits after
// it onto whatever screen follows; so would a batch with one wrong digit. The batch is
// rejected, so the decider is asked again; a batch that ends with its Enter runs whole.
func TestSubmitMidBatchIsRejected(t *testing.T) {
	keys := []perception.Element{{Index: 1, Label: "Enter your PIN"}}
	for i, k := range []string{"1", "2", "5", "8", "0", "Enter"} {
		keys = append(keys, perception.Element{Index: i + 2, Label: k, Clickable: true})
	}
	r := &run{cfg: &Config{}, screen: &perception.Screen{Elements: keys}, a: Assignment{Instruction: "Unlock SafeBox with my PIN 2580"}}
	tap := func(idx ...int) []event.Action {
		var out []event.Action
		for _, i := range idx {
			out = append(out, event.Action{Type: event.Tap, Index: i})
		}
		return out
	}
	if batch, problems := r.screenCheck(tap(7, 4, 5, 6, 7)); batch != nil || len(problems) != 1 || !strings.Contains(said(t, problems[0]), `"Enter" submits`) {
		t.Errorf("Enter before the digits: batch %v, problems %q; want it rejected", batch, problems)
	}
	if batch, problems := r.screenCheck(tap(3, 4, 5, 6, 7)); len(batch) != 5 || len(problems) != 0 {
		t.Errorf("the digits then Enter: batch %v, problems %q; want all five", batch, problems)
	}
	if batch, problems := r.screenCheck(tap(7)); len(batch) != 1 || len(problems) != 0 {
		t.Errorf("Enter alone: batch %v, problems %q", batch, problems)
	}
	// One wrong digit (8 for 2) spells a near miss of the PIN the person gave: a wrong
	// attempt the app would count. A number unlike any given one (a code read from the
	// screen) and a short run of digits pass.
	if batch, problems := r.screenCheck(tap(5, 4, 5, 6, 7)); batch != nil || len(problems) != 1 || !strings.Contains(said(t, problems[0]), `spell "8580"`) {
		t.Errorf("8580 for the PIN 2580: batch %v, problems %q; want it rejected", batch, problems)
	}
	// A wrong tap on a text beside the keys types nothing: the PIN misses its first digit.
	if batch, problems := r.screenCheck(tap(1, 4, 5, 6, 7)); batch != nil || len(problems) != 1 || !strings.Contains(said(t, problems[0]), `spell "580"`) {
		t.Errorf("580 for the PIN 2580: batch %v, problems %q; want it rejected", batch, problems)
	}
	if batch, problems := r.screenCheck(tap(2, 2, 6, 6, 7)); len(batch) != 5 || len(problems) != 0 {
		t.Errorf("1100, unlike 2580: batch %v, problems %q; want it run", batch, problems)
	}
	if batch, problems := r.screenCheck(tap(5, 4)); len(batch) != 2 || len(problems) != 0 {
		t.Errorf("two digits: batch %v, problems %q; want them run", batch, problems)
	}
}

// TestOffGoal: a refused action of another kind than the sub-goal names was a slip on the
// right page (the agent stays); one of the same kind, or under a sub-goal that names no
// sensitive action, says the page is wrong (the agent goes back).
func TestOffGoal(t *testing.T) {
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	r := &run{cfg: &Config{Guard: g}}
	for _, c := range []struct {
		subgoal, category string
		off               bool
	}{
		{"Envoyer le ticket", "order", true},
		{"Send the message to Bob Smith", "send", false},
		{"提交订单", "order", false},
		{"Open the conversation with Bob", "send", false},
		{"Pay the bill", "delete", true},
	} {
		if got := r.offGoal(interaction.Need{Subgoal: c.subgoal, Category: c.category}); got != c.off {
			t.Errorf("sub-goal %q, refused %s: off goal %t, want %t", c.subgoal, c.category, got, c.off)
		}
	}
}

// TestAgainOnAnotherLayout: the menu a wrong "Retour au menu" returns to may be laid out
// otherwise than when the order was paid (another row opened: another page signature);
// "Payer ¥36" for the same items is still the same payment, and its consent says so. A
// deletion on another recipe's page (other specifics) is still another deed.
func TestAgainOnAnotherLayout(t *testing.T) {
	spec := event.Specifics{Items: []string{"The oolong x2", "Gateau aux amandes x1"}, Amount: "¥36", Payee: "com.fairy.teahouse"}
	pay := func(page string) guard.Verdict {
		return guard.Verdict{Category: "payment", Action: "page " + page + `: android.view.View "Payer ¥36" amounts="¥36"`}
	}
	r := &run{spent: map[string]int{}}
	r.spent[spentKey("payment", pay("8b3004cf").Action, spec.String())] = 4
	if got := r.again(pay("19ac77e2"), spec).String(); !strings.Contains(got, "again: done once already in this task, at step 4") {
		t.Errorf("the same payment on the menu laid out otherwise: %q, want it told as done once already", got)
	}
	del := func(page string) guard.Verdict {
		return guard.Verdict{Category: "delete", Action: "page " + page + `: android.widget.Button "Delete recipe"`}
	}
	r.spent[spentKey("delete", del("r1").Action, "what: Pancakes")] = 6
	if got := r.again(del("r1"), event.Specifics{What: "Waffles"}).String(); strings.Contains(got, "again") {
		t.Errorf("Delete recipe for another recipe: %q, want no \"again\"", got)
	}
}
