package androidworld

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// mapsCheck is OsmAnd's check: a saved favourite (Favorite) or a map marker matches the
// location: its coordinates within 0.001° of the location's (a place of the preloaded map
// by name, or the coordinates the instruction gave), or, for a favourite, a name holding
// the location's text (osmand._favorites_contains, _marker_matches_location).
type mapsCheck struct {
	Collection string // the Maps app's favorites or markers
	Location   string // the benchmark's location parameter: a name or "lat, lon"
	Favorite   bool
	// Places are the preloaded map's places by name: their coordinates ("lat, lon").
	Places map[string]string
}

func (c *mapsCheck) Kind() string  { return "maps" }
func (c *mapsCheck) Virtual() bool { return true }
func (c *mapsCheck) Describe() string {
	return fmt.Sprintf("%s: one within 0.001° of %s", c.Collection, c.Location)
}

func (c *mapsCheck) Evaluate(_ context.Context, p suite.Probe) (bool, string, error) {
	st, err := phoneState(p)
	if err != nil {
		return false, "", err
	}
	rows, err := st.Records(c.Collection)
	if err != nil {
		return false, "", err
	}
	places, err := st.Records(mapsPkg + ":places")
	if err != nil {
		return false, "", err
	}
	want, ok := parseCoords(c.Location)
	if !ok {
		want, ok = parseCoords(c.Places[c.Location])
	}
	var seen []string
	for _, r := range rows {
		if c.Favorite && strings.Contains(r["name"], c.Location) {
			return true, fmt.Sprintf("%s: %q holds %q", c.Collection, r["name"], c.Location), nil
		}
		got, found := rowCoords(r, places)
		if ok && found && math.Abs(got[0]-want[0]) < 0.001 && math.Abs(got[1]-want[1]) < 0.001 {
			return true, fmt.Sprintf("%s: %q at %g, %g", c.Collection, r["name"], got[0], got[1]), nil
		}
		seen = append(seen, fmt.Sprintf("%q at %v", r["name"], got))
	}
	if len(seen) == 0 {
		return false, c.Collection + ": none saved", nil
	}
	return false, fmt.Sprintf("%s: none at %s; saw %s", c.Collection, c.Location, strings.Join(seen, ", ")), nil
}

// rowCoords are a favourite's or marker's coordinates: its own lat and lon, or those of
// the place it was saved from (a place's address holds "lat, lon" on the preloaded map).
func rowCoords(r sim.Record, places []sim.Record) ([2]float64, bool) {
	lat, err1 := strconv.ParseFloat(r["lat"], 64)
	lon, err2 := strconv.ParseFloat(r["lon"], 64)
	if err1 == nil && err2 == nil {
		return [2]float64{lat, lon}, true
	}
	for _, p := range places {
		if p["id"] == r["place"] {
			return parseCoords(p["address"])
		}
	}
	return [2]float64{}, false
}

// coordNumber is osmand._parse_coords's number: -?\d*\.?\d+.
var coordNumber = regexp.MustCompile(`-?\d*\.?\d+`)

// parseCoords reads a "lat, lon" pair: exactly two numbers in the text, as
// osmand._parse_coords reads them.
func parseCoords(s string) ([2]float64, bool) {
	nums := coordNumber.FindAllString(s, -1)
	if len(nums) != 2 {
		return [2]float64{}, false
	}
	var out [2]float64
	for i, n := range nums {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return [2]float64{}, false
		}
		out[i] = v
	}
	return out, true
}
