package guard

import "github.com/fairy-go/fairy/perception"

// A tap by point on a region the tree does not describe lands on something drawn: the
// guard judges it by the text read from the picture at and around the point, so a drawn
// Pay button is held whether the tap hits its label or the button around it.

// readNear is the element read from the picture nearest (x, y), within the reach of a
// drawn control around its text: half the text's height above and below, and as much as
// the text is high on either side, at least 1/20 of the screen's width. nil: none.
func readNear(s *perception.Screen, x, y int) *perception.Element {
	var best *perception.Element
	bestD := -1
	for i := range s.Elements {
		e := &s.Elements[i]
		if !e.FromPicture {
			continue
		}
		b := e.Bounds
		h := b.Dy()
		mx := max(h, s.Width/20)
		if x < b.X1-mx || x >= b.X2+mx || y < b.Y1-h || y >= b.Y2+h {
			continue
		}
		dx := max(b.X1-x, 0, x-b.X2+1)
		dy := max(b.Y1-y, 0, y-b.Y2+1)
		if d := dx*dx + dy*dy; bestD < 0 || d < bestD {
			best, bestD = e, d
		}
	}
	return best
}
