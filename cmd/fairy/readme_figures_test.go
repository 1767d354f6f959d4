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

// docFigure finds re in the repository's file doc (README.md or docs/….md) and returns
// its numeric submatches; the test fails when the file no longer says it.
func docFigure(t *testing.T, doc, re string) []int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(repoFile(t, doc))
	if m == nil {
		t.Fatalf("%s no longer says %s: update this test with the figure", doc, re)
	}
	var n []int
	for _, s := range m[1:] {
		v, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		if err != nil {
			t.Fatalf("%s figure %q: %v", doc, s, err)
		}
		n = append(n, v)
	}
	return n
}

// TestDocsExploreFigure: docs/learning.md's figure for `fairy explore com.android.settings
// --budget 200` on the virtual phone is what the command gives today (a fresh phone and
// knowledge file; the crawl is deterministic on the instant profile).
func TestDocsExploreFigure(t *testing.T) {
	testenv.MustHaveFullTier(t, "explores the virtual phone's Settings for about 10 s")
	want := docFigure(t, "docs/learning.md", "`fairy explore com.android.settings --budget (\\d+)` maps (\\d+) Settings pages in (\\d+)\\s+actions")
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
		t.Errorf("docs/learning.md says explore maps %d Settings pages in %d actions; "+
			"the command gives %s pages in %s actions: update it", want[1], want[2], got[1], got[2])
	}
}

// TestDocsGuardCorpusFigure: docs/guard.md's size of the guard's held-out corpus is the
// corpus's (counted as TestGuardCorpus counts it: a label with a category is sensitive, a
// language is a locale's part before "-").
func TestDocsGuardCorpusFigure(t *testing.T) {
	want := docFigure(t, "docs/guard.md", `of ([\d,]+) sensitive and ([\d,]+) harmless labels on their pages in (\d+) languages`)
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
		t.Errorf("docs/guard.md says the guard corpus has %d sensitive and %d harmless labels in %d languages; "+
			"it has %d, %d and %d: update it", want[0], want[1], want[2], got[0], got[1], got[2])
	}
}

// TestDocsAndroidWorldFigure: docs/evaluation.md's count of the AndroidWorld families the
// mirror builds, and of their apps, is the suite's.
func TestDocsAndroidWorldFigure(t *testing.T) {
	want := docFigure(t, "docs/evaluation.md", `the\s+virtual phone has \((\d+) of them, from (\d+) apps`)
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
		t.Errorf("docs/evaluation.md says androidworld:sim has %d families from %d apps; "+
			"it builds %d from %d: update it", want[0], want[1], got[0], got[1])
	}
}

// TestDocsMCPSessionFigure: the counts that close docs/mcp.md's example MCP session
// (the bubble tea order on the virtual phone with the demo's rules) are what the same
// instruction, rules and phone give today; `fairy demo` runs exactly that, answering 18:00
// and yes twice.
func TestDocsMCPSessionFigure(t *testing.T) {
	testenv.MustHaveFullTier(t, "runs the demo")
	want := docFigure(t, "docs/mcp.md", `\n  (\d+) steps, (\d+) model calls, (\d+) questions\n`)
	runs := t.TempDir()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(map[string]string{"HOME": runs, "XDG_DATA_HOME": runs, "XDG_CONFIG_HOME": runs}))
	root.SetArgs([]string{"demo", "--runs", runs})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("fairy demo: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	sum, _ := readSummary(t, out.String())
	if got := []int{sum.Steps, sum.ModelCalls, len(sum.Questions)}; !slices.Equal(got, want) {
		t.Errorf("docs/mcp.md's MCP session ends with %d steps, %d model calls, %d questions; "+
			"the same run gives %d, %d and %d: update it", want[0], want[1], want[2], got[0], got[1], got[2])
	}
}
