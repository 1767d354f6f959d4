package sim

import (
	"sort"
	"strings"
)

// getprop and setprop: the system properties (the read-only ro.* ones cannot be set).

func cmdGetprop(p *Phone, c *cmdIO) int {
	if len(c.args) >= 2 {
		v, ok := p.props[c.args[1]]
		if !ok && len(c.args) >= 3 {
			v = c.args[2]
		}
		c.printf("%s\n", v)
		return 0
	}
	keys := make([]string, 0, len(p.props))
	for k := range p.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.printf("[%s]: [%s]\n", k, p.props[k])
	}
	return 0
}

func cmdSetprop(p *Phone, c *cmdIO) int {
	if len(c.args) != 3 {
		c.errorf("usage: setprop NAME VALUE\n")
		return 1
	}
	if strings.HasPrefix(c.args[1], "ro.") {
		c.errorf("Failed to set property '%s' to '%s'.\nSee dmesg for error reason.\n", c.args[1], c.args[2])
		return 1
	}
	p.props[c.args[1]] = c.args[2]
	return 0
}
