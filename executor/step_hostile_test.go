package executor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/interaction"
	"github.com/fairy-go/fairy/llm"
	"github.com/fairy-go/fairy/perception"
)

func defaultGuard(t testing.TB) *guard.Guard {
	t.Helper()
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func button(i int, label string, y int) perception.Element {
	return perception.Element{Index: i, Role: "button", Label: label, Text: label, Class: "android.widget.Button", Clickable: true,
		Bounds: perception.Bounds{X1: 100, Y1: y, X2: 980, Y2: y + 150}, Center: perception.Point{X: 540, Y: y + 75}}
}

// TestFindFieldNeverGuesses: rows that share a resource id, scrolled by one row, are told
// apart by their hints; a tie is no match.
func TestFindFieldNeverGuesses(t *testing.T) {
	row := func(i int, hint string, y int) perception.Element {
		return perception.Element{Index: i, Role: "input", Editable: true, Class: "android.widget.EditText", ResourceID: "app:id/value", Hint: hint,
			Bounds: perception.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 120}}
	}
	want := row(1, "Recipient", 600)
	scrolled := &perception.Screen{Elements: []perception.Element{row(1, "Amount", 600), row(2, "Note", 720)}}
	if got := findField(scrolled, &want); got != nil {
		t.Errorf("found %q for the Recipient field", got.Hint)
	}
	twins := &perception.Screen{Elements: []perception.Element{row(1, "", 600), row(2, "", 720)}}
	noHint := row(1, "", 900)
	if got := findField(twins, &noHint); got != nil {
		t.Errorf("picked one of two identical fields: %+v", got)
	}
	moved := &perception.Screen{Elements: []perception.Element{row(1, "Amount", 400), row(2, "Recipient", 520)}}
	if got := findField(moved, &want); got == nil || got.Hint != "Recipient" {
		t.Errorf("the Recipient field moved by the keyboard was not found: %+v", got)
	}
}

// TestInputIntoAButtonIsRejected: Input or Clear aimed at a Pay button is rejected before
// anything taps it.
func TestInputIntoAButtonIsRejected(t *testing.T) {
	for _, act := range []string{`{"type":"Input","index":%d,"text":"1"}`, `{"type":"Clear","index":%d}`} {
		phone := payPhone()
		phone.cur = "cart"
		model := &fakeModel{fn: map[llm.Role]func(int, string) string{
			llm.RoleReplanner: func(int, string) string { return plan("", "Pay", 0, "") },
			llm.RoleDecider: func(_ int, u string) string {
				return fmt.Sprintf(`{"thought":"","actions":[`+act+`],"expect":""}`, index(u, "Pay ¥18"))
			},
		}}
		h := newHarness(t, phone, model, []interaction.Rule{{Pattern: ".", Reply: "no"}}, nil)
		res := h.run(t, "Pay")
		if phone.tapped("Pay ¥18") != 0 {
			t.Errorf("%s: Pay was tapped (outcome %s)", act, res.Outcome)
		}
		rej := find[event.ActionRejected](h)
		if len(rej) == 0 || !strings.Contains(rej[0].Reason, "not a text field") {
			t.Errorf("%s: rejections %+v", act, rej)
		}
	}
}

// TestBatchStopsWhenThePageChanges: a batch of two taps whose first opens another page
// does not run the second on whatever is now at its place.
func TestBatchStopsWhenThePageChanges(t *testing.T) {
	phone := &fakePhone{pkg: "com.fairy.shop", cur: "size", screens: map[string][]fakeNode{
		"size": {{kind: "text", text: "Size"}, {kind: "button", text: "Large ¥18", to: "pay"}},
		"pay":  {{kind: "text", text: "Total ¥18"}, {kind: "button", text: "Pay", to: "paid"}},
		"paid": {{kind: "text", text: "Paid"}},
	}}
	model := &fakeModel{fn: map[llm.Role]func(int, string) string{
		llm.RoleReplanner: func(n int, u string) string {
			if n > 0 {
				return plan("A", "Finished", 0, "")
			}
			return plan("", "Pick the large size", 0, "")
		},
		llm.RoleDecider: func(_ int, u string) string {
			i := index(u, "Large ¥18")
			return fmt.Sprintf(`{"thought":"","actions":[{"type":"Tap","index":%d},{"type":"Tap","index":%d}],"expect":""}`, i, i)
		},
	}}
	h := newHarness(t, phone, model, nil, nil)
	h.run(t, "Pick the large size")
	if phone.tapped("Pay") != 0 || phone.tapped("Large ¥18") != 1 {
		t.Errorf("taps %q: the second tap ran on the next page", phone.taps)
	}
}
