package sim

import (
	"fmt"
	"testing"
)

// A place is marked as OsmAnd marks it: searched, picked from the results, then its
// context menu: "Marker" puts a map marker on it (the markers bar shows it), "Add" opens
// the Add favorite dialog, whose Save keeps the favourite under the name it shows and
// whose Cancel keeps nothing.
func TestMapsMarkerAndFavoriteFromContextMenu(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.maps")
	tap(t, p, "While using the app")
	typeInto(t, p, "Search here", "Tartine")
	sh(t, p, "input keyevent KEYCODE_ENTER")
	tap(t, p, "Tartine Bakery")
	if has(t, p, "Add marker") || has(t, p, "Save") {
		t.Fatal("the place still has one-tap Save / Add marker buttons")
	}
	if has(t, p, "Map marker: Tartine Bakery") {
		t.Fatal("a marker shown before one was placed")
	}
	tap(t, p, "Marker")
	markers, _ := p.Records("markers")
	if len(markers) != 1 || markers[0]["name"] != "Tartine Bakery" {
		t.Fatalf("markers %v, want Tartine Bakery", markers)
	}
	if !has(t, p, "Map marker: Tartine Bakery") {
		t.Fatal("the markers bar does not show the new marker")
	}

	tap(t, p, "Add")
	if p.ScreenID() != "add_favorite" || !has(t, p, "Add favorite") {
		t.Fatalf("Add opened %s, want the Add favorite dialog", p.ScreenID())
	}
	if n, _ := find(t, p, "com.fairy.maps:id/favorite_name"); n.Text != "Tartine Bakery" {
		t.Fatalf("the favourite's name is %q, want the place's", n.Text)
	}
	tap(t, p, "Cancel")
	if favs, _ := p.Records("favorites"); len(favs) != 0 {
		t.Fatalf("Cancel kept a favourite: %v", favs)
	}
	tap(t, p, "Add")
	tap(t, p, "Save")
	favs, _ := p.Records("favorites")
	if len(favs) != 1 || favs[0]["name"] != "Tartine Bakery" || favs[0]["address"] != "600 Guerrero St, San Francisco, CA 94110" {
		t.Fatalf("favourites %v, want Tartine Bakery at its address", favs)
	}
	if !has(t, p, "Edit favorite") {
		t.Fatal("the context menu does not say the place is a favourite")
	}
}

// A long press on the map drops a pin and opens its context menu, whose Marker marks it.
func TestMapsLongPressDropsPin(t *testing.T) {
	p := newPhone(t)
	launch(t, p, "com.fairy.maps")
	tap(t, p, "While using the app")
	n, ok := find(t, p, "Map")
	if !ok {
		t.Fatal("no map")
	}
	x, y := (n.X1+n.X2)/2, (n.Y1+n.Y2)/2
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 800", x, y, x, y))
	if p.ScreenID() != "place" || !has(t, p, "Dropped pin") || !has(t, p, "37.7825, -122.4082") {
		t.Fatalf("a long press opened %s: %s", p.ScreenID(), labels(t, p))
	}
	tap(t, p, "Marker")
	if m, _ := p.Records("markers"); len(m) != 1 || m[0]["address"] != "37.7825, -122.4082" {
		t.Fatalf("markers %v", m)
	}
}
