package perception

import (
	"context"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"regexp"
	"strings"
	"testing"
)

// webDump is a checkout whose page is one childless WebView under a toolbar.
const webDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
	`<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.tea" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
	`<node index="0" text="TeaHouse" resource-id="com.example.tea:id/title" class="android.widget.TextView" package="com.example.tea" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,63][1080,231]" />` +
	`<node index="1" text="" resource-id="com.example.tea:id/webview" class="android.webkit.WebView" package="com.example.tea" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,231][1080,2274]" />` +
	`</node></hierarchy>`

// coveredDump is a list screen: every region is described by nodes.
const coveredDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
	`<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.list" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
	`<node index="0" text="" resource-id="com.example.list:id/list" class="androidx.recyclerview.widget.RecyclerView" package="com.example.list" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" bounds="[0,231][1080,2274]">` +
	`<node index="0" text="Alice" resource-id="com.example.list:id/row" class="android.widget.TextView" package="com.example.list" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,231][1080,400]" />` +
	`</node><node index="1" text="" resource-id="com.example.list:id/photo" class="android.widget.ImageView" package="com.example.list" content-desc="Alice's photo" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,400][1080,1400]" />` +
	`</node></hierarchy>`

// scriptedOCR is a fake OCR engine (the real one is executor/ocr's Tesseract): it answers
// one word per strip line from a list, and counts its calls.
type scriptedOCR struct {
	lines []string
	calls int
}

func (o *scriptedOCR) Read(_ context.Context, img *image.Gray, hint Hint) ([]Word, error) {
	if hint.Script != Alphabetic {
		return nil, nil // no ideographic data
	}
	o.calls++
	// Find the strip's rows: runs of lines with ink.
	var words []Word
	b := img.Bounds()
	y := b.Min.Y
	for k := 0; y < b.Max.Y && k < len(o.lines); {
		for y < b.Max.Y && !rowInk(img, y) {
			y++
		}
		y0 := y
		for y < b.Max.Y && rowInk(img, y) {
			y++
		}
		if y > y0 {
			words = append(words, Word{Text: o.lines[k], Box: image.Rect(0, y0, 10, y), Confidence: 90})
			k++
		}
	}
	return words, nil
}

func rowInk(img *image.Gray, y int) bool {
	for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
		if img.GrayAt(x, y).Y < 128 {
			return true
		}
	}
	return false
}

// drawnShot is a 1080x2400 white screenshot with dark bars where text is drawn and one
// light-on-blue button bar, all inside the WebView.
func drawnShot() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	// "letters": small dark squares in a row, like glyphs of one line.
	glyphs := func(x, y int, c color.Color) {
		for i := 0; i < 6; i++ {
			r := image.Rect(x+i*30, y, x+i*30+22, y+36)
			draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
			draw.Draw(img, r.Inset(5), image.NewUniform(color.White), image.Point{}, draw.Src)
		}
	}
	glyphs(40, 300, color.Black)
	btn := image.Rect(40, 900, 1000, 1050)
	draw.Draw(img, btn, image.NewUniform(color.RGBA{26, 115, 232, 255}), image.Point{}, draw.Src)
	for i := 0; i < 6; i++ {
		r := image.Rect(400+i*30, 955, 400+i*30+22, 991)
		draw.Draw(img, r, image.NewUniform(color.White), image.Point{}, draw.Src)
		draw.Draw(img, r.Inset(5), image.NewUniform(color.RGBA{26, 115, 232, 255}), image.Point{}, draw.Src)
	}
	return img
}

func TestUncoveredRegions(t *testing.T) {
	s, err := Parse([]byte(webDump))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Uncovered) != 1 || s.Uncovered[0] != (Bounds{0, 231, 1080, 2274}) {
		t.Errorf("WebView page: uncovered %v, want the WebView's bounds", s.Uncovered)
	}
	c, err := Parse([]byte(coveredDump))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Uncovered) != 0 {
		t.Errorf("a list and a described photo: uncovered %v, want none", c.Uncovered)
	}
}

