package sim

import "strings"

// screencap: the screen as a PNG or raw RGBA pixels (drawn by render.go).

func cmdScreencap(p *Phone, c *cmdIO) int {
	pngOut := false
	var file string
	for _, a := range c.args[1:] {
		switch {
		case a == "-p":
			pngOut = true
		case strings.HasPrefix(a, "-"):
		default:
			file = a
		}
	}
	if file != "" && strings.HasSuffix(file, ".png") {
		pngOut = true
	}
	var data []byte
	if pngOut {
		b, err := p.screenshotLocked()
		if err != nil {
			c.errorf("Error: %v\n", err)
			return 1
		}
		data = b
	} else {
		img := p.renderLocked()
		hdr := make([]byte, 16)
		putLE(hdr[0:], uint32(img.Rect.Dx()))
		putLE(hdr[4:], uint32(img.Rect.Dy()))
		putLE(hdr[8:], 1) // PIXEL_FORMAT_RGBA_8888
		putLE(hdr[12:], 0)
		data = append(hdr, img.Pix...)
	}
	if file == "" {
		_, _ = c.stdout.Write(data)
		return 0
	}
	if err := p.fs.writeFile(file, data, 0o660, p.cfg.Clock()); err != nil {
		c.errorf("Error opening file: %s (No such file or directory)\n", file)
		return 1
	}
	return 0
}

func putLE(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
