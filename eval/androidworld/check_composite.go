package androidworld

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval"
)

// Checks: composite tasks: partial credit.

// allCheck is a composite task's check: every part must hold to pass; the evidence gives
// the benchmark's partial credit (the fraction of parts that held).
type allCheck struct {
	Parts []eval.CustomCheck
}

func (c *allCheck) Kind() string { return "composite" }
func (c *allCheck) Virtual() bool {
	for _, p := range c.Parts {
		if p.Virtual() {
			return true
		}
	}
	return false
}

func (c *allCheck) Describe() string {
	var d []string
	for _, p := range c.Parts {
		d = append(d, p.Describe())
	}
	return "all of: " + strings.Join(d, "; ")
}

func (c *allCheck) Evaluate(ctx context.Context, p eval.Probe) (bool, string, error) {
	held := 0
	var ev []string
	for _, part := range c.Parts {
		ok, e, err := part.Evaluate(ctx, p)
		if err != nil {
			e = "error: " + err.Error()
		}
		if ok && err == nil {
			held++
		}
		ev = append(ev, fmt.Sprintf("[%t] %s", ok && err == nil, e))
	}
	score := float64(held) / float64(max(len(c.Parts), 1))
	return held == len(c.Parts), fmt.Sprintf("partial credit %.2f (%d of %d): %s", score, held, len(c.Parts), strings.Join(ev, "; ")), nil
}

var creditRE = regexp.MustCompile(`^partial credit [\d.]+ \((\d+) of (\d+)\)`)

// partialCredit reads the score an AllCheck wrote into its evidence (1 or 0 for others).
func partialCredit(r eval.CheckResult) float64 {
	if m := creditRE.FindStringSubmatch(r.Evidence); m != nil {
		held, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		if total > 0 {
			return float64(held) / float64(total)
		}
	}
	if r.Pass {
		return 1
	}
	return 0
}

func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// sameWhen compares two times of day (H:MM) or two dates (YYYY-M-D) by value.
func sameWhen(kind, a, b string) bool {
	layouts := []string{"15:04", "3:04"}
	if kind == "date" {
		layouts = []string{"2006-01-02", "2006-1-2"}
	}
	parse := func(s string) (time.Time, bool) {
		for _, l := range layouts {
			if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
				return t, true
			}
		}
		return time.Time{}, false
	}
	x, ok1 := parse(a)
	y, ok2 := parse(b)
	return ok1 && ok2 && x.Equal(y)
}
