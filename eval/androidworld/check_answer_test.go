package androidworld

import (
	"math"
	"testing"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
)

// TestAnswerCheck: answers are cast as proto_utils.check_agent_answer casts them. Parts
// split on every comma (an empty part kept), stripped; strings fuzzy 0.9 case ignored;
// numbers by Python's float(), within a float32 tolerance; dates only in the benchmark's
// layout. Each part must match some wanted value, as many parts as wanted.
func TestAnswerCheck(t *testing.T) {
	tol := 0.1
	titles := answerCheck{Want: []string{"Meeting with Bob", "Call with HR"}, As: answerString}
	num := answerCheck{Want: []string{"12.5"}, As: answerNumber, Tolerance: &tol}
	exact := answerCheck{Want: []string{"12.5"}, As: answerNumber}
	when := answerCheck{Want: []string{"October 20 2023 14:00"}, As: answerDateTime}
	day := answerCheck{Want: []string{"October 05 2023"}, As: answerDate}
	at := answerCheck{Want: []string{"09:05"}, As: answerTime}
	for _, tc := range []struct {
		check  answerCheck
		answer string
		pass   bool
	}{
		{titles, "Call with HR, Meeting with Bob", true},
		{titles, "meeting with bob, call with hr", true},
		{titles, "  Meeting with Bob ,Call with HR\t", true},
		{titles, "Meeting with Bob, Call with the Team", false},
		{titles, "Meeting with Bob", false},
		{titles, "Meeting with Bob, Call with HR,", false}, // three parts, the last empty
		{titles, "Meeting with Bob,, Call with HR", false},
		{titles, "Meeting with Bob; Call with HR", false},
		{titles, "", false},
		// all(any(...)): the benchmark lets two parts match one wanted value.
		{titles, "Meeting with Bob, Meeting with Bob", true},
		{answerCheck{Want: []string{"Meeting with Bob"}, As: answerString}, "Meeting with Bob, Call with HR", false},
		{num, "12.54", true},
		{num, " 12.54\n", true},
		{num, "12.6", true}, // 0.0999… < float32(0.1)
		{num, "12.65", false},
		{num, "12.54 km", false}, // float("12.54 km") raises
		{num, "about 12.5", false},
		{num, "1_2.5", true},
		{exact, "12.50", true},
		{exact, "1.25e1", true},
		{exact, "12.51", false},
		{exact, "12,5", false},
		{when, "October 20 2023 14:00", true},
		{when, "october 20 2023 14:00", true},
		{when, "October  20 2023 14:00", true},
		{when, "October 20 2023 14:0", true},
		{when, "2023-10-20 14:00", false},
		{when, "Oct 20 2023 14:00", false},
		{when, "October 20, 2023 14:00", false},
		{when, "October 20 2023 2:00pm", false},
		{when, "October 20 2023 14:00:00", false},
		{when, "October 20 2023", false},
		{when, "October 21 2023 14:00", false},
		{day, "October 5 2023", true},
		{day, "October 05 2023", true},
		{day, "2023-10-05", false},
		{at, "9:05", true},
		{at, "09:05am", false},
	} {
		c := tc.check
		ok, ev, err := c.Evaluate(t.Context(), suite.Probe{Answer: tc.answer})
		if err != nil {
			t.Fatal(err)
		}
		if ok != tc.pass {
			t.Errorf("%s %v %q: pass=%t (%s), want %t", c.As, c.Want, tc.answer, ok, ev, tc.pass)
		}
	}
}

// TestPyFloat: what Python's float() takes from a string, and what it refuses.
func TestPyFloat(t *testing.T) {
	for s, want := range map[string]float64{"12.5": 12.5, " 12.5\n": 12.5, "-.5": -0.5, "5.": 5, "1e3": 1000, "+1E-2": 0.01, "1_000": 1000, "1_0.2_5": 10.25, "inf": math.Inf(1), "-Infinity": math.Inf(-1)} {
		if got, err := pyFloat(s); err != nil || got != want {
			t.Errorf("pyFloat(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if v, err := pyFloat("NaN"); err != nil || !math.IsNaN(v) {
		t.Errorf("pyFloat(NaN) = %v, %v", v, err)
	}
	for _, s := range []string{"", " ", "12.5 km", "1,000", "0x10", "1__0", "_1", "1_", "1_.5", "$5", "5%", "five", "1e", ".", "infinit"} {
		if v, err := pyFloat(s); err == nil {
			t.Errorf("pyFloat(%q) = %v, want an error", s, v)
		}
	}
}

// TestStrptime: the benchmark's layouts read as datetime.strptime reads them.
func TestStrptime(t *testing.T) {
	want := time.Date(2023, 10, 5, 9, 7, 0, 0, time.UTC)
	for _, s := range []string{"October 5 2023 9:07", "October 05 2023 09:07", "OCTOBER 5 2023 9:7", "October\t 5  2023 09:07"} {
		if got, err := strptime(s, irDateTimeLayout); err != nil || !got.Equal(want) {
			t.Errorf("strptime(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"February 30 2023 10:00", "October 5 2023 24:00", "October 5 2023 10:60", " October 5 2023 10:00", "October 5 23 10:00", "Octobre 5 2023 10:00", "10/05/2023 10:00"} {
		if got, err := strptime(s, irDateTimeLayout); err == nil {
			t.Errorf("strptime(%q) = %v, want an error", s, got)
		}
	}
	for s, hm := range map[string]string{"12am": "00:00", "12pm": "12:00", "12:00am": "00:00", "1:30pm": "13:30", "9:45am": "09:45", "21:45": "21:45", "8PM": "20:00", "11:00": "11:00"} {
		if got, err := parseTime(s); err != nil || got.Format("15:04") != hm {
			t.Errorf("parseTime(%q) = %v, %v; want %s", s, got, err, hm)
		}
	}
	for _, s := range []string{"13pm", "1:30 pm", "0am", "25:00", "noon"} {
		if got, err := parseTime(s); err == nil {
			t.Errorf("parseTime(%q) = %v, want an error", s, got)
		}
	}
}

// TestAnswerPairing: an answer the benchmark passes though a part repeats another is
// reported apart, as a collateral check; one it fails, or one that pairs, is not.
func TestAnswerPairing(t *testing.T) {
	c := &answerPairing{Answer: &answerCheck{Want: []string{"Concert", "Game night"}, As: answerString}}
	var _ suite.CollateralCheck = c
	for answer, want := range map[string]bool{"Concert, Game night": true, "game night, Concert": true, "Concert, Concert": false, "Concert": true, "Concert, Movie night": true} {
		ok, ev, err := c.Evaluate(t.Context(), suite.Probe{Answer: answer})
		if err != nil || ok != want {
			t.Errorf("%q: %t (%s) %v, want %t", answer, ok, ev, err, want)
		}
	}
	if !c.Collateral() {
		t.Error("not collateral")
	}
}
