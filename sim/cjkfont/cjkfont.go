// Package cjkfont embeds the CJK glyphs the virtual phone draws: a subset of Droid Sans
// Fallback, Android's own CJK font (Apache License 2.0; see NOTICE), holding the Chinese,
// Japanese and Korean characters that the phone's apps, the demo and the built-in suite
// show, and CJK punctuation. The Go fonts the phone uses for other text have none.
// scripts/cjk-font.sh regenerates the subset after new CJK text is added; a character
// outside it is drawn as an outlined box. Pages that show the phone's text (report.html)
// embed it too, so that they read on a machine with no CJK font.
package cjkfont

import (
	_ "embed"
	"fmt"

	"golang.org/x/image/font/opentype"
)

// TTF is the subset font file (TrueType).
//
//go:embed DroidSansFallback-subset.ttf
var TTF []byte

// Family is the font family name pages give the embedded font.
const Family = "Fairy CJK"

// Parse parses TTF.
func Parse() (*opentype.Font, error) {
	f, err := opentype.Parse(TTF)
	if err != nil {
		return nil, fmt.Errorf("cjkfont: parse the embedded font: %w", err)
	}
	return f, nil
}