// TestPixelReaderAddsReadElements: the lines found in the WebView (dark on white, and
// light on the blue button) are read in one OCR call and become numbered elements after
// the tree's, marked in the text form; the page signature takes the first line; a second
// read of the same pixels costs no OCR call; a covered screen none at all.
func TestPixelReaderAddsReadElements(t *testing.T) {
	ocr := &scriptedOCR{lines: []string{"Your order", "Pay ¥36"}}
	r, err := NewPixelReader(ocr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte(webDump))
	if err != nil {
		t.Fatal(err)
	}
	treeSig := s.Signature
	if err := r.Read(t.Context(), s, drawnShot()); err != nil {
		t.Fatal(err)
	}
	if ocr.calls != 1 || len(s.Read) != 2 {
		t.Fatalf("%d OCR calls, read %+v; want 1 call and the heading and the button", ocr.calls, s.Read)
	}
	pay := s.Elements[len(s.Elements)-1]
	if !pay.FromPicture || pay.Label != "Pay ¥36" || !pay.Bounds.Contains(Point{500, 972}) {
		t.Errorf("last element %+v, want the button's text read from the picture around (500,972)", pay)
	}
	if want := `- [2] text "Pay ¥36" (read from the picture)`; !strings.Contains(s.Text(), want) {
		t.Errorf("text form lacks %s:\n%s", want, s.Text())
	}
	if s.Signature == treeSig {
		t.Error("the signature did not take the page's heading")
	}
	again, _ := Parse([]byte(webDump))
	if err := r.Read(t.Context(), again, drawnShot()); err != nil {
		t.Fatal(err)
	}
	if ocr.calls != 1 || again.Signature != s.Signature || len(again.Read) != 2 {
		t.Errorf("the same pixels again: %d OCR calls, signature %s vs %s", ocr.calls, again.Signature, s.Signature)
	}
	covered, _ := Parse([]byte(coveredDump))
	if err := r.Read(t.Context(), covered, drawnShot()); err != nil || ocr.calls != 1 || len(covered.Read) != 0 {
		t.Errorf("a covered screen: err %v, %d OCR calls, read %v; want nothing done", err, ocr.calls, covered.Read)
	}
	if _, err := NewPixelReader(nil); err == nil {
		t.Error("NewPixelReader(nil) gave no error")
	}
	small := image.NewRGBA(image.Rect(0, 0, 100, 100))
	if err := r.Read(t.Context(), again, small); !errors.Is(err, errImage) {
		t.Errorf("a screenshot of another size: err %v, want ErrImage", err)
	}
}

