package sim

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"unicode"

	"github.com/fairy-go/fairy/sim/cjkfont"
	"github.com/go-text/typesetting/di"
	gtfont "github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
	"golang.org/x/text/unicode/bidi"
)

// Text in scripts that neither the Go fonts nor the CJK subset have — Arabic and Hebrew,
// which run right to left, Devanagari and Thai, whose letters join, stack and reorder — is
// laid out as a phone lays it out. The bidi algorithm (golang.org/x/text/unicode/bidi)
// cuts a line into runs of one direction, shown in display order (UAX #9, rule L2: an
// Arabic label with an amount shows the amount on its left); each run is shaped by go-text's
// port of HarfBuzz (Arabic letters take their joined forms from the font's GSUB, not from
// presentation-form code points; Devanagari's vowel signs and conjuncts, Thai's marks are
// placed by its GPOS) with a font that has its script, and the glyphs' outlines are filled
// with golang.org/x/image/vector. The fonts are those a phone falls back to, Noto, read
// from the machine's font directories (Debian's fonts-noto-core); without them such a
// character is drawn as a hollow box, as before, and the tree carries the text either way.

// fontRoot is where the fallback fonts are looked for (Debian's font directory).
const fontRoot = "/usr/share/fonts"

// fallbackFonts are the fallback fonts, regular and bold, under fontRoot, as Android's
// fonts.xml lists its own: Noto per script (Debian fonts-noto-core), and NanumGothic for
// Korean (Debian fonts-nanum; Droid Sans Fallback has no Hangul).
var fallbackFonts = func() [][2]string {
	var out [][2]string
	for _, name := range []string{
		"NotoSansArabic", "NotoSansHebrew", "NotoSansDevanagari", "NotoSansThai", "NotoSansBengali",
		"NotoSansTamil", "NotoSansTelugu", "NotoSansKannada", "NotoSansMalayalam", "NotoSansGujarati",
		"NotoSansGurmukhi", "NotoSansKhmer", "NotoSansLao", "NotoSansMyanmar", "NotoSansSinhala",
		"NotoSansArmenian", "NotoSansGeorgian", "NotoSansEthiopic",
	} {
		out = append(out, [2]string{"truetype/noto/" + name + "-Regular.ttf", "truetype/noto/" + name + "-Bold.ttf"})
	}
	return append(out, [2]string{"truetype/nanum/NanumGothic.ttf", "truetype/nanum/NanumGothicBold.ttf"})
}()

// shapeFonts are the faces the shaped path uses, each as go-text parses it.
type shapeFonts struct {
	regular, bold []*gtfont.Face // the Go font first, then the fallbacks, then the CJK font
	shaper        shaping.HarfbuzzShaper
}

// shapeFaces loads the faces on first use (the caller holds the phone's lock, as for
// every fontSet method).
func (fs *fontSet) shapeFaces() *shapeFonts {
	if fs.shape != nil {
		return fs.shape
	}
	sf := &shapeFonts{}
	parse := func(b []byte) *gtfont.Face {
		if b == nil {
			return nil
		}
		f, err := gtfont.ParseTTF(bytes.NewReader(b))
		if err != nil {
			return nil
		}
		return f
	}
	if f := parse(goregular.TTF); f != nil {
		sf.regular = append(sf.regular, f)
	}
	if f := parse(gobold.TTF); f != nil {
		sf.bold = append(sf.bold, f)
	}
	for _, files := range fallbackFonts {
		fr := parse(readFont(filepath.Join(fontRoot, files[0])))
		if fr == nil {
			continue
		}
		fb := parse(readFont(filepath.Join(fontRoot, files[1])))
		if fb == nil {
			fb = fr
		}
		sf.regular = append(sf.regular, fr)
		sf.bold = append(sf.bold, fb)
	}
	if f := parse(cjkfont.TTF); f != nil {
		sf.regular = append(sf.regular, f)
		sf.bold = append(sf.bold, f)
	}
	fs.shape = sf
	return sf
}

// readFont reads a font file; nil when it is missing or implausibly large.
func readFont(path string) []byte {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > 32<<20 {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return b
}

// needsShaping reports text the glyph-by-glyph path cannot draw: a right-to-left
// character, or one that neither the Go font nor the CJK font has but a fallback does.
func (fs *fontSet) needsShaping(s string) bool {
	face := fs.face(16, false)
	cjk := fs.cjkFace(16)
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		if p, _ := bidi.LookupRune(r); p.Class() == bidi.R || p.Class() == bidi.AL {
			return true
		}
		if r < 0x2E80 && face != nil && hasGlyph(face, r) {
			continue
		}
		if cjk != nil && hasGlyph(cjk, r) {
			continue
		}
		if slices.ContainsFunc(fs.shapeFaces().regular, func(f *gtfont.Face) bool { _, ok := f.NominalGlyph(r); return ok }) {
			return true
		}
	}
	return false
}

