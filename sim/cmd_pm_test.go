package sim

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestQueryActivitiesLauncher: the launchable apps as Android prints them, one ActivityInfo
// block each with the app's label as nonLocalizedLabel; never the launcher itself.
func TestQueryActivitiesLauncher(t *testing.T) {
	p := newPhone(t)
	out, st := sh(t, p, "cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER")
	if st != 0 {
		t.Fatalf("status %d: %s", st, out)
	}
	head := regexp.MustCompile(`^(\d+) activities found:\n  Activity #0:\n    priority=0 `).FindStringSubmatch(out)
	if head == nil {
		t.Fatalf("output starts %q", out[:min(len(out), 120)])
	}
	block := regexp.MustCompile(`(?m)^  Activity #\d+:\n    priority=.*\n    ActivityInfo:\n      name=(\S+)\n      packageName=(\S+)\n      labelRes=0x0 nonLocalizedLabel=(.+) icon=0x`)
	got := map[string]string{}
	for _, m := range block.FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], m[2]+".") {
			t.Errorf("activity %s of package %s", m[1], m[2])
		}
		got[m[2]] = m[3]
	}
	if n, _ := strconv.Atoi(head[1]); n != len(got) || n < 7 {
		t.Errorf("%s activities announced, %d blocks read: %v", head[1], len(got), got)
	}
	for pkg, label := range map[string]string{"com.android.settings": "Settings", "com.fairy.shop": "FoodShop 外卖", "com.fairy.maps": "Maps"} {
		if got[pkg] != label {
			t.Errorf("%s: label %q, want %q", pkg, got[pkg], label)
		}
	}
	if _, ok := got["com.android.launcher3"]; ok {
		t.Error("the launcher is listed")
	}
}
