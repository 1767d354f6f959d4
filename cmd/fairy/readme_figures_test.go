package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// readmeFigure finds re in the README and returns its numeric submatches; the test fails
// when the README no longer says it.
func readmeFigure(t *testing.T, re string) []int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(readme(t))
	if m == nil {
		t.Fatalf("README.md no longer says %s: update this test with the figure", re)
	}
	var n []int
	for _, s := range m[1:] {
		if v, err := strconv.Atoi(s); err == nil {
			n = append(n, v)
		}
	}
	return n
}

// TestREADMEExploreFigure: the README's figure for `fairy explore com.android.settings
// --budget 200` on the virtual phone is what the command gives today (a fresh phone and
// knowledge file; the crawl is deterministic on the instant profile).
func TestREADMEExploreFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the virtual phone's Settings for about 10 s: full tier only")
	}
	want := readmeFigure(t, "`fairy explore com.android.settings --budget (\\d+)` maps (\\d+) Settings pages in (\\d+)\\s+actions")
	out := startSimServe(t)
	host := regexp.MustCompile(`adb host protocol on 127\.0\.0\.1:(\d+)`).FindStringSubmatch(out.String())
	if host == nil {
		t.Fatalf("sim serve printed no host face:\n%s", out)
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	root := newRootCmd(bytes.NewReader(nil), &stdout, &stderr, envMap(map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_DATA_HOME": dir}))
	root.SetArgs([]string{"--adb-host", "127.0.0.1", "--adb-port", host[1], "--knowledge", filepath.Join(dir, "knowledge.db"),
		"explore", "com.android.settings", "--budget", strconv.Itoa(want[0])})
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	if code := exitStatus(ctx, root.ExecuteContext(ctx), io.Discard); code != 0 {
		t.Fatalf("fairy explore: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	got := regexp.MustCompile(`explored com\.android\.settings: (\d+) pages .*?, (\d+) actions`).FindStringSubmatch(stdout.String() + stderr.String())
	if got == nil {
		t.Fatalf("fairy explore printed no summary:\n%s\n%s", stdout.String(), stderr.String())
	}
	if got[1] != strconv.Itoa(want[1]) || got[2] != strconv.Itoa(want[2]) {
		t.Errorf("README.md says explore maps %d Settings pages in %d actions; the command gives %s pages in %s actions: update the README", want[1], want[2], got[1], got[2])
	}
}
