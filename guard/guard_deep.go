package guard

import (
	"fmt"

	"github.com/fairy-go/fairy/perception"
)

// What the tree cannot place: a page can nest its elements deeper than perception keeps
// (a hostile WebView's 600 nested divs), and a button down there is on no list of
// elements. A tap inside such a region (perception.Screen.Deep) is judged by the text
// read from the picture at the point (the region is read like any the tree does not
// describe); when the picture shows nothing there, it is held: nothing says what it does.

// unplacedCategory is the category of an action on what neither the tree nor the picture
// names.
const unplacedCategory = "unknown"

// inDeep reports whether (x, y) lies in a region of s the tree is too deep to describe.
func inDeep(s *perception.Screen, x, y int) bool {
	if s == nil {
		return false
	}
	for _, b := range s.Deep {
		if b.Contains(perception.Point{X: x, Y: y}) {
			return true
		}
	}
	return false
}

// unplaced judges verb at (x, y) in a deep region of s: as the text read from the picture
// nearest the point, or held when none was read there.
func (g *Guard) unplaced(verb string, x, y int, s *perception.Screen) (Verdict, bool) {
	if at := s.ReadNear(x, y); at != nil {
		return g.element(verb, at, s)
	}
	at := fmt.Sprintf("(%d, %d)", x, y)
	return Verdict{Category: unplacedCategory, Type: 1, Target: at,
		Subject: fmt.Sprintf("%s at %s, where the page nests its elements too deep to read and the picture shows no text", verb, at),
		Action:  fmt.Sprintf("page %s: unplaced at %s", s.Signature, at)}, true
}
