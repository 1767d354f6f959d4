package perception

import (
	"fmt"
	"image"
	"math"
)

// Bounds is a rectangle in screen pixels, X2/Y2 exclusive as uiautomator
// prints them. JSON form: [x1,y1,x2,y2].
type Bounds struct{ X1, Y1, X2, Y2 int }

// Point is a screen position. JSON form: [x,y].
type Point struct{ X, Y int }

// Empty reports whether b covers no pixel (this includes inverted bounds).
func (b Bounds) Empty() bool { return b.X2 <= b.X1 || b.Y2 <= b.Y1 }

// Dx is the width of b (0 when empty).
func (b Bounds) Dx() int {
	if b.Empty() {
		return 0
	}
	return b.X2 - b.X1
}

// Dy is the height of b (0 when empty).
func (b Bounds) Dy() int {
	if b.Empty() {
		return 0
	}
	return b.Y2 - b.Y1
}

// Area is Dx*Dy.
func (b Bounds) Area() int { return b.Dx() * b.Dy() }

// Center is the middle pixel of b.
func (b Bounds) Center() Point { return Point{X: (b.X1 + b.X2) / 2, Y: (b.Y1 + b.Y2) / 2} }

// Contains reports whether p lies inside b.
func (b Bounds) Contains(p Point) bool {
	return p.X >= b.X1 && p.X < b.X2 && p.Y >= b.Y1 && p.Y < b.Y2
}

// Intersect returns the overlap of b and o (empty when they do not overlap).
func (b Bounds) Intersect(o Bounds) Bounds {
	r := Bounds{X1: max(b.X1, o.X1), Y1: max(b.Y1, o.Y1), X2: min(b.X2, o.X2), Y2: min(b.Y2, o.Y2)}
	if r.Empty() {
		return Bounds{}
	}
	return r
}

// String formats b the way uiautomator does: [x1,y1][x2,y2].
func (b Bounds) String() string { return fmt.Sprintf("[%d,%d][%d,%d]", b.X1, b.Y1, b.X2, b.Y2) }

// Scroll directions of a scrollable element.
const (
	scrollVertical   = "vertical"
	ScrollHorizontal = "horizontal"
)

// Element is one actionable node of the screen: clickable, long-clickable,
// scrollable, checkable or editable, visible, with its 1-based Index in
// reading order. The model names elements by Index.
type Element struct {
	Index int    `json:"index"`
	Role  string `json:"role"` // short lowercase word: button, input, text, image, switch, …
	// Label is what the text form shows: the element's own text, else its
	// content-desc, else the text of a label-only child folded into it, else
	// an icon caption. Never the text of a password field.
	Label      string `json:"label,omitempty"`
	Text       string `json:"text"` // own text; empty for password fields
	Desc       string `json:"desc"` // own content-desc
	Hint       string `json:"hint,omitempty"`
	ResourceID string `json:"resource_id"`
	Class      string `json:"class"`
	Package    string `json:"package,omitempty"`
	Bounds     Bounds `json:"bounds"` // visible part, clipped to the screen
	Center     Point  `json:"center"` // where a tap lands; inside Bounds

	Clickable     bool   `json:"clickable,omitempty"`
	LongClickable bool   `json:"long_clickable,omitempty"`
	Checkable     bool   `json:"checkable,omitempty"`
	Checked       bool   `json:"checked,omitempty"`
	Editable      bool   `json:"editable,omitempty"`
	Scrollable    bool   `json:"scrollable,omitempty"`
	ScrollDir     string `json:"scroll_dir,omitempty"` // scrollVertical, ScrollHorizontal or "" when unknown
	Selected      bool   `json:"selected,omitempty"`
	Focused       bool   `json:"focused,omitempty"`
	Enabled       bool   `json:"enabled"`
	Password      bool   `json:"password,omitempty"`

	// Texts are the other informative static texts inside the element
	// (a list row's subtitle, price, date), in reading order.
	Texts []string `json:"texts,omitempty"`
	// Caption is an icon description from an [iconDescriber]; set only on
	// elements that had no label.
	Caption string `json:"caption,omitempty"`
	// FromPicture marks text read from the screenshot (OCR) where the tree says
	// nothing: its Label is what was read, its Bounds where (see [PixelReader]).
	FromPicture bool `json:"from_picture,omitempty"`
	// Drawn marks a shape of an icon's size drawn with no text where the tree says
	// nothing (see [PixelReader]): its Label only numbers it ("icon 2").
	Drawn bool `json:"drawn,omitempty"`
}

