package perception

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fakeShot paints a screenshot of the given size: a gradient background and
// every element of s filled with a light colour, so boxes can be checked.
func fakeShot(w, h int, s *Screen) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(200+x%50), uint8(200+y%50), 230, 255
		}
	}
	return img
}

func corpusScreen(t testing.TB, name string) *Screen {
	t.Helper()
	data, err := os.ReadFile("testdata/corpus/" + name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMarker(t *testing.T) {
	s := corpusScreen(t, "gmail-inbox-1080x2400-drawing-order.xml")
	shot := fakeShot(1080, 2400, s)
	tests := []struct {
		name   string
		opt    MarkOptions
		w, h   int
		mime   string
		wantOK bool
	}{
		{"default jpeg", MarkOptions{}, 576, 1280, "image/jpeg", true},
		{"png 800", MarkOptions{LongEdge: 800, Format: FormatPNG}, 360, 800, "image/png", true},
		{"no scaling", MarkOptions{LongEdge: -1, Format: FormatPNG}, 1080, 2400, "image/png", true},
		{"bigger than shot keeps size", MarkOptions{LongEdge: 4000, Format: FormatPNG}, 1080, 2400, "image/png", true},
		{"bad format", MarkOptions{Format: "gif"}, 0, 0, "", false},
		{"bad quality", MarkOptions{Quality: 101}, 0, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewMarker(tt.opt)
			if (err == nil) != tt.wantOK {
				t.Fatalf("NewMarker: %v", err)
			}
			if err != nil {
				return
			}
			var pngShot bytes.Buffer
			if err := png.Encode(&pngShot, shot); err != nil {
				t.Fatal(err)
			}
			data, mime, err := m.Render(pngShot.Bytes(), s)
			if err != nil || mime != tt.mime {
				t.Fatalf("Render: %q, %v", mime, err)
			}
			img, err := DecodeScreenshot(data)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
				t.Errorf("size %v, want %dx%d", b, tt.w, tt.h)
			}
		})
	}
}

// TestMarkerBoxes checks, on a lossless image, that every element gets a
// frame in its colour and a label, and that labels do not overlap when
// there is room.
func TestMarkerBoxes(t *testing.T) {
	s := mustParse(t, loginPage("Sign in", "alice"))
	m, err := NewMarker(MarkOptions{LongEdge: 1200, Format: FormatPNG})
	if err != nil {
		t.Fatal(err)
	}
	img := m.Annotate(fakeShot(1080, 2400, s), s)
	if img.Bounds().Dy() != 1200 || img.Bounds().Dx() != 540 {
		t.Fatalf("size %v", img.Bounds())
	}
	for i, e := range s.Elements {
		// the middle of the bottom edge of the frame, scaled by 1/2
		x, y := e.Center.X/2, e.Bounds.Y2/2-1
		if got := img.RGBAAt(x, y); got != markColor(i) {
			t.Errorf("[%d] frame pixel at %d,%d = %v, want %v", e.Index, x, y, got, markColor(i))
		}
	}
	var placed []image.Rectangle
	for i := 0; i < 30; i++ {
		box := image.Rect(100, 100+i*4, 300, 140+i*4) // a pile of overlapping boxes
		r := m.placeLabel(img.Bounds(), []image.Rectangle{box}, 0, "12", placed, nil)
		for _, q := range placed {
			if r.Overlaps(q) {
				t.Errorf("label %d at %v overlaps %v", i, r, q)
			}
		}
		if !r.In(img.Bounds()) {
			t.Errorf("label %v off the image", r)
		}
		placed = append(placed, r)
	}
	// white digit pixels inside the first label
	found := false
	for y := 200; y < 240 && !found; y++ {
		for x := 0; x < 60; x++ {
			if c := img.RGBAAt(x, y); c.R > 240 && c.G > 240 && c.B > 240 {
				found = true
				break
			}
		}
	}
	if !found {
		t.Error("no white label digits drawn near element 1")
	}
}

