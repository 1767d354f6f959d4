package perception

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*/*.golden files")

// dumps lists the XML files of one or all testdata folders.
func dumps(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no dumps in testdata/%s", dir)
	}
	return files
}

// errorCaptures are the real captures in which the dumper printed a message
// instead of XML; every other corpus file must parse.
var errorCaptures = []string{
	"uiautomator-dump-error-idle-state.xml",
	"uiautomator-dump-stdout-windows-cmd.xml",
}

// render is what a golden file holds: the summary and the text form.
func render(s *Screen, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# package=%s rotation=%d size=%dx%d keyboard=%t signature=%s elements=%d\n",
		s.Package, s.Rotation, s.Width, s.Height, s.Keyboard, s.Signature, len(s.Elements))
	b.WriteString(s.Text())
	return b.String()
}

func TestGolden(t *testing.T) {
	files := dumps(t, "*")
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".xml"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data)
			got := render(s, err)
			golden := strings.TrimSuffix(f, ".xml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if got != string(want) {
				t.Errorf("text form of %s differs from %s (rerun with -update if intended)\n%s",
					f, golden, firstDiff(string(want), got))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(equal lines)"
}

// corpusNodes re-reads a dump into the raw tree so checks can be made
// against every node, independently of the Screen built from it.
func corpusNodes(t *testing.T, data []byte) *tree {
	t.Helper()
	tr, err := parseTree(data)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestCorpus checks the targets on every real capture: no error
// except the error-message captures, every visible actionable node listed
// with its center inside its bounds, every visible text present.
// The virtual phone's screens are held to the same checks.
func TestCorpus(t *testing.T) {
	for _, f := range append(dumps(t, "corpus"), dumps(t, "sim")...) {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".xml"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data)
			if slices.Contains(errorCaptures, name) {
				var de *DumperError
				if !errors.As(err, &de) || !errors.Is(err, errDumper) {
					t.Fatalf("Parse(%s) = %v, want a *DumperError", name, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			tr := corpusNodes(t, data)
			text := s.Text()
			byBounds := map[Bounds][]*Element{}
			for i := range s.Elements {
				e := &s.Elements[i]
				if e.Index != i+1 {
					t.Errorf("element %d has Index %d", i+1, e.Index)
				}
				if !e.Bounds.Contains(e.Center) {
					t.Errorf("[%d] center %v outside bounds %v", e.Index, e.Center, e.Bounds)
				}
				if !strings.Contains(text, fmt.Sprintf("- [%d] %s", e.Index, e.Role)) {
					t.Errorf("[%d] missing from the text form", e.Index)
				}
				byBounds[e.Bounds] = append(byBounds[e.Bounds], e)
			}
			scr := Bounds{X2: s.Width, Y2: s.Height}
			for i := range tr.nodes {
				n := &tr.nodes[i]
				vis := n.raw.Intersect(scr)
				if vis.Empty() || n.has(fHidden) || isIMEPackage(n.pkg) {
					continue
				}
				actionable := n.flags&(fClickable|fLongClickable|fScrollable|fCheckable) != 0 || isEditableClass(n.class)
				if actionable && len(byBounds[vis]) == 0 {
					fullWindow := vis.Area()*10 >= scr.Area()*9 && n.text == "" && n.desc == ""
					if !fullWindow {
						t.Errorf("visible actionable node %s %s %q not listed", n.class, n.raw, n.text)
					}
				}
				for _, txt := range []string{n.text, n.desc} {
					if strings.TrimSpace(txt) == "" || (n.has(fPassword) && txt == n.text) {
						continue
					}
					q := string(appendQuoted(nil, txt, DefaultMaxText))
					if !strings.Contains(text, q[1:len(q)-1]) {
						t.Errorf("visible text %q of %s %s missing from the text form", txt, n.class, n.raw)
					}
				}
			}
		})
	}
}

// TestCorpusRatios logs the size of the text form against the raw XML for
// every real dump and checks the targets: median ≤ 1/10, and ≤ 1/5 on every
// dump of more than 50 nodes.
func TestCorpusRatios(t *testing.T) {
	var ratios []float64
	for _, f := range dumps(t, "corpus") {
		if slices.Contains(errorCaptures, filepath.Base(f)) {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		nodes := bytes.Count(data, []byte(" bounds="))
		text := s.Text()
		r := float64(len(text)) / float64(len(data))
		ratios = append(ratios, r)
		t.Logf("%-52s nodes=%4d xml=%7d text=%6d ratio=%.3f (1/%.0f)", filepath.Base(f), nodes, len(data), len(text), r, 1/r)
		if nodes > 50 && r > 0.2 {
			t.Errorf("%s: text form is %.3f of the XML, want ≤ 0.2", f, r)
		}
	}
	slices.Sort(ratios)
	med := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		med = (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2
	}
	t.Logf("median ratio %.4f (1/%.1f), max %.4f over %d dumps", med, 1/med, ratios[len(ratios)-1], len(ratios))
	if med > 0.1 {
		t.Errorf("median ratio %.3f, want ≤ 0.1", med)
	}
}
