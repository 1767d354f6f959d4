package perception

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"

	xdraw "golang.org/x/image/draw"
)

// ImageSize is the size a model wants its screen pictures at. A grounding model that
// answers in pixels answers in the pixels of the picture its processor saw, so the picture
// is sent at that size already and its points are mapped back by the same scale.
//
// With Factor set, the size is Qwen-VL's smart_resize (qwen_vl_utils, UI-TARS
// README_coordinates.md): each side a multiple of Factor, the area within MinPixels and
// MaxPixels, the aspect kept as far as that allows. With LongEdge set (and no Factor), the
// picture is only shrunk so its longer side is LongEdge. The zero value keeps the size.
type ImageSize struct {
	Factor    int
	MinPixels int
	MaxPixels int
	LongEdge  int
}

// Fit returns the size a w×h screen is sent at.
func (s ImageSize) Fit(w, h int) (int, int) {
	if w <= 0 || h <= 0 {
		return w, h
	}
	if s.Factor > 0 {
		return smartResize(w, h, s.Factor, s.MinPixels, s.MaxPixels)
	}
	if s.LongEdge > 0 && max(w, h) > s.LongEdge {
		k := float64(s.LongEdge) / float64(max(w, h))
		return max(1, int(math.Round(float64(w)*k))), max(1, int(math.Round(float64(h)*k)))
	}
	return w, h
}

// smartResize is Qwen-VL's smart_resize for a w×h picture.
func smartResize(w, h, factor, minPixels, maxPixels int) (int, int) {
	f := float64(factor)
	round := func(v float64) int { return max(factor, int(math.RoundToEven(v/f))*factor) } // Python rounds half to even
	floor := func(v float64) int { return max(factor, int(math.Floor(v/f))*factor) }
	ceil := func(v float64) int { return max(factor, int(math.Ceil(v/f))*factor) }
	hb, wb := round(float64(h)), round(float64(w))
	area := float64(w) * float64(h)
	switch {
	case maxPixels > 0 && hb*wb > maxPixels:
		beta := math.Sqrt(area / float64(maxPixels))
		hb, wb = floor(float64(h)/beta), floor(float64(w)/beta)
	case minPixels > 0 && hb*wb < minPixels:
		beta := math.Sqrt(float64(minPixels) / area)
		hb, wb = ceil(float64(h)*beta), ceil(float64(w)*beta)
	}
	return wb, hb
}

// ResizePicture decodes a PNG or JPEG picture of any size (a full screenshot, or the
// resident UI server's smaller MJPEG frame) and encodes it as a JPEG of exactly w×h.
// The size is reckoned from the screen, not from the picture, so a point in the result maps
// to the screen by screen/w whatever the picture it came from.
func ResizePicture(data []byte, w, h int) ([]byte, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("perception resize picture: %w: size %dx%d", errImage, w, h)
	}
	img, err := DecodeScreenshot(data)
	if err != nil {
		return nil, err
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if b := img.Bounds(); b.Dx() >= w && b.Dy() >= h {
		downscale(dst, img)
	} else {
		xdraw.ApproxBiLinear.Scale(dst, dst.Rect, img, b, xdraw.Src, nil)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}); err != nil {
		return nil, fmt.Errorf("perception resize picture: %w: %w", errImage, err)
	}
	return buf.Bytes(), nil
}
