package sim

import (
	"slices"
	"strings"
)

// ime: the input methods (Gboard, the ADB keyboard), which are enabled and which is current.

func cmdIme(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n" +
			"  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n")
		return 1
	}
	lastArg := c.args[len(c.args)-1]
	switch c.args[1] {
	case "list":
		flags, _ := operands(c.args[2:])
		for _, id := range p.imes {
			if !strings.Contains(flags, "a") && !p.enabledIME[id] {
				continue
			}
			if strings.Contains(flags, "s") {
				c.printf("%s\n", id)
				continue
			}
			pkg := strings.SplitN(id, "/", 2)[0]
			c.printf("%s:\n  mId=%s mSettingsActivityName=null mIsVrOnly=false mSupportsSwitchingToNextInputMethod=false\n"+
				"  mIsDefaultResId=0x0\n  Service:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 "+
				"isDefault=false\n    ServiceInfo:\n      name=%s\n      packageName=%s\n"+
				"      enabled=true exported=true directBootAware=false\n      permission=android.permission.BIND_INPUT_METHOD\n", id, id, strings.SplitN(id, "/", 2)[1], pkg)
		}
		return 0
	case "enable", "disable":
		if !slices.Contains(p.imes, lastArg) || len(c.args) < 3 {
			c.errorf("Unknown input method %s cannot be enabled for user #0\n", lastArg)
			return 255
		}
		en := c.args[1] == "enable"
		was := p.enabledIME[lastArg]
		p.enabledIME[lastArg] = en
		if !en && p.currentIME == lastArg {
			p.currentIME = imeGboard
		}
		p.syncIMESettings()
		state := map[bool]string{true: "enabled", false: "disabled"}[en]
		if was == en {
			c.printf("Input method %s: already %s for user #0\n", lastArg, state)
		} else {
			c.printf("Input method %s: now %s for user #0\n", lastArg, state)
		}
		p.bump()
		return 0
	case "set":
		if !slices.Contains(p.imes, lastArg) || !p.enabledIME[lastArg] || len(c.args) < 3 {
			c.errorf("Unknown input method %s cannot be selected for user #0\n", lastArg)
			return 255
		}
		p.currentIME = lastArg
		p.syncIMESettings()
		p.bump()
		c.printf("Input method %s selected for user #0\n", lastArg)
		return 0
	case "reset":
		p.currentIME = imeGboard
		p.enabledIME = map[string]bool{imeGboard: true}
		p.syncIMESettings()
		p.bump()
		c.printf("Reset current and enabled IMEs for user #0\n  Selected: %s\n   Enabled: %s\n", imeGboard, imeGboard)
		return 0
	}
	c.errorf("Unknown command: %s\n", c.args[1])
	return 255
}

func (p *Phone) syncIMESettings() {
	var enabled []string
	for _, id := range p.imes {
		if p.enabledIME[id] {
			enabled = append(enabled, id)
		}
	}
	p.settings["secure"]["enabled_input_methods"] = strings.Join(enabled, ":")
	p.settings["secure"]["default_input_method"] = p.currentIME
}
