package androidworld

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/sim"
)

// TestData: the benchmark's 116 families with their difficulty and complexity; every
// family the mirror builds is one of them; its parameter lists are there.
func TestData(t *testing.T) {
	fams, src, err := Families()
	if err != nil {
		t.Fatal(err)
	}
	if len(fams) != 116 || src.Commit == "" || !strings.Contains(src.License, "Apache-2.0") {
		t.Fatalf("%d families, source %+v", len(fams), src)
	}
	byName := map[string]Family{}
	for _, m := range fams {
		if m.Complexity <= 0 || !slices.Contains([]string{"easy", "medium", "hard"}, m.Difficulty) || m.Template == "" {
			t.Errorf("%s: %+v", m.Family, m)
		}
		byName[m.Family] = m
	}
	if b := byName["SimpleSmsReply"].StepBudget(); b != 12 {
		t.Errorf("SimpleSmsReply budget %d, want 12 (10 × 1.2)", b)
	}
	if b := byName["ExpenseDeleteMultiple2"].StepBudget(); b != 34 {
		t.Errorf("ExpenseDeleteMultiple2 budget %d, want 34", b)
	}
	for _, n := range BuiltFamilies() {
		if _, ok := byName[n]; !ok {
			t.Errorf("built family %s is not the benchmark's", n)
		}
	}
}

func load(t *testing.T, seed int64, n int, fam string) *suite.Suite {
	t.Helper()
	s, err := Load("androidworld:sim", Options{Seed: seed, Instances: n, Family: fam})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fingerprint is what an instance draws: its instruction and its setup (records, noise).
func fingerprint(t *suite.Task) string {
	return t.Instruction + "\n" + strings.Join(t.Phone.Sim.Setup, "\n")
}

// TestSeeding: the same seed gives the same instances; another seed, and another
// instance of the same seed, give other parameters and noise.
func TestSeeding(t *testing.T) {
	a1, a2, b := load(t, 7, 2, "*"), load(t, 7, 2, "*"), load(t, 8, 2, "*")
	if len(a1.Tasks) != 2*len(builders) {
		t.Fatalf("%d tasks for %d families × 2", len(a1.Tasks), len(builders))
	}
	varies := map[string]bool{}
	for i, t1 := range a1.Tasks {
		if fingerprint(t1) != fingerprint(a2.Tasks[i]) {
			t.Errorf("%s: seed 7 drew two different instances", t1.ID)
		}
		if fingerprint(t1) != fingerprint(b.Tasks[i]) {
			varies[strings.TrimSuffix(strings.TrimSuffix(t1.ID, "-0"), "-1")] = true
		}
	}
	// The settings toggles and the brightness levels have no parameter to draw (the
	// benchmark fixes on/off, max/min per family); every other family differs between
	// seeds 7 and 8.
	for _, f := range BuiltFamilies() {
		fixed := strings.HasPrefix(f, "SystemWifi") || strings.HasPrefix(f, "SystemBluetooth") || strings.HasPrefix(f, "SystemBrightness") || f == "TurnOffWifiAndTurnOnBluetooth"
		if !varies[f] && !fixed {
			t.Errorf("%s: seeds 7 and 8 drew the same instances", f)
		}
	}
	one := load(t, 7, 2, "SimpleSmsReply")
	if fingerprint(one.Tasks[0]) == fingerprint(one.Tasks[1]) {
		t.Error("instances 0 and 1 of a seed are the same")
	}
	if fingerprint(one.Tasks[0]) != fingerprint(a1.Tasks[slices.IndexFunc(a1.Tasks, func(x *suite.Task) bool { return x.ID == "SimpleSmsReply-0" })]) {
		t.Error("an instance depends on which other families run")
	}
}

// TestLoad: tags, budgets, the fixed clock and the apps; a bad glob or one that matches
// nothing is a clear error.
func TestLoad(t *testing.T) {
	s := load(t, 1, 1, "Expense*")
	for _, task := range s.Tasks {
		if !strings.HasPrefix(task.ID, "Expense") || !task.HasTag(TagSuite) || !task.HasTag("app:Expenses") || task.Limits.Steps == 0 {
			t.Errorf("%s: tags %v, limits %+v", task.ID, task.Tags, task.Limits)
		}
		if task.Phone.Sim.Setup[0] != "fairy-sim clock 2023-10-15T15:34:00Z" {
			t.Errorf("%s: setup starts %q", task.ID, task.Phone.Sim.Setup[0])
		}
		if strings.Contains(task.Instruction, "arduia") || strings.Contains(task.Instruction, "{") {
			t.Errorf("%s: instruction %q", task.ID, task.Instruction)
		}
	}
	if !slices.ContainsFunc(s.SimApps(), func(a *sim.AppSpec) bool { return a.Package == expensesPkg }) {
		t.Error("the suite does not install the Expenses app")
	}
	for _, bad := range []Options{{Family: "[", Seed: 1}, {Family: "NoSuchFamily*"}} {
		if _, err := Load("androidworld:sim", bad); !errors.Is(err, suite.ErrSuite) {
			t.Errorf("%+v: %v, want ErrSuite", bad, err)
		}
	}
	if _, err := Load("androidworld:emulator", Options{}); !errors.Is(err, suite.ErrSuite) {
		t.Errorf("unknown suite: %v", err)
	}
	apps := map[string]bool{}
	for _, task := range load(t, 1, 1, "*").Tasks {
		for _, tag := range task.Tags {
			if a, ok := strings.CutPrefix(tag, TagApp); ok {
				apps[a] = true
			}
		}
	}
	t.Logf("%d families from %d apps", len(builders), len(apps))
}