// Screen is one perceived screen.
type Screen struct {
	// Package is the foreground app: the package of the largest application
	// window (status bar, navigation bar and keyboard windows do not count).
	Package string
	// Activity is not in a dump; callers that know it (dumpsys) may set it.
	Activity string
	// Rotation is the dump's rotation attribute (0..3).
	Rotation int
	// Width and Height are the screen size the bounds refer to: the dump's own (Appium's
	// <hierarchy width height>), else the extent of its windows — all of the screen when
	// an app's window fills it, only the card when a dialog is the one window dumped.
	// [Screen.PictureScale] maps bounds onto a screenshot either way.
	Width, Height int
	// Keyboard reports an input method window on screen.
	Keyboard bool
	// Signature identifies the page: it stays the same when only texts,
	// states or list contents change and differs between pages, also between
	// pages that differ only by the title in their toolbar (see pageTitle).
	Signature string
	// Elements are the actionable elements; Elements[i].Index == i+1.
	Elements []Element
	// Context holds the static texts that belong to no element, in reading order.
	Context []string
	// Uncovered are the regions the tree does not describe (a childless WebView,
	// SurfaceView or canvas; a large picture without a description): only the
	// screenshot shows what is there. Empty when the tree covers the screen.
	Uncovered []Bounds
	// Deep are the regions of elements nested deeper than the parser keeps (a hostile
	// WebView's 600 nested divs): the tree cannot place what is there, so each is also
	// uncovered (read from the picture), and a tap inside one is judged by what is drawn
	// or held, never taken for a tap on nothing.
	Deep []Bounds
	// Locale is the phone's language (BCP 47, "ja-JP"), when the caller knows it (a dump
	// does not say): the [PixelReader] reads the picture with its script's data too.
	Locale string
	// Read are the text lines read from the picture in the uncovered regions
	// (see [PixelReader]); each is also an element with FromPicture set.
	Read []TextBox
	// Marks are the shapes of an icon's size drawn with no text in the uncovered regions
	// (see [PixelReader]); each is also an element with Drawn set.
	Marks []Bounds

	lines []line
	// sized: Width and Height came with the dump, not from its windows' extent.
	sized bool
	// left, top: where the windows' extent starts (a dialog card's margins).
	left, top int
}

// PictureScale returns the factors that take the screen's coordinates to the pixels of
// pic, a screenshot of the whole display at any scale. With a size from the dump, the
// screenshot spans it. Without one, Width and Height are only the extent of the windows
// dumped (a dialog's card): a screenshot at least that large is at the display's size
// (bounds are its pixels), a smaller one is the display scaled down as a whole, by no less
// than it takes to fit the extent — by the display's size when the extent is a card centred
// on it (a dialog's margins tell the display's width and height).
func (s *Screen) PictureScale(pic image.Rectangle) (fx, fy float64) {
	pw, ph := pic.Dx(), pic.Dy()
	if s.Width <= 0 || s.Height <= 0 || pw <= 0 || ph <= 0 {
		return 1, 1
	}
	if s.sized {
		return float64(pw) / float64(s.Width), float64(ph) / float64(s.Height)
	}
	k := max(1, float64(s.Width)/float64(pw), float64(s.Height)/float64(ph))
	if s.left > 0 && s.top > 0 {
		// A card alone (a dialog): Android centres it on the display, so its margins tell
		// the display's size. Both axes must agree (within the system bars' share), or it
		// is a popup anchored off the centre and says nothing of the display.
		// The bars only shorten the area it is centred in: the larger factor is the display's.
		kx, ky := float64(s.left+s.Width)/float64(pw), float64(s.top+s.Height)/float64(ph)
		if kc := max(kx, ky); kc > k && math.Abs(kx-ky) <= 0.08*kc {
			k = kc
		}
	}
	return 1 / k, 1 / k
}

// line is one line of the text form.
type line struct {
	depth int32
	elem  int32  // index into Elements, or -1 for a static text line
	text  string // static text
	desc  string // static content-desc when it differs from text
}
