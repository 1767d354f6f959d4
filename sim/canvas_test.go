package sim

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"strconv"
	"strings"
	"testing"
)

// drawnAt finds the drawn text equal to s and returns the middle of its box.
func drawnAt(t *testing.T, p *Phone, s string) image.Point {
	t.Helper()
	var seen []string
	for _, d := range p.DrawnTexts() {
		if d.Text == s {
			return image.Pt((d.Bounds.Min.X+d.Bounds.Max.X)/2, (d.Bounds.Min.Y+d.Bounds.Max.Y)/2)
		}
		seen = append(seen, d.Text)
	}
	t.Fatalf("%q is not drawn; drawn: %q", s, seen)
	return image.Point{}
}

func TestCanvasAppsDrawWhatTheTreeOmits(t *testing.T) {
	p := newPhone(t)
	sh(t, p, "am start -n com.fairy.teahouse/.WebActivity")
	nodes := parseDump(t, p.Dump())
	var web *xnode
	for i := range nodes {
		if nodes[i].Class == "android.webkit.WebView" {
			web = &nodes[i]
		}
		if strings.Contains(nodes[i].Text, "Pay") {
			t.Fatalf("the dump shows the drawn text %q", nodes[i].Text)
		}
	}
	if web == nil {
		t.Fatal("no WebView node in the dump")
	}
	for _, n := range nodes {
		if n.Depth > web.Depth && n.Y1 >= web.Y1 && n.Y2 <= web.Y2 && n.X1 >= web.X1 && n.Class != "android.webkit.WebView" && n.Depth == web.Depth+1 {
			t.Fatalf("the WebView has a child: %+v", n)
		}
	}
	pay := drawnAt(t, p, "Pay ¥36")
	sh(t, p, "input tap "+strconv.Itoa(pay.X)+" "+strconv.Itoa(pay.Y))
	if got := p.Var("com.fairy.teahouse", "paid"); got != "true" {
		t.Fatalf("tapping the drawn Pay button: paid=%q, want true", got)
	}
	drawnAt(t, p, "Payment complete")
	// Back to the menu, the app offers Pay again; a second tap charges a second time.
	back := drawnAt(t, p, "Back to menu")
	sh(t, p, "input tap "+strconv.Itoa(back.X)+" "+strconv.Itoa(back.Y))
	pay = drawnAt(t, p, "Pay ¥36")
	sh(t, p, "input tap "+strconv.Itoa(pay.X)+" "+strconv.Itoa(pay.Y))
	if rs, err := p.Records("com.fairy.teahouse:payments"); err != nil || len(rs) != 2 {
		t.Fatalf("payments after two taps on Pay = %+v, %v; want two", rs, err)
	}
	if rs, err := p.Records("com.fairy.teahouse:orders"); err != nil || len(rs) != 1 {
		t.Fatalf("orders = %+v, %v; want the one order", rs, err)
	}

	sh(t, p, "am start -n com.fairy.safebox/.PinActivity")
	for _, k := range []string{"2", "5", "8", "0", "Enter"} {
		c := drawnAt(t, p, k)
		sh(t, p, "input tap "+strconv.Itoa(c.X)+" "+strconv.Itoa(c.Y))
	}
	drawnAt(t, p, "Vault open")

	sh(t, p, "am start -n com.fairy.citymap/.MapActivity")
	c := drawnAt(t, p, "书店")
	sh(t, p, "input tap "+strconv.Itoa(c.X-p.metrics().dp(30))+" "+strconv.Itoa(c.Y)) // the pin, left of its name
	c = drawnAt(t, p, "收藏")
	sh(t, p, "input tap "+strconv.Itoa(c.X)+" "+strconv.Itoa(c.Y))
	if got := p.Var("com.fairy.citymap", "saved"); got != "书店" {
		t.Fatalf("saved=%q, want 书店", got)
	}
}

// TestIconToolbar: Lumen's page is one childless FlutterView; its toolbar's icons have no
// text and no description in the dump, are drawn light on a blue bar where DrawnIcons
// says, and a tap on the
// star adds the photo to the favourites. An
// icon needs a known glyph, and only an icon has one.
func TestIconToolbar(t *testing.T) {
	p := newPhone(t)
	sh(t, p, "am start -n com.fairy.lumen/.MainActivity")
	for _, n := range parseDump(t, p.Dump()) {
		if n.Pkg == "com.fairy.lumen" && (strings.Contains(n.Class, "Flutter") && (n.Text != "" || n.Desc != "")) {
			t.Fatalf("the FlutterView says something: %+v", n)
		}
		if n.Desc != "" && n.Pkg == "com.fairy.lumen" {
			t.Fatalf("a node of Lumen has a description: %+v", n)
		}
	}
	var glyphs []string
	var star image.Rectangle
	for _, ic := range p.DrawnIcons() {
		glyphs = append(glyphs, ic.Glyph)
		if ic.Glyph == "star" {
			star = ic.Bounds
		}
	}
	if strings.Join(glyphs, " ") != "share rotate star trash" {
		t.Fatalf("icons drawn %q, want share rotate star trash", glyphs)
	}
	shot, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	c := image.Pt((star.Min.X+star.Max.X)/2, (star.Min.Y+star.Max.Y)/2)
	if r, g, b, _ := img.At(c.X, c.Y).RGBA(); r>>8 < 200 || g>>8 < 200 || b>>8 < 200 {
		t.Errorf("the star's middle is not drawn light: %d %d %d", r>>8, g>>8, b>>8)
	}
	if r, g, b, _ := img.At(star.Min.X+2, star.Min.Y+2).RGBA(); b>>8 < 150 || r>>8 > 100 {
		t.Errorf("the star's corner is not on the blue bar: %d %d %d", r>>8, g>>8, b>>8)
	}
	sh(t, p, "input tap "+strconv.Itoa(c.X)+" "+strconv.Itoa(c.Y))
	if recs, _ := p.Records("com.fairy.lumen:favourites"); len(recs) != 1 || p.Var("com.fairy.lumen", "starred") != "true" {
		t.Fatalf("tapping the star: favourites %v, starred %q", recs, p.Var("com.fairy.lumen", "starred"))
	}
	drawnAt(t, p, "Added to favourites")

	for _, bad := range []string{
		"package: com.example.i\nscreens: [{id: a, elements: [{type: canvas, id: c, draw: [{kind: icon, x: 0, y: 0, w: 48, h: 48}]}]}]\n",
		"package: com.example.i\nscreens: [{id: a, elements: [{type: canvas, id: c, draw: [{kind: icon, glyph: heart, x: 0, y: 0, w: 48, h: 48}]}]}]\n",
		"package: com.example.i\nscreens: [{id: a, elements: [{type: canvas, id: c, draw: [{kind: text, text: x, glyph: star, x: 0, y: 0, w: 48, h: 48}]}]}]\n",
	} {
		if _, err := ParseApp([]byte(bad)); !errors.Is(err, ErrAppSpec) || !strings.Contains(err.Error(), "glyph") {
			t.Errorf("%s: err %v, want ErrAppSpec naming the glyph", bad, err)
		}
	}
}
