package mapview_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/chromiumtest"
	"github.com/fairy-go/fairy/internal/mapview"
	"github.com/fairy-go/fairy/knowledge"
)

// explored is a map of n pages shaped like the one `fairy explore com.android.settings`
// learns: a main page with a dozen entries, each with a Back to it, and the other pages
// one or two taps deeper under the entries, round robin; names as the learner writes
// them (the page's title, then its first elements).
func explored(n int) *knowledge.Map {
	m := &knowledge.Map{App: "com.example.settings"}
	add := func(name string) knowledge.Page {
		p := knowledge.Page{Key: fmt.Sprintf(".Sub%d#k", len(m.Pages)), ID: fmt.Sprintf("p%d", len(m.Pages)+1), Description: name}
		m.Pages = append(m.Pages, p)
		return p
	}
	link := func(a, b knowledge.Page, text string) {
		m.Transitions = append(m.Transitions,
			knowledge.Transition{From: a.Key, To: b.Key, Effect: knowledge.EffectNewPage, Successes: 1,
				Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: text}}},
			knowledge.Transition{From: b.Key, To: a.Key, Effect: knowledge.EffectNewPage, Successes: 1, Action: knowledge.Action{Kind: knowledge.ActionBack}})
	}
	titles := []string{"Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage",
		"Sound & vibration", "Display", "Accessibility", "Security & privacy", "Location", "System", "About phone"}
	main := add("Settings: Apps, Notifications, Battery")
	var parents []knowledge.Page
	for _, title := range titles[:min(len(titles), n-1)] {
		e := add(title + ": Navigate up, " + title + " preferences")
		link(main, e, title)
		parents = append(parents, e)
	}
	for i := 0; len(m.Pages) < n; i++ {
		parent := parents[i%len(parents)]
		title := fmt.Sprintf("%s option %d", strings.SplitN(parent.Description, ":", 2)[0], i/len(parents)+1)
		c := add(title + ": Navigate up, Use " + strings.ToLower(title))
		link(parent, c, title)
		if i >= len(titles) {
			parents = append(parents, c) // deeper pages under the first options
		}
	}
	return m
}

// fitMeasure writes, once the page has opened (at Fit), the smallest caption's font size
// on the screen (its CSS size times the zoom), the pages whose caption is cut or leaves
// its card, and how much of the viewport the cards span, across and down.
const fitMeasure = `<script>
window.addEventListener("load", function () {
  var vp = document.getElementById("viewport").getBoundingClientRect(), u = null, px = [], cut = [];
  document.querySelectorAll(".page").forEach(function (c) {
    var b = c.getBoundingClientRect();
    u = u ? {l: Math.min(u.l, b.left), t: Math.min(u.t, b.top), r: Math.max(u.r, b.right), b: Math.max(u.b, b.bottom)} : {l: b.left, t: b.top, r: b.right, b: b.bottom};
    var n = c.querySelector(".name"), nb = n.getBoundingClientRect();
    px.push(parseFloat(getComputedStyle(n).fontSize) * b.width / c.offsetWidth);
    if (n.scrollHeight > n.clientHeight + 1 || nb.top < b.top - 1 || nb.bottom > b.bottom + 1) cut.push(c.dataset.id);
  });
  var pre = document.createElement("pre");
  pre.id = "fit";
  pre.hidden = true;
  pre.textContent = JSON.stringify({caption: Math.min.apply(null, px), cut: cut, across: (u.r - u.l) / vp.width, down: (u.b - u.t) / vp.height,
    viewport: [vp.width, vp.height]});
  document.body.appendChild(pre);
});
</script>`

// TestMapViewReadableAtFit: a map of up to 50 pages opens, at Fit, with captions a person
// reads (at least 9.5 pixels on the screen, each whole on its card) and the cards spread
// over the window — at least three quarters of its width and of its height — in the
// default window (1600×1200) and a wide one (1920×1080).
func TestMapViewReadableAtFit(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	for _, n := range []int{32, 50} {
		m := explored(n)
		var page bytes.Buffer
		if err := mapview.Write(&page, m, nil, mapview.Options{Label: "Settings"}); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, fmt.Sprintf("map-%d.html", n))
		if err := os.WriteFile(file, []byte(strings.Replace(page.String(), "</body>", fitMeasure+"</body>", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, window := range []string{"1600,1200", "1920,1080"} {
			dom := string(chromiumRun(t, bin, "--window-size="+window, "--dump-dom", "file://"+file))
			res := regexp.MustCompile(`(?s)<pre id="fit"[^>]*>(.*?)</pre>`).FindStringSubmatch(dom)
			if res == nil {
				t.Fatalf("%d pages, window %s: the measure did not run:\n%s", n, window, clip(dom))
			}
			var r struct {
				Caption, Across, Down float64
				Cut                   []string // pages whose caption does not show whole on its card
				Viewport              [2]float64
			}
			if err := json.Unmarshal([]byte(html.UnescapeString(res[1])), &r); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d pages, window %s (map pane %.0f×%.0f): captions %.1f px on the screen, cards over %.0f%% across and %.0f%% down",
				n, window, r.Viewport[0], r.Viewport[1], r.Caption, 100*r.Across, 100*r.Down)
			if len(r.Cut) > 0 {
				t.Errorf("%d pages, window %s: the captions of %v do not show whole on their cards", n, window, r.Cut)
			}
			if r.Caption < 9.5 {
				t.Errorf("%d pages, window %s: captions are %.1f px on the screen at Fit, want ≥ 9.5", n, window, r.Caption)
			}
			if r.Across < 0.75 || r.Down < 0.75 {
				t.Errorf("%d pages, window %s: the cards span %.0f%% of the window across and %.0f%% down, want ≥ 75%% each",
					n, window, 100*r.Across, 100*r.Down)
			}
		}
	}
}

// chromiumRun runs Chromium headless with 5 s of virtual time for the page's scripts.
func chromiumRun(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	return chromiumtest.Run(t, bin, nil, append([]string{"--virtual-time-budget=5000"}, args...)...)
}
