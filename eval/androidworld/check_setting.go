package androidworld

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
)

// Checks: a setting, through `settings get`.

// settingCheck reads `settings get NS KEY` in the device's shell (as the benchmark does)
// and wants one of Want.
type settingCheck struct {
	Namespace, Key string
	Want           []string
}

func (c *settingCheck) Kind() string  { return "setting" }
func (c *settingCheck) Virtual() bool { return false }
func (c *settingCheck) Describe() string {
	return fmt.Sprintf("settings get %s %s is %s", c.Namespace, c.Key, strings.Join(c.Want, " or "))
}

func (c *settingCheck) Evaluate(ctx context.Context, p suite.Probe) (bool, string, error) {
	out, err := shell(ctx, p, "settings get "+c.Namespace+" "+c.Key)
	if err != nil {
		return false, "", err
	}
	v := strings.TrimSpace(out)
	return slices.Contains(c.Want, v), fmt.Sprintf("settings get %s %s → %s", c.Namespace, c.Key, v), nil
}

func shell(ctx context.Context, p suite.Probe, cmd string) (string, error) {
	if p.Shell != nil {
		return p.Shell(ctx, cmd)
	}
	if p.Phone != nil {
		var b strings.Builder
		if _, err := p.Phone.Shell(ctx, cmd, &b); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("no device shell")
}
