// Package mapview renders an app's App Map as one self-contained HTML page for `fairy map
// view`: every page a card with the picture of its screen, the transitions as labelled
// edges in a layered layout that reads top-down from where the app opens, and, in the
// page's own script, a click on a page to see its elements and its ways in and out, a
// search by page or element name, and the route between two pages highlighted (the
// knowledge package's rule: the most reliable way, never through a side effect).
//
// Everything is inline — pictures as data URLs, style, script and the virtual phone's CJK
// font subset (sim/cjkfont) — so the file opens anywhere, offline, and Chinese labels read
// on a machine with no CJK font.
package mapview

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/fairy-go/fairy/knowledge"
	"github.com/fairy-go/fairy/sim/cjkfont"
)

// Options say what the page shows besides the map. The zero value is useful.
type Options struct {
	// Label is the app's name as people know it ("Settings"); "" shows the package only.
	Label string
	// Generated stamps the page; zero leaves the stamp out.
	Generated time.Time
}

//go:embed page.html.tmpl
var pageHTML string

var pageTmpl = template.Must(template.New("map").Funcs(template.FuncMap{"fontFace": fontFace}).Parse(pageHTML))

// fontFace embeds the CJK font subset, after the system's fonts in the page's font list.
func fontFace() template.CSS {
	// Built from our own font bytes: safe as CSS.
	return template.CSS(`@font-face{font-family:"` + cjkfont.Family + `";src:url(data:font/ttf;base64,` +
		base64.StdEncoding.EncodeToString(cjkfont.TTF) + `) format("truetype")}`)
}

// view is what the template shows.
type view struct {
	App, Label, Generated string
	Width, Height         int
	CardW, CardH          int // a page's card
	PicW, PicH            int // its picture
	CapLines              int // the lines its caption may take
	// Captions at Fit (see minScreenPx): the smallest size on the screen, the caption's
	// own size, the largest size over the picture and its line height there.
	MinScreenPx, CapPx    int
	OverPx, OverLine      float64
	Pages                 []pageView
	Edges                 []edgeView
	Transitions, Pictured int
	Data                  data   // for the script
	FontFamily            string // the embedded CJK font's family
}

type pageView struct {
	ID, Name, Key string
	X, Y          int
	Thumb         template.URL // data URL; "" when the page has no picture
	Loops         int          // transitions that stay on the page
}

type edgeView struct {
	ID, From, To string
	D            string // SVG path
	LX, LY, LW   int    // the label's box: top left corner and width
	Label        string
	Back, Side   bool // drawn up or across the map; only side effects
}

// data is the map as the page's script reads it.
type data struct {
	Pages []pageData  `json:"pages"`
	Trans []transData `json:"trans"`
	// Layouts are the map laid out for windows of several shapes; the page shows the one
	// that fits its window best. The first is the one the page is written with.
	Layouts []layoutData `json:"layouts"`
}

// layoutData is one layout of the map: its size, the cards' places and the edges'
// geometry, by page ID and edge ID.
type layoutData struct {
	W     int                 `json:"w"`
	H     int                 `json:"h"`
	Pages map[string][2]int   `json:"pages"`
	Edges map[string]edgeData `json:"edges"`
}

// edgeData is where an edge and its label go in one layout.
type edgeData struct {
	D    string `json:"d"`
	LX   int    `json:"lx"` // the label's box: top left corner and width
	LY   int    `json:"ly"`
	LW   int    `json:"lw"`
	Back bool   `json:"back"`
}

type pageData struct {
	ID       string   `json:"id"`
	Key      string   `json:"key"`
	Name     string   `json:"name"`
	Activity string   `json:"activity,omitempty"`
	Visits   int      `json:"visits"`
	Asked    int      `json:"asked,omitempty"`
	Elements []string `json:"elements,omitempty"`
	Seen     string   `json:"seen,omitempty"`
}

type transData struct {
	From   string  `json:"from"` // page IDs
	To     string  `json:"to"`
	Action string  `json:"action"`
	Effect string  `json:"effect"`
	OK     int     `json:"ok"`
	Fail   int     `json:"fail"`
	Rel    float64 `json:"rel"`
	Side   string  `json:"side,omitempty"` // why it is a side effect (not a way to its page)
}

// Write writes the page of map m; thumbs are its pages' pictures by page key (missing
// ones show a blank card).
func Write(w io.Writer, m *knowledge.Map, thumbs map[string]knowledge.Thumb, opt Options) error {
	if m == nil || m.App == "" {
		return fmt.Errorf("map view: no map")
	}
	v := buildView(m, thumbs, opt)
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, v); err != nil {
		return fmt.Errorf("map view of %s: %w", m.App, err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("map view of %s: %w", m.App, err)
	}
	return nil
}

