package perception

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"image"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/sync/errgroup"
)

// Where the accessibility tree does not describe the screen — a WebView whose page exposes
// no nodes, a SurfaceView or game canvas, a picture with no description — the screen's
// words are only in its pixels. A [PixelReader] reads them there with an [OCR] engine and
// adds what it reads as elements of the screen like the others, marked FromPicture.

// Word is one word an [OCR] engine read, with its box in the pixels of the image it read.
type Word struct {
	Text string
	Box  image.Rectangle
	// Confidence is the engine's, 0..100.
	Confidence float64
	// Language is the language data the word was read with: an engine reads with each
	// language's data apart, and each line takes the reading it is surest of.
	Language string
}

// Script is a family of writing systems an [OCR] engine reads with language data of its
// own: each family's data reads the other's characters as confident garbage (乌龙茶 as
// "SER", ¥36 as "半 36"), so perception asks for each reading apart.
type Script int

const (
	// Alphabetic scripts (Latin, Greek, Cyrillic…) and digits: words written apart.
	Alphabetic Script = iota
	// Ideographic scripts (Chinese, Japanese, Korean): characters written without spaces.
	Ideographic
)

// Hint is what perception knows of an image it hands an [OCR] engine.
type Hint struct {
	// Script is the family of the image's lines.
	Script Script
	// Locale is the phone's language (BCP 47, "ja-JP"; see [Screen.Locale]), "" when
	// unknown: an engine reads with the data of its script beside the data it always uses.
	Locale string
}

// OCR reads the words of an image (dark text on white, lines one under another) with its
// language data for one [Script] (see [Hint]), each language's reading apart (see
// Word.Language).
// Alphabetic always reads: an engine with no alphabetic data reads with what it has
// (ideographic data reads digits and Latin too). Ideographic reads only with ideographic
// data the Alphabetic reading did not use, and returns no words when there is none.
// Perception asks for an Ideographic reading only of the lines that may need it: one
// showing a character drawn like a CJK ideograph, or a lone character (a key of a PIN pad)
// that alphabetic data may take for a letter of its own (a slashed zero read as Q). The
// device side supplies it (executor/ocr runs Tesseract); perception never runs a program.
type OCR interface {
	Read(ctx context.Context, img *image.Gray, hint Hint) ([]Word, error)
}

// TextBox is one line of text read from the picture, in screen pixels.
type TextBox struct {
	Text   string `json:"text"`
	Bounds Bounds `json:"bounds"`
	// Confidence is the OCR engine's mean over the line's words, 0..100.
	Confidence float64 `json:"confidence"`
}

// Opaque view classes: they draw their content themselves, so with no children the tree
// says nothing of what they show.
var opaqueClasses = []string{"WebView", "SurfaceView", "TextureView", "GLSurfaceView", "FlutterView", "FlutterSurfaceView",
	"UnityPlayer", "MapView", "Canvas", "View", "ImageView", "FrameLayout"}

// uncoveredMinShare is the share of the screen (1/N) an undescribed view must cover to be
// read: smaller ones are icons, which an [IconDescriber] captions.
const uncoveredMinShare = 12

// uncovered finds the regions the tree does not describe: visible leaves of the
// foreground app that draw their own content (see opaqueClasses) with no text, no
// description, not a list or a field, covering at least 1/uncoveredMinShare of the screen.
func (b *builder) uncovered() {
	t, s := b.t, b.s
	area := s.Width * s.Height
	if area == 0 {
		return
	}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.vis.Empty() || n.pkg != s.Package || n.vis.Area()*uncoveredMinShare < area {
			continue
		}
		if strings.TrimSpace(n.text) != "" || strings.TrimSpace(n.desc) != "" || n.has(fScrollable) || n.has(fEditable) || n.has(fHidden) {
			continue
		}
		if !slices.Contains(opaqueClasses, shortClass(n.class)) {
			continue
		}
		leaf := true
		for _, k := range t.children(int32(i)) {
			if !t.nodes[k].vis.Empty() {
				leaf = false
				break
			}
		}
		if leaf {
			s.Uncovered = append(s.Uncovered, n.vis)
		}
	}
}

