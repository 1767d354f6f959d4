package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/chromiumtest"
)

// fairyIn runs the root command with args and returns its output.
func fairyIn(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRootCmd(strings.NewReader(""), &out, &errOut, envMap(map[string]string{"HOME": t.TempDir()}))
	root.SetArgs(args)
	err := root.ExecuteContext(t.Context())
	return out.String() + errOut.String(), err
}

// TestDemoRunPageAndRuns: `fairy demo` writes report.html into its run directory, and
// `fairy runs list|show|open` find the run; the page, in headless Chromium, shows the
// Chinese menu's screenshot, the questions and the steps.
func TestDemoRunPageAndRuns(t *testing.T) {
	runs := t.TempDir()
	out, err := fairyIn(t, "demo", "--runs", runs)
	if err != nil {
		t.Fatalf("fairy demo: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^report: (.+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the demo names no report:\n%s", out)
	}
	_, dir := readSummary(t, out)
	page := m[1]
	if page != filepath.Join(dir, "report.html") {
		t.Errorf("report %s is not in the run directory %s", page, dir)
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(raw)
	for _, want := range []string{"Order a bubble tea for delivery", "When should the bubble tea arrive?", "→ <i>18:00</i>",
		"珍珠奶茶", "Learned from 2 app tasks", `font-family:"Fairy CJK"`, "data:image/jpeg;base64,", `href="step-001-01.jpg"`} {
		if !strings.Contains(html, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}

	// runs list: the demo's run, as a table and as JSON.
	list, err := fairyIn(t, "runs", "list", "--runs", runs)
	id := filepath.Base(dir)
	if err != nil || !regexp.MustCompile(`(?m)^RUN\s+STARTED\s+OUTCOME\s+STEPS\s+INSTRUCTION$`).MatchString(list) ||
		!regexp.MustCompile(`(?m)^`+id+`\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+done\s+\d+\s+Order a bubble tea`).MatchString(list) {
		t.Errorf("runs list: %v\n%s", err, list)
	}
	js, err := fairyIn(t, "runs", "list", "--runs", runs, "--format", "json")
	var rows []runJSON
	if err != nil || json.Unmarshal([]byte(js), &rows) != nil || len(rows) != 1 {
		t.Fatalf("runs list --format json: %v\n%s", err, js)
	}
	if r := rows[0]; r.ID != id || r.Dir != dir || r.Outcome != "done" || r.Questions != 3 || r.Report != page || r.Started.IsZero() {
		t.Errorf("runs list --format json: %+v", r)
	}
	// runs show: by ID prefix, and the newest by default.
	for _, args := range [][]string{{"runs", "show", "--runs", runs, id[:10]}, {"runs", "show", "--runs", runs}} {
		show, err := fairyIn(t, args...)
		for _, want := range []string{"Instruction:  Order a bubble tea", "Outcome:      done", "Pay ¥15 from your balance for order 1001? — items: 珍珠奶茶 ×1; payee: com.fairy.shop → yes",
			"com.fairy.shop", "Report: " + page} {
			if err != nil || !strings.Contains(show, want) {
				t.Errorf("%v: lacks %q (%v)\n%s", args, want, err, show)
			}
		}
	}
	// runs open: the path, and (not a terminal here) nothing opened; a missing page is written.
	if err := os.Remove(page); err != nil {
		t.Fatal(err)
	}
	opened, err := fairyIn(t, "runs", "open", "--runs", runs, id)
	if err != nil || strings.TrimSpace(opened) != page {
		t.Errorf("runs open: %v\n%s", err, opened)
	}
	if _, err := os.Stat(page); err != nil {
		t.Errorf("runs open did not write the missing page: %v", err)
	}

	bin := chromiumBin(t)
	dom := chromiumRun(t, bin, "--dump-dom", "file://"+page)
	for _, want := range []string{`id="questions"`, `class="steps wide"`, "Pay ¥15 from your balance"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	if n := len(regexp.MustCompile(`<div class="step( current)?" data-i="`).FindAllString(dom, -1)); n < 10 {
		t.Errorf("the rendered page shows %d steps, want the demo's 16", n)
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	chromiumRun(t, bin, "--screenshot="+shot, "--window-size=1280,1600", "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	for y := 0; y < img.Bounds().Dy(); y += 3 {
		for x := 0; x < img.Bounds().Dx(); x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r+g+b < 3*0x4000 {
				dark++
			}
		}
	}
	if dark < 500 {
		t.Errorf("the page's screenshot looks blank (%d dark samples)", dark)
	}
}

// TestRunsFind: a run is found by ID, prefix, directory or "last"; an unknown or
// ambiguous one, or no runs at all, is a usage error that says what to do.
func TestRunsFind(t *testing.T) {
	runs := t.TempDir()
	if out, err := fairyIn(t, "runs", "list", "--runs", runs); err != nil || !strings.Contains(out, "No runs in "+runs+" yet.") {
		t.Errorf("runs list with no runs: %v\n%s", err, out)
	}
	if out, err := fairyIn(t, "runs", "list", "--runs", runs, "--format", "json"); err != nil || strings.TrimSpace(out) != "[]" {
		t.Errorf("runs list --format json with no runs: %v\n%s", err, out)
	}
	var ee *exitError
	if _, err := fairyIn(t, "runs", "show", "--runs", runs); !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), "no runs in") {
		t.Errorf("runs show with no runs: %v", err)
	}
	for _, r := range []struct{ id, instruction, started string }{
		{"20250101-100000-1", "turn off wifi", "2025-01-01T10:00:00Z"},
		{"20250101-110000-2", "找一家咖啡店", "2025-01-01T11:00:00Z"},
		{"eval-20250101", "", ""}, // an evaluation's directory: no run
	} {
		d := filepath.Join(runs, r.id)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if r.instruction != "" {
			sum := `{"run_id":"` + r.id + `","instruction":"` + r.instruction + `","outcome":"done","steps":2,"started":"` + r.started + `"}`
			if err := os.WriteFile(filepath.Join(d, "summary.json"), []byte(sum), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	list, err := fairyIn(t, "runs", "list", "--runs", runs)
	if err != nil || strings.Contains(list, "eval-") || strings.Index(list, "找一家咖啡店") > strings.Index(list, "turn off wifi") {
		t.Errorf("runs list: want two runs, newest first:\n%s", list)
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 3 || strings.Index(lines[1], "找一家") != strings.Index(lines[0], "INSTRUCTION") || strings.Index(lines[2], "turn off") != strings.Index(lines[0], "INSTRUCTION") {
		t.Errorf("the instruction column does not line up:\n%s", list)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"20250101-10"}, "turn off wifi"},
		{[]string{"last"}, "找一家咖啡店"},
		{[]string{filepath.Join(runs, "20250101-100000-1")}, "turn off wifi"},
	} {
		out, err := fairyIn(t, append([]string{"runs", "show", "--runs", runs}, tc.args...)...)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("runs show %v: %v\n%s", tc.args, err, out)
		}
	}
	for _, tc := range []struct{ ref, want string }{
		{"2025", "matches 2 runs"}, {"nope", "no run \"nope\""}, {filepath.Join(runs, "eval-20250101"), "not a run directory"},
	} {
		if _, err := fairyIn(t, "runs", "show", "--runs", runs, tc.ref); !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("runs show %s: %v, want exit 2 saying %q", tc.ref, err, tc.want)
		}
	}
}

// chromiumBin returns the Chromium binary (see internal/chromiumtest).
func chromiumBin(t *testing.T) string { t.Helper(); return chromiumtest.Binary(t) }

func chromiumRun(t *testing.T, bin string, args ...string) string {
	t.Helper()
	return string(chromiumtest.Run(t, bin, nil, args...))
}
