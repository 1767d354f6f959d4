package androidworld

import (
	"fmt"
	"strings"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

const mapsPkg = "com.fairy.maps"

// mapsPlaces seeds the Maps app with the places of the benchmark's preloaded map
// (osmand._PRELOADED_MAP_LOCATIONS: Liechtenstein), their coordinates as the address.
func mapsPlaces(g *gen) ([]sim.Record, error) {
	names := g.list("osmand._PRELOADED_MAP_LOCATIONS.keys")
	coords := g.list("osmand._PRELOADED_MAP_LOCATIONS.coords")
	if len(names) != len(coords) {
		return nil, fmt.Errorf("osmand locations: %d names, %d coordinates", len(names), len(coords))
	}
	var rows []sim.Record
	for i, n := range names {
		rows = append(rows, sim.Record{"id": fmt.Sprintf("li%d", i+1), "name": n, "category": "Place", "tags": "liechtenstein town village",
			"address": coords[i], "phone": "", "rating": "4.5", "distance": fmt.Sprintf("%.1f", 1+float64(between(g.r, 0, 300))/10), "hours": "24 hours"})
	}
	return rows, nil
}

// mapsMark is OsmAndFavorite (favorite) and OsmAndMarker: a place of the map saved as a
// favourite or given a marker; the check reads the app's favourites or markers.
func mapsMark(favorite bool) func(g *gen) (*instance, error) {
	return func(g *gen) (*instance, error) {
		places, err := mapsPlaces(g)
		if err != nil {
			return nil, err
		}
		loc := pick(g.r, places)["name"]
		setupPlaces, err := seed(mapsPkg+":places", places)
		if err != nil {
			return nil, err
		}
		town, _, _ := strings.Cut(loc, ",")
		// As in OsmAnd: search, pick the result, then its context menu: "Marker" places a
		// map marker; "Add" opens the Add favorite dialog, saved under the place's name.
		coll, done := "markers", `"Map marker: `+q(loc)+`"`
		mark := []walkthrough.Step{{Screen: `button "Marker"`, Subgoal: "Place a map marker on " + loc, Do: []string{`Tap "Marker"`}}}
		if favorite {
			coll, done = "favorites", `desc="Edit favorite"`
			mark = []walkthrough.Step{
				{Screen: `button "Add"`, Subgoal: "Add " + loc + " to the favorites", Do: []string{`Tap "Add"`}},
				{Screen: `"Add favorite"(?s:.*)input "` + q(loc) + `" id=favorite_name`, Subgoal: "Save the favorite", Do: []string{`Tap "Save"`}},
			}
		}
		steps := append([]walkthrough.Step{
			{Screen: `id=chip_coffee`, When: `for (?P<town>[^,\n]+), Liechtenstein`, Subgoal: "Search for " + town,
				Do: []string{`Input "search_omnibox_text_box" "${town}"`, `Tap "Search"`}},
			{Screen: `item "` + q(loc) + `[^"]*" id=result_row`, Subgoal: "Open " + loc, Do: []string{`Tap ` + label(loc)}},
		}, mark...)
		return &instance{
			params: map[string]string{"location": loc},
			setup:  []string{setupPlaces},
			checks: []eval.CustomCheck{&rowsCheck{Collection: mapsPkg + ":" + coll, Added: []map[string]string{{"name": loc}}}},
			walk:   []walkthrough.Task{walk(mapsPkg, done, steps...)},
		}, nil
	}
}