// PixelReader reads the regions of a screen that its tree does not describe
// ([Screen.Uncovered]) with an [OCR] engine. It finds the text lines of a region first and
// reads them all in one pass (see buildStrip; a second one, with ideographic data, reads
// only the lines that may need it), and caches what it read by the region's pixels, so a
// region shown again costs a hash. Safe for concurrent use.
type PixelReader struct {
	ocr  OCR
	seed maphash.Seed

	mu    sync.Mutex
	cache map[regionKey]regionRead
	calls int
}

// regionRead is what a region showed, relative to its corner: the text lines read and the
// marks (icons with no text, see findMarks).
type regionRead struct {
	boxes []TextBox
	marks []mark
}

type regionKey struct {
	w, h int
	sum  uint64
	// locale is the phone's: the same pixels may be read with other data in another.
	locale string
}

// maxCachedRegions bounds the cache; past it, the oldest half is forgotten.
const maxCachedRegions = 512

// NewPixelReader returns a reader using ocr.
func NewPixelReader(ocr OCR) (*PixelReader, error) {
	if ocr == nil {
		return nil, errors.New("perception pixel reader: nil OCR")
	}
	return &PixelReader{ocr: ocr, seed: maphash.MakeSeed(), cache: map[regionKey]regionRead{}}, nil
}

// Calls reports how many regions the reader had the OCR engine read (cache misses with
// text).
func (r *PixelReader) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// Read reads the uncovered regions of s from shot (a screenshot of the same screen, at its
// size) and adds each line read as an element (see [Screen.AddRead]), then each shape of
// an icon's size drawn there with no text — a toolbar's icon, a map's pin — as an element
// labelled "icon K", Drawn (see [Screen.Marks]). A screen the tree covers costs nothing.
// On an OCR error the regions read before it are kept and the error is returned.
func (r *PixelReader) Read(ctx context.Context, s *Screen, shot image.Image) error {
	if len(s.Uncovered) == 0 {
		return nil
	}
	sb := shot.Bounds()
	if fx, fy := s.PictureScale(sb); fx != 1 || fy != 1 {
		return fmt.Errorf("%w: screenshot %dx%d, screen %dx%d", errImage, sb.Dx(), sb.Dy(), s.Width, s.Height)
	}
	var read []TextBox
	var marks []mark
	for _, u := range s.Uncovered {
		rr := image.Rect(u.X1, u.Y1, u.X2, u.Y2).Add(sb.Min).Intersect(sb)
		if rr.Empty() {
			continue
		}
		got, err := r.region(ctx, shot, rr, s.Locale)
		if err != nil {
			s.AddRead(read)
			s.addMarks(marks)
			return fmt.Errorf("perception read region %v: %w", u, err)
		}
		for _, b := range got.boxes {
			b.Bounds = Bounds{X1: b.Bounds.X1 + u.X1, Y1: b.Bounds.Y1 + u.Y1, X2: b.Bounds.X2 + u.X1, Y2: b.Bounds.Y2 + u.Y1}
			read = append(read, b)
		}
		for _, m := range got.marks {
			m.box = m.box.Add(image.Pt(u.X1, u.Y1))
			marks = append(marks, m)
		}
	}
	s.AddRead(read)
	s.addMarks(marks)
	return nil
}

