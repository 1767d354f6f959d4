package androidworld

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fairy-go/fairy/eval/suite"
)

// Checks: composite tasks: partial credit.

// allCheck is a composite task's check, scored as the benchmark scores it: the fraction
// of its parts that held (TurnOnWifiAndOpenApp's (wifi + app) / 2), counted by
// suite_utils' mean success rate; the task passes when every part held.
type allCheck struct {
	Parts []suite.CustomCheck
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

func (c *allCheck) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	credit, ev, err := c.EvaluateCredit(ctx, p)
	return credit == 1, ev, err
}

// EvaluateCredit implements suite.CreditCheck: the fraction of the parts that held.
func (c *allCheck) EvaluateCredit(ctx context.Context, p suite.Probe) (float64, string, error) {
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
	return score, fmt.Sprintf("partial credit %.2f (%d of %d): %s", score, held, len(c.Parts), strings.Join(ev, "; ")), nil
}

// collateral gathers the collateral checks of the parts (nil when none has one).
func (c *allCheck) collateral() suite.CustomCheck {
	var all allCollateral
	for _, p := range c.Parts {
		if h, ok := p.(collateralHolder); ok {
			if cc := h.collateral(); cc != nil {
				all = append(all, cc)
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

// collateralHolder is a check with a collateral check beside it: what else changed,
// where the benchmark does not score it. The suite adds it to the task's checks.
type collateralHolder interface {
	collateral() suite.CustomCheck
}

// allCollateral is the collateral check of a composite's parts: nothing else changed in
// any of them.
type allCollateral []suite.CustomCheck

func (c allCollateral) Kind() string     { return "rows" }
func (c allCollateral) Virtual() bool    { return true }
func (c allCollateral) Collateral() bool { return true }
func (c allCollateral) Describe() string {
	var d []string
	for _, p := range c {
		d = append(d, p.Describe())
	}
	return strings.Join(d, "; ")
}

func (c allCollateral) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	pass := true
	var ev []string
	for _, part := range c {
		ok, e, err := part.Evaluate(ctx, p)
		if err != nil {
			return false, "", err
		}
		pass = pass && ok
		ev = append(ev, e)
	}
	return pass, strings.Join(ev, "; "), nil
}

var creditRE = regexp.MustCompile(`^partial credit [\d.]+ \((\d+) of (\d+)\)`)

// partialCredit is a check result's score: its credit (a composite's fraction), else
// the fraction an allCheck wrote into its evidence (reports written before Credit), else
// 1 or 0.
func partialCredit(r suite.CheckResult) float64 {
	if r.Credit != nil {
		return *r.Credit
	}
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
