package knowledge

import (
	"encoding/json"
	"fmt"
	"io"
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

// WriteDOT writes the map as a Graphviz digraph (render with `dot -Tsvg`).
// Nodes are page IDs labelled with the page name; same-page transitions are
// dashed loops; edges fade with failures. It is laid out top-down: an app's map
// fans out from its first page, so ranks read as depth and the picture stays
// about as tall as it is wide (left to right it was one long strip). The font is
// the generic sans-serif, so that Graphviz's font fallback finds a CJK font for
// Chinese labels where one is installed.
func (m *Map) WriteDOT(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(m.App))
	b.WriteString("  rankdir=TB;\n  nodesep=0.3;\n  ranksep=0.6;\n  node [shape=box, style=rounded, fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\", fontsize=10];\n")
	ids := map[string]string{}
	for _, p := range m.Pages {
		ids[p.Key] = p.ID
		fmt.Fprintf(&b, "  %s [label=%s, tooltip=%s];\n", dotQuote(p.ID), dotQuote(p.ID+": "+p.Name()), dotQuote(p.Key))
	}
	for _, t := range m.Transitions {
		attrs := []string{"label=" + dotQuote(transitionLabel(t))}
		if t.Effect != EffectNewPage {
			attrs = append(attrs, "style=dashed")
		}
		if t.Reliability() < 0.5 {
			attrs = append(attrs, "color=red")
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", dotQuote(ids[t.From]), dotQuote(ids[t.To]), strings.Join(attrs, ", "))
	}
	b.WriteString("}\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write map %s as DOT: %w", m.App, err)
	}
	return nil
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
	fmt.Fprintln(tw, "\nFROM\tACTION\tTO\tEFFECT\tOK\tFAIL\tRELIABILITY")
	for _, t := range m.Transitions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", ids[t.From], t.Action, ids[t.To], t.Effect, t.Successes, t.Failures,
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
