package rundir

import (
	"bytes"
	"fmt"
	"html/template"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/sim"
)

// recordShopRun records, with the real recorder, a run on the virtual phone's shop: its
// Chinese menu as the step's screenshot, a question in Chinese with its answer, the tricks
// it was given, the tap, and the end.
func recordShopRun(t *testing.T) string {
	t.Helper()
	p, err := sim.New(sim.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := p.Shell(t.Context(), "monkey -p com.fairy.shop -c android.intent.category.LAUNCHER 1", &out); err != nil {
		t.Fatal(err)
	}
	shot, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "20250101-120000-1")
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	bus := event.NewBus(func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) })
	bus.Subscribe(rec.Handle)
	bus.Publish(event.RunStarted{RunID: "20250101-120000-1", Instruction: "点一杯珍珠奶茶"})
	bus.Publish(event.AppTaskStarted{Instruction: "点一杯珍珠奶茶", Task: event.AppTask{App: "com.fairy.shop", Task: "Order one 珍珠奶茶"}})
	bus.Publish(event.StepStarted{Step: 1, App: "com.fairy.shop"})
	bus.Publish(event.ScreenPerceived{Step: 1, Package: "com.fairy.shop", Signature: "menu", Text: "- [4] item \"珍珠奶茶 Bubble tea ¥15\"", Marked: shot, MarkedMIME: "image/png"})
	bus.Publish(event.KnowledgeServed{Step: 1, Role: "replanner", Tricks: 2})
	bus.Publish(event.Reflected{Step: 1, Reflection: "the menu is open"})
	bus.Publish(event.Planned{Step: 1, Plan: []string{"Open the bubble tea"}, Subgoal: "Open 珍珠奶茶"})
	bus.Publish(event.ModelCalled{Role: "replanner", Critical: true, PromptTokens: 100, CompletionTokens: 10})
	bus.Publish(event.InteractionAsked{Step: 1, Type: 3, Question: "要几杯珍珠奶茶？", Options: []string{"1", "2"}})
	bus.Publish(event.InteractionAnswered{Step: 1, Answer: "1"})
	bus.Publish(event.ActionsDecided{Step: 1, Thought: "tap the first row"})
	bus.Publish(event.ActionExecuted{Step: 1, Action: event.Action{Type: event.Tap, Index: 4}, Element: &event.ElementRef{Label: "珍珠奶茶 Bubble tea ¥15"}})
	bus.Publish(event.TaskFinished{App: "com.fairy.shop", Outcome: event.OutcomeDone, Steps: 1})
	bus.Publish(event.RunFinished{Outcome: event.OutcomeDone, Reason: "ordered"})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunPage: a run directory's page has the run's figures, its question and answer,
