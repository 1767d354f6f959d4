package sim

import "testing"

func TestInputTextRules(t *testing.T) {
	tests := []struct{ in, want string }{
		{"hello", "hello"},
		{"hello%sworld", "hello world"},
		{"100%", "100%"},
		{"%%s", "% "},
		{"a%sb%sc", "a b c"},
	}
	for _, tc := range tests {
		if got := androidText(tc.in); got != tc.want {
			t.Errorf("androidText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
