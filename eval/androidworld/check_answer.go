package androidworld

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval"
)

// Checks: answers.

// answerKind says how answer parts compare.
type answerKind string

const (
	answerString answerKind = "string" // fuzzy 0.9
	answerNumber answerKind = "number" // within Tolerance
	answerDate   answerKind = "date"   // parsed; the same instant
)

// answerCheck is the information-retrieval check: the agent's answer split on commas,
// each part matched against one wanted part (in any order), as many parts as wanted.
type answerCheck struct {
	Want      []string
	As        answerKind
	Tolerance float64
}

func (c *answerCheck) Kind() string  { return "answer" }
func (c *answerCheck) Virtual() bool { return false }
func (c *answerCheck) Describe() string {
	return fmt.Sprintf("answer is %q (%s, part by part)", strings.Join(c.Want, ", "), c.As)
}

func (c *answerCheck) Evaluate(_ context.Context, p eval.Probe) (bool, string, error) {
	ok, why := c.match(p.Answer)
	return ok, fmt.Sprintf("answer %q: %s", p.Answer, why), nil
}

func splitAnswer(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if t := strings.TrimSpace(part); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func (c *answerCheck) match(answer string) (bool, string) {
	got := splitAnswer(answer)
	want := c.Want
	if len(got) != len(want) {
		return false, fmt.Sprintf("%d parts, want %d", len(got), len(want))
	}
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && c.partEqual(g, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false, fmt.Sprintf("no part matches %q", w)
		}
	}
	return true, "every part matches"
}

func (c *answerCheck) partEqual(got, want string) bool {
	switch c.As {
	case answerNumber:
		g, err1 := parseNumber(got)
		w, err2 := parseNumber(want)
		return err1 == nil && err2 == nil && math.Abs(g-w) <= c.Tolerance
	case answerDate:
		g, ok1 := parseDate(got)
		w, ok2 := parseDate(want)
		return ok1 && ok2 && g.Equal(w)
	}
	return fuzzyMatch(got, want)
}

var numberRE = regexp.MustCompile(`-?\d+(?:\.\d+)?`)

func parseNumber(s string) (float64, error) {
	m := numberRE.FindString(strings.ReplaceAll(s, ",", ""))
	if m == "" {
		return 0, fmt.Errorf("no number in %q", s)
	}
	return strconv.ParseFloat(m, 64)
}

var dateLayouts = []string{"January 2 2006 15:04", "January 2 2006", "2006-01-02 15:04", "2006-01-02", "Jan 2 2006 15:04", "Jan 2 2006", "01/02/2006"}

func parseDate(s string) (time.Time, bool) {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
