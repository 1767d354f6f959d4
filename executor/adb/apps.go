package adb

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// App is one launchable app.
type App struct {
	Package  string
	Activity string // launcher activity, flattened ("pkg/.Main")
	Label    string // "" unless the device exposes a non-localized label
}

// appsReuse is how long a list of the launchable apps answers for the phone while nothing
// that may change it ran (an install is a command like any other that changes the phone):
// a run asks for the list to plan, to learn the apps and to launch one, within seconds.
const appsReuse = 30 * time.Second

// appList is the last list of launchable apps, with the change count when it was asked
// for and the time it came back.
type appList struct {
	apps []App
	gen  uint64
	at   time.Time
}

// Apps lists the launchable apps. It asks the package manager for every activity
// answering MAIN/LAUNCHER (`cmd package query-activities`, Android 7+); where that is
// missing it resolves the launcher activity of every installed package in one batch. The
// list is asked for again only when something that may change the phone ran since the
// last one, or appsReuse passed.
func (d *Device) Apps(ctx context.Context) ([]App, error) {
	if apps, ok := d.knownApps(); ok {
		return apps, nil
	}
	gen := d.changes.Load()
	apps, err := d.listApps(ctx)
	if err == nil {
		d.settledMu.Lock()
		d.apps = appList{apps: slices.Clone(apps), gen: gen, at: d.cfg.Now()}
		d.settledMu.Unlock()
	}
	return apps, err
}

// knownApps is the last app list while it still answers (see Apps).
func (d *Device) knownApps() ([]App, bool) {
	d.settledMu.Lock()
	defer d.settledMu.Unlock()
	l := d.apps
	if l.at.IsZero() || l.gen != d.changes.Load() || d.cfg.Now().Sub(l.at) > appsReuse {
		return nil, false
	}
	return slices.Clone(l.apps), true
}

func (d *Device) listApps(ctx context.Context) ([]App, error) {
	out, err := d.shArgs(ctx, true, "cmd", "package", "query-activities", "-a", "android.intent.action.MAIN", "-c",
		"android.intent.category.LAUNCHER")
	if err == nil && !strings.Contains(out, "Unknown command") {
		if apps := parseQueryActivities(out); len(apps) > 0 {
			return apps, nil
		}
	}
	list, err := d.shArgs(ctx, true, "pm", "list", "packages")
	if err != nil {
		return nil, fmt.Errorf("adb apps: %w", err)
	}
	var pkgs []string
	for line := range strings.Lines(list) {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "package:"); ok && pkgRE.MatchString(p) {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		return nil, nil
	}
	// One round trip: a resolve-activity per package, separated by markers.
	var b strings.Builder
	for _, p := range pkgs {
		b.WriteString("echo " + quote(sectionMark) + "\n")
		b.WriteString(join("cmd", "package", "resolve-activity", "--brief", "-a", "android.intent.action.MAIN", "-c",
			"android.intent.category.LAUNCHER", p))
		b.WriteString("\n")
	}
	out, err = d.sh(ctx, b.String(), true)
	if err != nil {
		return nil, fmt.Errorf("adb apps: %w", err)
	}
	var apps []App
	sections := strings.Split(out, sectionMark)
	for i, p := range pkgs {
		if i+1 >= len(sections) {
			break
		}
		if m := componentRE.FindStringSubmatch(sections[i+1]); m != nil && m[1] == p {
			apps = append(apps, App{Package: p, Activity: m[1] + "/" + m[2]})
		}
	}
	sort.Slice(apps, func(i, j int) bool { return apps[i].Package < apps[j].Package })
	return apps, nil
}

var (
	aiNameRE  = regexp.MustCompile(`^\s+name=(\S+)`)
	aiPkgRE   = regexp.MustCompile(`^\s+packageName=(\S+)`)
	aiLabelRE = regexp.MustCompile(`nonLocalizedLabel=(.*?)\s+icon=`)
)

// parseQueryActivities reads the ActivityInfo blocks of `cmd package query-activities`
// (non-brief): name=, packageName= and nonLocalizedLabel= of each activity.
func parseQueryActivities(out string) []App {
	var apps []App
	seen := map[string]bool{}
	var cur App
	inActivity := false
	flush := func() {
		if cur.Package != "" && cur.Activity != "" && !seen[cur.Package] {
			seen[cur.Package] = true
			act := cur.Activity
			if s, ok := strings.CutPrefix(act, cur.Package+"."); ok {
				act = "." + s
			}
			cur.Activity = cur.Package + "/" + act
			apps = append(apps, cur)
		}
		cur = App{}
	}
	for line := range strings.Lines(normalizeText(out)) {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "ActivityInfo:"):
			flush()
			inActivity = true
		case strings.HasPrefix(t, "ApplicationInfo:"):
			inActivity = false
		case inActivity && cur.Activity == "" && aiNameRE.MatchString(line):
			cur.Activity = aiNameRE.FindStringSubmatch(line)[1]
		case inActivity && cur.Package == "" && aiPkgRE.MatchString(line):
			cur.Package = aiPkgRE.FindStringSubmatch(line)[1]
		case inActivity && cur.Label == "" && aiLabelRE.MatchString(line):
			if l := aiLabelRE.FindStringSubmatch(line)[1]; l != "null" {
				cur.Label = l
			}
		}
	}
	flush()
	sort.Slice(apps, func(i, j int) bool { return apps[i].Package < apps[j].Package })
	return apps
}
