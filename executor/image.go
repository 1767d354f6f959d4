package executor

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"io"
)

// isBlack reports whether a screenshot is all (near) black, as FLAG_SECURE screens are.
// A uniform frame compresses to almost nothing, so only a PNG or JPEG far smaller than
// its pixel count is decoded (and then sampled on a grid): ordinary screenshots cost
// nothing here.
func isBlack(data []byte) bool {
	var (
		w, h   int
		decode func(io.Reader) (image.Image, error)
	)
	switch {
	case len(data) >= 24 && string(data[1:4]) == "PNG":
		w = int(binary.BigEndian.Uint32(data[16:20]))
		h = int(binary.BigEndian.Uint32(data[20:24]))
		decode = png.Decode
	case len(data) >= 2 && data[0] == 0xff && data[1] == 0xd8:
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return false
		}
		w, h, decode = cfg.Width, cfg.Height, jpeg.Decode
	default:
		return false
	}
	if w <= 0 || h <= 0 || len(data) > w*h/50+4096 {
		return false
	}
	img, err := decode(bytes.NewReader(data))
	if err != nil {
		return false
	}
	b := img.Bounds()
	if b.Empty() {
		return false
	}
	const grid = 24
	for gy := 0; gy < grid; gy++ {
		for gx := 0; gx < grid; gx++ {
			p := image.Pt(b.Min.X+(b.Dx()-1)*gx/(grid-1), b.Min.Y+(b.Dy()-1)*gy/(grid-1))
			r, g, bl, _ := img.At(p.X, p.Y).RGBA()
			if r > 0x0800 || g > 0x0800 || bl > 0x0800 {
				return false
			}
		}
	}
	return true
}
