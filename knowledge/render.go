package knowledge

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fairy-go/fairy/internal/table"
)

// WriteJSON writes the map as indented JSON: {"app", "pages", "transitions"},
// the same shape as one entry of an export document's "maps".
func (m *Map) WriteJSON(w io.Writer) error {
	out := *m
	if out.Pages == nil {
		out.Pages = []Page{}
	}
	if out.Transitions == nil {
		out.Transitions = []Transition{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write map %s as JSON: %w", m.App, err)
	}
	return nil
}

// transitionLabel is an edge label: the action and its success record.
func transitionLabel(t Transition) string {
	return fmt.Sprintf("%s (%d✓ %d✗)", t.Action, t.Successes, t.Failures)
}

// dotQuote quotes a string for Graphviz: a double-quoted ID with " and \ escaped.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// WriteDOT writes the map as a Graphviz digraph (render with `dot -Tsvg`). Nodes are page IDs
// labelled with the page name; the transitions between two pages are one edge labelled with the
// most reliable (the others counted, and all in the edge's tooltip); same-page transitions are one
// dashed loop; an edge whose best way mostly fails is red. It is laid out to read as a map, not a
// strip: top-down from the first page seen (where the app opened), ranks as depth; an edge back up
// the map (Back, mostly) does not pull pages into its rank; a page with many ways out wraps them
// into rows a rank apart, so a settings list of twenty entries makes a block rather than one wide
// rank; and long labels wrap. The font is the generic sans-serif, so Graphviz's font fallback finds
// a CJK font for Chinese labels where one is installed.
func (m *Map) WriteDOT(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(m.App))
	b.WriteString("  rankdir=TB;\n  nodesep=0.25;\n  ranksep=0.5;\n  node [shape=box, style=rounded, fontname=\"sans-serif\", fontsize=12];\n  edge [fontname=\"sans-serif\", fontsize=9];\n")
	ids := map[string]string{}
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
		fmt.Fprintf(&b, "  %s [label=%s, tooltip=%s];\n", dotQuote(p.ID), dotQuote(wrapLabel(p.ID+": "+p.Name(), 24)), dotQuote(p.Key))
	}
	// One edge per pair of pages, labelled with its most reliable way and how many more
	// there are; every way is in the edge's tooltip.
	type pair struct{ from, to string }
	var pairs []pair
	bundles := map[pair][]Transition{}
	for _, t := range m.Transitions {
		k := pair{t.From, t.To}
		if bundles[k] == nil {
			pairs = append(pairs, k)
		}
		bundles[k] = append(bundles[k], t)
	}
	depth := m.depths()
	fanned := map[string][]string{} // the pages of forward edges written, per page
	var columns []string            // invisible edges that hold a wrapped block's columns
	outs := map[string]int{}        // forward edges per page
	for _, k := range pairs {
		if depth[k.to] > depth[k.from] {
			outs[k.from]++
		}
	}
	for _, k := range pairs {
		ts := bundles[k]
		best := ts[0]
		var attrs []string
		var tips []string
		for _, t := range ts {
			tips = append(tips, transitionLabel(t))
			if (best.Action.Args[ArgSideEffect] != "") && t.Action.Args[ArgSideEffect] == "" || t.Reliability() > best.Reliability() {
				best = t
			}
		}
		label := wrapLabel(transitionLabel(best), 22)
		switch {
		case k.from == k.to && len(ts) > 1:
			label = fmt.Sprintf("%d actions stay", len(ts))
		case k.from == k.to:
			// A loop's label sits beside its page: kept narrow, the counts in its tooltip.
			label = wrapLabel(strings.TrimSpace(string(best.Action.Kind)+" "+best.Action.Target.String()), 16)
			attrs = append(attrs, "tooltip="+dotQuote(tips[0]))
		case len(ts) > 1:
			label += fmt.Sprintf("\n+%d more", len(ts)-1)
		}
		switch {
		case depth[k.to] < depth[k.from] && k.from != k.to:
			// A way back up the map (Back, mostly) labels its start only, and a way into a
			// wrapped block its end: a label in the middle of a long edge would widen
			// every rank it crosses.
			attrs = append(attrs, "taillabel="+dotQuote(label), "labelfontsize=8", "labelfontcolor=gray30")
		case depth[k.to] > depth[k.from] && outs[k.from] > 4:
			attrs = append(attrs, "xlabel="+dotQuote(label))
		default:
			attrs = append(attrs, "label="+dotQuote(label))
		}
		if len(ts) > 1 {
			attrs = append(attrs, "tooltip="+dotQuote(strings.Join(tips, "\n")))
		}
		switch {
		case k.from == k.to:
			attrs = append(attrs, "style=dashed")
		case depth[k.to] < depth[k.from]:
			attrs = append(attrs, "constraint=false", "color=gray50")
		case outs[k.from] > 4:
			// Wrapped into a block of about √(n/2.5) columns (a page's box is about four
			// times as wide as tall, with its labels): the j-th way out goes j/cols ranks
			// further down, under the one a row before it (an invisible edge holds the
			// column).
			cols := max(2, int(math.Ceil(math.Sqrt(float64(outs[k.from])/2.5))))
			j := len(fanned[k.from])
			attrs = append(attrs, "minlen="+strconv.Itoa(1+j/cols))
			if j >= cols {
				above := fanned[k.from][j-cols]
				columns = append(columns, fmt.Sprintf("  %s -> %s [style=invis, weight=4];\n", dotQuote(ids[above]), dotQuote(ids[k.to])))
			}
			fanned[k.from] = append(fanned[k.from], k.to)
		}
		if best.Reliability() < 0.5 {
			attrs = append(attrs, "color=red")
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", dotQuote(ids[k.from]), dotQuote(ids[k.to]), strings.Join(attrs, ", "))
	}
	for _, c := range columns {
		b.WriteString(c)
	}
	b.WriteString("}\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write map %s as DOT: %w", m.App, err)
	}
	return nil
}

