package mapview_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"golang.org/x/image/font/sfnt"

	"github.com/fairy-go/fairy/eval"
	"github.com/fairy-go/fairy/eval/agentrun"
	"github.com/fairy-go/fairy/eval/suite"
	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/internal/mapview"
	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim"
	"github.com/fairy-go/fairy/sim/cjkfont"
)

const settings = "com.android.settings"

// learnedDir is the directory learned made (its knowledge file and evaluation), removed
// after the tests.
var learnedDir string

// learned runs the built-in suite's Settings tasks on virtual phones through the real
// agent (the scripted model standing in for the LLM) into one knowledge file, once for
// the package's tests, and returns the file.
var learned = sync.OnceValues(func() (string, error) {
	s, err := suite.Load("builtin:sim")
	if err != nil {
		return "", err
	}
	var tasks []*suite.Task
	for _, x := range s.Tasks {
		if x.HasTag("settings") {
			tasks = append(tasks, x)
		}
	}
	s.Tasks = tasks
	f, err := agentrun.ServeFarm(sim.FarmConfig{Phones: 2, Base: sim.Config{Seed: 1}}, nil)
	if err != nil {
		return "", err
	}
	defer f.Close()
	a, err := agentrun.New(agentrun.Config{FastSettle: true})
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "mapview-test-")
	if err != nil {
		return "", err
	}
	learnedDir = dir
	path := filepath.Join(dir, "knowledge.db")
	rep, err := eval.Run(context.Background(), eval.Config{Suite: s, Agent: a, Devices: f.Devices(), Parallel: 2,
		Knowledge: path, Out: filepath.Join(dir, "eval")})
	if err != nil {
		return "", err
	}
	if rep.Totals.Tasks == 0 {
		return "", os.ErrNotExist
	}
	return path, nil
})

// TestMain removes the knowledge file learned() made, after every test used it.
func TestMain(m *testing.M) {
	code := m.Run()
	if learnedDir != "" {
		os.RemoveAll(learnedDir)
	}
	os.Exit(code)
}

