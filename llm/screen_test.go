package llm

import (
	"reflect"
	"testing"
)

// TestScreenOf: the last screen of a prompt wins (an earlier screen in the history is not
// read), labels are unquoted, and id= and state words are split off.
func TestScreenOf(t *testing.T) {
	prompt := "Previous screen:\n- [1] button \"Old\"\n- [2] item \"Gone\"\n\nScreen:\n" +
		"- \"Title\"\n- [1] button \"Navigate up\"\n- [2] item \"Say \\\"hi\\\"\" id=row checked\n  - [3] switch id=toggle on\n"
	got := ScreenOf(prompt)
	want := []ScreenElement{
		{Index: 1, Role: "button", Label: "Navigate up"},
		{Index: 2, Role: "item", Label: `Say "hi"`, ID: "row", State: []string{"checked"}},
		{Index: 3, Role: "switch", ID: "toggle", State: []string{"on"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ScreenOf =\n%+v\nwant\n%+v", got, want)
	}
	if ScreenOf("no screen here") != nil {
		t.Error("a prompt without element lines has a screen")
	}
}
