package perception

import (
	"image"
	"image/color"
	"slices"
	"sort"

	xdraw "golang.org/x/image/draw"
)

// Text is found before it is read: whole-region OCR misses exactly the words that matter
// (light text on a coloured button, a digit alone on a key), because an OCR engine
// binarises a page with one threshold and expects dark text on light paper. So the region
// is searched for text lines first (strokes are where the colour changes sharply; flat
// fills, outlines of buttons and cards are not text), each line is cut out, turned dark on
// light by comparing it with its own background, scaled to the height the engine reads
// best, and the lines are stacked into one strip image, read in one pass.

// lineBox is a text line found in a region: its box in screen pixels, and whether it
// holds a character drawn like a CJK ideograph (see looksWide).
type lineBox struct {
	r    image.Rectangle
	wide bool
}

// Tuning of the search, in screen pixels.
const (
	edgeStep     = 24  // a luminance step that counts as a stroke edge
	minLineH     = 8   // lower lines are rules, borders or noise
	maxLineH     = 160 // higher components are pictures or frames
	stripHeight  = 52  // the text height the strip gives each line: Tesseract reads best at 30–40 px
	stripPad     = 12  // white around each line in the strip
	inkFloor     = 24  // nearer the line's background than this is background (noise, shading)
	maxLinesRead = 80  // lines read per region at most (a picture full of edges is not text)
	wideInk      = 9   // edge pixels per pixel of size that make a glyph an ideograph
)

// gray converts r of img to luminance (0..255), row-major.
func gray(img image.Image, r image.Rectangle) []uint8 {
	w, h := r.Dx(), r.Dy()
	g := make([]uint8, w*h)
	if pix, stride, rect, ok := rgbaPix(img); ok {
		for y := 0; y < h; y++ {
			row := pix[(r.Min.Y+y-rect.Min.Y)*stride+(r.Min.X-rect.Min.X)*4:]
			for x := 0; x < w; x++ {
				p := row[x*4:]
				g[y*w+x] = uint8((299*uint32(p[0]) + 587*uint32(p[1]) + 114*uint32(p[2])) / 1000)
			}
		}
		return g
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.GrayModel.Convert(img.At(r.Min.X+x, r.Min.Y+y)).(color.Gray)
			g[y*w+x] = c.Y
		}
	}
	return g
}

// rgbaPix gives the pixels of an RGBA or opaque NRGBA image (what a screencap PNG decodes
// to): 4 bytes a pixel, red first.
func rgbaPix(img image.Image) (pix []uint8, stride int, r image.Rectangle, ok bool) {
	switch m := img.(type) {
	case *image.RGBA:
		return m.Pix, m.Stride, m.Rect, true
	case *image.NRGBA:
		return m.Pix, m.Stride, m.Rect, true
	}
	return nil, 0, image.Rectangle{}, false
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// findLines returns the text lines of region r of img, top to bottom, left to right.
func findLines(img image.Image, r image.Rectangle) []lineBox {
	r = r.Intersect(img.Bounds())
	w, h := r.Dx(), r.Dy()
	if w < minLineH || h < minLineH {
		return nil
	}
	g := gray(img, r)
	// Edge mask: a pixel whose right or lower neighbour differs by a stroke's step.
	edge := make([]bool, w*h)
	for y := 0; y < h-1; y++ {
		for x := 0; x < w-1; x++ {
			v := g[y*w+x]
			if absDiff(v, g[y*w+x+1]) >= edgeStep || absDiff(v, g[(y+1)*w+x]) >= edgeStep {
				edge[y*w+x] = true
			}
		}
	}
	// Connected components (8-neighbour) of the edge mask.
	type comp struct {
		box image.Rectangle
		n   int
	}
	var comps []comp
	label := make([]int32, w*h)
	stack := make([]int32, 0, 1024)
	for i := range edge {
		if !edge[i] || label[i] != 0 {
			continue
		}
		id := int32(len(comps) + 1)
		c := comp{box: image.Rect(i%w, i/w, i%w+1, i/w+1)}
		label[i] = id
		stack = append(stack[:0], int32(i))
		for len(stack) > 0 {
			p := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			px, py := p%w, p/w
			c.n++
			c.box = c.box.Union(image.Rect(px, py, px+1, py+1))
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					nx, ny := px+dx, py+dy
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					q := ny*w + nx
					if edge[q] && label[q] == 0 {
						label[q] = id
						stack = append(stack, int32(q))
					}
				}
			}
		}
		comps = append(comps, c)
	}
	// Keep what can be a glyph: not a rule (too thin), not a frame (large and hollow).
	var glyphs []image.Rectangle
	ink := map[image.Rectangle]int{} // edge pixels of each glyph
	for _, c := range comps {
		bw, bh := c.box.Dx(), c.box.Dy()
		if bh > maxLineH || bw > 4*maxLineH {
			continue
		}
		if bh < 3 || (bh < minLineH && bw > 6*bh) {
			continue // a rule or the edge of a flat fill
		}
		if max(bw, bh) > 48 && c.n*100 < bw*bh*8 {
			continue // a hollow outline: a button's or card's frame, a ring
		}
		glyphs = append(glyphs, c.box)
		ink[c.box] += c.n
	}
	// Group glyphs into lines: overlapping rows, gaps under a glyph's height.
	sort.Slice(glyphs, func(i, j int) bool { return glyphs[i].Min.X < glyphs[j].Min.X })
	var lines []image.Rectangle
	var members [][]glyphInk
	used := make([]bool, len(glyphs))
	for i := range glyphs {
		if used[i] {
			continue
		}
		used[i] = true
		line := glyphs[i]
		mem := []glyphInk{{glyphs[i], ink[glyphs[i]]}}
		for grown := true; grown; {
			grown = false
			for j := range glyphs {
				if used[j] {
					continue
				}
				gj := glyphs[j]
				lh := line.Dy()
				ov := min(line.Max.Y, gj.Max.Y) - max(line.Min.Y, gj.Min.Y)
				if ov*2 < min(lh, gj.Dy()) {
					continue
				}
				gap := max(gj.Min.X-line.Max.X, line.Min.X-gj.Max.X)
				if gap > max(lh, gj.Dy())*3/4 {
					continue
				}
				line = line.Union(gj)
				mem = append(mem, glyphInk{gj, ink[gj]})
				used[j] = true
				grown = true
			}
		}
		if line.Dy() >= minLineH && line.Dy() <= maxLineH {
			lines = append(lines, line)
			members = append(members, mem)
		}
	}
	out := make([]lineBox, len(lines))
	for i, l := range lines {
		out[i] = lineBox{r: l.Add(r.Min), wide: looksWide(l, members[i])}
	}
	slices.SortFunc(out, func(a, b lineBox) int {
		if a.r.Max.Y <= b.r.Min.Y {
			return -1
		}
		if b.r.Max.Y <= a.r.Min.Y {
			return 1
		}
		return a.r.Min.X - b.r.Min.X
	})
	if len(out) > maxLinesRead {
		out = out[:maxLinesRead]
	}
	return out
}

