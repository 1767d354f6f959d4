package perception

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Image formats a [Marker] encodes to.
const (
	FormatJPEG = "jpeg"
	FormatPNG  = "png"
)

// DefaultLongEdge is the long side, in pixels, of a set-of-mark image when
// MarkOptions.LongEdge is 0.
const DefaultLongEdge = 1280

// MarkOptions configures a [Marker]. The zero value gives a 1280-pixel JPEG.
type MarkOptions struct {
	// LongEdge is the longest side of the output image: larger screenshots
	// are downscaled to it, smaller ones are kept. 0 means DefaultLongEdge,
	// a negative value never scales.
	LongEdge int
	// Format is FormatJPEG (default) or FormatPNG.
	Format string
	// Quality is the JPEG quality, 1..100 (default 80).
	Quality int
	// LabelSize is the font size of the index labels in output pixels
	// (default: about 1/55 of LongEdge, at least 14).
	LabelSize float64
}

// Marker draws set-of-mark images: a numbered box over the screenshot for
// every indexed element, each number placed where it covers no text or icon
// of the screenshot and no other number, when the screen has such a spot
// near its box. A Marker is safe for concurrent use.
type Marker struct {
	opt    MarkOptions
	glyphs [10]glyph
	lineH  int // label text height (ascent + descent)
	ascent int
}

type glyph struct {
	mask    *image.Alpha
	off     image.Point // mask origin relative to the pen on the baseline
	advance int
}

// NewMarker checks the options and prepares the label font.
func NewMarker(opt MarkOptions) (*Marker, error) {
	if opt.LongEdge == 0 {
		opt.LongEdge = DefaultLongEdge
	}
	if opt.Format == "" {
		opt.Format = FormatJPEG
	}
	if opt.Format != FormatJPEG && opt.Format != FormatPNG {
		return nil, fmt.Errorf("perception marker: format %q: want %q or %q", opt.Format, FormatJPEG, FormatPNG)
	}
	if opt.Quality == 0 {
		opt.Quality = 80
	}
	if opt.Quality < 1 || opt.Quality > 100 {
		return nil, fmt.Errorf("perception marker: JPEG quality %d out of 1..100", opt.Quality)
	}
	if opt.LabelSize == 0 {
		opt.LabelSize = 22
		if opt.LongEdge > 0 {
			opt.LabelSize = max(14, float64(opt.LongEdge)/55)
		}
	}
	if opt.LabelSize < 4 || opt.LabelSize > 200 {
		return nil, fmt.Errorf("perception marker: label size %g out of 4..200", opt.LabelSize)
	}
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("perception marker: font: %w", err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: opt.LabelSize, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("perception marker: font face: %w", err)
	}
	defer face.Close()
	m := &Marker{opt: opt}
	// Digits only: the cap height is what the label needs, not the descent.
	var top, bottom int
	for d := range m.glyphs {
		dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, rune('0'+d))
		if !ok {
			return nil, fmt.Errorf("perception marker: font lacks digit %d", d)
		}
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
		m.glyphs[d] = glyph{mask: a, off: dr.Min, advance: adv.Round()}
		top, bottom = min(top, dr.Min.Y), max(bottom, dr.Max.Y)
	}
	m.ascent, m.lineH = -top, bottom-top
	return m, nil
}

// markColor cycles through dark, distinct colours white digits read well on.
func markColor(i int) color.RGBA {
	palette := [...]color.RGBA{
		{220, 20, 60, 255}, {0, 90, 200, 255}, {0, 130, 60, 255}, {200, 0, 160, 255},
		{210, 100, 0, 255}, {0, 120, 130, 255}, {110, 40, 200, 255}, {130, 70, 20, 255},
	}
	return palette[i%len(palette)]
}

// Annotate returns a copy of the screenshot, downscaled to the configured
// long edge, with the elements of s boxed and numbered. Element bounds are
// in screen coordinates and are scaled to the image (see [Screen.PictureScale]).
func (m *Marker) Annotate(shot image.Image, s *Screen) *image.RGBA {
	img, _ := m.annotate(shot, s)
	return img
}

