package explore

import (
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// settingsScreens are Settings screens that one activity (SubSettings) shows, alike but
// for their title: each is its own page of the map. ("Reset settings" and "Open by
// default" are alike too, but the crawler leaves them alone: their words say they act.)
var settingsScreens = []string{"Notifications", "Storage", "Accessibility", "Security & privacy", "System",
	"Brightness level", "Screen saver", "Font size", "Display size", "Default apps",
	"Unused apps", "Special app access", "Permissions", "Mobile data & Wi-Fi", "Screen time", "App battery usage"}

// TestExploreSettingsPages: on the virtual phone through the real adb server, exploring
// Settings maps each of its SubSettings screens (Notifications, Storage, Accessibility,
// System, Font size, Permissions, …) as a page of its own, whose Back leads back where it
// was opened from; and what the exploration says — its summary, and each page it reports found —
// is what the map holds: the same page IDs, the same numbers of pages and transitions
// as `fairy map list` counts.
func TestExploreSettingsPages(t *testing.T) {
	_, dev, _, _ := phoneOverADB(t)
	store := openStore(t)
	found := map[string]string{} // map ID → description, as the progress reported them
	sum, err := Run(t.Context(), Config{Device: dev, Store: store, App: settingsApp, Budget: DefaultBudget,
		Progress: func(p Progress) {
			if p.Found != "" {
				if p.PageID == "" {
					t.Errorf("page %q found without its map ID", p.Found)
				}
				found[p.PageID] = p.Found
			}
		}})
	if err != nil {
		t.Fatalf("explore: %v (summary %+v)", err, sum)
	}
	t.Logf("explored: %d pages (%d new), %d transitions, %d actions, stopped: %s", sum.Pages, sum.NewPages, sum.Transitions, sum.Actions, sum.Stopped)
	m, err := store.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string][]string{} // SubSettings pages by title
	described := map[string]bool{}   // activity + description
	for _, p := range m.Pages {
		title, _, _ := strings.Cut(p.Description, ":")
		if strings.HasSuffix(p.Activity, ".SubSettings") {
			byTitle[title] = append(byTitle[title], p.ID)
		}
		described[p.Activity+" "+p.Description] = true
		t.Logf("page %s %s %q", p.ID, p.Activity, p.Description)
	}
	named := 0
	for _, s := range settingsScreens {
		switch ids := byTitle[s]; len(ids) {
		case 0:
			t.Logf("%s: not mapped", s)
		case 1:
			named++
		default:
			t.Errorf("%s: %d pages %v, want one", s, len(ids), ids)
		}
	}
	if named < 12 {
		t.Errorf("%d of the %d Settings screens mapped as pages of their own, want at least 12", named, len(settingsScreens))
	}
	if len(described) != len(m.Pages) {
		t.Errorf("%d pages but %d descriptions: two pages of one activity look alike", len(m.Pages), len(described))
	}

	// The summary agrees with the map, as `fairy map list` counts it.
	apps, err := store.Apps()
	if err != nil {
		t.Fatal(err)
	}
	var listed knowledge.AppSummary
	for _, a := range apps {
		if a.Package == settingsApp {
			listed = a
		}
	}
	if sum.Pages != listed.Pages || sum.NewPages != listed.Pages || sum.Transitions != listed.Transitions {
		t.Errorf("summary: %d pages (%d new), %d transitions; map list: %d pages, %d transitions", sum.Pages, sum.NewPages, sum.Transitions, listed.Pages, listed.Transitions)
	}
	// Each page reported found is the map's page of that ID.
	if len(found) != len(m.Pages) {
		t.Errorf("%d pages reported found, the map holds %d", len(found), len(m.Pages))
	}
	for id, desc := range found {
		if p, err := m.Page(id); err != nil || !strings.HasPrefix(p.Description, desc) {
			t.Errorf("reported page %s %q; the map's %s is %q (%v)", id, desc, id, p.Description, err)
		}
	}

	// Back from a page leads to the page it was opened from. Only a screen two pages open
	// under one title (Screen time, App battery usage: from Apps and from App info) goes
	// back to either; merged pages failed their Back up to 13 times.
	for _, tr := range m.Transitions {
		if tr.Action.Kind == knowledge.ActionBack && tr.Failures > 1 {
			from, _ := m.Page(tr.From)
			t.Errorf("back from %s %q: %d successes, %d failures", from.ID, from.Description, tr.Successes, tr.Failures)
		}
	}
}
