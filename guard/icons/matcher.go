package icons

import (
	"hash/maphash"
	"image"
	"sync"
)

// Match is what a picture was recognised as.
type Match struct {
	// Icon is the Material icon it is nearest to ("delete", "add_shopping_cart").
	Icon string
	// Word is what the guard reads it as: delete, send, order, pay or share.
	Word string
	// Distance is how far the picture is from the icon: the root mean square distance, in
	// 1/32 of the icon's size, of its edges to the icon's, the larger of the two ways (0:
	// the same).
	Distance float64
}

// maxDistance is the farthest a picture may be from a sensitive icon to be taken for it.
// Measured: the font's own sensitive icons at 24–72px come within 0.93
// (TestReferencesMatched), Lumen's hand-drawn bin (slots in it, no gap under the lid)
// within 1.25–1.29 (TestLumenToolbar); with ordinaryMargin, 0.4–0.6% of the font's other
// icons are taken (TestWholeFontFalseMatches).
const maxDistance = 1.4

// ordinaryMargin: a sensitive icon is taken only when its distance is at most this share
// of the nearest ordinary icon's — clearly nearer, not a tie with a search or a lock.
const ordinaryMargin = 0.7

// Size limits of a picture, in pixels: smaller has too few pixels to tell, longer or
// flatter is a bar, a row or a photo, not an icon.
const (
	minSide   = 8
	maxSide   = 400
	maxAspect = 4
)

// Matcher recognises icons by their picture. The zero value is not usable: call
// [NewMatcher]. Safe for concurrent use; it remembers what each picture it saw was
// (by a hash of its pixels), so a screen judged again costs a hash.
type Matcher struct {
	seed maphash.Seed

	mu   sync.Mutex
	refs map[int][]*grid // the references rendered with their longer side n pixels
	seen map[cropKey]result
}

type cropKey struct {
	w, h int
	sum  uint64
}

type result struct {
	m  Match
	ok bool
}

// maxSeen bounds the pictures remembered; past it they are forgotten.
const maxSeen = 4096

// NewMatcher returns a matcher of the embedded reference set.
func NewMatcher() *Matcher {
	return &Matcher{seed: maphash.MakeSeed(), refs: map[int][]*grid{}, seen: map[cropKey]result{}}
}

// Match recognises the icon drawn in r of img: the nearest icon of the set, and whether it is a
// sensitive one, within maxDistance and clearly nearer than any ordinary one. The picture may be
// any colour on any background, light on dark or dark on light, at any size from minSide to maxSide
// pixels; what is drawn just around r (a bar, a neighbour) is not part of it.
func (m *Matcher) Match(img image.Image, r image.Rectangle) (Match, bool) {
	r = r.Intersect(img.Bounds())
	w, h := r.Dx(), r.Dy()
	if min(w, h) < minSide || max(w, h) > maxSide || max(w, h) > maxAspect*min(w, h) {
		return Match{}, false
	}
	pad := 2 + max(w, h)/8
	pr := r.Inset(-pad).Intersect(img.Bounds())
	key := cropKey{w: pr.Dx(), h: pr.Dy(), sum: m.hash(img, pr)}
	m.mu.Lock()
	res, hit := m.seen[key]
	m.mu.Unlock()
	if hit {
		return res.m, res.ok
	}
	p := readPixels(img, pr)
	sensitive, ordinary := m.match(p, r, [4]bool{pr.Min.X < r.Min.X, pr.Min.Y < r.Min.Y, pr.Max.X > r.Max.X, pr.Max.Y > r.Max.Y})
	res = decide(sensitive, ordinary)
	m.mu.Lock()
	if len(m.seen) >= maxSeen {
		clear(m.seen)
	}
	m.seen[key] = res
	m.mu.Unlock()
	return res.m, res.ok
}

// hash is a hash of the pixels of r of img, read in place where img keeps them as bytes.
func (m *Matcher) hash(img image.Image, r image.Rectangle) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	switch pic := img.(type) {
	case *image.RGBA:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			h.Write(pic.Pix[pic.PixOffset(r.Min.X, y):pic.PixOffset(r.Max.X, y)])
		}
	case *image.NRGBA:
		for y := r.Min.Y; y < r.Max.Y; y++ {
			h.Write(pic.Pix[pic.PixOffset(r.Min.X, y):pic.PixOffset(r.Max.X, y)])
		}
	default:
		h.Write(readPixels(img, r).rgb)
	}
	return h.Sum64()
}

