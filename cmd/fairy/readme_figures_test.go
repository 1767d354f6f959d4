package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/eval/androidworld"
	"github.com/fairy-go/fairy/internal/testenv"
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
		v, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatalf("README.md figure %q: %v", s, err)
		}
		n = append(n, v)
	}
	return n
}

// TestREADMEExploreFigure: the README's figure for `fairy explore com.android.settings
// --budget 200` on the virtual phone is what the command gives today (a fresh phone and
// knowledge file; the crawl is deterministic on the instant profile).
func TestREADMEExploreFigure(t *testing.T) {
	testenv.MustHaveFullTier(t, "explores the virtual phone's Settings for about 10 s")
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

// TestREADMEGuardCorpusFigure: the README's size of the guard's held-out corpus is the
// corpus's (counted as TestGuardCorpus counts it: a label with a category is sensitive, a
// language is a locale's part before "-").
func TestREADMEGuardCorpusFigure(t *testing.T) {
	want := readmeFigure(t, `of ([\d,]+) sensitive and ([\d,]+) harmless labels on their pages in (\d+) languages`)
	data, err := os.ReadFile(filepath.Join("..", "..", "guard", "testdata", "guard", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Items []struct {
			Locale   string `json:"locale"`
			Category string `json:"category"`
		} `json:"items"`
	}
	if err := json.Unmarshal(data, &corpus); err != nil {
		t.Fatal(err)
	}
	sens, harm, langs := 0, 0, map[string]bool{}
	for _, it := range corpus.Items {
		langs[strings.Split(it.Locale, "-")[0]] = true
		if it.Category != "" {
			sens++
		} else {
			harm++
		}
	}
	if got := []int{sens, harm, len(langs)}; !slices.Equal(got, want) {
		t.Errorf("README.md says the guard corpus has %d sensitive and %d harmless labels in %d languages; it has %d, %d and %d: update the README", want[0], want[1], want[2], got[0], got[1], got[2])
	}
}

// TestREADMEAndroidWorldFigure: the README's count of the AndroidWorld families the
// mirror builds, and of their apps, is the suite's.
func TestREADMEAndroidWorldFigure(t *testing.T) {
	want := readmeFigure(t, `the\s+virtual phone has \((\d+) of them, from (\d+) apps`)
	s, err := androidworld.Load("androidworld:sim", androidworld.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	apps := map[string]bool{}
	for _, task := range s.Tasks {
		for _, tag := range task.Tags {
			if a, ok := strings.CutPrefix(tag, "app:"); ok {
				apps[a] = true
			}
		}
	}
	if got := []int{len(s.Tasks), len(apps)}; !slices.Equal(got, want) {
		t.Errorf("README.md says androidworld:sim has %d families from %d apps; it builds %d from %d: update the README", want[0], want[1], got[0], got[1])
	}
}

// TestREADMEMCPSessionFigure: the counts that close the README's example MCP session
// (the bubble tea order on the virtual phone with the demo's rules) are what the same
// instruction, rules and phone give today; `fairy demo` runs exactly that, answering 18:00
// and yes twice.
func TestREADMEMCPSessionFigure(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs the demo")
	want := readmeFigure(t, `\n  (\d+) steps, (\d+) model calls, (\d+) questions\n`)
	runs := t.TempDir()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(map[string]string{"HOME": runs, "XDG_DATA_HOME": runs, "XDG_CONFIG_HOME": runs}))
	root.SetArgs([]string{"demo", "--runs", runs})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy demo: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	sum, _ := readSummary(t, out.String())
	if got := []int{sum.Steps, sum.ModelCalls, len(sum.Questions)}; !slices.Equal(got, want) {
		t.Errorf("README.md's MCP session ends with %d steps, %d model calls, %d questions; the same run gives %d, %d and %d: update the README", want[0], want[1], want[2], got[0], got[1], got[2])
	}
}
