package executor

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg" // screenshots some devices send
	_ "image/png"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// PixelReader reads the regions of a screen that its tree does not describe
// (perception.Screen.Uncovered) from the screenshot and adds the text it reads as elements
// (FromPicture); *perception.PixelReader satisfies it. nil: the agent works from the tree
// alone.
type PixelReader interface {
	Read(ctx context.Context, s *perception.Screen, shot image.Image) error
}

// readPixels reads what only the picture shows, when the tree leaves part of the screen
// undescribed: a screen the tree covers costs nothing (no decoding, no OCR). It returns
// the screenshot, taken here when the step did not take one (text-only mode).
func (r *run) readPixels(ctx context.Context, s *perception.Screen, shot []byte) []byte {
	if r.cfg.Pixels == nil || len(s.Uncovered) == 0 {
		return shot
	}
	if shot != nil && isBlack(shot) {
		return shot // a secure screen shows nothing to read
	}
	if shot == nil || pictureMIME(shot) != "image/png" {
		// Text is read at the screen's coordinates from lossless pixels: a JPEG picture
		// (scaled for a model) gives way to the full-size PNG screenshot.
		full, err := r.cfg.Device.Screenshot(ctx)
		if err != nil {
			r.e.log.Warn("screenshot for reading the picture failed", logErr, err)
			return shot
		}
		shot = full
	}
	if isBlack(shot) {
		return shot // a secure screen shows nothing to read
	}
	img, _, err := image.Decode(bytes.NewReader(shot))
	if err != nil {
		r.e.log.Warn("decode the screenshot to read it", logErr, err)
		return shot
	}
	s.Locale = r.phoneLocale(ctx)
	if err := r.cfg.Pixels.Read(ctx, s, img); err != nil {
		r.e.log.Warn("reading the picture failed; the screen is the tree's", logErr, err)
	}
	return shot
}

// phoneLocale is the phone's language, read once a task (see localeReporter); "" when
// the device cannot say.
func (r *run) phoneLocale(ctx context.Context) string {
	if r.locale != nil {
		return *r.locale
	}
	loc := ""
	if lr, ok := r.cfg.Device.(localeReporter); ok {
		var err error
		if loc, err = lr.Locale(ctx); err != nil {
			r.e.log.Warn("reading the phone's language failed; the picture is read by its scripts alone", logErr, err)
		}
	}
	r.locale = &loc
	return loc
}

// dumpRead reads the screen between the actions of a batch: the tree, and when the screen
// before the batch had text read from the picture, the picture too, so an action on read
// text is checked against what is drawn now.
func (r *run) dumpRead(ctx context.Context) (*perception.Screen, error) {
	s, err := r.dump(ctx)
	if err != nil || len(r.screen.Read) == 0 {
		return s, err
	}
	r.readPixels(ctx, s, nil)
	return s, nil
}

// readBoxes are the boxes read from the picture, for the trace and the run report.
func readBoxes(s *perception.Screen) []event.ReadBox {
	var out []event.ReadBox
	for _, b := range s.Read {
		out = append(out, event.ReadBox{Text: b.Text, Bounds: [4]int{b.Bounds.X1, b.Bounds.Y1, b.Bounds.X2, b.Bounds.Y2}})
	}
	return out
}
