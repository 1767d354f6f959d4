package perception

import (
	"encoding/json"
	"fmt"
)

// MarshalJSON writes b as [x1,y1,x2,y2].
func (b Bounds) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "[%d,%d,%d,%d]", b.X1, b.Y1, b.X2, b.Y2), nil
}

// UnmarshalJSON reads [x1,y1,x2,y2].
func (b *Bounds) UnmarshalJSON(data []byte) error {
	var v [4]int
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("perception bounds: %w", err)
	}
	*b = Bounds{X1: v[0], Y1: v[1], X2: v[2], Y2: v[3]}
	return nil
}

// MarshalJSON writes p as [x,y].
func (p Point) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "[%d,%d]", p.X, p.Y), nil
}

// UnmarshalJSON reads [x,y].
func (p *Point) UnmarshalJSON(data []byte) error {
	var v [2]int
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("perception point: %w", err)
	}
	*p = Point{X: v[0], Y: v[1]}
	return nil
}

// ScreenJSON is the JSON form of a [Screen], what `fairy perceive --format
// json` prints and what scripts and evaluation tools read.
type ScreenJSON struct {
	Package   string    `json:"package"`
	Activity  string    `json:"activity,omitempty"`
	Rotation  int       `json:"rotation"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	Keyboard  bool      `json:"keyboard"`
	Signature string    `json:"signature"`
	Text      string    `json:"text"` // the text form, see Screen.Text
	Elements  []Element `json:"elements"`
	Context   []string  `json:"context,omitempty"`
	// Uncovered, Deep and Read: see Screen.Uncovered, Screen.Deep and Screen.Read.
	Uncovered []Bounds  `json:"uncovered,omitempty"`
	Deep      []Bounds  `json:"deep,omitempty"`
	Read      []TextBox `json:"read,omitempty"`
}

// JSON returns the JSON form of s.
func (s *Screen) JSON() ScreenJSON {
	els := s.Elements
	if els == nil {
		els = []Element{}
	}
	return ScreenJSON{
		Package: s.Package, Activity: s.Activity, Rotation: s.Rotation,
		Width: s.Width, Height: s.Height, Keyboard: s.Keyboard,
		Signature: s.Signature, Text: s.Text(), Elements: els, Context: s.Context,
		Uncovered: s.Uncovered, Deep: s.Deep, Read: s.Read,
	}
}

// MarshalJSON writes the JSON form of s (see [ScreenJSON]).
func (s *Screen) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.JSON())
}
