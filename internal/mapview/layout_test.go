package mapview

import (
	"bytes"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/knowledge"
)

// star is a settings-like map: a main page with n entries, each a page with a Back to the
// main page, a dialog that pops up over one entry and leads back to the main page, and
// one page deeper.
func star(n int) *knowledge.Map {
	m := &knowledge.Map{App: "com.example"}
	page := func(i int) knowledge.Page {
		return knowledge.Page{Key: fmt.Sprintf(".A%d#s%d", i, i), ID: fmt.Sprintf("p%d", i+1), Description: fmt.Sprintf("Page %d", i)}
	}
	tap := func(from, to int, text string) knowledge.Transition {
		return knowledge.Transition{From: page(from).Key, To: page(to).Key, Effect: knowledge.EffectNewPage,
			Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: text}}, Successes: 1}
	}
	for i := 0; i <= n+2; i++ {
		m.Pages = append(m.Pages, page(i))
	}
	for i := 1; i <= n; i++ {
		m.Transitions = append(m.Transitions, tap(0, i, fmt.Sprintf("Entry %d", i)),
			knowledge.Transition{From: page(i).Key, To: page(0).Key, Effect: knowledge.EffectNewPage, Action: knowledge.Action{Kind: knowledge.ActionBack}})
	}
	m.Transitions = append(m.Transitions, tap(n+1, 0, "Not now"), tap(1, n+2, "Deeper"))
	return m
}

// TestLayoutReadsAsAMap: the main page heads the map, a page reached from it sits below
// it, a dialog that only leads back to it is placed next to its neighbours (not beside
// the main page), no two cards overlap, and twenty entries make a block about a window's
// shape, not one long strip.
func TestLayoutReadsAsAMap(t *testing.T) {
	for _, n := range []int{3, 20, 60} {
		m := star(n)
		places, w, h := layout(m)
		if len(places) != len(m.Pages) {
			t.Fatalf("n=%d: %d pages placed of %d", n, len(places), len(m.Pages))
		}
		main, dialog, deep := places[m.Pages[0].Key], places[m.Pages[n+1].Key], places[m.Pages[n+2].Key]
		if main.Row != 0 || dialog.Row == 0 || places[m.Pages[1].Key].Row == 0 || deep.Row <= places[m.Pages[1].Key].Row {
			t.Errorf("n=%d: rows main %d, entry %d, deeper %d, dialog %d", n, main.Row, places[m.Pages[1].Key].Row, deep.Row, dialog.Row)
		}
		var cards []image.Rectangle
		for _, p := range m.Pages {
			pl := places[p.Key]
			r := image.Rect(pl.X, pl.Y, pl.X+nodeW, pl.Y+nodeH)
			if !r.In(image.Rect(0, 0, w, h)) {
				t.Errorf("n=%d: %s at %v is outside the %d×%d map", n, p.ID, r, w, h)
			}
			for _, c := range cards {
				if c.Overlaps(r) {
					t.Errorf("n=%d: %s at %v overlaps a card at %v", n, p.ID, r, c)
				}
			}
			cards = append(cards, r)
		}
		if ratio := float64(w) / float64(h); n >= 20 && (ratio > 2.5 || ratio < 0.5) {
			t.Errorf("n=%d: the map is %d×%d (%.2f), want about a window's shape", n, w, h, ratio)
		}
		t.Logf("n=%d: %d×%d", n, w, h)
	}
}

// TestWriteEscapes: text learned from screens (untrusted) cannot break out of the page's
// markup or script.
func TestWriteEscapes(t *testing.T) {
	m := star(2)
	m.Pages[1].Description = `</script><script>alert(1)</script>`
	m.Pages[2].Elements = []knowledge.Element{{Text: `"><img src=x onerror=alert(2)>`}}
	m.Transitions[0].Action.Target.Text = `<b onclick="x()">`
	var b bytes.Buffer
	if err := Write(&b, m, nil, Options{Label: `<i>label</i>`}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>alert(1)", "<img src=x", `<b onclick`, "<i>label"} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if err := Write(&b, nil, nil, Options{}); err == nil {
		t.Error("a nil map rendered")
	}
}
