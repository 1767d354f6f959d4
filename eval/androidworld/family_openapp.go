package androidworld

import (
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/eval/walkthrough"
)

// launchable are the phone's apps an "open the app" family draws from (the benchmark
// draws from its own apps, system._APP_NAME_TO_PACKAGE_NAME; these are the phone's): the
// label in the instruction, the package and a pattern on its first screen.
var launchable = []struct{ label, pkg, first string }{
	{"Contacts", contactsPkg, `id=contact_list|Create contact`},
	{"Messages", messagesPkg, `Start chat`},
	{"Calendar", calendarPkg, `Create new event`},
	{"Notes", notesPkg, `"New note" id=add_note`},
	{"Maps", mapsPkg, `id=chip_coffee`},
	{"Expenses", expensesPkg, `"Add expense" id=add_expense`},
	{"Recipes", recipesPkg, `"Add recipe" id=add_recipe`},
}

// openApp is OpenAppTaskEval: the app in front at the end.
func openApp(g *gen) (*instance, error) {
	a := pick(g.r, launchable)
	return &instance{
		params: map[string]string{"app_name": a.label},
		checks: []suite.CustomCheck{&foregroundCheck{Package: a.pkg}},
		walk:   []walkthrough.Task{{App: a.pkg, Done: a.first, Steps: []walkthrough.Step{{Screen: `Tap an app to open it`, Subgoal: "Open " + a.label, Do: []string{`OpenApp ` + a.pkg}}}}},
	}, nil
}

// wifiOnOpenApp is the composite TurnOnWifiAndOpenApp: Wi-Fi on, then the app in front,
// with partial credit.
func wifiOnOpenApp(g *gen) (*instance, error) {
	a := pick(g.r, launchable)
	return &instance{
		params: map[string]string{"app_name": a.label},
		setup:  []string{"settings put global wifi_on 0"},
		checks: []suite.CustomCheck{&allCheck{Parts: []suite.CustomCheck{
			&settingCheck{Namespace: "global", Key: "wifi_on", Want: []string{"1", "2"}},
			&foregroundCheck{Package: a.pkg},
		}}},
		walk: []walkthrough.Task{
			{App: settingsPkg, Task: "Turn on Wi-Fi", Done: `item "Wi-Fi".*\n *- "On"`, Steps: []walkthrough.Step{
				{Screen: `item "Network & internet"`, Subgoal: "Open Network & internet", Do: []string{`Tap "Network & internet"`}},
				{Screen: `item "Wi-Fi".*\n *- "Off"`, Subgoal: "Switch Wi-Fi on", Do: []string{`Tap "Wi-Fi"`}},
			}},
			{App: a.pkg, Task: "Open the " + a.label + " app", Done: a.first, Steps: []walkthrough.Step{
				{Screen: `Tap an app to open it`, Subgoal: "Open " + a.label, Do: []string{`OpenApp ` + a.pkg}},
			}},
		},
	}, nil
}