// TestMarkerDrawsReadElements: the set-of-mark picture boxes text read from the picture
// like the tree's elements.
func TestMarkerDrawsReadElements(t *testing.T) {
	s, _ := Parse([]byte(webDump))
	s.AddRead([]TextBox{{Text: "Pay ¥36", Bounds: Bounds{400, 955, 580, 991}, Confidence: 90}})
	m, err := NewMarker(MarkOptions{LongEdge: -1, Format: FormatPNG})
	if err != nil {
		t.Fatal(err)
	}
	shot := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	draw.Draw(shot, shot.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	out := m.Annotate(shot, s)
	changed := 0
	for x := 395; x < 585; x++ {
		for _, y := range []int{954, 955, 956, 990, 991} {
			if r, g, b, _ := out.At(x, y).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff {
				changed++
			}
		}
	}
	if changed < 100 {
		t.Errorf("only %d pixels drawn along the read element's box", changed)
	}
}

// TestPixelReaderMarksIcons: a shape of an icon's size drawn with no text in the WebView
// (a filled triangle, here) becomes a numbered element after the text read, "icon 1",
// Drawn, boxed where it is drawn; the text lines and the button are not marks; the cached read gives the same mark.
func TestPixelReaderMarksIcons(t *testing.T) {
	ocr := &scriptedOCR{lines: []string{"Your order", "Pay ¥36"}}
	r, err := NewPixelReader(ocr)
	if err != nil {
		t.Fatal(err)
	}
	shot := drawnShot()
	for y := 0; y < 64; y++ { // a triangle pointing up, 64 px high, at (500,1500)
		for x := 32 - y/2; x <= 32+y/2; x++ {
			shot.Set(500+x, 1500+y, color.RGBA{32, 33, 36, 255})
		}
	}
	for range 2 {
		s, err := Parse([]byte(webDump))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Read(t.Context(), s, shot); err != nil {
			t.Fatal(err)
		}
		if len(s.Marks) != 1 || len(s.Read) != 2 {
			t.Fatalf("marks %v, read %+v; want the triangle alone marked, the two lines read", s.Marks, s.Read)
		}
		e := s.Elements[len(s.Elements)-1]
		if !e.Drawn || e.FromPicture || e.Label != "icon 1" || !e.Bounds.Contains(Point{532, 1540}) || e.Bounds.Dx() > 80 {
			t.Errorf("last element %+v, want icon 1 drawn around (532,1540)", e)
		}
		if want := regexp.MustCompile(`- \[3\] icon "icon 1" id=mark_[0-9a-f]{8} \(drawn in the picture, no text\)`); !want.MatchString(s.Text()) {
			t.Errorf("text form lacks %s:\n%s", want, s.Text())
		}
	}
	if ocr.calls != 1 {
		t.Errorf("%d OCR calls for the same pixels twice, want 1", ocr.calls)
	}
}

// TestFindMarks: of the shapes of an icon's size on a plain page, the one far from text is
// a mark; one drawn just after a line of text (a text link's icon) is the text's, as a tap
// there is; one with a small text read inside it (a bin's slots read as "I|") is a mark,
// and that text its detail.
func TestFindMarks(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	dark := image.NewUniform(color.RGBA{32, 33, 36, 255})
	draw.Draw(img, image.Rect(600, 1000, 660, 1060), dark, image.Point{}, draw.Src) // alone
	draw.Draw(img, image.Rect(262, 300, 302, 340), dark, image.Point{}, draw.Src)   // 50 px after the text
	draw.Draw(img, image.Rect(600, 1400, 700, 1500), dark, image.Point{}, draw.Src) // with "I|" inside
	read := []TextBox{
		{Text: "Your order", Bounds: Bounds{X1: 40, Y1: 300, X2: 212, Y2: 336}},
		{Text: "I|", Bounds: Bounds{X1: 640, Y1: 1430, X2: 660, Y2: 1470}},
	}
	marks, detail := findMarks(img, img.Bounds(), read)
	want := []image.Rectangle{image.Rect(600, 1000, 660, 1060), image.Rect(600, 1400, 700, 1500)}
	if len(marks) != len(want) || marks[0] != want[0] || marks[1] != want[1] {
		t.Errorf("marks %v, want %v", marks, want)
	}
	if len(detail) != 1 || detail[0] != 1 {
		t.Errorf("detail %v, want [1] (the I| read inside the last shape)", detail)
	}
}

// TestAssembleUnspacedScripts: words Tesseract reads apart in scripts written without
// spaces (Thai) or a mark read as a word of its own are joined again, and Thai's SARA AM
// is written as one character, so a Pay button reads ชำระเงิน as the app wrote it.
func TestAssembleUnspacedScripts(t *testing.T) {
	line := []lineBox{{r: image.Rect(0, 0, 400, 40)}}
	words := func(ts ...string) []map[string][]Word {
		var ws []Word
		for i, s := range ts {
			ws = append(ws, Word{Text: s, Box: image.Rect(i*40, 0, i*40+30, 40), Confidence: 90})
		}
		return []map[string][]Word{{"Thai": ws}}
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"ชํา", "ร", "ะ", "เง", "ิ", "น", "36"}, "ชำระเงิน 36"},
		{[]string{"Pay", "¥36"}, "Pay ¥36"},
		{[]string{"支付", "¥36"}, "支付 ¥36"},
	} {
		got := assemble(line, words(tc.words...), image.Point{})
		if len(got) != 1 || got[0].Text != tc.want {
			t.Errorf("assemble(%q) = %+v, want %q", tc.words, got, tc.want)
		}
	}
}
