package explore

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/executor/adb"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/adbtest"
	"github.com/fairy-go/fairy/sim/wire"
)

const settingsApp = "com.android.settings"

// phoneOverADB starts a virtual phone, connects the real adb server to it and opens it
// through the device layer (gadb).
func phoneOverADB(t testing.TB) (*sim.Phone, *adb.Device, *adbtest.Server, string) {
	return phoneWith(t, sim.Faults{})
}

// phoneWith is phoneOverADB with faults.
func phoneWith(t testing.TB, faults sim.Faults) (*sim.Phone, *adb.Device, *adbtest.Server, string) {
	t.Helper()
	return phoneOf(t, sim.Config{Seed: 1, Faults: faults})
}

// phoneOf is phoneOverADB with a phone of cfg.
func phoneOf(t testing.TB, cfg sim.Config) (*sim.Phone, *adb.Device, *adbtest.Server, string) {
	t.Helper()
	phone, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	face, err := wire.NewDeviceServer(wire.DeviceConfig{Device: phone})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- face.Serve(context.Background()) }()
	t.Cleanup(func() { face.Close(); <-served })
	srv := adbtest.Start(t)
	serial := srv.Connect(t, face.Addr().String())
	dev, err := adb.Open(t.Context(), adb.Config{Port: srv.Port, Serial: serial, SettleInterval: 20 * time.Millisecond,
		DumpBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(context.Background()) })
	return phone, dev, srv, serial
}