// placedGlyph is one glyph of a shaped line: its face and id, where its origin lands
// (pixels from the line's start, y up), and the index of the first rune it draws (-1: a
// hollow box for a character no font has, w wide).
type placedGlyph struct {
	face *gtfont.Face
	gid  gtfont.GID
	x, y fixed.Int26_6
	w    fixed.Int26_6
	rune int
}

// shapedLine is a line laid out in display order.
type shapedLine struct {
	glyphs []placedGlyph
	width  fixed.Int26_6
	// at holds, for each rune of the text, the x of its glyph's origin (the first glyph
	// drawing it); -1 for a rune drawn by none (a mark merged into its base's cluster
	// takes its base's).
	at []fixed.Int26_6
}

// bidiRun is a run of one direction and its embedding level.
type bidiRun struct {
	start, end int // runes [start, end)
	level      int
}

// displayRuns cuts runes into runs of one direction and orders them for display. The
// paragraph takes the direction of its first strong character (UAX #9 P2, as Android's
// default TEXT_DIRECTION_FIRST_STRONG); x/text resolves each character's direction; the
// levels follow from them (a left-to-right run in a right-to-left paragraph, and a run of
// numbers after right-to-left text in a left-to-right one, are nested at level 2); rule
// L2 reverses each sequence of runs at a level or above, from the highest level to the
// lowest odd one. L2 is written here because x/text stops short of it: its Ordering
// (calculateOrdering in the x/text of go.mod) gives the runs in logical order with only
// their direction, the levels dropped; TestBidiDisplayOrder holds the drawn order.
func displayRuns(runes []rune) []bidiRun {
	base := 0
	for _, r := range runes {
		p, _ := bidi.LookupRune(r)
		if c := p.Class(); c == bidi.L {
			break
		} else if c == bidi.R || c == bidi.AL {
			base = 1
			break
		}
	}
	var p bidi.Paragraph
	if _, err := p.SetString(string(runes), bidi.DefaultDirection([...]bidi.Direction{bidi.LeftToRight,
		bidi.RightToLeft}[base])); err != nil {
		return []bidiRun{{0, len(runes), base}}
	}
	o, err := p.Order()
	if err != nil || o.NumRuns() == 0 {
		return []bidiRun{{0, len(runes), base}}
	}
	var runs []bidiRun
	for i := range o.NumRuns() {
		r := o.Run(i)
		s, e := r.Pos()
		lvl := base
		if r.Direction() == bidi.RightToLeft {
			lvl = 1
		} else if base == 1 {
			lvl = 2
		} else if !slices.ContainsFunc(runes[s:e+1], func(c rune) bool { p, _ := bidi.LookupRune(c); return p.Class() == bidi.L }) {
			lvl = 2 // numbers after right-to-left text (rule W7 left them EN, I1 raised them)
		}
		runs = append(runs, bidiRun{s, e + 1, lvl})
	}
	top, lowOdd := 0, 99
	for _, r := range runs {
		top = max(top, r.level)
		if r.level%2 == 1 {
			lowOdd = min(lowOdd, r.level)
		}
	}
	for lvl := top; lvl >= lowOdd; lvl-- {
		for i := 0; i < len(runs); {
			if runs[i].level < lvl {
				i++
				continue
			}
			j := i
			for j < len(runs) && runs[j].level >= lvl {
				j++
			}
			slices.Reverse(runs[i:j])
			i = j
		}
	}
	return runs
}

