package sim

import (
	"image"
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