func TestDecodeScreenshotErrors(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("GIF89a"), []byte("\x89PNG\r\n\x1a\ntruncated"), {0xff, 0xd8, 0}} {
		if _, err := DecodeScreenshot(in); !errors.Is(err, errImage) {
			t.Errorf("DecodeScreenshot(%q) = %v, want ErrImage", in, err)
		}
	}
	m, _ := NewMarker(MarkOptions{})
	if _, _, err := m.Render([]byte("nope"), nil); !errors.Is(err, errImage) {
		t.Errorf("Render = %v", err)
	}
	// A nil screen or one without elements just scales the image.
	img := m.Annotate(image.NewUniform(color.Black), nil)
	_ = img
}

// BenchmarkSetOfMark annotates and downscales a decoded 1080×2400
// screenshot of a 43-element screen to 1280 px (target ≤ 60 ms/op).
func BenchmarkSetOfMark(b *testing.B) {
	s := corpusScreen(b, "gmail-inbox-1080x2400-drawing-order.xml")
	shot := fakeShot(1080, 2400, s)
	m, err := NewMarker(MarkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Annotate(shot, s)
	}
}

// BenchmarkSetOfMarkRender is the whole visual-mode path: PNG decode,
// annotate, downscale, JPEG encode.
func BenchmarkSetOfMarkRender(b *testing.B) {
	s := corpusScreen(b, "gmail-inbox-1080x2400-drawing-order.xml")
	var buf bytes.Buffer
	if err := png.Encode(&buf, fakeShot(1080, 2400, s)); err != nil {
		b.Fatal(err)
	}
	m, err := NewMarker(MarkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := m.Render(buf.Bytes(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMarkerSimScreenshot annotates a screenshot the virtual phone rendered,
// with the dump taken on the same screen.
func TestMarkerSimScreenshot(t *testing.T) {
	s := corpusScreen(t, "../sim/com.fairy.shop.xml")
	shot, err := os.ReadFile("testdata/sim/com.fairy.shop.png")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMarker(MarkOptions{Format: FormatPNG})
	if err != nil {
		t.Fatal(err)
	}
	data, mime, err := m.Render(shot, s)
	if err != nil || mime != "image/png" {
		t.Fatalf("Render: %v %q", err, mime)
	}
	img, err := DecodeScreenshot(data)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 576 || b.Dy() != 1280 {
		t.Errorf("size %v, want 576x1280", b)
	}
	// The frame of the cart button ([13]) is drawn in its colour.
	e := s.Elements[12]
	x, y := e.Center.X*576/1080, e.Bounds.Y2*1280/2400-1
	if got := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); got != markColor(12) {
		t.Errorf("frame pixel of [13] at %d,%d = %v, want %v", x, y, got, markColor(12))
	}
}

// TestMarkerLabelsCoverNoText: on screens the virtual phone drew, no set-of-mark number
// hides a pixel of any text: a text node's ink is every pixel of its bounds that differs from
// the colour most of its bounds have (its background), and every label, scaled back to the
// screen, must cover none of it.
func TestMarkerLabelsCoverNoText(t *testing.T) {
	xmls, err := filepath.Glob("testdata/sim-som/*.xml")
	if err != nil || len(xmls) < 5 {
		t.Fatalf("want 5 screens in testdata/sim-som, got %v (%v)", xmls, err)
	}
	textNode := regexp.MustCompile(`<node [^>]*?text="([^"]+)"[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"`)
	for _, x := range xmls {
		name := strings.TrimSuffix(filepath.Base(x), ".xml")
		t.Run(name, func(t *testing.T) {
			dump, err := os.ReadFile(x)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(dump)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(strings.TrimSuffix(x, ".xml") + ".png")
			if err != nil {
				t.Fatal(err)
			}
			shot, err := DecodeScreenshot(data)
			if err != nil {
				t.Fatal(err)
			}
			// The ink of every text node, in screen pixels.
			ink := map[image.Point]string{}
			for _, m := range textNode.FindAllStringSubmatch(string(dump), -1) {
				var v [4]int
				for i := range v {
					v[i], _ = strconv.Atoi(m[2+i])
				}
				r := image.Rect(v[0], v[1], v[2], v[3]).Intersect(shot.Bounds())
				// An element that does not hold the text but overlaps it (a floating
				// button) is drawn over it: its pixels are not the text's.
				var over []image.Rectangle
				for _, e := range s.Elements {
					b := image.Rect(e.Bounds.X1, e.Bounds.Y1, e.Bounds.X2, e.Bounds.Y2)
					if b.Overlaps(r) && !r.In(b) {
						over = append(over, b)
					}
				}
				onTop := func(p image.Point) bool {
					for _, b := range over {
						if p.In(b) {
							return true
						}
					}
					return false
				}
				counts := map[color.RGBA]int{}
				var bg color.RGBA
				for y := r.Min.Y; y < r.Max.Y; y++ {
					for x := r.Min.X; x < r.Max.X; x++ {
						c := color.RGBAModel.Convert(shot.At(x, y)).(color.RGBA)
						if counts[c]++; counts[c] > counts[bg] {
							bg = c
						}
					}
				}
				for y := r.Min.Y; y < r.Max.Y; y++ {
					for x := r.Min.X; x < r.Max.X; x++ {
						c := color.RGBAModel.Convert(shot.At(x, y)).(color.RGBA)
						if (absDiff(c.R, bg.R) > 60 || absDiff(c.G, bg.G) > 60 || absDiff(c.B, bg.B) > 60) && !onTop(image.Pt(x, y)) {
							ink[image.Pt(x, y)] = m[1]
						}
					}
				}
			}
			if len(ink) == 0 {
				t.Fatal("no text ink found")
			}
			m, err := NewMarker(MarkOptions{Format: FormatPNG})
			if err != nil {
				t.Fatal(err)
			}
			img, labels := m.annotate(shot, s)
			if len(labels) != len(s.Elements) {
				t.Fatalf("%d labels for %d elements", len(labels), len(s.Elements))
			}
			fx := float64(shot.Bounds().Dx()) / float64(img.Bounds().Dx())
			fy := float64(shot.Bounds().Dy()) / float64(img.Bounds().Dy())
			for i, l := range labels {
				covered := map[string]int{}
				for y := int(float64(l.Min.Y) * fy); y < int(float64(l.Max.Y)*fy+0.5); y++ {
					for x := int(float64(l.Min.X) * fx); x < int(float64(l.Max.X)*fx+0.5); x++ {
						if text, ok := ink[image.Pt(x, y)]; ok {
							covered[text]++
						}
					}
				}
				if len(covered) > 0 {
					t.Errorf("label [%d] at %v (image) covers text: %v", s.Elements[i].Index, l, covered)
				}
				for j := range i {
					if l.Overlaps(labels[j]) {
						t.Errorf("label [%d] at %v overlaps label [%d] at %v", s.Elements[i].Index, l, s.Elements[j].Index, labels[j])
					}
				}
			}
			if t.Failed() && os.Getenv("SOM_OUT") != "" {
				var buf bytes.Buffer
				_ = png.Encode(&buf, img)
				_ = os.WriteFile(filepath.Join(os.Getenv("SOM_OUT"), name+".png"), buf.Bytes(), 0o644)
			}
		})
	}
}

// simScreen reads a saved screen of the virtual phone and its screenshot (testdata/sim-som).
func simScreen(t *testing.T, name string) (*Screen, image.Image) {
	t.Helper()
	dump, err := os.ReadFile("testdata/sim-som/" + name + ".xml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(dump)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("testdata/sim-som/" + name + ".png")
	if err != nil {
		t.Fatal(err)
	}
	shot, err := DecodeScreenshot(data)
	if err != nil {
		t.Fatal(err)
	}
	return s, shot
}

// TestMarkerDialogBoxesOnElements: a dump whose one window is a dialog's card gives no
// screen size (its extent is the card's), yet each element's frame is drawn on the element
// in the full screenshot — the Notes delete dialog's Cancel and Delete, not boxes near the
// bottom of the screen where the card's extent, stretched to the screenshot, put them.
func TestMarkerDialogBoxesOnElements(t *testing.T) {
	s, shot := simScreen(t, "notes-delete-dialog")
	if s.Width == shot.Bounds().Dx() && s.Height == shot.Bounds().Dy() {
		t.Fatalf("the capture's dump spans the screen (%dx%d): it tests nothing", s.Width, s.Height)
	}
	for _, long := range []int{-1, 1280, 800} {
		m, err := NewMarker(MarkOptions{LongEdge: long, Format: FormatPNG})
		if err != nil {
			t.Fatal(err)
		}
		img := m.Annotate(shot, s)
		k := float64(img.Bounds().Dx()) / float64(shot.Bounds().Dx())
		for i, e := range s.Elements {
			// the middle of the frame's bottom edge, scaled as the picture is
			x, y := int(float64(e.Center.X)*k), int(float64(e.Bounds.Y2)*k+0.5)-1
			if got := img.RGBAAt(x, y); got != markColor(i) {
				t.Errorf("long edge %d: [%d] %q frame pixel at %d,%d = %v, want %v", long, e.Index, e.Label, x, y, got, markColor(i))
			}
		}
	}
	// A screenshot at the display's size: bounds are its pixels; one of half that size
	// of a screen whose window spans the display: half.
	if fx, fy := s.PictureScale(shot.Bounds()); fx != 1 || fy != 1 {
		t.Errorf("PictureScale of the dialog's own screenshot = %v,%v, want 1,1", fx, fy)
	}
	cal, _ := simScreen(t, "calendar-list")
	if fx, fy := cal.PictureScale(image.Rect(0, 0, 540, 1200)); fx != 0.5 || fy != 0.5 {
		t.Errorf("PictureScale of a half-size screenshot = %v,%v, want 0.5,0.5", fx, fy)
	}
}

// TestMarkerLabelsHideNoOtherElement: on the virtual phone's screens no label lies on
// another element — one whose box does not hold the label's own (a list's label lies on no
// row; the floating button's label on no row outside the button) — when the screen has a
// free spot for it, and no two labels meet.
func TestMarkerLabelsHideNoOtherElement(t *testing.T) {
	for _, name := range []string{"calendar-list", "notes-delete-dialog", "com.android.settings", "com.android.contacts"} {
		t.Run(name, func(t *testing.T) {
			s, shot := simScreen(t, name)
			m, err := NewMarker(MarkOptions{Format: FormatPNG})
			if err != nil {
				t.Fatal(err)
			}
			img, labels := m.annotate(shot, s)
			fx, fy := s.PictureScale(shot.Bounds())
			fx, fy = fx*float64(img.Bounds().Dx())/float64(shot.Bounds().Dx()), fy*float64(img.Bounds().Dy())/float64(shot.Bounds().Dy())
			box := func(e Element) image.Rectangle {
				return image.Rect(int(float64(e.Bounds.X1)*fx), int(float64(e.Bounds.Y1)*fy), int(float64(e.Bounds.X2)*fx+0.5), int(float64(e.Bounds.Y2)*fy+0.5))
			}
			for i, l := range labels {
				own := box(s.Elements[i])
				for j, o := range s.Elements {
					ob := box(o)
					if j == i || own.In(ob) {
						continue
					}
					hid := l.Intersect(ob)
					if !ob.In(own) {
						hid = image.Rectangle{}
						for _, p := range outside(l.Intersect(ob), own) {
							hid = hid.Union(p)
						}
					}
					if !hid.Empty() {
						t.Errorf("label [%d] at %v lies on [%d] %q at %v", s.Elements[i].Index, l, o.Index, o.Label, ob)
					}
				}
				for j := range i {
					if l.Overlaps(labels[j]) {
						t.Errorf("label [%d] at %v overlaps label [%d] at %v", s.Elements[i].Index, l, s.Elements[j].Index, labels[j])
					}
				}
			}
		})
	}
}

// TestMarkerLabelsNeverOverlap: on every captured screen of the corpus (real phones'
// dumps, over a painted screenshot of their size) no two labels intersect, however dense
// the screen.
func TestMarkerLabelsNeverOverlap(t *testing.T) {
	m, err := NewMarker(MarkOptions{Format: FormatPNG})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range dumps(t, "corpus") {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(data)
		if err != nil || len(s.Elements) == 0 || s.Width <= 0 || s.Height <= 0 {
			continue
		}
		n++
		_, labels := m.annotate(fakeShot(s.Width, s.Height, s), s)
		for i, l := range labels {
			for j := range i {
				if l.Overlaps(labels[j]) {
					t.Errorf("%s: label [%d] at %v overlaps label [%d] at %v", filepath.Base(f), s.Elements[i].Index, l, s.Elements[j].Index, labels[j])
				}
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d corpus screens with elements", n)
	}
}
