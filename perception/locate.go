package perception

// ElementAt is the element of s under the screen point (x, y): the smallest element whose
// bounds hold it, else the text read from the picture nearest it (ReadNear); nil when
// there is none. A tap by coordinates (`input tap X Y`) lands there.
func (s *Screen) ElementAt(x, y int) *Element {
	var best *Element
	for i := range s.Elements {
		e := &s.Elements[i]
		b := e.Bounds
		if x < b.X1 || x >= b.X2 || y < b.Y1 || y >= b.Y2 {
			continue
		}
		if best == nil || (b.X2-b.X1)*(b.Y2-b.Y1) < (best.Bounds.X2-best.Bounds.X1)*(best.Bounds.Y2-best.Bounds.Y1) {
			best = e
		}
	}
	if best == nil {
		return s.ReadNear(x, y)
	}
	return best
}

// ReadNear is the element read from the picture nearest (x, y), within the reach of a
// drawn control around its text: half the text's height above and below, and as much as
// the text is high on either side, at least 1/20 of the screen's width. nil: none. A tap
// on a region the tree does not describe lands on something drawn: a drawn Pay button is
// found whether the tap hits its label or the button around it.
func (s *Screen) ReadNear(x, y int) *Element {
	var best *Element
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

// Focused is the element of s that has the focus, a text field before any other (a dump
// may mark both the field and its container), or nil (also for a nil s). Text typed and
// an Enter pressed go there.
func (s *Screen) Focused() *Element {
	if s == nil {
		return nil
	}
	var other *Element
	for i := range s.Elements {
		e := &s.Elements[i]
		switch {
		case !e.Focused:
		case e.Editable:
			return e
		case other == nil:
			other = e
		}
	}
	return other
}
