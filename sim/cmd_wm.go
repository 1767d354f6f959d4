package sim

// wm: the display size and density, and their overrides.

func cmdWm(p *Phone, c *cmdIO) int {
	if len(c.args) < 2 {
		c.errorf("Window manager (window) commands:\n  help\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n" +
			"  density [reset|DENSITY] [-d DISPLAY_ID]\n")
		return 1
	}
	switch c.args[1] {
	case "size":
		if len(c.args) > 2 {
			if c.args[2] == "reset" {
				p.wmSize = ""
			} else {
				p.wmSize = c.args[2]
			}
			return 0
		}
		c.printf("Physical size: %dx%d\n", p.cfg.Width, p.cfg.Height)
		if p.wmSize != "" {
			c.printf("Override size: %s\n", p.wmSize)
		}
	case "density":
		if len(c.args) > 2 {
			if c.args[2] == "reset" {
				p.wmDensity = ""
			} else {
				p.wmDensity = c.args[2]
			}
			return 0
		}
		c.printf("Physical density: %d\n", p.cfg.Density)
		if p.wmDensity != "" {
			c.printf("Override density: %s\n", p.wmDensity)
		}
	default:
		c.errorf("Unknown command: %s\n", c.args[1])
		return 255
	}
	return 0
}