// region reads one region (rr in shot's pixels); what it returns is relative to rr's
// corner.
func (r *PixelReader) region(ctx context.Context, shot image.Image, rr image.Rectangle, locale string) (regionRead, error) {
	key := regionKey{w: rr.Dx(), h: rr.Dy(), sum: r.hash(shot, rr), locale: locale}
	r.mu.Lock()
	got, ok := r.cache[key]
	r.mu.Unlock()
	if ok {
		return got, nil
	}
	lines := findLines(shot, rr)
	if len(lines) > 0 {
		per, err := r.readLines(ctx, shot, lines, locale)
		if err != nil {
			return regionRead{}, err
		}
		r.mu.Lock()
		r.calls++
		r.mu.Unlock()
		got.boxes = assemble(lines, per, rr.Min)
	}
	boxes, detail := findMarks(shot, rr, got.boxes)
	for k := len(detail) - 1; k >= 0; k-- {
		got.boxes = slices.Delete(got.boxes, detail[k], detail[k]+1)
	}
	for _, b := range boxes {
		got.marks = append(got.marks, mark{box: b, look: lookOf(shot, b.Add(rr.Min))})
	}
	r.mu.Lock()
	if len(r.cache) >= maxCachedRegions {
		for k := range r.cache { // map order is random: forget about half
			delete(r.cache, k)
			if len(r.cache) < maxCachedRegions/2 {
				break
			}
		}
	}
	r.cache[key] = got
	r.mu.Unlock()
	return got, nil
}

func (r *PixelReader) hash(img image.Image, rr image.Rectangle) uint64 {
	var h maphash.Hash
	h.SetSeed(r.seed)
	if pix, stride, rect, ok := rgbaPix(img); ok {
		for y := rr.Min.Y; y < rr.Max.Y; y++ {
			o := (y-rect.Min.Y)*stride + (rr.Min.X-rect.Min.X)*4
			h.Write(pix[o : o+rr.Dx()*4])
		}
		return h.Sum64()
	}
	g := gray(img, rr)
	h.Write(g)
	return h.Sum64()
}

// minHanConfidence is the confidence under which a CJK word read on a line is taken for
// the CJK data's guess at a Latin sign (¥ read as 半).
const minHanConfidence = 70

// minConfidence is the mean word confidence under which a line is taken for noise (the
// ring of a map pin read as "©").
const minConfidence = 45

