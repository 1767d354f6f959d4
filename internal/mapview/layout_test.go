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
		g := layout(m, aspects[0])
		places, w, h, nodeH := g.places, g.width, g.height, g.nodeH
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

// hub is a map like a Settings app's: a main page with n entries (Back to it from each),
// where a few entries lead on, down a chain of depth pages, with long page names.
func hub(n, chains, depth int) *knowledge.Map {
	m := &knowledge.Map{App: "com.example"}
	add := func(name string) knowledge.Page {
		p := knowledge.Page{Key: fmt.Sprintf(".A%d#k", len(m.Pages)), ID: fmt.Sprintf("p%d", len(m.Pages)+1), Description: name}
		m.Pages = append(m.Pages, p)
		return p
	}
	link := func(a, b knowledge.Page, text string) {
		m.Transitions = append(m.Transitions,
			knowledge.Transition{From: a.Key, To: b.Key, Effect: knowledge.EffectNewPage, Successes: 1,
				Action: knowledge.Action{Kind: knowledge.ActionTap, Target: knowledge.Element{Text: text}}},
			knowledge.Transition{From: b.Key, To: a.Key, Effect: knowledge.EffectNewPage, Successes: 1, Action: knowledge.Action{Kind: knowledge.ActionBack}})
	}
	main := add("Settings: Network & internet, Connected devices, Apps")
	for i := 0; i < n; i++ {
		e := add(fmt.Sprintf("Entry number %d: Navigate up, Brightness level, Adaptive brightness", i))
		link(main, e, fmt.Sprintf("Entry number %d", i))
		if i < chains {
			prev := e
			for d := 0; d < depth; d++ {
				next := add(fmt.Sprintf("Deeper %d.%d: Navigate up, Display size and text, Font size", i, d))
				link(prev, next, fmt.Sprintf("Deeper %d.%d", i, d))
				prev = next
			}
		}
	}
	return m
}

// TestMapViewReadable: on maps shaped like Settings, no edge label overlaps another or a
// card, or leaves the map; every caption fits its card whole (the card is as tall as the
// longest caption needs); the pictures are drawn at half their resolution or finer; and
// the cards fill the map — each third of its width and of its height holds cards, and a
// map of many pages is about a window's shape.
func TestMapViewReadable(t *testing.T) {
	for name, m := range map[string]*knowledge.Map{"star 3": star(3), "star 20": star(20), "settings-like": hub(9, 3, 2),
		"wide hub": hub(24, 4, 3), "chain": hub(1, 1, 6)} {
		t.Run(name, func(t *testing.T) {
			v := buildView(m, nil, Options{})
			canvas := image.Rect(0, 0, v.Width, v.Height)
			var cards []image.Rectangle
			for _, p := range v.Pages {
				cards = append(cards, image.Rect(p.X, p.Y, p.X+v.CardW, p.Y+v.CardH))
			}
			var labels []image.Rectangle
			for _, e := range v.Edges {
				r := labelBox(e.Label, image.Pt(0, 0))
				r = image.Rect(e.LX, e.LY, e.LX+max(e.LW, r.Dx()), e.LY+r.Dy())
				if !r.In(canvas) {
					t.Errorf("label %q at %v leaves the %v map", e.Label, r, canvas)
				}
				for i, q := range labels {
					if r.Overlaps(q) {
						t.Errorf("label %q at %v overlaps label %q at %v", e.Label, r, v.Edges[i].Label, q)
					}
				}
				for i, c := range cards {
					if r.Overlaps(c) {
						t.Errorf("label %q at %v overlaps the card of %s at %v", e.Label, r, v.Pages[i].ID, c)
					}
				}
				labels = append(labels, r)
			}
			// Captions: the measure errs wide of the browser's fonts, and the card holds
			// as many lines as the longest caption takes by it.
			if v.CardH < 6+v.PicH+4+v.CapLines*capLine {
				t.Errorf("cards %d high cannot hold a %d-line caption under a %d-high picture", v.CardH, v.CapLines, v.PicH)
			}
			for _, p := range v.Pages {
				if n := wrapCount(p.ID+"  "+p.Name, capPx, nodeW-cardPad); n > v.CapLines {
					t.Errorf("%s's caption takes %d lines, the card holds %d", p.ID, n, v.CapLines)
				}
			}
			if v.PicW < 100 || v.PicW*2 > 288 {
				t.Errorf("pictures drawn %d wide: want ≥ 100 and at most half the learner's %d", v.PicW, 288)
			}
			// The cards fill the map.
			for i := 0; i < 3; i++ {
				col := image.Rect(v.Width*i/3, 0, v.Width*(i+1)/3, v.Height)
				row := image.Rect(0, v.Height*i/3, v.Width, v.Height*(i+1)/3)
				var inCol, inRow bool
				for _, c := range cards {
					inCol = inCol || c.Overlaps(col)
					inRow = inRow || c.Overlaps(row)
				}
				if !inCol || !inRow {
					t.Errorf("third %d of the %d×%d map holds no card (columns %v, rows %v)", i+1, v.Width, v.Height, inCol, inRow)
				}
			}
			ratio := float64(v.Width) / float64(v.Height)
			if len(m.Pages) >= 12 && (ratio < 0.75 || ratio > 2.2) || len(m.Pages) >= 6 && ratio < 0.5 {
				t.Errorf("the map is %d×%d (%.2f), not about a window's shape", v.Width, v.Height, ratio)
			}
		})
	}
}