// buildView lays out map m and gathers what the page shows.
func buildView(m *knowledge.Map, thumbs map[string]knowledge.Thumb, opt Options) view {
	geos := make([]geometry, len(aspects))
	for i, a := range aspects {
		geos[i] = layout(m, a)
	}
	g := geos[0]
	places, width, height := g.places, g.width, g.height
	v := view{App: m.App, Label: opt.Label, Width: width, Height: height, Transitions: len(m.Transitions),
		CardW: nodeW, CardH: g.nodeH, PicW: picW, PicH: picH, CapLines: g.capLines,
		MinScreenPx: minScreenPx, CapPx: capPx, OverPx: overPx(m, g.nodeH), OverLine: overLine}
	if !opt.Generated.IsZero() {
		v.Generated = opt.Generated.UTC().Format("2006-01-02 15:04 UTC")
	}
	ids := make(map[string]string, len(m.Pages))
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
	}
	loops := map[string]int{}
	for _, t := range m.Transitions {
		td := transData{From: ids[t.From], To: ids[t.To], Action: t.Action.String(), Effect: string(t.Effect),
			OK: t.Successes, Fail: t.Failures, Rel: float64(int(t.Reliability()*100)) / 100,
			Side: t.Action.Args[knowledge.ArgSideEffect]}
		v.Data.Trans = append(v.Data.Trans, td)
		if t.From == t.To {
			loops[t.From]++
		}
	}
	bs := bundle(m)
	for i, gi := range geos {
		edges := placeEdges(bs, gi, ids)
		if i == 0 {
			v.Edges = edges
		}
		l := layoutData{W: gi.width, H: gi.height, Pages: make(map[string][2]int, len(m.Pages)),
			Edges: make(map[string]edgeData, len(edges))}
		for _, p := range m.Pages {
			l.Pages[p.ID] = [2]int{gi.places[p.Key].X, gi.places[p.Key].Y}
		}
		for _, e := range edges {
			l.Edges[e.ID] = edgeData{D: e.D, LX: e.LX, LY: e.LY, LW: e.LW, Back: e.Back}
		}
		v.Data.Layouts = append(v.Data.Layouts, l)
	}
	for _, p := range m.Pages {
		pl := places[p.Key]
		pv := pageView{ID: p.ID, Name: p.Name(), Key: p.Key, X: pl.X, Y: pl.Y, Loops: loops[p.Key]}
		if th, ok := thumbs[p.Key]; ok && len(th.JPEG) > 0 {
			// Our own JPEG bytes (the knowledge file checks the signature): safe as a URL.
			pv.Thumb = template.URL("data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(th.JPEG))
			v.Pictured++
		}
		v.Pages = append(v.Pages, pv)
		pd := pageData{ID: p.ID, Key: p.Key, Name: p.Name(), Activity: p.Activity, Visits: p.Visits, Asked: p.Asked}
		if !p.LastSeen.IsZero() {
			pd.Seen = p.LastSeen.UTC().Format("2006-01-02 15:04")
		}
		for _, e := range p.Elements {
			if s := strings.TrimSpace(e.String()); s != "" {
				pd.Elements = append(pd.Elements, s)
			}
		}
		v.Data.Pages = append(v.Data.Pages, pd)
	}
	v.FontFamily = cjkfont.Family
	return v
}

// edgeBundle is the transitions between two pages, one way: one edge on the map, its
// label naming the most reliable way (a side effect last) and counting the others.
type edgeBundle struct {
	from, to string // page keys
	label    string
	side     bool // every way is a side effect
	twin     bool // an edge runs the other way too
}

// bundle gathers m's transitions into edges, in the order of their first transition.
func bundle(m *knowledge.Map) []edgeBundle {
	type pair struct{ from, to string }
	bundles := map[pair][]knowledge.Transition{}
	var pairs []pair
	for _, t := range m.Transitions {
		if t.From == t.To {
			continue
		}
		k := pair{t.From, t.To}
		if bundles[k] == nil {
			pairs = append(pairs, k)
		}
		bundles[k] = append(bundles[k], t)
	}
	out := make([]edgeBundle, 0, len(pairs))
	for _, k := range pairs {
		ts := bundles[k]
		// The label names the most reliable way; the others are counted.
		slices.SortStableFunc(ts, func(a, b knowledge.Transition) int {
			if a.Action.Args[knowledge.ArgSideEffect] != "" != (b.Action.Args[knowledge.ArgSideEffect] != "") {
				if a.Action.Args[knowledge.ArgSideEffect] == "" {
					return -1
				}
				return 1
			}
			switch {
			case a.Reliability() > b.Reliability():
				return -1
			case a.Reliability() < b.Reliability():
				return 1
			}
			return 0
		})
		label := shortAction(ts[0].Action)
		if len(ts) > 1 {
			label += fmt.Sprintf(" +%d", len(ts)-1)
		}
		side := true
		for _, t := range ts {
			if t.Action.Args[knowledge.ArgSideEffect] == "" {
				side = false
			}
		}
		_, twin := bundles[pair{k.to, k.from}]
		out = append(out, edgeBundle{from: k.from, to: k.to, label: label, side: side, twin: twin})
	}
	return out
}

// placeEdges draws the edges on layout g: each its curve, and its label where it hides
// no other label and no card; ids names the pages by key.
func placeEdges(bs []edgeBundle, g geometry, ids map[string]string) []edgeView {
	bounds := image.Rect(0, 0, g.width, g.height)
	cards := make([]image.Rectangle, 0, len(g.places))
	for _, pl := range g.places {
		cards = append(cards, image.Rect(pl.X, pl.Y, pl.X+nodeW, pl.Y+g.nodeH))
	}
	var labels []image.Rectangle
	out := make([]edgeView, 0, len(bs))
	for _, b := range bs {
		pa, pb := g.places[b.from], g.places[b.to]
		c, t := edgePath(pa, pb, g.nodeH, b.twin && pb.Row <= pa.Row)
		lr := placeLabel(c, t, b.label, bounds, cards, labels)
		labels = append(labels, lr)
		out = append(out, edgeView{ID: "e-" + ids[b.from] + "-" + ids[b.to], From: ids[b.from], To: ids[b.to],
			D: c.d(), LX: lr.Min.X, LY: lr.Min.Y, LW: lr.Dx(), Label: b.label, Back: pb.Row <= pa.Row, Side: b.side})
	}
	return out
}