// depths is every page's distance from the first page along transitions, breadth first;
// a page not reached from it is one past the deepest.
func (m *Map) depths() map[string]int {
	succ := map[string][]string{}
	for _, t := range m.Transitions {
		if t.From != t.To {
			succ[t.From] = append(succ[t.From], t.To)
		}
	}
	depth := map[string]int{}
	if len(m.Pages) == 0 {
		return depth
	}
	deepest := 0
	queue := []string{m.Pages[0].Key}
	depth[m.Pages[0].Key] = 0
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		for _, to := range succ[k] {
			if _, ok := depth[to]; !ok {
				depth[to] = depth[k] + 1
				deepest = max(deepest, depth[to])
				queue = append(queue, to)
			}
		}
	}
	for _, p := range m.Pages {
		if _, ok := depth[p.Key]; !ok {
			depth[p.Key] = deepest + 1
		}
	}
	return depth
}

// wrapLabel breaks s into lines of about n characters at spaces.
func wrapLabel(s string, n int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > n {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// mermaidText makes a string safe inside a Mermaid "…" label.
func mermaidText(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "\n", " ", "|", "#124;", "<", "#lt;", ">", "#gt;")
	return r.Replace(s)
}

// WriteMermaid writes the map as a Mermaid flowchart (renders in GitHub Markdown).
func (m *Map) WriteMermaid(w io.Writer) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", p.ID, mermaidText(p.ID+": "+p.Name()))
	}
	for _, t := range m.Transitions {
		arrow := "-->"
		if t.Effect != EffectNewPage {
			arrow = "-.->"
		}
		fmt.Fprintf(&b, "  %s %s|\"%s\"| %s\n", ids[t.From], arrow, mermaidText(transitionLabel(t)), ids[t.To])
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write map %s as Mermaid: %w", m.App, err)
	}
	return nil
}

// WriteTable writes the map as two aligned tables, pages then transitions,
// for `fairy map show`.
func (m *Map) WriteTable(w io.Writer) error {
	tw := table.NewWriter(w)
	fmt.Fprintf(tw, "App %s: %d pages, %d transitions\n\n", m.App, len(m.Pages), len(m.Transitions))
	fmt.Fprintln(tw, "PAGE\tVISITS\tLAST SEEN\tACTIVITY\tDESCRIPTION")
	ids := map[string]string{}
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", p.ID, p.Visits, p.LastSeen.Format("2006-01-02 15:04"), p.Activity, oneLine(p.Description))
	}
	// Two tables, each aligned on its own: in one, a long action would widen VISITS.
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write map %s as a table: %w", m.App, err)
	}
	fmt.Fprintln(tw, "\nFROM\tACTION\tTO\tEFFECT\tOK\tFAIL\tRELIABILITY")
	for _, t := range m.Transitions {
		eff := string(t.Effect)
		if !t.Deed.IsZero() {
			eff += "; " + t.Deed.Category + ": " + oneLine(t.Deed.Evidence) // what it did that cannot be taken back
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", ids[t.From], t.Action, ids[t.To], eff, t.Successes, t.Failures,
			strconv.FormatFloat(t.Reliability(), 'f', 2, 64))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write map %s as a table: %w", m.App, err)
	}
	return nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}
