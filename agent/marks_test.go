package agent

import "testing"

// TestNoMarksLeavesSetOfMarkOff: a decider that answers in coordinates reads the plain
// screen, so NoMarks builds no set-of-mark renderer; the default draws the marks.
func TestNoMarksLeavesSetOfMarkOff(t *testing.T) {
	a, err := New(Config{NoMarks: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.mark != nil {
		t.Error("set-of-mark renderer built with NoMarks")
	}
	if a, err = New(Config{}); err != nil || a.mark == nil {
		t.Errorf("no set-of-mark renderer by default (%v)", err)
	}
}