// shapeLine lays s out at px pixels in display order.
func (fs *fontSet) shapeLine(s string, px int, bold bool) shapedLine {
	sf := fs.shapeFaces()
	faces := sf.regular
	if bold {
		faces = sf.bold
	}
	runes := []rune(s)
	line := shapedLine{at: make([]fixed.Int26_6, len(runes))}
	for i := range line.at {
		line.at[i] = -1
	}
	// faceOf is the first face with r; a mark or joiner keeps its base's face.
	faceOf := func(i int, prev int) int {
		r := runes[i]
		if prev >= 0 && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200c || r == 0x200d) {
			return prev
		}
		if unicode.IsSpace(r) && prev >= 0 {
			return prev
		}
		for k, f := range faces {
			if _, ok := f.NominalGlyph(r); ok {
				return k
			}
		}
		return -1
	}
	var x fixed.Int26_6
	for _, run := range displayRuns(runes) {
		// Segments of one face, in logical order; shown in reverse in a right-to-left run.
		type seg struct{ start, end, face int }
		var segs []seg
		prev := -1
		for i := run.start; i < run.end; i++ {
			k := faceOf(i, prev)
			if len(segs) > 0 && segs[len(segs)-1].face == k && k >= 0 {
				segs[len(segs)-1].end = i + 1
			} else {
				segs = append(segs, seg{i, i + 1, k})
			}
			prev = k
		}
		dir := di.DirectionLTR
		if run.level%2 == 1 {
			dir = di.DirectionRTL
			slices.Reverse(segs)
		}
		for _, sg := range segs {
			if sg.face < 0 { // no font has it: a hollow box an em wide, as the plain path draws
				for i := sg.start; i < sg.end; i++ {
					w := fixed.I(px * 6 / 10)
					if runes[i] >= 0x2E80 {
						w = fixed.I(px)
					}
					line.at[i] = x
					if !unicode.IsSpace(runes[i]) {
						line.glyphs = append(line.glyphs, placedGlyph{x: x, w: w, rune: -1})
					}
					x += w
				}
				continue
			}
			f := faces[sg.face]
			script := language.LookupScript(runes[sg.start])
			for i := sg.start; i < sg.end && script == language.Common; i++ {
				script = language.LookupScript(runes[i])
			}
			out := sf.shaper.Shape(shaping.Input{
				Text: runes, RunStart: sg.start, RunEnd: sg.end, Direction: dir, Face: f,
				Size: fixed.I(px), Script: script,
			})
			for _, g := range out.Glyphs {
				pg := placedGlyph{face: f, gid: g.GlyphID, x: x + g.XOffset, y: g.YOffset, rune: g.ClusterIndex}
				line.glyphs = append(line.glyphs, pg)
				for k := g.ClusterIndex; k < g.ClusterIndex+max(1, g.RuneCount) && k < len(runes); k++ {
					if line.at[k] < 0 {
						line.at[k] = x
					}
				}
				x += g.Advance
			}
		}
	}
	line.width = x
	return line
}

// drawShaped fills the glyphs of line in box from x (the line's left) on the baseline
// base, in c, clipped to box.
func drawShaped(img *image.RGBA, line shapedLine, box image.Rectangle, x, base, px int, c color.RGBA) {
	box = box.Intersect(img.Bounds())
	if box.Empty() {
		return
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	ox, oy := float32(x-box.Min.X), float32(base-box.Min.Y)
	ink := false
	for _, g := range line.glyphs {
		gx := ox + float32(g.x)/64
		gy := oy - float32(g.y)/64
		if g.rune < 0 || g.face == nil {
			w := float32(g.w) / 64
			t := float32(max(1, px/16))
			l, r := gx+float32(px)/10, gx+w-float32(px)/10
			top, bot := gy-float32(px)*8/10, gy+float32(px)/10
			rect := func(x0, y0, x1, y1 float32) {
				z.MoveTo(x0, y0)
				z.LineTo(x1, y0)
				z.LineTo(x1, y1)
				z.LineTo(x0, y1)
				z.ClosePath()
			}
			rect(l, top, r, top+t)
			rect(l, bot-t, r, bot)
			rect(l, top, l+t, bot)
			rect(r-t, top, r, bot)
			ink = true
			continue
		}
		o, ok := g.face.GlyphDataOutline(g.gid)
		if !ok {
			continue
		}
		scale := float32(px) / float32(g.face.Upem())
		open := false
		for _, s := range o.Segments {
			a := s.Args
			pt := func(i int) (float32, float32) { return gx + a[i].X*scale, gy - a[i].Y*scale }
			switch s.Op {
			case ot.SegmentOpMoveTo:
				if open {
					z.ClosePath()
				}
				z.MoveTo(pt(0))
				open = true
			case ot.SegmentOpLineTo:
				z.LineTo(pt(0))
			case ot.SegmentOpQuadTo:
				x1, y1 := pt(0)
				x2, y2 := pt(1)
				z.QuadTo(x1, y1, x2, y2)
			case ot.SegmentOpCubeTo:
				x1, y1 := pt(0)
				x2, y2 := pt(1)
				x3, y3 := pt(2)
				z.CubeTo(x1, y1, x2, y2, x3, y3)
			}
			ink = true
		}
		if open {
			z.ClosePath()
		}
	}
	if ink {
		z.Draw(img, box, image.NewUniform(c), image.Point{})
	}
}
