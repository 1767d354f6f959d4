package grounding

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
)

// FrameKind is how a model's numbers map to the picture it saw.
type FrameKind string

// The frame kinds.
const (
	// Absolute is pixels of the image the model was sent (Frame.W × Frame.H): UI-TARS-1.5,
	// Qwen2.5-VL.
	Absolute FrameKind = "absolute"
	// Norm1000 is 0–1000 on each axis, whatever the image's size: UI-TARS-2 / Doubao,
	// Qwen3-VL, GUI-Owl.
	Norm1000 FrameKind = "norm1000"
	// Norm999 is 0–999 on each axis, scaled by 1/1000 (Open-AutoGLM's handler):
	// AutoGLM-Phone.
	Norm999 FrameKind = "norm999"
	// Unit is 0–1 on each axis.
	Unit FrameKind = "unit"
)

// Frame is a model's coordinate frame. W and H are the image's size for Absolute, unused
// otherwise.
type Frame struct {
	Kind FrameKind
	W, H int
}

// Point is a position: in a model's frame as Parse returns it (fractions for Unit), in
// screen pixels after ToScreen.
type Point struct{ X, Y float64 }

func (p Point) String() string {
	return "(" + strconv.FormatFloat(p.X, 'f', -1, 64) + "," + strconv.FormatFloat(p.Y, 'f', -1, 64) + ")"
}

// DefaultFrame is the frame a family's model card documents; image is the size of the
// picture the model is sent (the frame of Absolute).
func DefaultFrame(f Family, imageW, imageH int) Frame {
	switch f {
	case UITARS, QwenVL:
		return Frame{Kind: Absolute, W: imageW, H: imageH}
	case AutoGLM:
		return Frame{Kind: Norm999}
	}
	return Frame{Kind: Norm1000}
}

// extent is the largest coordinate on each axis and the divisor to a fraction.
func (fr Frame) extent() (maxX, maxY, divX, divY float64) {
	switch fr.Kind {
	case Absolute:
		return float64(fr.W), float64(fr.H), float64(fr.W), float64(fr.H)
	case Norm999:
		return 999, 999, 1000, 1000
	case Unit:
		return 1, 1, 1, 1
	}
	return 1000, 1000, 1000, 1000
}

// Valid reports whether the frame can map points (an Absolute frame needs its image size).
func (fr Frame) Valid() error {
	switch fr.Kind {
	case Absolute:
		if fr.W <= 0 || fr.H <= 0 {
			return fmt.Errorf("grounding: an absolute frame needs the image's size (got %d×%d)", fr.W, fr.H)
		}
	case Norm1000, Norm999, Unit:
	default:
		return fmt.Errorf("grounding: unknown frame kind %q", fr.Kind)
	}
	return nil
}

// String says what the frame is in words a model and a person read the same way.
func (fr Frame) String() string {
	switch fr.Kind {
	case Absolute:
		return fmt.Sprintf("absolute pixels of the %d×%d screenshot", fr.W, fr.H)
	case Norm999:
		return "relative, 0–999 on each axis"
	case Unit:
		return "relative, 0–1 on each axis"
	}
	return "relative, 0–1000 on each axis"
}

// ToScreen maps a point of the frame to screen pixels (rounded, inside the screen). A point
// outside the frame is an ErrOffFrame whose message tells the model the frame's range.
func (fr Frame) ToScreen(p Point, screenW, screenH int) (Point, error) {
	if err := fr.Valid(); err != nil {
		return Point{}, err
	}
	if screenW <= 0 || screenH <= 0 {
		return Point{}, fmt.Errorf("grounding: the screen's size is unknown (%d×%d)", screenW, screenH)
	}
	maxX, maxY, divX, divY := fr.extent()
	if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < 0 || p.Y < 0 || p.X > maxX || p.Y > maxY {
		return Point{}, fmt.Errorf("%w: %s is outside the frame (%s: x from 0 to %g, y from 0 to %g); "+
			"give a point on the screen", ErrOffFrame, p, fr, maxX, maxY)
	}
	x := math.Floor(p.X / divX * float64(screenW))
	y := math.Floor(p.Y / divY * float64(screenH))
	return Point{X: min(x, float64(screenW-1)), Y: min(y, float64(screenH-1))}, nil
}

// FromScreen maps screen pixels to the frame: ToScreen's inverse up to rounding (whole
// numbers for every kind but Unit, which keeps three decimals).
func (fr Frame) FromScreen(p Point, screenW, screenH int) Point {
	_, _, divX, divY := fr.extent()
	maxX, maxY, _, _ := fr.extent()
	// The pixel's centre, so that ToScreen's floor lands back on the pixel.
	x := (p.X + 0.5) / float64(max(screenW, 1)) * divX
	y := (p.Y + 0.5) / float64(max(screenH, 1)) * divY
	if fr.Kind == Unit {
		return Point{X: math.Round(x*1000) / 1000, Y: math.Round(y*1000) / 1000}
	}
	return Point{X: min(math.Floor(x), maxX), Y: min(math.Floor(y), maxY)}
}

// The frame line is the one line of a coordinate prompt that states the frame and the
// screen's size; the scripted model and error injection read it back (ReadFrameLine).
var frameLine = regexp.MustCompile(`(?m)^Coordinates: (absolute pixels of the (\d+)×(\d+) screenshot|relative, 0–(1000|999|1) on each axis) \(x to the right, y down\); the screen is (\d+)×(\d+) pixels\.$`)

// FrameLine is the line a coordinate prompt states its frame with.
func FrameLine(fr Frame, screenW, screenH int) string {
	return fmt.Sprintf("Coordinates: %s (x to the right, y down); the screen is %d×%d pixels.", fr, screenW, screenH)
}

// ReadFrameLine finds the last frame line in a prompt.
func ReadFrameLine(text string) (fr Frame, screenW, screenH int, ok bool) {
	all := frameLine.FindAllStringSubmatch(text, -1)
	if len(all) == 0 {
		return Frame{}, 0, 0, false
	}
	m := all[len(all)-1]
	screenW, _ = strconv.Atoi(m[5])
	screenH, _ = strconv.Atoi(m[6])
	switch {
	case m[2] != "":
		fr.Kind = Absolute
		fr.W, _ = strconv.Atoi(m[2])
		fr.H, _ = strconv.Atoi(m[3])
	case m[4] == "999":
		fr.Kind = Norm999
	case m[4] == "1":
		fr.Kind = Unit
	default:
		fr.Kind = Norm1000
	}
	return fr, screenW, screenH, true
}

// BoxLine is one line of a coordinate prompt's element boxes: `[3] box=[x1,y1,x2,y2]`, the
// element numbered 3 in the screen's text form, its box in the prompt's frame. The boxes
// sit apart from the text form, which stays as numbered-action models see it.
func BoxLine(index int, b [4]float64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return fmt.Sprintf("[%d] box=[%s,%s,%s,%s]", index, f(b[0]), f(b[1]), f(b[2]), f(b[3]))
}

var boxLine = regexp.MustCompile(`(?m)^\[(\d+)\] box=\[(-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\]\s*$`)

// ReadBoxes reads the box lines of a prompt (BoxLine), by element number; a later line
// for a number replaces an earlier one.
func ReadBoxes(text string) map[int][4]float64 {
	out := map[int][4]float64{}
	for _, m := range boxLine.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		var b [4]float64
		for i := range b {
			b[i], _ = strconv.ParseFloat(m[2+i], 64)
		}
		out[n] = b
	}
	return out
}
