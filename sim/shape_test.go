package sim

import (
	"strings"
	"testing"

	gtfont "github.com/go-text/typesetting/font"

	"github.com/fairy-go/fairy/internal/testenv"
)

// needScriptFonts fails (under CI) or skips the test when the machine lacks the Noto fonts
// the phone draws script's text with (Debian fonts-noto-core, fonts-nanum for Korean; scripts/test.sh installs them).
func needScriptFonts(t *testing.T, fs *fontSet, sample rune) {
	t.Helper()
	for _, f := range fs.shapeFaces().regular {
		if _, ok := f.NominalGlyph(sample); ok {
			return
		}
	}
	testenv.Missing(t, "no font draws %c: install Debian's fonts-noto-core and fonts-nanum", sample)
}

// TestBidiDisplayOrder: a right-to-left label with an amount is drawn in display order, as
// a phone draws it: the words read from the right, the amount's digits left to right on
// their left (in Arabic the yen sign follows the digits, UAX #9 rule W2: digits after an
// Arabic letter are Arabic numbers, which a currency sign does not join).
func TestBidiDisplayOrder(t *testing.T) {
	fs, err := newFontSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		label string
		// left to right on the screen, by rune index in the label
		order []int
	}{
		// ا د ف ع ␠ ¥ 3 6: 36 then ¥ on the left, ادفع from the right.
		{"ادفع ¥36", []int{6, 7, 5, 3, 2, 1, 0}},
		// ל ת ש ל ו ם ␠ ¥ 3 6: ¥36 on the left, the word from the right.
		{"לתשלום ¥36", []int{7, 8, 9, 5, 4, 3, 2, 1, 0}},
		// Left to right with an Arabic word and a number inside: the number after the
		// Arabic word is nested in it (level 2), so it shows between Pay and the word.
		{"Pay ادفع 36", []int{0, 1, 2, 9, 10, 7, 6, 5, 4}},
		// A left-to-right paragraph keeps its order.
		{"Pay ¥36", []int{0, 1, 2, 4, 5, 6}},
	} {
		needScriptFonts(t, fs, []rune(tc.label)[0])
		line := fs.shapeLine(tc.label, 40, false)
		for k := 1; k < len(tc.order); k++ {
			a, b := tc.order[k-1], tc.order[k]
			if line.at[a] >= line.at[b] {
				t.Errorf("%q: rune %d %q drawn at x=%v, not left of rune %d %q at x=%v", tc.label,
					a, string([]rune(tc.label)[a]), line.at[a], b, string([]rune(tc.label)[b]), line.at[b])
			}
		}
	}
}

// TestScriptsDrawnWithGlyphs: the pay buttons of the phone's languages beyond Latin and
// CJK are drawn with their script's glyphs, shaped (Arabic letters joined, Devanagari
// vowel signs placed), not as hollow boxes.
func TestScriptsDrawnWithGlyphs(t *testing.T) {
	fs, err := newFontSet()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ label, family string }{
		{"ادفع ¥36", "Arabic"},
		{"לתשלום ¥36", "Hebrew"},
		{"भुगतान करें ¥36", "Devanagari"},
		{"ชำระเงิน ¥36", "Thai"},
		{"결제 ¥36", "Nanum"},
	} {
		needScriptFonts(t, fs, []rune(tc.label)[0])
		if !fs.needsShaping(tc.label) {
			t.Errorf("%q is not shaped", tc.label)
		}
		line := fs.shapeLine(tc.label, 40, true)
		script := 0
		for _, g := range line.glyphs {
			if g.face == nil {
				t.Errorf("%q: a glyph is a hollow box", tc.label)
				continue
			}
			if strings.Contains(g.face.Describe().Family, tc.family) {
				script++
			}
		}
		if script == 0 {
			t.Errorf("%q: no glyph from a %s font", tc.label, tc.family)
		}
		if tc.family == "Arabic" {
			// Joined: the initial, medial and final forms are other glyphs than the
			// isolated letters.
			face := line.glyphs[len(line.glyphs)-1].face
			var iso []gtfont.GID
			for _, r := range "ادفع" {
				g, _ := face.NominalGlyph(r)
				iso = append(iso, g)
			}
			joined := 0
			for _, g := range line.glyphs {
				if g.face == face && g.rune >= 1 && g.rune <= 3 && g.gid != iso[g.rune] {
					joined++
				}
			}
			if joined == 0 {
				t.Errorf("%q: the letters are drawn in their isolated forms", tc.label)
			}
		}
	}
	// Latin, Cyrillic and CJK keep the glyph-by-glyph path (the screenshots stay as they were).
	for _, s := range []string{"Pay ¥36", "Оплатить ¥36", "支付 ¥36", "支払う ¥36"} {
		if fs.needsShaping(s) {
			t.Errorf("%q is shaped", s)
		}
	}
}