// glyphInk is a glyph outline found on a line: its box and how many edge pixels it has.
type glyphInk struct {
	r image.Rectangle
	n int
}

// looksWide reports a line holding a character drawn like a CJK ideograph: one glyph
// outline about as wide and as high as the line, dense with strokes (an ideograph's
// edges run many times its size; a Latin capital's a few). A false alarm costs only a
// second reading (see pickReading).
func looksWide(line image.Rectangle, glyphs []glyphInk) bool {
	h := line.Dy()
	for _, g := range glyphs {
		w, gh := g.r.Dx(), g.r.Dy()
		if w*10 >= h*8 && gh*10 >= h*8 && w*10 <= h*14 && g.n >= wideInk*max(w, gh) {
			return true
		}
	}
	return false
}

// strip is the image OCR reads: each line dark on white, scaled to stripHeight, one under
// the other; rows[i] is the y range of line i in it.
type strip struct {
	img  *image.Gray
	rows [][2]int
}

// buildStrip cuts the lines out of img and stacks them.
func buildStrip(img image.Image, lines []lineBox) strip {
	type piece struct {
		g    []uint8
		w, h int
	}
	pieces := make([]piece, len(lines))
	width := 0
	for i, l := range lines {
		pad := max(2, l.r.Dy()/6)
		src := l.r.Inset(-pad).Intersect(img.Bounds())
		sw, sh := src.Dx(), src.Dy()
		g := gray(img, src)
		// The background is the commonest shade of the frame around the line.
		var hist [256]int
		for x := 0; x < sw; x++ {
			hist[g[x]]++
			hist[g[(sh-1)*sw+x]]++
		}
		for y := 0; y < sh; y++ {
			hist[g[y*sw]]++
			hist[g[y*sw+sw-1]]++
		}
		bg := 0
		for v := range hist {
			if hist[v] > hist[bg] {
				bg = v
			}
		}
		// Ink is how far a pixel is from the background, whatever the polarity: dark on
		// light in the strip, contrast stretched so the strongest ink is black; then the line
		// is resampled to stripHeight (a smooth kernel keeps the strokes' anti-aliasing).
		maxD := 1
		for _, v := range g {
			maxD = max(maxD, int(absDiff(v, uint8(bg))))
		}
		src8 := image.NewGray(image.Rect(0, 0, sw, sh))
		for k, v := range g {
			d := int(absDiff(v, uint8(bg)))
			if d < inkFloor {
				d = 0
			}
			src8.Pix[k] = uint8(255 - min(255, d*255/maxD))
		}
		scale := float64(stripHeight) / float64(l.r.Dy())
		dw, dh := max(1, int(float64(sw)*scale)), max(1, int(float64(sh)*scale))
		dst := image.NewGray(image.Rect(0, 0, dw, dh))
		xdraw.CatmullRom.Scale(dst, dst.Rect, src8, src8.Rect, xdraw.Src, nil)
		out := dst.Pix
		pieces[i] = piece{g: out, w: dw, h: dh}
		width = max(width, dw)
	}
	height := stripPad
	for _, p := range pieces {
		height += p.h + stripPad
	}
	im := image.NewGray(image.Rect(0, 0, width+2*stripPad, height))
	for i := range im.Pix {
		im.Pix[i] = 255
	}
	s := strip{img: im}
	y := stripPad
	for _, p := range pieces {
		for row := 0; row < p.h; row++ {
			copy(im.Pix[(y+row)*im.Stride+stripPad:], p.g[row*p.w:(row+1)*p.w])
		}
		s.rows = append(s.rows, [2]int{y, y + p.h})
		y += p.h + stripPad
	}
	return s
}

// lineOf is the strip row a word at y range [y0,y1) belongs to, or -1.
func (s strip) lineOf(y0, y1 int) int {
	best, bestOv := -1, 0
	for i, r := range s.rows {
		ov := min(y1, r[1]) - max(y0, r[0])
		if ov > bestOv {
			best, bestOv = i, ov
		}
	}
	return best
}
