package mapview

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// The layout sizes captions and edge labels before a browser draws them, so it measures
// text with the Go font's advances, widened by textSlack: the page's sans-serif fonts
// (DejaVu Sans, Roboto, Segoe UI…) run up to about a tenth wider than Go Regular, and a
// measure that errs wide wraps a caption a line early instead of cutting it off. CJK
// characters take one em, as in every CJK font.
const textSlack = 1.15

var goFace = sync.OnceValue(func() font.Face {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 100, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	return face
})

// textWidth is the width of s in CSS pixels at a font size of px.
func textWidth(s string, px float64) float64 {
	face := goFace()
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 0x2E80 || unicode.Is(unicode.Han, r):
			w += px
		case face != nil:
			if a, ok := face.GlyphAdvance(r); ok {
				w += float64(a) / 64 / 100 * px * textSlack
				continue
			}
			w += px * 0.6
		default:
			w += px * 0.6
		}
	}
	return w
}

// wrapCount is how many lines s takes in a box width px wide at font size px, breaking
// at spaces, and inside a word (or CJK text) that does not fit a line, as CSS
// word-break: break-word does.
func wrapCount(s string, px, width float64) int {
	lines, cur := 0, 0.0
	for _, word := range strings.Fields(s) {
		ww := textWidth(word, px)
		sp := textWidth(" ", px)
		if cur > 0 && cur+sp+ww <= width {
			cur += sp + ww
			continue
		}
		if cur > 0 || lines == 0 {
			lines++
			cur = 0
		}
		if ww <= width {
			cur = ww
			continue
		}
		for _, r := range word { // a word wider than the line breaks where it must
			rw := textWidth(string(r), px)
			if cur+rw > width && cur > 0 {
				lines++
				cur = 0
			}
			cur += rw
		}
	}
	return max(lines, 1)
}