func openStore(t testing.TB) *knowledge.Store {
	t.Helper()
	s, err := knowledge.Open(filepath.Join(t.TempDir(), "knowledge.db"), knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// settingsList is `adb shell settings list NS` for the three namespaces.
func settingsList(t *testing.T, srv *adbtest.Server, serial string) string {
	t.Helper()
	var b strings.Builder
	for _, ns := range []string{"global", "system", "secure"} {
		b.WriteString(ns + ":\n")
		b.Write(srv.Run(t, "-s", serial, "shell", "settings", "list", ns))
	}
	return b.String()
}

// appData is every app's variables and records: what the person keeps in the apps.
func appData(p *sim.Phone) map[string]sim.AppData {
	out := map[string]sim.AppData{}
	for pkg, d := range p.State().Apps {
		d.Running = false // an app's process is no data
		out[pkg] = d
	}
	return out
}

// TestExploreSettings: on the virtual phone through the real adb server, exploring
// Settings with a budget of 200 actions maps at least 15 of its pages, each marked
// explored, with transitions the executor can predict, and changes no setting and no app
// data — the phone's state and `settings list` are the same before and after — and never
// records another app's screen.
func TestExploreSettings(t *testing.T) {
	phone, dev, srv, serial := phoneOverADB(t)
	store := openStore(t)
	beforeList := settingsList(t, srv, serial)
	beforeState := phone.State().Settings
	beforeData := appData(phone)

	var progress []Progress
	start := time.Now()
	sum, err := Run(t.Context(), Config{Device: dev, Store: store, App: settingsApp, Budget: 200,
		Pictures: true, Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatalf("explore: %v (summary %+v)", err, sum)
	}
	t.Logf("explored %s: %d pages (%d new), %d transitions, %d actions, stopped: %s, skipped %v, wall %s",
		sum.App, sum.Pages, sum.NewPages, sum.Transitions, sum.Actions, sum.Stopped, sum.Skipped, time.Since(start).Round(time.Millisecond))

	if after := settingsList(t, srv, serial); after != beforeList {
		t.Errorf("settings list changed:\nbefore:\n%s\nafter:\n%s", beforeList, after)
	}
	if after := phone.State().Settings; !reflect.DeepEqual(after, beforeState) {
		t.Errorf("settings changed: before %v, after %v", beforeState, after)
	}
	if after := appData(phone); !reflect.DeepEqual(after, beforeData) {
		t.Errorf("app data changed: before %v, after %v", beforeData, after)
	}
	if sum.Actions > 200 {
		t.Errorf("%d actions, over the budget of 200", sum.Actions)
	}
	if len(progress) == 0 || progress[len(progress)-1].Actions != sum.Actions {
		t.Errorf("progress reports: %d, last %+v; want one per step ending at %d actions", len(progress), progress, sum.Actions)
	}

	m, err := store.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	explored := 0
	for _, p := range m.Pages {
		if p.Explored > 0 {
			explored++
		}
		t.Logf("page %s %s %q explored=%d", p.ID, p.Activity, p.Description, p.Explored)
	}
	if explored < 15 || sum.Pages < 15 {
		t.Errorf("%d pages explored in the map (summary: %d), want at least 15", explored, sum.Pages)
	}
	for _, tr := range m.Transitions {
		if tr.Action.Kind == knowledge.ActionTap && tr.Action.Args[knowledge.ArgSideEffect] != "" {
			t.Errorf("a tap with a side effect was made: %+v", tr)
		}
	}
	apps, err := store.Apps()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if a.Package != settingsApp && a.Pages > 0 {
			t.Errorf("another app's screens were recorded: %s (%d pages)", a.Package, a.Pages)
		}
	}
	if pkg, _ := phone.Foreground(); pkg != settingsApp && pkg != "com.android.launcher3" && pkg != "com.google.android.apps.nexuslauncher" {
		t.Errorf("the phone ended in %s", pkg)
	}
}

// TestExploreDryRun: a dry run launches the app — back on its first page when it was left
// deeper — says what it would tap and what it leaves alone, taps nothing and writes
// nothing to the map.
func TestExploreDryRun(t *testing.T) {
	phone, dev, _, _ := phoneOverADB(t)
	store := openStore(t)
	ctx := t.Context()
	if err := dev.Launch(ctx, settingsApp); err != nil {
		t.Fatal(err)
	}
	if err := dev.Tap(ctx, 540, 325); err != nil { // "Network & internet"
		t.Fatal(err)
	}
	if screen := phone.State().Screen; screen != "network" {
		t.Fatalf("set-up: the phone is on %s, want network", screen)
	}
	sum, err := Run(ctx, Config{Device: dev, Store: store, App: settingsApp, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Actions != 2 {
		t.Errorf("a dry run took %d actions, want the launch and one Back to the first page", sum.Actions)
	}
	var taps []string
	for _, tp := range sum.Taps {
		taps = append(taps, tp.Element)
	}
	if !strings.Contains(strings.Join(taps, "|"), "Network & internet") || !strings.Contains(strings.Join(taps, "|"), "Apps") {
		t.Errorf("would tap %v, want the list rows", taps)
	}
	if screen := phone.State().Screen; screen != "settings_main" {
		t.Errorf("the phone is on %s after a dry run, want the first page", screen)
	}
	if m, err := store.Map(settingsApp); err == nil && len(m.Pages) > 0 {
		t.Errorf("a dry run wrote %d pages", len(m.Pages))
	}
}

// TestExploreConfig: a missing part or a negative bound is a clear error.
func TestExploreConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no device": {App: settingsApp},
		"no app":    {App: ""},
		"negative":  {App: settingsApp, Budget: -1},
	} {
		if _, err := Run(t.Context(), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestExploreFaults: with unexpected "Rate this app" dialogs and dead taps, the crawler
// only ever dismisses the dialogs (it never taps "Rate now"), still maps Settings, and
// changes no setting.
func TestExploreFaults(t *testing.T) {
	phone, dev, srv, serial := phoneWith(t, sim.Faults{Dialog: 0.2, DeadTap: 0.1})
	store := openStore(t)
	beforeList := settingsList(t, srv, serial)
	beforeData := appData(phone)
	sum, err := Run(t.Context(), Config{Device: dev, Store: store, App: settingsApp, Budget: 200})
	if err != nil {
		t.Fatalf("explore: %v", err)
	}
	t.Logf("with faults: %d pages, %d transitions, %d actions, stopped: %s, skipped %v", sum.Pages, sum.Transitions, sum.Actions, sum.Stopped, sum.Skipped)
	for _, tp := range sum.Taps {
		if tp.Element == "Rate now" || tp.Element == "Not now" {
			t.Errorf("tapped %q on %q: a dialog is only dismissed with Back", tp.Element, tp.Page)
		}
	}
	if after := settingsList(t, srv, serial); after != beforeList {
		t.Errorf("settings list changed:\nbefore:\n%s\nafter:\n%s", beforeList, after)
	}
	if after := appData(phone); !reflect.DeepEqual(after, beforeData) {
		t.Errorf("app data changed: before %v, after %v", beforeData, after)
	}
	if sum.Pages < 10 {
		t.Errorf("%d pages with faults, want at least 10", sum.Pages)
	}
}

// TestExploreInterrupted: an exploration cut short (Ctrl-C) keeps what it learned: the
// pages seen before the cut are in the map, marked explored.
func TestExploreInterrupted(t *testing.T) {
	_, dev, _, _ := phoneOverADB(t)
	store := openStore(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sum, err := Run(ctx, Config{Device: dev, Store: store, App: settingsApp, Budget: 200,
		Progress: func(p Progress) {
			if p.Pages >= 5 {
				cancel()
			}
		}})
	if err != nil {
		t.Fatalf("an interrupted exploration is no error: %v", err)
	}
	if sum.Stopped != "interrupted" || sum.Actions >= 100 {
		t.Errorf("stopped %q after %d actions, want interrupted early", sum.Stopped, sum.Actions)
	}
	m, err := store.Map(settingsApp)
	if err != nil {
		t.Fatal(err)
	}
	explored := 0
	for _, p := range m.Pages {
		if p.Explored > 0 {
			explored++
		}
	}
	if explored < 5 || explored != sum.Pages {
		t.Errorf("%d explored pages kept in the map, summary says %d seen; want at least 5, the same", explored, sum.Pages)
	}
}

// BenchmarkExploreSettings: exploring Settings on the virtual phone through the real adb
// server with the default budget of 200 actions, from a factory-fresh phone and an empty
// map: pages, transitions and actions per exploration (the time is ns/op).
func BenchmarkExploreSettings(b *testing.B) {
	phone, dev, _, _ := phoneOverADB(b)
	var sum Summary
	for b.Loop() {
		b.StopTimer()
		if err := phone.Reset(); err != nil {
			b.Fatal(err)
		}
		store := openStore(b)
		b.StartTimer()
		var err error
		if sum, err = Run(b.Context(), Config{Device: dev, Store: store, App: settingsApp}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sum.Pages), "pages/op")
	b.ReportMetric(float64(sum.Transitions), "transitions/op")
	b.ReportMetric(float64(sum.Actions), "actions/op")
}

// hubApp is a small app whose "Help" row opens another app (Settings).
const hubApp = `
package: com.example.hub
label: Hub
activity: .Main
screens:
  - id: main
    title: Hub
    elements:
      - type: list
        id: rows
        items:
          - {id: help, title: "Help", to: help}
          - {id: details, title: "Details", to: details}
        row: {title: "{{.item.title}}"}
        on_tap:
          - {if: '{{eq .item.to "help"}}', launch: com.android.settings}
          - {if: '{{eq .item.to "details"}}', go: details}
  - id: details
    activity: .Details
    title: Details
    up: true
    elements:
      - {type: text, id: body, text: "Nothing here."}
`

// TestExploreLeavesOtherApps: a row that brings another app to the front is left at once
// with Back, counted, not tapped again, and the other app's screens never reach the map.
func TestExploreLeavesOtherApps(t *testing.T) {
	apps, err := sim.DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	hub, err := sim.ParseApp([]byte(hubApp))
	if err != nil {
		t.Fatal(err)
	}
	_, dev, _, _ := phoneOf(t, sim.Config{Seed: 1, Apps: append(apps, hub)})
	store := openStore(t)
	sum, err := Run(t.Context(), Config{Device: dev, Store: store, App: "com.example.hub", Budget: 50})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped[skipLeaves] != 1 || sum.Pages != 2 || sum.Stopped != "done" {
		t.Errorf("summary %+v: want Help left once, the two pages of the app, done", sum)
	}
	helps := 0
	for _, tp := range sum.Taps {
		if tp.Element == "Help" {
			helps++
		}
	}
	if helps != 1 {
		t.Errorf("Help tapped %d times, want once", helps)
	}
	summaries, err := store.Apps()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range summaries {
		if a.Package != "com.example.hub" && a.Pages > 0 {
			t.Errorf("%s's screens were recorded (%d pages)", a.Package, a.Pages)
		}
	}
}
