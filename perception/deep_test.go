package perception

import (
	"slices"
	"strings"
	"testing"
)

// hostileWebView is a WebView whose page nests a "Delete all" button levels deep below it
// (the tree of a hostile page: 600 nested divs), beside a harmless Back at the top.
func hostileWebView(levels int) string {
	button := nodeXML(map[string]string{"class": "android.widget.Button", "text": "Delete all", "clickable": "true", "bounds": "[100,1800][980,1950]"})
	wrap := `<node class="android.view.View" package="com.example.app" bounds="[0,300][1080,2400]">`
	page := strings.Repeat(wrap, levels) + button + strings.Repeat("</node>", levels)
	back := nodeXML(map[string]string{"class": "android.widget.ImageButton", "content-desc": "Back", "clickable": "true", "bounds": "[0,0][150,150]"})
	return hierarchy(nodeXML(nil, back, nodeXML(map[string]string{"class": "android.webkit.WebView", "bounds": "[0,300][1080,2400]"}, page)))
}

// TestDeepTreeIsUnplaced: a button nested deeper than the parser keeps is absent from the
// elements, but the region it is drawn in is named (Screen.Deep) and is read from the
// picture like any region the tree does not describe (Screen.Uncovered), so a tap there
// is judged by what is drawn, not waved through as a tap on nothing.
func TestDeepTreeIsUnplaced(t *testing.T) {
	s := mustParse(t, hostileWebView(600))
	for _, e := range s.Elements {
		if e.Label == "Delete all" {
			t.Fatalf("the deep button is an element: the test no longer nests it deep enough (%+v)", e)
		}
	}
	want := Bounds{X1: 100, Y1: 1800, X2: 980, Y2: 1950}
	in := func(list []Bounds) bool {
		return slices.ContainsFunc(list, func(b Bounds) bool { return b.Intersect(want) == want })
	}
	if !in(s.Deep) {
		t.Errorf("Deep = %v, want a region holding %v", s.Deep, want)
	}
	if !in(s.Uncovered) {
		t.Errorf("Uncovered = %v, want the deep region %v read from the picture", s.Uncovered, want)
	}
	if j := s.JSON(); !in(j.Deep) {
		t.Errorf("the JSON form's deep regions: %v", j.Deep)
	}

	// A shallow tree places everything: no deep region.
	if s := mustParse(t, hostileWebView(20)); len(s.Deep) != 0 {
		t.Errorf("a 20-level page has deep regions %v", s.Deep)
	}
}
