package executor

import (
	"testing"

	"github.com/fairy-go/fairy/perception"
)

// TestSlidePath: Swipe on a slider drags from its thumb, at the start of the track, to the
// far end (a "slide to confirm" control acts only there); on anything else it swipes
// through the middle 60 %.
func TestSlidePath(t *testing.T) {
	track := perception.Bounds{X1: 42, Y1: 540, X2: 1038, Y2: 687} // 996×147, the thumb a 147 square
	x1, y1, x2, y2 := slidePath(track, "right")
	if x1 < track.X1 || x1 > track.X1+147 || x2 < track.X2-5 || y1 != 613 || y2 != 613 {
		t.Errorf("right: %d,%d → %d,%d; want from the thumb to the end", x1, y1, x2, y2)
	}
	x1, _, x2, _ = slidePath(track, "left")
	if x1 > track.X2 || x1 < track.X2-147 || x2 > track.X1+5 {
		t.Errorf("left: %d → %d; want from the end's thumb to the start", x1, x2)
	}
	vertical := perception.Bounds{X1: 900, Y1: 600, X2: 1000, Y2: 1600}
	if _, y1, _, y2 := slidePath(vertical, "up"); y1 < vertical.Y2-100 || y2 > vertical.Y1+5 {
		t.Errorf("up a vertical slider: %d → %d", y1, y2)
	}
	if x1, _, x2, _ := perception.SwipePath(track, "right"); x2-x1 > track.X2-track.X1-300 {
		t.Errorf("a plain swipe goes %d → %d, past the middle 60 %%", x1, x2)
	}
}