// annotate is Annotate that also returns where each label went.
func (m *Marker) annotate(shot image.Image, s *Screen) (*image.RGBA, []image.Rectangle) {
	sb := shot.Bounds()
	w, h := sb.Dx(), sb.Dy()
	if le := m.opt.LongEdge; le > 0 && max(w, h) > le {
		if w >= h {
			w, h = le, max(1, h*le/w)
		} else {
			w, h = max(1, w*le/h), le
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if w == sb.Dx() && h == sb.Dy() {
		draw.Draw(dst, dst.Bounds(), shot, sb.Min, draw.Src)
	} else {
		downscale(dst, shot)
	}
	if s == nil || len(s.Elements) == 0 {
		return dst, nil
	}
	busy := newBusyMap(dst)
	fx, fy := s.PictureScale(sb)
	fx, fy = fx*float64(w)/float64(sb.Dx()), fy*float64(h)/float64(sb.Dy())
	thick := max(2, w/400)
	boxes := make([]image.Rectangle, len(s.Elements))
	for i := range s.Elements {
		b := s.Elements[i].Bounds
		r := image.Rect(int(float64(b.X1)*fx), int(float64(b.Y1)*fy), int(float64(b.X2)*fx+0.5), int(float64(b.Y2)*fy+0.5))
		boxes[i] = r.Intersect(dst.Bounds())
		drawFrame(dst, boxes[i], thick, markColor(i))
	}
	placed := make([]image.Rectangle, 0, len(boxes))
	for i, box := range boxes {
		if box.Empty() {
			continue
		}
		lr := m.placeLabel(dst.Bounds(), boxes, i, strconv.Itoa(s.Elements[i].Index), placed, busy)
		placed = append(placed, lr)
		m.drawLabel(dst, lr, strconv.Itoa(s.Elements[i].Index), markColor(i))
	}
	return dst, placed
}

// busyMap counts, for any rectangle of the image, the pixels where the picture
// changes sharply (text, icons, edges), with a summed-area table: a label on a
// rectangle without such pixels hides nothing but background.
type busyMap struct {
	w, h int
	sum  []int32 // (w+1)×(h+1), sum[y*(w+1)+x] = busy pixels above and left of (x,y)
}

// busyStep is how much a channel must change to the next pixel to the right or below
// for a pixel to be busy: anti-aliased text edges change far more, gradients and
// JPEG noise less.
const busyStep = 48

func newBusyMap(img *image.RGBA) *busyMap {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	bm := &busyMap{w: w, h: h, sum: make([]int32, (w+1)*(h+1))}
	differ := func(o, q int) bool {
		for c := 0; c < 3; c++ {
			d := int(img.Pix[o+c]) - int(img.Pix[q+c])
			if d > busyStep || d < -busyStep {
				return true
			}
		}
		return false
	}
	for y := 0; y < h; y++ {
		var row int32
		for x := 0; x < w; x++ {
			o := y*img.Stride + x*4
			if (x+1 < w && differ(o, o+4)) || (y+1 < h && differ(o, o+img.Stride)) {
				row++
			}
			bm.sum[(y+1)*(w+1)+x+1] = bm.sum[y*(w+1)+x+1] + row
		}
	}
	return bm
}

// count is the number of busy pixels in r.
func (bm *busyMap) count(r image.Rectangle) int {
	if bm == nil {
		return 0
	}
	r = r.Intersect(image.Rect(0, 0, bm.w, bm.h))
	if r.Empty() {
		return 0
	}
	at := func(x, y int) int32 { return bm.sum[y*(bm.w+1)+x] }
	return int(at(r.Max.X, r.Max.Y) - at(r.Min.X, r.Max.Y) - at(r.Max.X, r.Min.Y) + at(r.Min.X, r.Min.Y))
}

func drawFrame(dst *image.RGBA, r image.Rectangle, t int, c color.RGBA) {
	if r.Empty() {
		return
	}
	u := image.NewUniform(c)
	t = min(t, r.Dx()/2+1, r.Dy()/2+1)
	for _, e := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+t)},
		{image.Pt(r.Min.X, r.Max.Y-t), r.Max},
		{r.Min, image.Pt(r.Min.X+t, r.Max.Y)},
		{image.Pt(r.Max.X-t, r.Min.Y), r.Max},
	} {
		draw.Draw(dst, e, u, image.Point{}, draw.Src)
	}
}

