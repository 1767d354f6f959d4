package guard

import (
	"image"
	"sync"

	"github.com/fairy-go/fairy/guard/icons"
	"github.com/fairy-go/fairy/perception"
)

// An element with no words — an ImageButton with no description, an icon a canvas draws
// (a mark, "icon 4") — is judged by its picture: a bin is a delete, a paper plane a send,
// a cart an order, a card a payment, whatever the app forgot to say (guard/icons).

// iconLabels are what the guard reads an icon as, by the matcher's word: a phrase of its
// vocabulary, so that the person's own rules (a category allowed, words added) apply to a
// picture as to a label; and what the consent question says it is drawn as.
var iconLabels = map[string]struct{ label, picture string }{
	"delete": {"delete", "a bin"},
	"send":   {"send", "a paper plane"},
	"pay":    {"pay", "a card"},
	"order":  {"place order", "a cart"},
	"share":  {"share", "a share sign"},
}

// pictureSlots is how many screens' pictures the guard keeps: one a run, for runs that
// share it.
const pictureSlots = 8

// pictures are the screenshots of the last screens the guard was shown, each decoded when
// first needed, and the matcher that reads them.
type pictures struct {
	mu    sync.Mutex
	slots [pictureSlots]*picture
	next  int
	icons *icons.Matcher
}

// picture is a screen's screenshot, loaded once.
type picture struct {
	s    *perception.Screen
	once sync.Once
	load func() image.Image
	img  image.Image
}

// SeePicture shows the guard the screenshot of s, so that an element of s with no words
// is judged by what it looks like. load returns it decoded (nil: none); the guard calls
// it at most once, and only when it judges such an element.
func (g *Guard) SeePicture(s *perception.Screen, load func() image.Image) {
	if g == nil || s == nil || load == nil {
		return
	}
	p := &g.pics
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, sl := range p.slots {
		if sl != nil && sl.s == s {
			return
		}
	}
	p.slots[p.next] = &picture{s: s, load: load}
	p.next = (p.next + 1) % pictureSlots
}

// pictured is what el's picture shows, as a label of the guard's vocabulary, and what it
// is drawn as ("a bin"); "" when el has words, is no tappable icon, s has no picture, or
// the picture is no icon the guard holds.
func (g *Guard) pictured(el *perception.Element, s *perception.Screen) (label, drawn string) {
	if s == nil || !wordless(el) {
		return "", ""
	}
	p := &g.pics
	p.mu.Lock()
	var pic *picture
	for _, sl := range p.slots {
		if sl != nil && sl.s == s {
			pic = sl
		}
	}
	if pic != nil && p.icons == nil {
		p.icons = icons.NewMatcher()
	}
	m := p.icons
	p.mu.Unlock()
	if pic == nil {
		return "", ""
	}
	pic.once.Do(func() { pic.img = pic.load() })
	if pic.img == nil {
		return "", ""
	}
	ib := pic.img.Bounds()
	fx, fy := s.PictureScale(ib)
	b := el.Bounds
	r := image.Rect(int(float64(b.X1)*fx), int(float64(b.Y1)*fy), int(float64(b.X2)*fx), int(float64(b.Y2)*fy)).Add(ib.Min)
	got, ok := m.Match(pic.img, r)
	if !ok {
		return "", ""
	}
	l := iconLabels[got.Word]
	return l.label, l.picture
}

// wordless reports whether el is a tappable icon with no words of its own: no text, no
// description, no caption, no label but the number a mark is given; not a field, a list
// or a switch.
func wordless(el *perception.Element) bool {
	if el == nil || !(el.Clickable || el.LongClickable) || el.Editable || el.Scrollable || el.Checkable || el.FromPicture {
		return false
	}
	if el.Text != "" || el.Desc != "" || el.Caption != "" || len(el.Texts) > 0 {
		return false
	}
	return el.Label == "" || el.Drawn
}
