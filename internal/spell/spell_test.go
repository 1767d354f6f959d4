package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"defualt", "default", 1}, {"maxwall", "max-wall", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}, {"备注", "备忘", 1}} {
		if got := Distance(tt.a, tt.b); got != tt.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		word  string
		known []string
		want  string
	}{
		{"taks", []string{"name", "tasks", "apps"}, ` (did you mean "tasks"?)`},
		{"instrucion", []string{"id", "instruction", "checks"}, ` (did you mean "instruction"?)`},
		{"zzzzzz", []string{"runs", "model"}, ""}, // far from every known word
		{"tasks", []string{"tasks"}, ""},          // known: nothing to suggest
		{"x", nil, ""},
	} {
		if got := DidYouMean(tt.word, tt.known); got != tt.want {
			t.Errorf("DidYouMean(%q, %v) = %q, want %q", tt.word, tt.known, got, tt.want)
		}
	}
}
