package icons

import (
	"image"
	"image/color"
)

// pixels is the colour of every pixel of a rectangle of a screenshot, 8 bits a channel.
type pixels struct {
	r    image.Rectangle
	rgb  []uint8 // 3 bytes a pixel, row by row
	w, h int
}

func readPixels(img image.Image, r image.Rectangle) *pixels {
	p := &pixels{r: r, w: r.Dx(), h: r.Dy(), rgb: make([]uint8, 0, 3*r.Dx()*r.Dy())}
	if m, ok := img.(*image.RGBA); ok {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := m.Pix[m.PixOffset(r.Min.X, y):m.PixOffset(r.Max.X, y)]
			for x := 0; x < len(row); x += 4 {
				p.rgb = append(p.rgb, row[x], row[x+1], row[x+2])
			}
		}
		return p
	}
	if m, ok := img.(*image.NRGBA); ok {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := m.Pix[m.PixOffset(r.Min.X, y):m.PixOffset(r.Max.X, y)]
			for x := 0; x < len(row); x += 4 {
				p.rgb = append(p.rgb, row[x], row[x+1], row[x+2])
			}
		}
		return p
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			p.rgb = append(p.rgb, c.R, c.G, c.B)
		}
	}
	return p
}

// quantised is a colour to 4 bits a channel, for finding the commonest.
func quantised(c []uint8) uint16 { return uint16(c[0]>>4)<<8 | uint16(c[1]>>4)<<4 | uint16(c[2]>>4) }

// commonest is the mean colour of the commonest quantised colour among the pixels in
// (at i for every i of idx).
func (p *pixels) commonest(idx []int) [3]uint8 {
	var count [4096]int32
	best := uint16(0)
	for _, i := range idx {
		q := quantised(p.rgb[3*i:])
		count[q]++
		if count[q] > count[best] {
			best = q
		}
	}
	var sum [3]int
	n := 0
	for _, i := range idx {
		if quantised(p.rgb[3*i:]) == best {
			sum[0] += int(p.rgb[3*i])
			sum[1] += int(p.rgb[3*i+1])
			sum[2] += int(p.rgb[3*i+2])
			n++
		}
	}
	if n == 0 {
		return [3]uint8{}
	}
	return [3]uint8{uint8(sum[0] / n), uint8(sum[1] / n), uint8(sum[2] / n)}
}

// inkFloor is the least difference from the background, on the largest channel, that is
// ink: anti-aliasing's faint edge and a photo's grain are not.
const inkFloor = 48

// ink is the ink of p against background bg: the pixels that differ from it by Otsu's
// threshold of the differences (at least inkFloor) — light on dark or dark on light, in
// any colour — without the shapes that touch a side of p where padded says p reaches
// past the element (what is drawn around it: a neighbour, a bar it sits on). nil when p
// is no picture of two tones, as an icon is, but a photo or a gradient: more than
// maxMidTones of its pixels lie halfway between the background and the ink.
func (p *pixels) ink(bg [3]uint8, padded [4]bool) *bitmap {
	diff := make([]uint8, p.w*p.h)
	var hist [256]int
	for i := range diff {
		c := p.rgb[3*i:]
		d := max(absDiff(c[0], bg[0]), absDiff(c[1], bg[1]), absDiff(c[2], bg[2]))
		diff[i] = d
		hist[d]++
	}
	t := max(otsu(&hist, len(diff)), inkFloor)
	inkSum, inkN := 0, 0
	for v := t; v < 256; v++ {
		inkSum += v * hist[v]
		inkN += hist[v]
	}
	if inkN == 0 {
		return nil
	}
	mean := inkSum / inkN
	mid := 0
	for v := mean / 4; v <= mean*3/4; v++ {
		mid += hist[v]
	}
	if mid*maxMidTones > len(diff) {
		return nil
	}
	b := newBitmap(p.w, p.h)
	for i, d := range diff {
		b.ink[i] = int(d) >= t
	}
	dropTouching(b, padded)
	return b
}

// maxMidTones: at most 1/maxMidTones of an icon's pixels are halfway between its two
// tones (its anti-aliased edge).
const maxMidTones = 6

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// otsu is the threshold that best splits the histogram in two (Otsu 1979).
func otsu(hist *[256]int, total int) int {
	var sum float64
	for v, n := range hist {
		sum += float64(v * n)
	}
	var sumB, best float64
	wB, t := 0, 0
	for v, n := range hist {
		wB += n
		if wB == 0 {
			continue
		}
		wF := total - wB
		if wF == 0 {
			break
		}
		sumB += float64(v * n)
		mB, mF := sumB/float64(wB), (sum-sumB)/float64(wF)
		if between := float64(wB) * float64(wF) * (mB - mF) * (mB - mF); between > best {
			best, t = between, v+1
		}
	}
	return t
}

// dropTouching clears the 8-connected shapes of ink that touch a side of b that sides
// marks (left, top, right, bottom).
func dropTouching(b *bitmap, sides [4]bool) {
	var stack []int
	push := func(x, y int) {
		if i := y*b.w + x; b.ink[i] {
			b.ink[i] = false
			stack = append(stack, i)
		}
	}
	for y := 0; y < b.h; y++ {
		if sides[0] {
			push(0, y)
		}
		if sides[2] {
			push(b.w-1, y)
		}
	}
	for x := 0; x < b.w; x++ {
		if sides[1] {
			push(x, 0)
		}
		if sides[3] {
			push(x, b.h-1)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := i%b.w, i/b.w
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx >= 0 && ny >= 0 && nx < b.w && ny < b.h {
					push(nx, ny)
				}
			}
		}
	}
}
