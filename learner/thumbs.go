package learner

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/memory"
	xdraw "golang.org/x/image/draw"
)

// Page pictures for the map view. The step's set-of-mark screenshot (the one the model
// sees; a secure screen has none) is shrunk to a small JPEG and filed with the page the
// first time the learner records it, and again once the stored picture is older than
// knowledge.ThumbMaxAge. It is the screenshot the run already took, so a picture costs no
// device call; it is made once per page per session, so a run pays the decoding (a few
// milliseconds) only on pages that need a picture.

// Thumbnail sizes: the picture is thumbWidth pixels wide (thumbMaxHeight at most) and its
// JPEG at most thumbTarget bytes, trading quality for size down to thumbMinQuality.
const (
	thumbWidth      = 180
	thumbMaxHeight  = 400
	thumbTarget     = 8 << 10
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
func (s *Session) pageThumb(app, key string, e memory.ScreenPerceived) *knowledge.Thumb {
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
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.BiLinear.Scale(dst, dst.Rect, src, sb, xdraw.Src, nil)
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
		w, h = w*3/4, h*3/4
		if w < 16 {
			return nil, fmt.Errorf("thumbnail: no picture fits %d bytes", knowledge.MaxThumbBytes)
		}
	}
}
