package learner

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/knowledge"
	xdraw "golang.org/x/image/draw"
)

// Page pictures for the map view. The step's set-of-mark screenshot (the one the model
// sees; a secure screen has none) is shrunk to a small JPEG and filed with the page the
// first time the learner records it, and again once the stored picture is older than
// knowledge.ThumbMaxAge. It is the screenshot the run already took, so a picture costs no
// device call; it is made once per page per session, so a run pays the decoding (a few
// milliseconds) only on pages that need a picture.

// Thumbnail sizes: the picture is thumbWidth pixels wide (thumbMaxHeight at most) and its
// JPEG at most thumbTarget bytes, trading quality for size down to thumbMinQuality. The map
// view draws a picture 108 pixels wide: a busy screen still gets 216, legible zoomed in.
const (
	thumbWidth      = 288
	thumbMaxHeight  = 640
	thumbTarget     = 15 << 10
	thumbMinQuality = 30
)

// thumbReader is the store's picture lookup; *knowledge.Store satisfies it. A store
// without it gets a picture per page per session.
type thumbReader interface {
	Thumb(app, key string) (knowledge.Thumb, bool, error)
}

// pageThumb returns the picture to file with page key of app at this step, or nil when
// the page has a fresh one (or the screen no picture). It remembers the pages it has
// seen this session; s.mu is held.
func (s *Session) pageThumb(app, key string, e event.ScreenPerceived) *knowledge.Thumb {
	if len(e.Marked) == 0 || e.Secure {
		return nil
	}
	id := app + "\x00" + key
	if s.pictured[id] {
		return nil
	}
	if s.pictured == nil {
		s.pictured = map[string]bool{}
	}
	s.pictured[id] = true
	if r, ok := s.l.cfg.Store.(thumbReader); ok {
		if th, found, err := r.Thumb(app, key); err == nil && found && !th.Stale(s.l.cfg.Clock()) {
			return nil
		}
	}
	b, err := thumbnail(e.Marked)
	if err != nil {
		s.l.log.Debug("no page picture", logApp, app, logStep, e.Step, logErr, err)
		return nil
	}
	return &knowledge.Thumb{JPEG: b, Taken: s.l.cfg.Clock().UTC()}
}

// thumbnail shrinks a PNG or JPEG screenshot to a small JPEG.
func thumbnail(shot []byte) ([]byte, error) {
	var src image.Image
	var err error
	switch {
	case bytes.HasPrefix(shot, []byte("\x89PNG")):
		src, err = png.Decode(bytes.NewReader(shot))
	case bytes.HasPrefix(shot, []byte{0xff, 0xd8}):
		src, err = jpeg.Decode(bytes.NewReader(shot))
	default:
		return nil, fmt.Errorf("thumbnail: the screenshot is neither PNG nor JPEG")
	}
	if err != nil {
		return nil, fmt.Errorf("thumbnail: %w", err)
	}
	sb := src.Bounds()
	if sb.Dx() < 8 || sb.Dy() < 8 {
		return nil, fmt.Errorf("thumbnail: a %dx%d screenshot is too small", sb.Dx(), sb.Dy())
	}
	w := min(thumbWidth, sb.Dx())
	h := sb.Dy() * w / sb.Dx()
	if h > thumbMaxHeight {
		h = thumbMaxHeight
		w = max(1, sb.Dx()*h/sb.Dy())
	}
	for {
		dst := shrink(src, w, h)
		var out []byte
		for q := 70; q >= thumbMinQuality; q -= 10 {
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: q}); err != nil {
				return nil, fmt.Errorf("thumbnail: %w", err)
			}
			out = buf.Bytes()
			if len(out) <= thumbTarget {
				return out, nil
			}
		}
		if len(out) <= knowledge.MaxThumbBytes && w <= 120 {
			return out, nil
		}
		// A busy screen: a smaller picture.
		src, sb = dst, dst.Bounds()
		w, h = w*3/4, h*3/4
		if w < 16 {
			return nil, fmt.Errorf("thumbnail: no picture fits %d bytes", knowledge.MaxThumbBytes)
		}
	}
}

// shrink scales src down to w×h. A JPEG (what the set-of-mark renderer sends) is shrunk
// in its own colour space: the brightness averaged over each target pixel's area, which
// keeps small text legible, and the colour taken at its centre — a few milliseconds for
// a phone screen, a fifth of what a general resampling kernel takes. An opaque RGBA
// screenshot (a PNG) is averaged over each area; anything else goes through
// x/image/draw.
func shrink(src image.Image, w, h int) image.Image {
	sb := src.Bounds()
	if w <= sb.Dx() && h <= sb.Dy() {
		switch s := src.(type) {
		case *image.RGBA:
			return shrinkRGBA(s.Pix, s.Stride, sb, w, h)
		case *image.NRGBA:
			if s.Opaque() {
				return shrinkRGBA(s.Pix, s.Stride, sb, w, h)
			}
		}
	}
	yc, ok := src.(*image.YCbCr)
	if !ok || w > sb.Dx() || h > sb.Dy() {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.BiLinear.Scale(dst, dst.Rect, src, sb, xdraw.Src, nil)
		return dst
	}
	dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio444)
	sw, sh := sb.Dx(), sb.Dy()
	for y := 0; y < h; y++ {
		sy0, sy1 := sb.Min.Y+y*sh/h, sb.Min.Y+(y+1)*sh/h
		for x := 0; x < w; x++ {
			sx0, sx1 := sb.Min.X+x*sw/w, sb.Min.X+(x+1)*sw/w
			var sum, n int
			for sy := sy0; sy < sy1; sy++ {
				row := yc.Y[yc.YOffset(sx0, sy) : yc.YOffset(sx0, sy)+(sx1-sx0)]
				for _, v := range row {
					sum += int(v)
				}
				n += len(row)
			}
			i := dst.YOffset(x, y)
			dst.Y[i] = uint8(sum / max(n, 1))
			c := yc.COffset((sx0+sx1)/2, (sy0+sy1)/2)
			dst.Cb[i], dst.Cr[i] = yc.Cb[c], yc.Cr[c]
		}
	}
	return dst
}

// shrinkRGBA averages the opaque RGBA pixels pix (rows stride bytes apart, bounds sb) over
// each of w×h areas.
func shrinkRGBA(pix []uint8, stride int, sb image.Rectangle, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sw, sh := sb.Dx(), sb.Dy()
	for y := 0; y < h; y++ {
		sy0, sy1 := y*sh/h, (y+1)*sh/h
		for x := 0; x < w; x++ {
			sx0, sx1 := x*sw/w, (x+1)*sw/w
			var r, g, b, n int
			for sy := sy0; sy < sy1; sy++ {
				row := pix[sy*stride+sx0*4 : sy*stride+sx1*4]
				for i := 0; i < len(row); i += 4 {
					r += int(row[i])
					g += int(row[i+1])
					b += int(row[i+2])
				}
				n += sx1 - sx0
			}
			n = max(n, 1)
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8(r/n), uint8(g/n), uint8(b/n), 0xff
		}
	}
	return dst
}