func settingsMap(t *testing.T) (*knowledge.Map, map[string]knowledge.Thumb, *knowledge.Store) {
	t.Helper()
	path, err := learned()
	if err != nil {
		t.Fatalf("running the Settings tasks: %v", err)
	}
	st, err := knowledge.Open(path, knowledge.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := st.Map(settings)
	if err != nil {
		t.Fatal(err)
	}
	thumbs, err := st.Thumbs(settings)
	if err != nil {
		t.Fatal(err)
	}
	return m, thumbs, st
}

// selfTest drives the page as a person would — a click on a page's card, a search typed
// into the box, a route picked and asked for — through the page's own event handlers,
// and writes what the page showed into <pre id="selftest"> as JSON.
const selfTest = `<script>
window.addEventListener("load", function () {
  var r = {}, panel = document.getElementById("panel");
  var imgs = Array.prototype.slice.call(document.querySelectorAll(".page img"));
  r.images = imgs.length;
  r.decoded = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
  function rect(e) { var b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; }
  r.labelRects = Array.prototype.map.call(document.querySelectorAll(".elabel"), function (e) { return rect(e).concat([e.scrollWidth > e.clientWidth + 1 ? 1 : 0]); });
  r.cardRects = Array.prototype.map.call(document.querySelectorAll(".page"), rect);
  r.captions = Array.prototype.map.call(document.querySelectorAll(".page .name"), function (e) {
    var cs = getComputedStyle(e), card = e.parentElement.getBoundingClientRect(), b = e.getBoundingClientRect();
    return {id: e.parentElement.dataset.id, scroll: e.scrollHeight, client: e.clientHeight, bottom: b.bottom, cardBottom: card.bottom,
      clamp: cs.webkitLineClamp || "none", ellipsis: cs.textOverflow === "ellipsis"};
  });
  r.pictures = imgs.map(function (i) { return [i.naturalWidth, i.offsetWidth]; });
  r.viewport = rect(document.getElementById("viewport"));
  document.getElementById("page-" + CLICK).dispatchEvent(new MouseEvent("click", {bubbles: true}));
  r.selected = Array.prototype.map.call(document.querySelectorAll(".page.sel"), function (e) { return e.dataset.id; });
  r.panel = panel.innerText;
  r.outEdges = document.querySelectorAll("path.edge.out").length;
  r.inEdges = document.querySelectorAll("path.edge.in").length;
  var box = document.getElementById("search");
  box.value = QUERY;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  r.hits = Array.prototype.map.call(document.querySelectorAll(".page.hit"), function (e) { return e.dataset.id; });
  r.searchPanel = panel.innerText;
  box.value = QUERY2;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  r.hits2 = Array.prototype.map.call(document.querySelectorAll(".page.hit"), function (e) { return e.dataset.id; });
  box.value = "";
  box.dispatchEvent(new Event("input", {bubbles: true}));
  document.getElementById("from").value = FROM;
  document.getElementById("to").value = TO;
  document.getElementById("go").click();
  r.route = Array.prototype.map.call(document.querySelectorAll(".page.onroute"), function (e) { return e.dataset.id; });
  r.routeEdges = Array.prototype.map.call(document.querySelectorAll("path.edge.onroute"), function (e) { return e.id; });
  r.routePanel = panel.innerText;
  document.getElementById("page-" + TO).dispatchEvent(new MouseEvent("click", {bubbles: true}));
  r.rects = imgs.map(function (i) { var b = i.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; });
  var pre = document.createElement("pre");
  pre.id = "selftest";
  pre.hidden = true;
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>`

type selfTestResult struct {
	Images, Decoded   int
	Selected          []string
	Panel             string
	OutEdges, InEdges int
	Hits, Hits2       []string
	SearchPanel       string
	Route, RouteEdges []string
	RoutePanel        string
	Rects             [][4]float64 // where the page pictures are drawn
	// Measured before any click, at the zoom the page opens with.
	LabelRects [][5]float64 // edge labels: left, top, width, height, 1 when their text overflows
	CardRects  [][4]float64
	Captions   []struct {
		ID                 string
		Scroll, Client     float64
		Bottom, CardBottom float64
		Clamp              string
		Ellipsis           bool
	}
	Pictures [][2]int // natural and drawn width
	Viewport [4]float64
}

// TestSettingsMapInChromium: after the built-in Settings tasks ran on virtual phones, the
// map view of com.android.settings renders in headless Chromium with at least ten page
// pictures; clicking a page shows its elements and its ways in and out, a search finds
// the page that holds an element, and the route between two pages is the knowledge
// file's own path, highlighted. The screenshot is kept in MAPVIEW_OUT when set.
func TestSettingsMapInChromium(t *testing.T) {
	bin := chromium(t)
	m, thumbs, st := settingsMap(t)
	t.Logf("%s: %d pages, %d transitions, %d pictures", settings, len(m.Pages), len(m.Transitions), len(thumbs))
	if len(thumbs) < 10 {
		t.Fatalf("%d page pictures learned, want at least 10", len(thumbs))
	}
	total := 0
	for k, th := range thumbs {
		total += len(th.JPEG)
		if len(th.JPEG) > knowledge.MaxThumbBytes {
			t.Errorf("picture of %s is %d bytes, want ≤ %d", k, len(th.JPEG), knowledge.MaxThumbBytes)
		}
	}
	t.Logf("pictures: %d bytes in all, %d on average", total, total/len(thumbs))

	// Legible in Chinese: every CJK character the map shows has a glyph in the font the
	// page embeds (the screenshot below is taken with no CJK font on the machine).
	font, err := cjkfont.Parse()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range m.Pages {
		texts = append(texts, p.Name())
		for _, e := range p.Elements {
			texts = append(texts, e.String())
		}
	}
	for _, tr := range m.Transitions {
		texts = append(texts, tr.Action.String())
	}
	han := 0
	var buf sfnt.Buffer
	for _, r := range strings.Join(texts, " ") {
		if !unicode.Is(unicode.Han, r) {
			continue
		}
		han++
		if g, err := font.GlyphIndex(&buf, r); err != nil || g == 0 {
			t.Errorf("the embedded CJK font has no glyph for %q", r)
		}
	}
	if han == 0 {
		t.Error("the Settings map holds no Chinese text (the built-in suite's Chinese task should give some)")
	}

	var page bytes.Buffer
	if err := mapview.Write(&page, m, thumbs, mapview.Options{Label: "Settings", Generated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	raw := page.String()
	if regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:|//|file:)|url\((https?:|//)`).MatchString(raw) {
		t.Error("the page refers to an external resource")
	}
	if n := strings.Count(raw, `<img src="data:image/jpeg;base64,`); n < 10 {
		t.Errorf("%d inline pictures in the page, want ≥ 10", n)
	}

	// What to click, search and route: a page with ways in and out; an element of one page
	// named on no page's card; the entry page to the page farthest from it.
	ids := map[string]string{}
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
	}
	in, out := map[string]int{}, map[string]int{}
	for _, tr := range m.Transitions {
		if tr.From != tr.To {
			out[tr.From]++
			in[tr.To]++
		}
	}
	var click knowledge.Page
	for _, p := range m.Pages {
		if in[p.Key] > 0 && out[p.Key] > 0 && len(p.Elements) > 0 {
			click = p
			break
		}
	}
	if click.ID == "" {
		t.Fatal("no page has ways in, ways out and elements")
	}
	query, holder := "", ""
	for _, p := range m.Pages {
		for _, e := range p.Elements {
			if e.Text == "" || len([]rune(e.Text)) < 4 {
				continue
			}
			named := false
			for _, q := range m.Pages {
				named = named || strings.Contains(strings.ToLower(q.ID+" "+q.Name()+" "+q.Activity), strings.ToLower(e.Text))
			}
			if !named {
				query, holder = e.Text, p.ID
				break
			}
		}
		if query != "" {
			break
		}
	}
	if query == "" {
		t.Fatal("no element text to search for")
	}
	// A Chinese search: a word of the FoodShop app's name, on the pages whose elements
	// or actions name it.
	const chinese = "外卖"
	var wantChinese []string
	for _, p := range m.Pages {
		found := strings.Contains(p.Name(), chinese)
		for _, e := range p.Elements {
			found = found || strings.Contains(e.String(), chinese)
		}
		for _, tr := range m.Transitions {
			found = found || tr.From == p.Key && strings.Contains(tr.Action.String(), chinese)
		}
		if found {
			wantChinese = append(wantChinese, p.ID)
		}
	}
	if len(wantChinese) == 0 {
		t.Fatalf("no page of the Settings map names %q", chinese)
	}
	from := m.Pages[0]
	var to knowledge.Page
	var path []knowledge.Transition
	for _, p := range m.Pages[1:] {
		if steps, err := st.Path(settings, from.Key, p.Key); err == nil && len(steps) > len(path) {
			to, path = p, steps
		}
	}
	if len(path) < 2 {
		t.Fatalf("no route of two steps or more from %s", from.ID)
	}
	wantRoute := []string{from.ID}
	var wantEdges []string
	for _, s := range path {
		wantRoute = append(wantRoute, ids[s.To])
		wantEdges = append(wantEdges, "e-"+ids[s.From]+"-"+ids[s.To])
	}
	t.Logf("click %s (%s); search %q (on %s) and %q (on %v); route %v", click.ID, click.Name(), query, holder, chinese, wantChinese, wantRoute)

	js := strings.NewReplacer("CLICK", jsString(click.ID), "QUERY2", jsString(chinese), "QUERY", jsString(query), "FROM", jsString(from.ID), "TO", jsString(to.ID)).Replace(selfTest)
	dir := os.Getenv("MAPVIEW_OUT")
	if dir == "" {
		dir = t.TempDir()
	}
	file := filepath.Join(dir, "map-selftest.html")
	if err := os.WriteFile(file, []byte(strings.Replace(raw, "</body>", js+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "map.html"), page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, bin, "--dump-dom", "file://"+file))
	mres := regexp.MustCompile(`(?s)<pre id="selftest"[^>]*>(.*?)</pre>`).FindStringSubmatch(dom)
	if mres == nil {
		t.Fatalf("the page's script did not run:\n%s", clip(dom))
	}
	var r selfTestResult
	if err := json.Unmarshal([]byte(html.UnescapeString(mres[1])), &r); err != nil {
		t.Fatalf("self-test result: %v\n%s", err, mres[1])
	}
	if r.Images < 10 || r.Decoded < 10 {
		t.Errorf("the rendered page has %d page pictures, %d decoded; want ≥ 10", r.Images, r.Decoded)
	}
	readable(t, r)
	if len(r.Selected) != 1 || r.Selected[0] != click.ID {
		t.Errorf("clicking %s selected %v", click.ID, r.Selected)
	}
	for _, w := range []string{click.ID + " · " + click.Name(), "Elements (", "Ways in (", "Ways out (", click.Elements[0].String()} {
		if !strings.Contains(strings.ToLower(r.Panel), strings.ToLower(w)) {
			t.Errorf("the panel of %s lacks %q:\n%s", click.ID, w, r.Panel)
		}
	}
	if r.OutEdges < 1 || r.InEdges < 1 {
		t.Errorf("clicking %s lit %d edges in and %d out, want ≥ 1 each", click.ID, r.InEdges, r.OutEdges)
	}
	if !slices.Contains(r.Hits, holder) || !strings.Contains(r.SearchPanel, query) {
		t.Errorf("searching %q found %v, want %s among them:\n%s", query, r.Hits, holder, r.SearchPanel)
	}
	if len(r.Hits2) == 0 || !sameSet(r.Hits2, wantChinese) {
		t.Errorf("searching %q found %v, want %v", chinese, r.Hits2, wantChinese)
	}
	if !sameSet(r.Route, wantRoute) || !sameSet(r.RouteEdges, wantEdges) {
		t.Errorf("route %s → %s lit pages %v and edges %v, want %v and %v", from.ID, to.ID, r.Route, r.RouteEdges, wantRoute, wantEdges)
	}
	if !strings.Contains(r.RoutePanel, fmt.Sprintf("%d steps", len(path))) {
		t.Errorf("the route panel:\n%s", r.RoutePanel)
	}

	// The screenshot is taken with Latin fonts only (where the machine has DejaVu): the
	// Chinese it shows is drawn with the page's own font.
	shot := filepath.Join(dir, "map.png")
	headlessEnv(t, bin, latinFontsOnly(t), "--screenshot="+shot, "file://"+file)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// A picture shows in the screenshot where the page drew it: inside the window, and
	// not one flat colour (a screen has text on a background).
	shown := 0
	for _, rc := range r.Rects {
		x0, y0, w, h := int(rc[0]), int(rc[1]), int(rc[2]), int(rc[3])
		if w < 20 || h < 40 || !image.Rect(x0, y0, x0+w, y0+h).In(img.Bounds()) {
			continue
		}
		lo, hi := uint32(0xffff), uint32(0)
		for y := y0 + 2; y < y0+h-2; y += 2 {
			for x := x0 + 2; x < x0+w-2; x += 2 {
				r, g, b, _ := img.At(x, y).RGBA()
				l := (r + g + b) / 3
				lo, hi = min(lo, l), max(hi, l)
			}
		}
		if hi-lo > 0x4000 {
			shown++
		}
	}
	if shown < 10 {
		t.Errorf("the screenshot shows %d page pictures, want ≥ 10", shown)
	}
	t.Logf("screenshot %s (%v): %d page pictures shown", shot, img.Bounds(), shown)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// latinFontsOnly is the environment that points fontconfig at the DejaVu fonts alone; nil
// when the machine has none (the system's fonts are used then).
func latinFontsOnly(t *testing.T) []string {
	const dejavu = "/usr/share/fonts/truetype/dejavu"
	if _, err := os.Stat(dejavu); err != nil {
		return nil
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "fonts.conf")
	body := `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>` + dejavu +
		`</dir><include ignore_missing="yes">/etc/fonts/conf.d</include><cachedir>` + filepath.Join(dir, "cache") + `</cachedir></fontconfig>`
	if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"FONTCONFIG_FILE=" + conf}
}

// readable checks what the browser drew of the map, as it opens: no edge label overlaps
// another or a card, or has its text cut; every caption shows whole (no clamp, no
// ellipsis, nothing below the card); every picture has at least twice the pixels it is
// drawn with, so it stays sharp zoomed in twice; and the cards fill at least two thirds
// of the window's width and of its height.
func readable(t *testing.T, r selfTestResult) {
	t.Helper()
	box := func(v []float64) image.Rectangle {
		// Sub-pixel rounding is not an overlap: shrink by half a pixel.
		return image.Rect(int(v[0]+0.5), int(v[1]+0.5), int(v[0]+v[2]-0.5), int(v[1]+v[3]-0.5))
	}
	var cards []image.Rectangle
	for _, c := range r.CardRects {
		cards = append(cards, box(c[:]))
	}
	for i, l := range r.LabelRects {
		li := box(l[:4])
		if l[4] != 0 {
			t.Errorf("edge label %d at %v: its text is cut", i, li)
		}
		for j := range i {
			if lj := box(r.LabelRects[j][:4]); li.Overlaps(lj) {
				t.Errorf("edge labels %d at %v and %d at %v overlap", i, li, j, lj)
			}
		}
		for j, c := range cards {
			if li.Overlaps(c) {
				t.Errorf("edge label %d at %v overlaps card %d at %v", i, li, j, c)
			}
		}
	}
	for _, c := range r.Captions {
		if c.Scroll > c.Client+1 || c.Bottom > c.CardBottom+1 || c.Clamp != "none" || c.Ellipsis {
			t.Errorf("the caption of %s is cut: %+v", c.ID, c)
		}
	}
	for i, p := range r.Pictures {
		if p[1] < 100 || p[0] < 2*p[1] {
			t.Errorf("picture %d is %d pixels wide drawn %d wide: want ≥ 100 drawn, with twice the pixels", i, p[0], p[1])
		}
	}
	if len(cards) == 0 {
		t.Fatal("no cards drawn")
	}
	used := cards[0]
	for _, c := range cards[1:] {
		used = used.Union(c)
	}
	vp := box(r.Viewport[:])
	if used.Dx()*3 < vp.Dx()*2 || used.Dy()*3 < vp.Dy()*2 {
		t.Errorf("the cards fill %v of the %v window: a third of it stays empty", used.Size(), vp.Size())
	}
}

// chromium returns the Chromium binary (see internal/chromiumtest).
func chromium(t *testing.T) string { t.Helper(); return chromiumtest.Binary(t) }

func headless(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	return headlessEnv(t, bin, nil, args...)
}

// headlessEnv runs Chromium on a 1600×1200 window, with 5 s of virtual time for the page's
// scripts, and env added to the test's environment.
func headlessEnv(t *testing.T, bin string, env []string, args ...string) []byte {
	t.Helper()
	return chromiumtest.Run(t, bin, env, append([]string{"--window-size=1600,1200", "--virtual-time-budget=5000"}, args...)...)
}
