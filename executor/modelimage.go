package executor

import (
	"math"

	"github.com/fairy-go/fairy/perception"
)

// ModelImageFunc gives the size a w×h screen's picture is sent to the models at: a
// grounding model that answers in pixels answers in those of the picture its processor
// saw (UI-TARS, Qwen2.5-VL resize by smart_resize), so the picture is sent at that size
// already. (perception.ImageSize).Fit, chosen by the model's grounding family, is one.
type ModelImageFunc func(w, h int) (int, int)

// sentPicture is the size of the picture the models were sent and of the screen it
// shows: a point a model gives in the picture's pixels is mapped back by their ratio.
type sentPicture struct {
	w, h             int // the picture sent
	screenW, screenH int // the screen its points are mapped to
}

// toScreen maps a point in the sent picture's pixels to the screen's.
func (p sentPicture) toScreen(x, y float64) (int, int) {
	if p.w <= 0 || p.h <= 0 {
		return int(math.Round(x)), int(math.Round(y))
	}
	return int(math.Round(x * float64(p.screenW) / float64(p.w))), int(math.Round(y * float64(p.screenH) / float64(p.h)))
}

// fitPicture resizes the picture the models are to see (a full PNG screenshot, or the
// resident server's smaller MJPEG frame) to the size fit gives for the screen, and
// records that size. With no fit, or a screen of unknown size, the picture is sent as
// it is and its size is taken as the screen's. A picture that cannot be resized is sent as
// it is, with a warning: the decider's points are then mapped as screen pixels.
func (r *run) fitPicture(s *perception.Screen) {
	r.sent = sentPicture{}
	if s == nil || s.Width <= 0 || s.Height <= 0 {
		return
	}
	r.sent = sentPicture{w: s.Width, h: s.Height, screenW: s.Width, screenH: s.Height}
	if r.cfg.ModelImage == nil || r.image == nil {
		return
	}
	w, h := r.cfg.ModelImage(s.Width, s.Height)
	if w <= 0 || h <= 0 {
		return
	}
	img, err := perception.ResizePicture(r.image, w, h)
	if err != nil {
		r.e.log.Warn("picture for the model not resized", logErr, err)
		return
	}
	r.image, r.imageMIME = img, "image/jpeg"
	r.sent.w, r.sent.h = w, h
}
