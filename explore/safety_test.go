package explore

import (
	"testing"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/executor"
	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
)

// TestJudge: what the crawler leaves alone, and why — an element a tap on which once
// deleted a row among them, whatever its words; list rows and buttons that open a page are
// tapped.
func TestJudge(t *testing.T) {
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	row := perception.Bounds{X1: 0, Y1: 200, X2: 1080, Y2: 400}
	s := &perception.Screen{Elements: []perception.Element{
		{Index: 1, Role: "item", Label: "Display", Clickable: true, Enabled: true, Bounds: row},
		{Index: 2, Role: "item", Label: "Wi-Fi", Clickable: true, Enabled: true, Bounds: perception.Bounds{Y1: 400, X2: 1080, Y2: 600}},
		{Index: 3, Role: "switch", Checkable: true, Enabled: true, Bounds: perception.Bounds{X1: 900, Y1: 450, X2: 1000, Y2: 550},
			Center: perception.Point{X: 950, Y: 500}},
		{Index: 4, Role: "button", Label: "Clear storage", Clickable: true, Enabled: true},
		{Index: 5, Role: "button", Label: "Clear cache", Clickable: true, Enabled: true},
		{Index: 6, Role: "button", Label: "Force stop", Clickable: true, Enabled: true},
		{Index: 7, Role: "button", Label: "Open", Clickable: true, Enabled: true},
		{Index: 8, Role: "button", Label: "Navigate up", Clickable: true, Enabled: true},
		{Index: 9, Role: "input", Label: "Search", Clickable: true, Enabled: true, Editable: true},
		{Index: 10, Role: "checkbox", Label: "Remember me", Clickable: true, Enabled: true, Checkable: true},
		{Index: 11, Role: "button", Label: "OK", Clickable: true, Enabled: true},
		{Index: 12, Role: "button", Label: "Delete", Clickable: true, Enabled: true},
		{Index: 13, Role: "item", Label: "Open by default", Clickable: true, Enabled: true},
		{Index: 14, Role: "button", Label: "Pay now", Clickable: true, Enabled: true},
		{Index: 15, Role: "list", Scrollable: true, Enabled: true},
		{Index: 16, Role: "item", Label: "Storage & cache", Clickable: true},
		{Index: 17, Role: "button", Label: "Cancel", Clickable: true, Enabled: true},
		{Index: 18, Role: "tab", Label: "外卖", Clickable: true, Enabled: true},
		{Index: 19, Role: "button", Label: "提交订单", Clickable: true, Enabled: true},
		{Index: 20, Role: "button", Label: "Los", ResourceID: "com.fairy.tidy:id/go", Clickable: true, Enabled: true},
		{Index: 21, Role: "item", Label: "Birnen", ResourceID: "com.fairy.tidy:id/item_row", Clickable: true, Enabled: true},
	}}
	// A tap on the element with id go was once seen to delete a row.
	known := []event.LearnedEffect{{Category: "delete", Evidence: "deleted a row", ResourceID: "com.fairy.tidy:id/go", Label: "Go"}}
	want := map[int]string{
		1: "", 2: skipToggles, 3: skipNotTapped, 4: skipSensitive, 5: skipActs, 6: skipActs, 7: skipActs,
		8: skipBack, 9: skipTypes, 10: skipToggles, 11: skipActs, 12: skipSensitive, 13: "", 14: skipSensitive,
		15: skipNotTapped, 16: skipDisabled, 17: skipBack, 18: "", 19: skipSensitive, 20: skipSensitive, 21: "",
	}
	for i := range s.Elements {
		el := &s.Elements[i]
		if got := judge(g, el, s, known); got != want[el.Index] {
			t.Errorf("%s %q: %q, want %q", el.Role, el.Label, got, want[el.Index])
		}
	}
}

// Every executor.Device is a Device: the crawler drives the phone the agent drives.
var _ Device = executor.Device(nil)
