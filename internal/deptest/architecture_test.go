package deptest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the package map in docs/architecture.md from layers")

// architecture is docs/architecture.md, from this package's directory.
var architecture = filepath.Join("..", "..", "docs", "architecture.md")

// The package map sits between these two lines of docs/architecture.md.
const (
	mapBegin = "<!-- BEGIN PACKAGE MAP: generated from internal/deptest's layers; " +
		"go test ./internal/deptest -run TestArchitectureMap -update -->"
	mapEnd = "<!-- END PACKAGE MAP -->"
)

// depths gives every package of layers its level: 0 for a package that may import no
// other fairy package, else one more than the highest level it may import. A package
// allowed everything ("*") sits above all the others.
func depths() (map[string]int, error) {
	depth := map[string]int{}
	visiting := map[string]bool{}
	var visit func(name string) (int, error)
	visit = func(name string) (int, error) {
		if d, ok := depth[name]; ok {
			return d, nil
		}
		allowed, ok := layers[name]
		if !ok {
			return 0, fmt.Errorf("layers allows an import of %s, which has no line of its own", name)
		}
		if slices.Contains(allowed, "*") {
			return -1, nil // placed after the others
		}
		if visiting[name] {
			return 0, fmt.Errorf("layers has a cycle through %s", name)
		}
		visiting[name] = true
		d := 0
		for _, imp := range allowed {
			di, err := visit(imp)
			if err != nil {
				return 0, err
			}
			d = max(d, di+1)
		}
		visiting[name] = false
		depth[name] = d
		return d, nil
	}
	top := 0
	var all []string
	for name := range layers {
		all = append(all, name)
		d, err := visit(name)
		if err != nil {
			return nil, err
		}
		top = max(top, d)
	}
	for _, name := range all {
		if slices.Contains(layers[name], "*") {
			depth[name] = top + 1
		}
	}
	return depth, nil
}

