package table

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 steps", 1: "1 step", 2: "2 steps"} {
		if got := Count(n, "step", "steps"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
