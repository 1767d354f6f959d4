package eval

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/internal/chromiumtest"
)

func TestHTMLReportInChromium(t *testing.T) {
	bin := chromium(t)
	s, err := suite.Parse([]byte(fakeSuite), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rep, err := Run(t.Context(), Config{Suite: s, Agent: &fakeAgent{}, Devices: newFarm(t, 2), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, ReportHTML)
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	// Self-contained: no external resources, screenshots inline.
	if regexp.MustCompile(`(?i)(src|href)="(https?:|//|file:)`).Match(raw) {
		t.Error("report.html refers to an external resource")
	}
	if !bytes.Contains(raw, []byte(`src="data:image/jpeg;base64,`)) {
		t.Error("report.html has no embedded screenshot")
	}

	dom := string(headless(t, bin, "--dump-dom", "file://"+page))
	if !strings.Contains(dom, `<table id="tasks">`) {
		t.Fatalf("the task table is not in the rendered DOM:\n%s", llmHead(dom))
	}
	rows := regexp.MustCompile(`(?s)<table id="tasks">.*?</table>`).FindString(dom)
	for _, x := range rep.Tasks {
		if !strings.Contains(rows, ">"+x.ID+"</a>") {
			t.Errorf("task %s missing from the rendered table", x.ID)
		}
	}
	if n := strings.Count(rows, `class="fail"`); n != 2 {
		t.Errorf("rendered table shows %d failed tasks, want 2", n)
	}
	// The numeric columns hold numbers (a trajectory must not leak into the table).
	if strings.Contains(rows, "data:image") {
		t.Error("the task table holds image data")
	}
	if !regexp.MustCompile(`<td class="n">1</td><td class="n">2</td>`).MatchString(rows) {
		t.Errorf("the task table lacks steps=1, model calls=2 cells:\n%s", llmHead(rows))
	}

	shot := filepath.Join(t.TempDir(), "report.png")
	headless(t, bin, "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v", b)
	}
	// Not a blank page: some pixels are dark (text).
	dark := 0
	for y := 0; y < 600; y += 3 {
		for x := 0; x < 1280; x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			if r+g+b < 3*0x4000 {
				dark++
			}
		}
	}
	if dark < 100 {
		t.Errorf("the screenshot looks blank (%d dark samples)", dark)
	}
}

func llmHead(s string) string { return clip(s, 2000) }

// chromium returns the Chromium binary (see internal/chromiumtest).
func chromium(t *testing.T) string { t.Helper(); return chromiumtest.Binary(t) }

// headless runs Chromium on a 1280×2000 window.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	return chromiumtest.Run(t, bin, nil, append([]string{"--window-size=1280,2000"}, args...)...)
}
