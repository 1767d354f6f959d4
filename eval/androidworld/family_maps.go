package androidworld

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
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
		// Its coordinates among its tags: a search by coordinates finds it, as OsmAnd's does.
		rows = append(rows, sim.Record{"id": fmt.Sprintf("li%d", i+1), "name": n, "category": "Place", "tags": "liechtenstein town village " + coords[i],
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
		loc := mapsLocation(g, places)
		setupPlaces, err := seed(mapsPkg+":places", places)
		if err != nil {
			return nil, err
		}
		town, _, _ := strings.Cut(loc, ",")
		// The place as the screen names it: the location itself, or any place found at
		// the coordinates the instruction gives.
		name := q(loc)
		if coordsRE.MatchString(loc) {
			name = `[^"]+`
		}
		// As in OsmAnd: search, pick the result, then its context menu: "Marker" places a
		// map marker; "Add" opens the Add favorite dialog, saved under the place's name.
		coll, done := "markers", `"Map marker: `+name+`"`
		mark := []walkthrough.Step{{Screen: `button "Marker"`, Subgoal: "Place a map marker", Do: []string{`Tap "Marker"`}}}
		if favorite {
			coll, done = "favorites", `desc="Edit favorite"`
			mark = []walkthrough.Step{
				{Screen: `button "Add"`, Subgoal: "Add the place to the favorites", Do: []string{`Tap "Add"`}},
				{Screen: `"Add favorite"(?s:.*)input "` + name + `" id=favorite_name`, Subgoal: "Save the favorite", Do: []string{`Tap "Save"`}},
			}
		}
		steps := append(mapsCoordinateSteps(),
			walkthrough.Step{Screen: `id=chip_coffee`, When: `for (?P<town>[^,\n]+), Liechtenstein`, Subgoal: "Search for " + town,
				Do: []string{`Input "search_omnibox_text_box" "${town}"`, `Tap "Search"`}},
			walkthrough.Step{Screen: `item "` + q(loc) + `[^"]*" id=result_row`, Subgoal: "Open " + loc, Do: []string{`Tap ` + label(loc)}},
		)
		return &instance{
			params: map[string]string{"location": loc},
			setup:  []string{setupPlaces},
			checks: []suite.CustomCheck{mapsLocationCheck(places, coll, loc, favorite)},
			walk:   []walkthrough.Task{walk(mapsPkg, done, append(steps, mark...)...)},
		}, nil
	}
}

// coordsRE is a location given as coordinates ("47.0688832, 9.5061564").
var coordsRE = regexp.MustCompile(`^-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?$`)

// mapsLocation is osmand._random_location_str: a place of the preloaded map, named by its
// name or, half of the time, by its coordinates ("47.0688832, 9.5061564").
func mapsLocation(g *gen, places []sim.Record) string {
	p := pick(g.r, places)
	if g.r.IntN(2) == 1 { // random.getrandbits(1): the name
		return p["name"]
	}
	return p["address"]
}

// mapsLocationCheck is the benchmark's check of a favourite or marker at loc.
func mapsLocationCheck(places []sim.Record, coll, loc string, favorite bool) suite.CustomCheck {
	byName := map[string]string{}
	for _, p := range places {
		byName[p["name"]] = p["address"]
	}
	return &mapsCheck{Collection: mapsPkg + ":" + coll, Location: loc, Favorite: favorite, Places: byName}
}

// mapsCoordinateSteps find a place the instruction gives by its coordinates: they are
// typed into the search, and the place found is opened (its name read off the screen).
func mapsCoordinateSteps() []walkthrough.Step {
	const coords = `for (?P<coords>-?\d+(?:\.\d+)?, -?\d+(?:\.\d+)?) in the Maps app`
	return []walkthrough.Step{
		{Screen: `id=chip_coffee`, When: coords, Subgoal: "Search for the coordinates",
			Do: []string{`Input "search_omnibox_text_box" "${coords}"`, `Tap "Search"`}},
		{Screen: `item "(?P<found>[^"]+)" id=result_row`, When: coords, Subgoal: "Open the place at the coordinates", Do: []string{`Tap "${found}"`}},
	}
}
