package sim

import "strings"

// uiautomator dump: the screen's accessibility tree as XML (the format is dump.go's).

func cmdUiautomator(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 || c.args[1] != "dump" {
		c.errorf("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\n" +
			"runtest: executes UI automation tests\n    runtest <class spec> [options]\n\n" +
			"dump: creates an XML dump of current UI hierarchy\n    dump [--verbose][file]\n" +
			"      [--compressed]: dumps compressed layout information.\n      [file]: " +
			"the location where the dumped XML should be stored, default is\n      /sdcard/window_dump.xml\n\n" +
			"events: prints out accessibility events until terminated\n")
		if len(c.args) < 2 {
			return 1
		}
		return 0
	}
	file := "/sdcard/window_dump.xml"
	for _, a := range c.args[2:] {
		if !strings.HasPrefix(a, "--") {
			file = a
		}
	}
	if p.faults.Idle > 0 {
		limit := p.faults.IdleRun
		if limit <= 0 {
			limit = 2
		}
		if p.idleRun < limit && p.rng.Float64() < p.faults.Idle {
			p.idleRun++
			// AccessibilityNodeInfoDumper prints this to stderr and the command still exits 0.
			c.errorf("ERROR: could not get idle state.\n")
			return 0
		}
		p.idleRun = 0
	}
	xml := p.dumpLocked()
	switch cleanPath(file) {
	case "/dev/tty", "/dev/stdout", "/proc/self/fd/1":
		_, _ = c.stdout.Write(xml)
	default:
		if err := p.fs.writeFile(file, xml, 0o660, p.cfg.Clock()); err != nil {
			c.errorf("java.io.FileNotFoundException: %s: open failed: ENOENT (No such file or directory)\n", file)
			return 0
		}
	}
	c.printf("UI hierchary dumped to: %s\n", file)
	return 0
}
