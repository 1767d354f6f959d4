package main

import (
	"fmt"
	"github.com/fairy-go/fairy/grounding"
	"image"
	"math"
	"slices"
)

// frameKind is a coordinate frame a grounding model may answer in. At merge it maps to
// package grounding's Frame kinds: frameImage and frameScreen are Absolute (of the picture
// sent, of the screen), the others Norm999, Norm1000 and Unit.
type frameKind string

const (
	frameImage  frameKind = "image-pixels"  // absolute pixels of the picture the model was sent
	frameScreen frameKind = "screen-pixels" // absolute pixels of the phone's screen
	frame999    frameKind = "0-999"
	frame1000   frameKind = "0-1000"
	frameUnit   frameKind = "0-1"
)

// grounding is the frame the decider reads the model's points in: an Absolute frame
// without a size is the picture sent at each step (the family's size), which is what the
// probe's image pixels were; screen pixels are the phone's screen, as Absolute of its size
// is the picture too, as prepareGrounding then sends the screen unscaled.
func (k frameKind) grounding() grounding.Frame {
	switch k {
	case frame999:
		return grounding.Frame{Kind: grounding.Norm999}
	case frame1000:
		return grounding.Frame{Kind: grounding.Norm1000}
	case frameUnit:
		return grounding.Frame{Kind: grounding.Unit}
	default:
		return grounding.Frame{Kind: grounding.Absolute}
	}
}

// frameOrder is the preference among frames that fit equally well: the documented frame
// first, then this order.
var frameOrder = []frameKind{frameImage, frame1000, frame999, frameUnit, frameScreen}

// describe says a frame in words.
func (k frameKind) describe(imageW, imageH, screenW, screenH int) string {
	switch k {
	case frameImage:
		return fmt.Sprintf("%s (absolute pixels of the picture sent, %dx%d)", k, imageW, imageH)
	case frameScreen:
		return fmt.Sprintf("%s (absolute pixels of the screen, %dx%d)", k, screenW, screenH)
	case frame999, frame1000, frameUnit:
		return fmt.Sprintf("%s (normalised, whatever the picture's size)", k)
	}
	return string(k)
}

// extent is how far the frame's numbers run on each axis.
func (k frameKind) extent(imageW, imageH, screenW, screenH int) (float64, float64) {
	switch k {
	case frameImage:
		return float64(imageW), float64(imageH)
	case frameScreen:
		return float64(screenW), float64(screenH)
	case frame999:
		return 999, 999
	case frame1000:
		return 1000, 1000
	}
	return 1, 1
}

// probeTap is one tap the probe asked for: the element's box on the screen and the point
// the model answered, in its own numbers.
type probeTap struct {
	Box  image.Rectangle
	X, Y float64
}

// frameFit is how well the taps fit one frame.
type frameFit struct {
	Frame   frameKind
	Hits    int     // taps that land inside their element (grown by the tolerance)
	MeanErr float64 // mean distance, in screen pixels, from each tap to its element's centre
}

// frameInference is what the probe concluded from the taps.
type frameInference struct {
	Best frameFit
	// Also are the other frames every tap fits as well (0-999 and 0-1000 differ by under
	// three pixels on a phone's screen; a picture sent at nearly the screen's size fits both
	// pixel frames): the probe cannot tell them apart, and says so.
	Also []frameFit
	// ScaleX and ScaleY are the frame's extent read from the taps alone (least squares of
	// the elements' centres on the numbers), whatever frame fits: 1000 for a model in 0-1000.
	ScaleX, ScaleY float64
}

// probeTolerance is how far outside its element a tap may land and still count, in screen
// pixels: a quantised model misclicks by a few dozen pixels.
func probeTolerance(screenW int) int { return max(8, screenW*3/100) }

