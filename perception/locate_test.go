package perception

import "testing"

// TestElementNames: an element is named by its label, else its text, description,
// resource id, role; a text field by what it is for (hint, description, id), never by
// what it holds, and a field not known is "the focused field".
func TestElementNames(t *testing.T) {
	for _, tc := range []struct {
		e           *Element
		name, field string
	}{
		{&Element{Label: "Send", Text: "x", Desc: "d", Role: "button"}, "Send", `"d"`},
		{&Element{Text: "hunter2", Hint: "Password", Role: "input", Password: true}, "hunter2", `"Password"`},
		{&Element{Desc: "Search", Role: "input", Text: "secret plans"}, "secret plans", `"Search"`},
		{&Element{ResourceID: "com.fairy.sms:id/compose", Role: "input"}, "com.fairy.sms:id/compose", "the field compose"},
		{&Element{Role: "input"}, "input", "the input"},
		{&Element{Hint: "Tab\there", Role: "input"}, "input", `"Tab\there"`},
	} {
		if got := tc.e.Name(); got != tc.name {
			t.Errorf("%+v: name %q, want %q", tc.e, got, tc.name)
		}
		if got := tc.e.FieldName(); got != tc.field {
			t.Errorf("%+v: field name %q, want %q", tc.e, got, tc.field)
		}
	}
	var none *Element
	if got := none.FieldName(); got != "the focused field" {
		t.Errorf("no field: %q", got)
	}
}

// TestElementAt: a point is on the smallest element whose bounds hold it (bounds are
// half-open: the right and bottom edges are the next element's); off every element it is
// on the text read from the picture within a drawn control's reach; else on nothing.
func TestElementAt(t *testing.T) {
	s := &Screen{Width: 1000, Height: 2000, Elements: []Element{
		{Index: 1, Role: "list", Bounds: Bounds{X1: 0, Y1: 0, X2: 1000, Y2: 1000}},
		{Index: 2, Role: "button", Label: "Pay", Bounds: Bounds{X1: 100, Y1: 100, X2: 300, Y2: 200}},
		{Index: 3, Role: "text", Label: "Pay ¥36", FromPicture: true, Bounds: Bounds{X1: 400, Y1: 1500, X2: 600, Y2: 1540}},
	}}
	for _, tc := range []struct {
		x, y, want int
	}{
		{150, 150, 2},  // the button inside the list
		{300, 150, 1},  // the button's right edge is outside it
		{50, 50, 1},    // only the list
		{380, 1530, 3}, // beside the drawn text, within its reach (1/20 of the width)
		{500, 1570, 3}, // below it, within its height
		{500, 1600, 0}, // too far below
		{340, 1520, 0}, // too far beside
	} {
		got := s.ElementAt(tc.x, tc.y)
		if (got == nil) != (tc.want == 0) || got != nil && got.Index != tc.want {
			t.Errorf("(%d, %d): %+v, want element %d", tc.x, tc.y, got, tc.want)
		}
	}
	if got := s.ReadNear(150, 150); got != nil {
		t.Errorf("ReadNear on a button away from drawn text: %+v, want nil", got)
	}
}

// TestFocused: the focused text field comes before a focused container; a screen with
// nothing focused, or none at all, has no focus.
func TestFocused(t *testing.T) {
	s := &Screen{Elements: []Element{
		{Index: 1, Role: "list", Focused: true},
		{Index: 2, Role: "button"},
		{Index: 3, Role: "input", Editable: true, Focused: true},
	}}
	if f := s.Focused(); f == nil || f.Index != 3 {
		t.Errorf("focus %+v, want the text field [3]", f)
	}
	s.Elements[2].Focused = false
	if f := s.Focused(); f == nil || f.Index != 1 {
		t.Errorf("focus %+v, want the list [1]", f)
	}
	s.Elements[0].Focused = false
	if f := s.Focused(); f != nil {
		t.Errorf("focus %+v, want none", f)
	}
	if f := (*Screen)(nil).Focused(); f != nil {
		t.Errorf("no screen: focus %+v", f)
	}
}