// packageMap renders the map: one section per level, bottom up, one line per package with
// the first sentence of its doc comment (what `go list` calls Doc) and what it may import.
func packageMap(docs map[string]string) (string, error) {
	depth, err := depths()
	if err != nil {
		return "", err
	}
	byLevel := map[int][]string{}
	top := 0
	for name, d := range depth {
		byLevel[d] = append(byLevel[d], name)
		top = max(top, d)
	}
	var b strings.Builder
	for d := 0; d <= top; d++ {
		names := byLevel[d]
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		switch {
		case d == 0:
			fmt.Fprintf(&b, "\n### Level 0: imports no fairy package\n\n")
		case d == top && slices.Contains(layers[names[0]], "*"):
			fmt.Fprintf(&b, "\n### Level %d: wires everything; nothing imports it\n\n", d)
		default:
			fmt.Fprintf(&b, "\n### Level %d: imports levels below %d only\n\n", d, d)
		}
		for _, name := range names {
			doc := strings.Join(strings.Fields(docs[name]), " ")
			if doc == "" {
				doc = "(no doc comment)"
			}
			fmt.Fprintf(&b, "- [`%s`](../%s) — %s", name, name, doc)
			switch allowed := layers[name]; {
			case slices.Contains(allowed, "*"):
				b.WriteString(" *May import:* any package.")
			case len(allowed) > 0:
				b.WriteString(" *May import:* `" + strings.Join(allowed, "`, `") + "`.")
			}
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

// TestArchitectureMap: the package map in docs/architecture.md is what layers (and each
// package's doc comment) say today. Run with -update to rewrite it.
func TestArchitectureMap(t *testing.T) {
	docs := map[string]string{}
	for _, p := range list(t) {
		name, _ := rel(p.ImportPath)
		docs[name] = p.Doc
	}
	want, err := packageMap(docs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(architecture)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, mapBegin), strings.Index(text, mapEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no package map: it goes between the lines\n%s\n%s", architecture, mapBegin, mapEnd)
	}
	start := i + len(mapBegin)
	got := text[start:j]
	want += "\n"
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(architecture, []byte(text[:start]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := range max(len(gl), len(wl)) {
		g, w := "", ""
		if k < len(gl) {
			g = gl[k]
		}
		if k < len(wl) {
			w = wl[k]
		}
		if g != w {
			t.Fatalf("the package map in %s is not what layers say (line %d of the map):\n  file:   %q\n  layers: %q\n"+
				"regenerate it: go test ./internal/deptest -run TestArchitectureMap -update", architecture, k+1, g, w)
		}
	}
}

// docPath is a file a doc names: `path/to/file.go`, optionally with a name declared in it,
// `path/to/file.go:Type.Method` or `path/to/file.go:Func`; or a directory, `sim/apps/`.
var docPath = regexp.MustCompile("`((?:[a-z0-9_.-]+/)+(?:[A-Za-z0-9_.-]+\\.(?:go|yaml|md|sh|json|txt|tmpl))?)(?::([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?))?`")

// TestArchitecturePaths: every file and directory docs/architecture.md and CONTRIBUTING.md
// name exists, and every name given after a file (`executor/guard_step.go:run.guard`) is
// declared in it, so the doc does not send a newcomer to a file that moved.
func TestArchitecturePaths(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, doc := range []string{"docs/architecture.md", "CONTRIBUTING.md"} {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range docPath.FindAllStringSubmatch(string(b), -1) {
			path, name := m[1], m[2]
			if strings.HasPrefix(path, "../") || strings.Contains(path, "github.com") {
				continue
			}
			n++
			full := filepath.Join(root, filepath.FromSlash(path))
			st, err := os.Stat(full)
			if err != nil {
				t.Errorf("%s names %s, which does not exist: fix the path", doc, path)
				continue
			}
			if strings.HasSuffix(path, "/") != st.IsDir() {
				t.Errorf("%s names %s: a directory ends with /, a file does not", doc, path)
				continue
			}
			if name == "" {
				continue
			}
			src, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			if !declares(string(src), name) {
				t.Errorf("%s names %s:%s, but %s declares no %s: fix the name", doc, path, name, path, name)
			}
		}
		if n < 10 {
			t.Errorf("%s names %d paths: the pattern no longer finds them", doc, n)
		}
	}
}

// declares says whether Go source src declares name: a function, a type, a var or const
// (Func, Type), or a method (Type.Method, on Type or *Type).
func declares(src, name string) bool {
	var re string
	if typ, method, ok := strings.Cut(name, "."); ok {
		re = `(?m)^func \(\w+ \*?` + typ + `(\[[^]]*\])?\) ` + method + `[\[(]`
	} else {
		re = `(?m)^(func ` + name + `[\[(]|type ` + name + `\b|(var|const) ` + name + `\b|\t` + name + `\s+(=|\w))`
	}
	return regexp.MustCompile(re).MatchString(src)
}

// TestDocPathChecks: the checks TestArchitecturePaths makes find what a doc names and tell
// a declared name from one that is not.
func TestDocPathChecks(t *testing.T) {
	text := "see `executor/guard_step.go:run.guard`, `sim/apps/`, `guard/guard.yaml` and " +
		"`go test ./internal/deptest`, `cmd/fairy/<command>.go`"
	var got []string
	for _, m := range docPath.FindAllStringSubmatch(text, -1) {
		got = append(got, m[1]+"|"+m[2])
	}
	want := []string{"executor/guard_step.go|run.guard", "sim/apps/|", "guard/guard.yaml|"}
	if !slices.Equal(got, want) {
		t.Errorf("paths found: %q, want %q", got, want)
	}
	src := "package x\n\ntype Guard struct{}\n\nfunc (g *Guard) Check(a int) bool { return true }\n\n" +
		"func New(p Policy) (*Guard, error) { return nil, nil }\n\nfunc (r *run) guard() {}\n\nvar (\n\tlabel = 1\n)\n"
	for name, want := range map[string]bool{
		"Guard": true, "Guard.Check": true, "New": true, "run.guard": true, "label": true,
		"Guard.Offers": false, "Old": false, "run.act": false, "Policy": false,
	} {
		if got := declares(src, name); got != want {
			t.Errorf("declares(%s) = %v, want %v", name, got, want)
		}
	}
}