// readLines reads the lines found in a region: all of them stacked in one strip, read with
// alphabetic data, and those that may need it (see [OCR]) in a second strip read with
// ideographic data at the same time. The words come back per line and language, in
// strip pixels: a line's x coordinates are the same in both strips.
func (r *PixelReader) readLines(ctx context.Context, shot image.Image, lines []lineBox, locale string) ([]map[string][]Word, error) {
	var ideo []int // the lines of the second strip
	for i, l := range lines {
		if l.wide || l.r.Dx()*5 <= l.r.Dy()*6 {
			ideo = append(ideo, i)
		}
	}
	per := make([]map[string][]Word, len(lines))
	// from says which strip gave a line's reading in a language: an engine may read a
	// line of both strips with the same data (the script it detected on each), and the
	// line takes one of them.
	type lineLang struct {
		line int
		lang string
	}
	from := map[lineLang]Script{}
	var mu sync.Mutex
	add := func(ws []Word, st strip, script Script, line func(int) int) {
		mu.Lock()
		defer mu.Unlock()
		for _, w := range ws {
			if strings.TrimSpace(w.Text) == "" {
				continue
			}
			if k := st.lineOf(w.Box.Min.Y, w.Box.Max.Y); k >= 0 {
				i := line(k)
				if s, ok := from[lineLang{i, w.Language}]; ok && s != script {
					continue
				}
				from[lineLang{i, w.Language}] = script
				if per[i] == nil {
					per[i] = map[string][]Word{}
				}
				per[i][w.Language] = append(per[i][w.Language], w)
			}
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		st := buildStrip(shot, lines)
		ws, err := r.ocr.Read(gctx, st.img, Hint{Script: Alphabetic, Locale: locale})
		add(ws, st, Alphabetic, func(k int) int { return k })
		return err
	})
	if len(ideo) > 0 {
		g.Go(func() error {
			sub := make([]lineBox, len(ideo))
			for k, i := range ideo {
				sub[k] = lines[i]
			}
			st := buildStrip(shot, sub)
			ws, err := r.ocr.Read(gctx, st.img, Hint{Script: Ideographic, Locale: locale})
			add(ws, st, Ideographic, func(k int) int { return ideo[k] })
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return per, nil
}

// assemble turns the words read on each line (per language, see readLines) into one box
// per line, relative to origin.
func assemble(lines []lineBox, per []map[string][]Word, origin image.Point) []TextBox {
	var out []TextBox
	for i, byLang := range per {
		ws := pickReading(byLang, lines[i].wide)
		if len(ws) == 0 {
			continue
		}
		slices.SortFunc(ws, func(a, b Word) int { return a.Box.Min.X - b.Box.Min.X })
		var sb strings.Builder
		conf := 0.0
		for k, w := range ws {
			t := strings.TrimSpace(w.Text)
			if k > 0 && !joined(lastRune(sb.String()), firstRune(t)) {
				sb.WriteByte(' ')
			}
			sb.WriteString(t)
			conf += w.Confidence
		}
		conf /= float64(len(ws))
		// Tesseract writes Thai's SARA AM as NIKHAHIT and SARA AA (ชํา for ชำ).
		text := strings.ReplaceAll(sb.String(), "\u0e4d\u0e32", "\u0e33")
		if conf < minConfidence || !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		l := lines[i].r.Sub(origin)
		out = append(out, TextBox{Text: text, Bounds: Bounds{X1: l.Min.X, Y1: l.Min.Y, X2: l.Max.X, Y2: l.Max.Y}, Confidence: conf})
	}
	return out
}

// pickReading chooses what a line says from its readings, one per language. A line that
// does not look CJK takes the surest reading without CJK characters. A line that does
// takes the CJK words of the reading richest in them and, between them, the words of the
// reading poorest in them: the data of each script reads the other as confident garbage
// (乌龙茶 as "SER", ¥36 as "半 36"), so each script is taken from its own reader.
func pickReading(byLang map[string][]Word, wide bool) []Word {
	if len(byLang) == 0 {
		return nil // nothing read on the line
	}
	langs := make([]string, 0, len(byLang))
	for l := range byLang {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	isHan := func(w Word) bool { return w.Confidence >= minHanConfidence && strings.ContainsFunc(w.Text, isWide) }
	hanWords := func(ws []Word) int {
		n := 0
		for _, w := range ws {
			if isHan(w) {
				n++
			}
		}
		return n
	}
	mean := func(ws []Word) float64 {
		c := 0.0
		for _, w := range ws {
			c += w.Confidence
		}
		return c / float64(max(1, len(ws)))
	}
	if !wide || len(langs) == 1 {
		var best []Word
		bestConf := -1.0
		for _, l := range langs {
			ws := byLang[l]
			if c := mean(ws); (hanWords(ws) == 0 || len(langs) == 1) && c > bestConf {
				best, bestConf = ws, c
			}
		}
		if best != nil {
			return best
		}
		return byLang[langs[0]]
	}
	// The reading richest in CJK words, and of two as rich the surer of them (Japanese
	// data beside Chinese on a line of kana).
	hanMean := func(ws []Word) float64 {
		c, n := 0.0, 0
		for _, w := range ws {
			if isHan(w) {
				c += w.Confidence
				n++
			}
		}
		return c / float64(max(1, n))
	}
	rich := langs[0]
	for _, l := range langs {
		if n, m := hanWords(byLang[l]), hanWords(byLang[rich]); n > m || (n == m && hanMean(byLang[l]) > hanMean(byLang[rich])) {
			rich = l
		}
	}
	if hanWords(byLang[rich]) == 0 {
		return pickReading(byLang, false) // it only looked CJK (a line of capitals)
	}
	poor := ""
	for _, l := range langs {
		if l != rich && (poor == "" || hanWords(byLang[l]) < hanWords(byLang[poor])) {
			poor = l
		}
	}
	// Words overlap when they share more than a quarter of the narrower one's width: the
	// readings' boxes of neighbouring words may touch.
	overlap := func(a, b Word) bool {
		return (min(a.Box.Max.X, b.Box.Max.X)-max(a.Box.Min.X, b.Box.Min.X))*4 > min(a.Box.Dx(), b.Box.Dx())
	}
	var out []Word
	for _, w := range byLang[rich] {
		if !strings.ContainsFunc(w.Text, isWide) {
			continue
		}
		// A CJK word read with less confidence is still taken where the other reading
		// is even less sure of what is there (杏仁 at 64 against "BC" at 10), or read
		// nothing there — but not over a surer CJK word of its own reading (停车 at 93
		// spanning the line, 声 at 56 on its end).
		rival := -1.0
		for _, p := range byLang[poor] {
			if overlap(w, p) {
				rival = max(rival, p.Confidence)
			}
		}
		sure := slices.ContainsFunc(byLang[rich], func(h Word) bool { return h != w && isHan(h) && overlap(w, h) })
		if isHan(w) || (!sure && ((rival >= 0 && w.Confidence > rival) || (rival < 0 && w.Confidence >= minConfidence))) {
			out = append(out, w)
		}
	}
	for _, w := range byLang[poor] {
		if !slices.ContainsFunc(out, func(h Word) bool { return overlap(w, h) }) {
			out = append(out, w)
		}
	}
	return out
}

// isWide reports a CJK character: words of such scripts are written without spaces.
func isWide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}

// joined reports two words read side by side that are written without a space between
// them: CJK characters, letters of the scripts that put no spaces between words (Thai,
// Lao, Khmer, Myanmar: Tesseract reads their letters as words of their own), and a mark
// that belongs on the letter before it.
func joined(a, b rune) bool {
	unspaced := func(r rune) bool { return unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) }
	return (isWide(a) && isWide(b)) || (unspaced(a) && unspaced(b)) || unicode.Is(unicode.Mn, b)
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// AddRead adds text read from the picture to s: each box becomes an element (role text,
// FromPicture, tappable: a drawn control cannot be told from a drawn label), numbered after
// the tree's, in reading order; the text form lists them at the end with "(read from the
// picture)". The page signature then also holds the first line read (its heading), without
// digits, so pages that differ only in their pixels are told apart while amounts and
// counts keep one page one signature.
func (s *Screen) AddRead(boxes []TextBox) {
	if len(boxes) == 0 {
		return
	}
	slices.SortStableFunc(boxes, func(a, b TextBox) int {
		if a.Bounds.Y2 <= b.Bounds.Y1 {
			return -1
		}
		if b.Bounds.Y2 <= a.Bounds.Y1 {
			return 1
		}
		return a.Bounds.X1 - b.Bounds.X1
	})
	heading := ""
	for _, b := range boxes {
		e := Element{
			Index: len(s.Elements) + 1, Role: "text", Label: b.Text, Text: b.Text, Class: readClass, Package: s.Package,
			Bounds: b.Bounds, Center: b.Bounds.Center(), Clickable: true, Enabled: true, FromPicture: true,
		}
		s.lines = append(s.lines, line{depth: 0, elem: int32(len(s.Elements))})
		s.Elements = append(s.Elements, e)
		s.Read = append(s.Read, b)
		if heading == "" {
			heading = strings.TrimSpace(strings.Map(func(r rune) rune {
				if unicode.IsDigit(r) || unicode.Is(unicode.Sc, r) {
					return -1
				}
				return r
			}, b.Text))
		}
	}
	if heading != "" {
		s.Signature = fmt.Sprintf("%016x", fnvString(fnvString(fnvOffset, s.Signature), "\x00read\x00"+heading))
	}
}

// readClass is the class of an element read from the picture: no view has it.
const readClass = "fairy.ReadFromPicture"

// readNote is what the text form writes after an element read from the picture.
const readNote = "(read from the picture)"
