package replay

import (
	"slices"
	"testing"
)

// TestFit: a routine's name fits a task when the task's words give every parameter; a row
// the person chose comes from their latest answer and the screen's labels, or stays blank.
func TestFit(t *testing.T) {
	labels := []string{"珍珠奶茶 Bubble tea ¥15", "红豆奶茶 Red bean ¥14"}
	tests := []struct {
		name, routine, task string
		chosen              []bool
		answers             []string
		want                []string
	}{
		{name: "no parameter, same task", routine: "Clear the cache", task: " clear the CACHE ", want: []string{}},
		{name: "no parameter, other task", routine: "Clear the cache", task: "Clear the cache of Maps"},
		{name: "row named by the task", routine: "Turn off notifications for {1}", task: "turn off notifications for Messages",
			chosen: []bool{false}, want: []string{"Messages"}},
		{name: "two parameters", routine: "Send {2} to {1}", task: "Send hello to Alice",
			chosen: []bool{false, false}, want: []string{"Alice", "hello"}},
		{name: "name does not match", routine: "Turn off notifications for {1}", task: "Turn on Wi-Fi", chosen: []bool{false}},
		{name: "typed text the name does not hold", routine: "Search", task: "Search", chosen: []bool{false}},
		{name: "chosen row from the answer", routine: "Order a milk tea", task: "order a milk tea", chosen: []bool{true},
			answers: []string{"no", "the person answered: 珍珠奶茶"}, want: []string{"珍珠奶茶 Bubble tea ¥15"}},
		{name: "chosen row not answered yet", routine: "Order a milk tea", task: "Order a milk tea", chosen: []bool{true},
			want: []string{""}},
		{name: "two chosen rows", routine: "Order a milk tea", task: "Order a milk tea", chosen: []bool{true, true},
			answers: []string{"珍珠奶茶"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fit(tt.routine, tt.task, tt.chosen, tt.answers, labels)
			if (got == nil) != (tt.want == nil) || !slices.Equal(got, tt.want) {
				t.Errorf("Fit(%q, %q) = %q, want %q", tt.routine, tt.task, got, tt.want)
			}
		})
	}
}

// TestTemplateFill: values become placeholders as whole words, longest first, and Fill
// puts arguments back; a placeholder with no argument stays.
func TestTemplateFill(t *testing.T) {
	values := []string{"Maps", "Google Maps", ""}
	name := Template("Turn off Google Maps notifications, not Mapsy", values)
	if want := "Turn off {2} notifications, not Mapsy"; name != want {
		t.Fatalf("Template = %q, want %q", name, want)
	}
	if got := Fill("All {1} notifications {3}", []string{"Messages"}); got != "All Messages notifications {3}" {
		t.Errorf("Fill = %q", got)
	}
	if got := Bare("Send {2} to {1}"); got != "Send   to  " {
		t.Errorf("Bare = %q", got)
	}
	if !HasWords("Open Maps now", "Maps") || HasWords("Open Mapsy", "Maps") || HasWords("anything", " ") {
		t.Error("HasWords does not match whole words only")
	}
	if !HasWords("点珍珠奶茶", "珍珠") {
		t.Error("HasWords: a value in a script without spaces matches anywhere")
	}
}

// TestBlank: a step needs an argument not known yet when its label holds a blank
// argument's placeholder or it types a blank argument.
func TestBlank(t *testing.T) {
	args := []string{"Maps", ""}
	for _, tc := range []struct {
		label string
		text  int
		want  bool
	}{
		{"Apps", 0, false},
		{"{1}", 0, false},
		{"{2} Bubble tea", 0, true},
		{"{3}", 0, false}, // no such parameter: not this replay's to wait for
		{"Search", 2, true},
		{"Search", 1, false},
	} {
		if got := Blank(tc.label, tc.text, args); got != tc.want {
			t.Errorf("Blank(%q, %d) = %v, want %v", tc.label, tc.text, got, tc.want)
		}
	}
}