// inferFrame finds the frame the taps fit: every tap inside its element, or all but one
// when there are four or more (a quantised model may miss one). Among frames that fit as
// many taps, the one whose taps sit nearest their elements' centres wins, within 2 pixels
// the documented frame, then frameOrder. No fitting frame is an error that says where
// the taps went.
func inferFrame(taps []probeTap, imageW, imageH, screenW, screenH int, documented frameKind) (frameInference, error) {
	var inf frameInference
	if len(taps) == 0 {
		return inf, fmt.Errorf("no taps to infer a frame from")
	}
	need := len(taps)
	if len(taps) >= 4 {
		need--
	}
	tol := probeTolerance(screenW)
	var fits []frameFit
	for _, k := range frameOrder {
		fw, fh := k.extent(imageW, imageH, screenW, screenH)
		if fw <= 0 || fh <= 0 {
			continue
		}
		f := frameFit{Frame: k}
		for _, t := range taps {
			sx, sy := t.X*float64(screenW)/fw, t.Y*float64(screenH)/fh
			if inside(t.Box, sx, sy, tol) {
				f.Hits++
			}
			c := t.Box.Min.Add(t.Box.Max).Div(2)
			f.MeanErr += math.Hypot(sx-float64(c.X), sy-float64(c.Y))
		}
		f.MeanErr /= float64(len(taps))
		if f.Hits >= need {
			fits = append(fits, f)
		}
	}
	inf.ScaleX, inf.ScaleY = readScale(taps, screenW, screenH)
	if len(fits) == 0 && len(taps) > 1 && sameTaps(taps) {
		return inf, fmt.Errorf("the taps fit no frame: every answer was the same point (%g,%g), "+
			"whichever element was named", taps[0].X, taps[0].Y)
	}
	if len(fits) == 0 {
		return inf, fmt.Errorf("the taps fit no frame (absolute pixels of the picture or the screen, 0-999, 0-1000, 0-1): "+
			"read as a frame of their own they run to %s x %s",
			scaleWord(inf.ScaleX), scaleWord(inf.ScaleY))
	}
	rank := func(k frameKind) int {
		if k == documented {
			return -1
		}
		return slices.Index(frameOrder, k)
	}
	mostHits := 0
	for _, f := range fits {
		mostHits = max(mostHits, f.Hits)
	}
	fits = slices.DeleteFunc(fits, func(f frameFit) bool { return f.Hits < mostHits })
	leastErr := math.Inf(1)
	for _, f := range fits {
		leastErr = min(leastErr, f.MeanErr)
	}
	slices.SortStableFunc(fits, func(a, b frameFit) int {
		aNear, bNear := a.MeanErr <= leastErr+2, b.MeanErr <= leastErr+2
		switch {
		case aNear != bNear && aNear:
			return -1
		case aNear != bNear:
			return 1
		case !aNear:
			return int(math.Copysign(1, a.MeanErr-b.MeanErr))
		}
		return rank(a.Frame) - rank(b.Frame)
	})
	inf.Best = fits[0]
	for _, f := range fits[1:] {
		if f.MeanErr <= leastErr+2 {
			inf.Also = append(inf.Also, f)
		}
	}
	return inf, nil
}

// sameTaps reports whether every tap is at the same point.
func sameTaps(taps []probeTap) bool {
	for _, t := range taps[1:] {
		if t.X != taps[0].X || t.Y != taps[0].Y {
			return false
		}
	}
	return true
}

// inside reports whether (x, y) is in r grown by tol.
func inside(r image.Rectangle, x, y float64, tol int) bool {
	return x >= float64(r.Min.X-tol) && x < float64(r.Max.X+tol) && y >= float64(r.Min.Y-tol) && y < float64(r.Max.Y+tol)
}

// readScale is the extent of the frame the taps were written in, per axis: the least
// squares k of centre = number × screen/k. 0 when the taps say nothing (all zero).
func readScale(taps []probeTap, screenW, screenH int) (float64, float64) {
	var xx, xc, yy, yc float64
	for _, t := range taps {
		c := t.Box.Min.Add(t.Box.Max).Div(2)
		xx += t.X * t.X
		xc += t.X * float64(c.X)
		yy += t.Y * t.Y
		yc += t.Y * float64(c.Y)
	}
	var kx, ky float64
	if xc != 0 {
		kx = float64(screenW) * xx / xc
	}
	if yc != 0 {
		ky = float64(screenH) * yy / yc
	}
	return kx, ky
}

// scaleWord writes an extent read from the taps: whole numbers above 10, else 3 digits.
func scaleWord(v float64) string {
	switch {
	case v == 0:
		return "nothing"
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "no size (numbers too large to be points)"
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