func (m *Marker) labelSize(text string) image.Point {
	w := 0
	for i := 0; i < len(text); i++ {
		w += m.glyphs[text[i]-'0'].advance
	}
	pad := max(2, m.lineH/5)
	return image.Pt(w+2*pad, m.lineH+2*pad)
}

// placeLabel places the label of boxes[i]. It tries the corners inside and outside the
// box, then spots along its edges, and keeps the first that hides nothing: no busy pixel of
// the screenshot (text, icons) and no part of another element — one whose box does not
// hold this one's (a label on its own container is its own) and outside this box (a
// floating button's label on the button hides the row under the button no more than the
// button does). Else the one that hides least, text first. A label never overlaps a label
// placed before it: when every spot near the box is taken it goes to the nearest free one
// further out.
func (m *Marker) placeLabel(img image.Rectangle, boxes []image.Rectangle, i int, text string, placed []image.Rectangle, busy *busyMap) image.Rectangle {
	box := boxes[i]
	sz := m.labelSize(text)
	cands := []image.Point{
		box.Min,                              // inside, top left
		{box.Min.X, box.Min.Y - sz.Y},        // above, left
		{box.Max.X - sz.X, box.Min.Y},        // inside, top right
		{box.Min.X, box.Max.Y},               // below, left
		{box.Min.X, box.Max.Y - sz.Y},        // inside, bottom left
		{box.Max.X - sz.X, box.Max.Y - sz.Y}, // inside, bottom right
		{box.Min.X - sz.X, box.Min.Y},        // left of the box
		{box.Max.X, box.Min.Y},               // right of the box
		{box.Max.X - sz.X, box.Min.Y - sz.Y}, // above, right
		{box.Max.X - sz.X, box.Max.Y},        // below, right
	}
	// Along the top and bottom edges, inside and out, and down the sides.
	step := max(sz.X, box.Dx()/8)
	for x := box.Min.X + step; x < box.Max.X-sz.X; x += step {
		cands = append(cands, image.Pt(x, box.Min.Y), image.Pt(x, box.Max.Y-sz.Y), image.Pt(x, box.Min.Y-sz.Y), image.Pt(x, box.Max.Y))
	}
	step = max(sz.Y, box.Dy()/8)
	for y := box.Min.Y + step; y < box.Max.Y-sz.Y; y += step {
		cands = append(cands, image.Pt(box.Min.X, y), image.Pt(box.Max.X-sz.X, y), image.Pt(box.Min.X-sz.X, y), image.Pt(box.Max.X, y))
	}
	cands = append(cands, image.Pt((box.Min.X+box.Max.X-sz.X)/2, (box.Min.Y+box.Max.Y-sz.Y)/2)) // centre
	// Others: the boxes a label of this element must not hide.
	var others []image.Rectangle
	for j, b := range boxes {
		if j != i && !b.Empty() && !box.In(b) {
			others = append(others, b)
		}
	}
	cost := func(r image.Rectangle) int {
		// A hidden letter costs more than a hidden stretch of another element.
		c := busy.count(r) * sz.X * sz.Y
		for _, o := range others {
			if o.In(box) { // a part of this element: a row of a list
				c += area(r.Intersect(o))
				continue
			}
			for _, part := range outside(r.Intersect(o), box) { // another's, outside this box
				c += area(part)
			}
		}
		return c
	}
	best, bestCost := image.Rectangle{}, -1
	try := func(p image.Point) bool {
		r := onImage(image.Rectangle{Min: p, Max: p.Add(sz)}, img)
		for _, q := range placed {
			if r.Overlaps(q) {
				return false
			}
		}
		c := cost(r)
		if bestCost < 0 || c < bestCost {
			best, bestCost = r, c
		}
		return c == 0
	}
	for _, p := range cands {
		if try(p) {
			return best
		}
	}
	if bestCost >= 0 {
		return best
	}
	// Every spot near the box is taken: rings of spots further out, a label's height
	// apart, the best of the nearest ring that has a free one.
	g := max(1, sz.Y/2)
	for k := 1; k*g <= max(img.Dx(), img.Dy()); k++ {
		for dy := -k; dy <= k; dy++ {
			for dx := -k; dx <= k; dx++ {
				if max(abs(dx), abs(dy)) != k {
					continue
				}
				if try(box.Min.Add(image.Pt(dx*g, dy*g))) {
					return best
				}
			}
		}
		if bestCost >= 0 {
			return best
		}
	}
	// No free spot on the whole image (more labels than room): the corner, on top.
	return onImage(image.Rectangle{Min: box.Min, Max: box.Min.Add(sz)}, img)
}

