package perception

import (
	"fmt"
	"image"
	"math"
	"testing"
)

// TestPictureScaleDialogOnScaledScreenshot: a dump whose one window is a dialog's card has
// no screen size, and a screenshot scaled down as a whole (half size, portrait or
// landscape) must still put the card's buttons where they are drawn: the card's centred
// margins tell the display's size. A popup anchored off the centre, on a screenshot at the
// display's size, keeps its pixels.
func TestPictureScaleDialogOnScaledScreenshot(t *testing.T) {
	dump := func(x1, y1, x2, y2 int) []byte {
		return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">`+
			`<node index="0" text="" class="android.widget.FrameLayout" package="com.notes" clickable="false" enabled="true" bounds="[%d,%d][%d,%d]">`+
			`<node index="0" text="Delete" class="android.widget.Button" package="com.notes" clickable="true" enabled="true" bounds="[%d,%d][%d,%d]"/>`+
			`</node></hierarchy>`, x1, y1, x2, y2, x1+20, y2-120, x2-20, y2-20))
	}
	for _, c := range []struct {
		name           string
		x1, y1, x2, y2 int
		pic            image.Rectangle
		want           float64
	}{
		// the Notes delete dialog of the virtual phone (1080x2400), centred between the bars
		{"portrait half", 63, 879, 1017, 1457, image.Rect(0, 0, 540, 1200), 0.5},
		{"portrait full", 63, 879, 1017, 1457, image.Rect(0, 0, 1080, 2400), 1},
		// a 2400x1080 display on its side, the navigation bar (126) at the right
		{"landscape half", 674, 200, 1600, 880, image.Rect(0, 0, 1200, 540), 0.5},
		{"landscape quarter", 674, 200, 1600, 880, image.Rect(0, 0, 600, 270), 0.25},
		// a popup menu anchored at the top right, on the display's own screenshot
		{"popup full", 600, 150, 1060, 700, image.Rect(0, 0, 1080, 2400), 1},
	} {
		s, err := Parse(dump(c.x1, c.y1, c.x2, c.y2))
		if err != nil {
			t.Fatal(err)
		}
		fx, fy := s.PictureScale(c.pic)
		if math.Abs(fx-c.want) > 0.01 || math.Abs(fy-c.want) > 0.01 {
			t.Errorf("%s: PictureScale = %.3f,%.3f, want %v", c.name, fx, fy, c.want)
		}
	}
}
