package androidworld

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/eval/walkthrough"
	"github.com/fairy-go/fairy/sim"
)

// The virtual phone's packages for the benchmark's apps.
const (
	settingsPkg = "com.android.settings"
	contactsPkg = "com.android.contacts"
	messagesPkg = "com.google.android.apps.messaging"
	calendarPkg = "com.google.android.calendar"
	notesPkg    = "com.fairy.notes"
)

// gen draws one instance's values from its random source and the benchmark's lists.
type gen struct {
	r *rand.Rand
	d *data
}

func (g *gen) list(name string) []string { return list(g.d, name) }

// number is user_data_generation.generate_random_number: "+1" and ten digits.
func (g *gen) number() string {
	var b strings.Builder
	b.WriteString("+1")
	for range 10 {
		b.WriteByte(byte('0' + g.r.IntN(10)))
	}
	return b.String()
}

// name is user_data_generation.generate_random_name: a given name and a family name.
func (g *gen) name() string {
	return pick(g.r, g.list("user_data_generation.COMMON_GIVEN_NAMES")) + " " + pick(g.r, g.list("user_data_generation._COMMON_FAMILY_NAMES"))
}

// sentence is one of the benchmark's RANDOM_SENTENCES (its text messages and note texts).
func (g *gen) sentence() string { return pick(g.r, g.list("user_data_generation.RANDOM_SENTENCES")) }

// seed is the setup line that replaces a collection's rows.
func seed(collection string, rows []sim.Record) (string, error) {
	return sim.SeedCommand(collection, rows)
}

// q quotes a literal for a screen pattern: as the screen's text form writes it inside
// quotes (strconv.QuoteToGraphic's escapes), then as a regexp literal.
func q(s string) string {
	t := strconv.QuoteToGraphic(s)
	return regexp.QuoteMeta(t[1 : len(t)-1])
}

// label quotes a label for a walkthrough action (Tap "LABEL").
func label(s string) string { return strconv.Quote(s) }

// walk is one app task of a walkthrough.
func walk(app, done string, steps ...walkthrough.Step) walkthrough.Task {
	return walkthrough.Task{App: app, Done: done, Steps: steps}
}