// outside cuts r into the rectangles of it that lie outside box.
func outside(r, box image.Rectangle) []image.Rectangle {
	in := r.Intersect(box)
	if in.Empty() {
		return []image.Rectangle{r}
	}
	var out []image.Rectangle
	for _, p := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, in.Min.Y)},                        // above
		{image.Pt(r.Min.X, in.Max.Y), r.Max},                        // below
		{image.Pt(r.Min.X, in.Min.Y), image.Pt(in.Min.X, in.Max.Y)}, // left
		{image.Pt(in.Max.X, in.Min.Y), image.Pt(r.Max.X, in.Max.Y)}, // right
	} {
		if !p.Empty() {
			out = append(out, p)
		}
	}
	return out
}

// onImage shifts r to lie on img where it fits.
func onImage(r, img image.Rectangle) image.Rectangle {
	if r.Max.X > img.Max.X {
		r = r.Sub(image.Pt(r.Max.X-img.Max.X, 0))
	}
	if r.Max.Y > img.Max.Y {
		r = r.Sub(image.Pt(0, r.Max.Y-img.Max.Y))
	}
	if r.Min.X < img.Min.X {
		r = r.Add(image.Pt(img.Min.X-r.Min.X, 0))
	}
	if r.Min.Y < img.Min.Y {
		r = r.Add(image.Pt(0, img.Min.Y-r.Min.Y))
	}
	return r
}

func (m *Marker) drawLabel(dst *image.RGBA, r image.Rectangle, text string, bg color.RGBA) {
	draw.Draw(dst, r, image.NewUniform(bg), image.Point{}, draw.Src)
	pad := max(2, m.lineH/5)
	pen := image.Pt(r.Min.X+pad, r.Min.Y+pad+m.ascent)
	white := image.NewUniform(color.White)
	for i := 0; i < len(text); i++ {
		g := m.glyphs[text[i]-'0']
		gr := g.mask.Bounds().Add(pen.Add(g.off))
		draw.DrawMask(dst, gr, white, image.Point{}, g.mask, image.Point{}, draw.Over)
		pen.X += g.advance
	}
}

// Encode encodes img in the configured format and returns the bytes and
// their MIME type.
func (m *Marker) Encode(img image.Image) ([]byte, string, error) {
	var buf bytes.Buffer
	if m.opt.Format == FormatPNG {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, img); err != nil {
			return nil, "", fmt.Errorf("perception encode png: %w: %w", errImage, err)
		}
		return buf.Bytes(), "image/png", nil
	}
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: m.opt.Quality}); err != nil {
		return nil, "", fmt.Errorf("perception encode jpeg: %w: %w", errImage, err)
	}
	return buf.Bytes(), "image/jpeg", nil
}

// Render decodes a PNG or JPEG screenshot, annotates it with the elements
// of s and encodes it: the set-of-mark image for the model.
func (m *Marker) Render(shot []byte, s *Screen) ([]byte, string, error) {
	img, err := DecodeScreenshot(shot)
	if err != nil {
		return nil, "", err
	}
	return m.Encode(m.Annotate(img, s))
}

// DecodeScreenshot decodes a PNG (what screencap -p writes) or JPEG image.
func DecodeScreenshot(data []byte) (image.Image, error) {
	var (
		img image.Image
		err error
	)
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		img, err = png.Decode(bytes.NewReader(data))
	case bytes.HasPrefix(data, []byte("\xff\xd8")):
		img, err = jpeg.Decode(bytes.NewReader(data))
	default:
		return nil, fmt.Errorf("perception decode screenshot: %w: neither PNG nor JPEG", errImage)
	}
	if err != nil {
		return nil, fmt.Errorf("perception decode screenshot: %w: %w", errImage, err)
	}
	return img, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