// the knowledge it used, its step with the screenshot embedded and linked, and the CJK
// font embedded; it is self-contained.
func TestRunPage(t *testing.T) {
	dir := recordShopRun(t)
	page, err := WritePage(dir)
	if err != nil {
		t.Fatal(err)
	}
	if page != filepath.Join(dir, "report.html") {
		t.Errorf("page written to %s", page)
	}
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(raw)
	for _, want := range []string{
		"<title>fairy run — 点一杯珍珠奶茶</title>",
		`<span class="pass">done</span> — ordered`,
		"要几杯珍珠奶茶？ [1 | 2] → <i>1</i>",
		"2 App Tricks put into prompts",
		"step 1 · replanner: 2 trick line(s)",
		"Sub-goal: Open 珍珠奶茶",
		`<i>the menu is open</i>`,
		`Tap(4) on &#34;珍珠奶茶 Bubble tea ¥15&#34;`,
		`<a href="step-001-01.png"><img alt="step 1 screenshot" src="data:image/jpeg;base64,`,
		`@font-face{font-family:"Fairy CJK";src:url(data:font/ttf;base64,`,
		"Order one 珍珠奶茶",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if regexp.MustCompile(`(?i)(src|href)="(https?:|//|file:)`).MatchString(html) {
		t.Error("the page refers to an external resource")
	}

	// A directory with neither summary nor trace is not a run.
	if _, err := WritePage(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a run directory") {
		t.Errorf("page of an empty directory: %v", err)
	}
	// A run stopped before its summary still gets a page, saying so.
	if err := os.Remove(filepath.Join(dir, SummaryFile)); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writePage(&b, dir); err != nil || !strings.Contains(b.String(), "wrote no summary.json") || !strings.Contains(b.String(), "点一杯珍珠奶茶") {
		t.Errorf("page without a summary: %v\n%.300s", err, b.String())
	}
}

// TestRunPageInChromium renders a run's page in headless Chromium: the page shows its
// step with the screenshot, and Chinese text in the page's style is drawn with glyphs —
// two different characters differ, as boxes would not — whether or not the machine has a
// CJK font, since the page carries its own.
func TestRunPageInChromium(t *testing.T) {
	bin := chromium(t)
	dir := recordShopRun(t)
	page, err := WritePage(dir)
	if err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, bin, "--dump-dom", "file://"+page))
	// The replay stage shows the first step once the page's script ran (the step's picture
	// and what the model was told).
	for _, want := range []string{`id="questions"`, "要几杯珍珠奶茶？", `class="steps wide"`, "data:image/jpeg;base64,",
		`<div class="stage" data-step="1"><img class="shot" alt="step 1 screenshot" src="data:image/jpeg;base64,`, `<span class="pos">1 / 1</span>`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}
	shot := chromiumShot(t, bin, page)
	if dark := darkSamples(shot, image.Rect(0, 0, 1280, 600)); dark < 100 {
		t.Errorf("the page looks blank (%d dark samples)", dark)
	}

	// The page's own style, four characters in fixed cells: 珍 and 芒 (in the embedded
	// font), 珍 again, and 龘 (not in it).
	var css bytes.Buffer
	if err := runTmpl.ExecuteTemplate(&css, "style", nil); err != nil {
		t.Fatal(err)
	}
	glyphs := []string{"珍", "芒", "珍", "龘"}
	var cells strings.Builder
	for i, g := range glyphs {
		fmt.Fprintf(&cells, `<div style="position:absolute;left:%dpx;top:40px;width:100px;height:100px;font-size:80px;line-height:100px">%s</div>`, 40+i*140, template.HTMLEscapeString(g))
	}
	var warm bytes.Buffer
	if err := runTmpl.ExecuteTemplate(&warm, "cjkwarm", nil); err != nil {
		t.Fatal(err)
	}
	var redraw bytes.Buffer
	if err := runTmpl.ExecuteTemplate(&redraw, "cjkredraw", nil); err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "glyphs.html")
	if err := os.WriteFile(probe, []byte("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"+css.String()+"</head><body>"+warm.String()+cells.String()+redraw.String()+"</body></html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	img := chromiumShot(t, bin, probe)
	cell := func(i int) []bool { return inkOf(img, image.Rect(40+i*140, 40+8, 40+i*140+100, 140)) }
	zhen, mang, zhen2, missing := cell(0), cell(1), cell(2), cell(3)
	if n := count(zhen); n < 200 {
		t.Fatalf("珍 drew %d ink pixels: nothing drawn", n)
	}
	if d := diff(zhen, mang); d < 300 {
		t.Errorf("珍 and 芒 differ in %d pixels: drawn as the same box, not as glyphs", d)
	}
	if d := diff(zhen, zhen2); d > 20 {
		t.Errorf("珍 drawn twice differs in %d pixels", d)
	}
	if d := diff(zhen, missing); d < 300 {
		t.Errorf("珍 and a character outside the font differ in %d pixels", d)
	}
}

func chromiumShot(t *testing.T, bin, page string) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shot.png")
	headless(t, bin, "--screenshot="+path, "file://"+page)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

func darkSamples(img image.Image, r image.Rectangle) int {
	dark := 0
	for y := r.Min.Y; y < r.Max.Y; y += 3 {
		for x := r.Min.X; x < r.Max.X; x += 3 {
			cr, g, b, _ := img.At(x, y).RGBA()
			if cr+g+b < 3*0x4000 {
				dark++
			}
		}
	}
	return dark
}

// inkOf marks the pixels of r darker than mid-grey.
func inkOf(img image.Image, r image.Rectangle) []bool {
	var out []bool
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, g, b, _ := img.At(x, y).RGBA()
			out = append(out, (cr+g+b)/3 < 0x8000)
		}
	}
	return out
}

func count(ink []bool) int {
	n := 0
	for _, v := range ink {
		if v {
			n++
		}
	}
	return n
}

func diff(a, b []bool) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// chromium returns the Chromium binary (see internal/chromiumtest).
func chromium(t *testing.T) string { t.Helper(); return chromiumtest.Binary(t) }

// headless runs Chromium on a 1280×2000 window.
func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	return chromiumtest.Run(t, bin, nil, append([]string{"--window-size=1280,2000"}, args...)...)
}
