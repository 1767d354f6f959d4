package perception

// SwipePath is a finger path across the middle 60% of b, in the direction of the finger:
// the swipe the executor makes, and the one MCP `act`, the explorer and the guard (a swipe
// across the screen drags what is under its start) make the same way.
func SwipePath(b Bounds, dir string) (x1, y1, x2, y2 int) {
	cx, cy := (b.X1+b.X2)/2, (b.Y1+b.Y2)/2
	dx, dy := (b.X2-b.X1)*3/10, (b.Y2-b.Y1)*3/10
	switch dir {
	case "up":
		return cx, cy + dy, cx, cy - dy
	case "down":
		return cx, cy - dy, cx, cy + dy
	case "left":
		return cx + dx, cy, cx - dx, cy
	default:
		return cx - dx, cy, cx + dx, cy
	}
}