// match compares p's picture (r, inside p) with the set, against each of its likely
// backgrounds: the colour around it, and the colour of its middle when that differs (a
// light icon on a coloured disc or button). It returns the nearest icon and the nearest
// sensitive one and the nearest ordinary one (Distance -1: none).
func (m *Matcher) match(p *pixels, r image.Rectangle, padded [4]bool) (sensitive, ordinary Match) {
	var border, middle []int
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			if x == 0 || y == 0 || x == p.w-1 || y == p.h-1 {
				border = append(border, y*p.w+x)
			}
		}
	}
	in := r.Sub(p.r.Min)
	mid := image.Rect(in.Min.X+in.Dx()/4, in.Min.Y+in.Dy()/4, in.Max.X-in.Dx()/4, in.Max.Y-in.Dy()/4)
	for y := mid.Min.Y; y < mid.Max.Y; y++ {
		for x := mid.Min.X; x < mid.Max.X; x++ {
			middle = append(middle, y*p.w+x)
		}
	}
	bgs := [][3]uint8{p.commonest(border)}
	if c := p.commonest(middle); max(absDiff(c[0], bgs[0][0]), absDiff(c[1], bgs[0][1]), absDiff(c[2], bgs[0][2])) >= inkFloor {
		bgs = append(bgs, c)
	}
	sensitive, ordinary = Match{Distance: -1}, Match{Distance: -1}
	for _, bg := range bgs {
		b := p.ink(bg, padded)
		if b == nil {
			continue
		}
		ib := b.bounds()
		// The ink must be the picture's, not a speck or its frame.
		if ib.Empty() || max(ib.Dx(), ib.Dy())*5 < max(r.Dx(), r.Dy()) || max(ib.Dx(), ib.Dy()) < minSide/2 {
			continue
		}
		g := normalise(b)
		if g == nil {
			continue
		}
		refs := m.references(max(ib.Dx(), ib.Dy()))
		for i, rg := range refs {
			d := distance(g, rg)
			mt := Match{Icon: references[i].name, Word: references[i].word, Distance: d}
			switch {
			case mt.Word != "" && (sensitive.Distance < 0 || d < sensitive.Distance):
				sensitive = mt
			case mt.Word == "" && (ordinary.Distance < 0 || d < ordinary.Distance):
				ordinary = mt
			}
		}
	}
	return sensitive, ordinary
}

// decide says what a picture is from its nearest sensitive and ordinary icons: the
// sensitive one when it is within maxDistance and clearly nearer than any ordinary icon
// (by the share ordinaryMargin), else the nearer of the two, not matched.
func decide(sensitive, ordinary Match) result {
	switch {
	case sensitive.Distance < 0 && ordinary.Distance < 0:
		return result{}
	case sensitive.Distance < 0:
		return result{m: ordinary}
	case sensitive.Distance <= maxDistance && (ordinary.Distance < 0 || sensitive.Distance <= ordinary.Distance*ordinaryMargin):
		return result{m: sensitive, ok: true}
	case ordinary.Distance >= 0 && ordinary.Distance < sensitive.Distance:
		return result{m: ordinary}
	}
	return result{m: sensitive}
}

// renderSizes are the sizes references are rendered at, 1/8 apart or less: a picture is
// compared with the references rendered at the size nearest its own, which the grid does
// not tell from its own size, and a page of icons of many sizes renders the set a few
// times, not once per size. Past the largest the grid sees no difference.
var renderSizes = []int{8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 27, 30, 33, 36, 40, 44, 48, 54, 60, 66, 72, 80, 88, 96, 108, 120, 128}

// renderSize is the size of renderSizes nearest long.
func renderSize(long int) int {
	best := renderSizes[0]
	for _, s := range renderSizes {
		if abs(s-long) < abs(best-long) {
			best = s
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// references are the set's grids, rendered with their longer side long pixels: at the
// scale of the picture they are compared with, so a small icon's references show what
// the font's hinting-free rendering does to thin strokes at that size.
func (m *Matcher) references(long int) []*grid {
	long = renderSize(long)
	m.mu.Lock()
	defer m.mu.Unlock()
	if g, ok := m.refs[long]; ok {
		return g
	}
	gs := make([]*grid, len(references))
	for i := range references {
		gs[i] = normalise(references[i].render(long))
	}
	m.refs[long] = gs
	return gs
}
