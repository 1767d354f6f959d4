package mcp

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/guard"
	"github.com/fairy-go/fairy/perception"
)

// deepWebView is a clickable WebView whose page nests a "Delete all" button 600 levels
// deep, under [100,1800][980,1950], beside a Back button.
func deepWebView() string {
	node := func(attrs string) string {
		return `<node index="0" text="" resource-id="" package="com.example.app" content-desc="" checkable="false" checked="false" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" enabled="true" ` + attrs
	}
	return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
		node(`class="android.widget.FrameLayout" clickable="false" bounds="[0,0][1080,2400]">`) +
		node(`class="android.widget.ImageButton" content-desc="Back" clickable="true" bounds="[0,0][150,150]" />`) +
		node(`class="android.webkit.WebView" clickable="true" bounds="[0,300][1080,2400]">`) +
		strings.Repeat(node(`class="android.view.View" clickable="false" bounds="[0,300][1080,2400]">`), 600) +
		node(`class="android.widget.Button" text="Delete all" clickable="true" bounds="[100,1800][980,1950]" />`) +
		strings.Repeat("</node>", 600) + "</node></node></hierarchy>"
}

// TestActHoldsWhatTheTreeCannotPlace: act by x,y on a button nested deeper than the parser
// keeps, and by number on the WebView around it, is asked first when nothing read from
// the picture says what is there; Back beside it is not.
func TestActHoldsWhatTheTreeCannotPlace(t *testing.T) {
	scr, err := perception.Parse([]byte(deepWebView()))
	if err != nil {
		t.Fatal(err)
	}
	web := 0
	for _, e := range scr.Elements {
		if e.Class == "android.webkit.WebView" {
			web = e.Index
		}
	}
	g, err := guard.New(guard.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   actInput
		held bool
	}{
		{"tap the deep button by x,y", actInput{Action: "tap", X: intp(540), Y: intp(1875)}, true},
		{"tap the WebView by number", actInput{Action: "tap", Element: web}, true},
		{"tap Back", actInput{Action: "tap", X: intp(75), Y: intp(75)}, false},
	} {
		a, el, err := resolve(tc.in, scr)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if v, held := g.Check(a, el, scr); held != tc.held {
			t.Errorf("%s: held %t (%+v), want %t", tc.name, held, v, tc.held)
		}
	}
}
