package androidworld

import (
	"context"
	"fmt"
	"regexp"

	"github.com/fairy-go/fairy/eval/suite"
)

// Checks: the app in front.

var resumedRE = regexp.MustCompile(`mResumedActivity: ActivityRecord\{\S+ \S+ ([^/\s]+)/`)

func foreground(ctx context.Context, p suite.Probe) (string, error) {
	out, err := shell(ctx, p, "dumpsys activity activities")
	if err != nil {
		return "", err
	}
	m := resumedRE.FindStringSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("dumpsys activity names no resumed activity")
	}
	return m[1], nil
}

// foregroundCheck: the package in front, read from `dumpsys activity` as the benchmark
// reads the current activity.
type foregroundCheck struct{ Package string }

func (c *foregroundCheck) Kind() string     { return "foreground" }
func (c *foregroundCheck) Virtual() bool    { return false }
func (c *foregroundCheck) Describe() string { return c.Package + " in front" }
func (c *foregroundCheck) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	fg, err := foreground(ctx, p)
	if err != nil {
		return false, "", err
	}
	return fg == c.Package, "in front: " + fg, nil
}
