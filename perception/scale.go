package perception

import (
	"image"

	xdraw "golang.org/x/image/draw"
)

// downscale fills dst with src shrunk to dst's size. Opaque RGBA/NRGBA
// sources (what screencap PNGs decode to) take a fast area-averaging path
// that keeps small text legible; anything else goes through x/image/draw.
func downscale(dst *image.RGBA, src image.Image) {
	var pix []uint8
	var stride int
	var r image.Rectangle
	switch s := src.(type) {
	case *image.RGBA:
		pix, stride, r = s.Pix, s.Stride, s.Rect
	case *image.NRGBA:
		if s.Opaque() {
			pix, stride, r = s.Pix, s.Stride, s.Rect
		}
	}
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	sw, sh := r.Dx(), r.Dy()
	if pix == nil || dw == 0 || dh == 0 || dw > sw || dh > sh {
		xdraw.ApproxBiLinear.Scale(dst, dst.Rect, src, src.Bounds(), xdraw.Src, nil)
		return
	}
	// Source column span of every destination column.
	x0 := make([]int, dw+1)
	for x := 0; x <= dw; x++ {
		x0[x] = x * sw / dw
	}
	acc := make([]uint32, dw*4) // sums for the current destination row
	for y := 0; y < dh; y++ {
		sy0, sy1 := y*sh/dh, (y+1)*sh/dh
		if sy1 <= sy0 {
			sy1 = sy0 + 1
		}
		clear(acc)
		for sy := sy0; sy < sy1; sy++ {
			row := pix[sy*stride : sy*stride+sw*4]
			for x := 0; x < dw; x++ {
				var r, g, b, a uint32
				for i := x0[x] * 4; i < x0[x+1]*4; i += 4 {
					p := row[i : i+4 : i+4]
					r += uint32(p[0])
					g += uint32(p[1])
					b += uint32(p[2])
					a += uint32(p[3])
				}
				o := x * 4
				acc[o] += r
				acc[o+1] += g
				acc[o+2] += b
				acc[o+3] += a
			}
		}
		drow := dst.Pix[y*dst.Stride : y*dst.Stride+dw*4]
		rows := uint32(sy1 - sy0)
		for x := 0; x < dw; x++ {
			n := rows * uint32(x0[x+1]-x0[x])
			if n == 0 {
				n = 1
			}
			o := x * 4
			half := n / 2
			drow[o] = uint8((acc[o] + half) / n)
			drow[o+1] = uint8((acc[o+1] + half) / n)
			drow[o+2] = uint8((acc[o+2] + half) / n)
			drow[o+3] = uint8((acc[o+3] + half) / n)
		}
	}
}
