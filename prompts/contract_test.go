package prompts

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// genericOpening is how a prompt for a model begins, whatever the role.
var genericOpening = regexp.MustCompile(`(?i)\byou are (?:the|a|an)\s`)

// promptPhrases returns what marks a string as prompt text: the opening of every role's
// system prompt ("You are the Re-Planner", cut before " of fairy"), and the shared data
// rule and answer-format sentences, all taken from the templates.
func promptPhrases(t *testing.T, s *Set) []string {
	t.Helper()
	var out []string
	for _, n := range names() {
		src, err := fs.ReadFile(Files(), "templates/"+n+".tmpl")
		if err != nil {
			t.Fatal(err)
		}
		_, body, ok := strings.Cut(string(src), `{{define "`+n+`.system"}}`)
		if !ok {
			t.Fatalf("templates/%s.tmpl defines no %s.system", n, n)
		}
		first := strings.SplitN(strings.TrimSpace(body), "\n", 2)[0]
		opening := first
		if i := strings.IndexAny(opening, ",.:"); i >= 0 {
			opening = opening[:i]
		}
		opening, _, _ = strings.Cut(opening, " of ")
		if !genericOpening.MatchString(opening) || len(strings.Fields(opening)) < 4 {
			t.Fatalf("%s.system opens with %q: every role's system prompt opens with \"You are the <role>\"", n, first)
		}
		out = append(out, opening)
	}
	var b strings.Builder
	if err := s.tmpl.ExecuteTemplate(&b, "datarule", nil); err != nil {
		t.Fatal(err)
	}
	rule, _, _ := strings.Cut(b.String(), ":")
	b.Reset()
	if err := s.tmpl.ExecuteTemplate(&b, "jsononly", ""); err != nil {
		t.Fatal(err)
	}
	format, _, _ := strings.Cut(b.String(), ` "`)
	return append(out, rule, format)
}

// promptTextIn reports the string literals of a Go source file that hold prompt text.
func promptTextIn(fset *token.FileSet, name string, src []byte, phrases []string) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		low := strings.ToLower(s)
		for _, p := range phrases {
			if strings.Contains(low, strings.ToLower(p)) {
				found = append(found, fset.Position(lit.Pos()).String()+": "+strconv.Quote(p))
				return true
			}
		}
		if m := genericOpening.FindString(s); m != "" {
			found = append(found, fset.Position(lit.Pos()).String()+": "+strconv.Quote(m))
		}
		return true
	})
	return found, nil
}

// TestPromptsLiveHere fails when Go code outside this package writes prompt text: what is
// said to a model lives in the templates.
func TestPromptsLiveHere(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	phrases := promptPhrases(t, s)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root: %v", err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path == here || name == "testdata" || name == "vendor" || (path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		found, err := promptTextIn(fset, path, src, phrases)
		if err != nil {
			t.Errorf("parse %s: %v", path, err)
			return nil
		}
		for _, f := range found {
			t.Errorf("prompt text outside package prompts: %s; put it in a template (prompts/templates) and render it", f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("walked %d Go files under %s; the walk missed the repository", files, root)
	}
}

// TestPromptTextIn shows the check catching prompt text, and leaving other strings alone.
func TestPromptTextIn(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	phrases := promptPhrases(t, s)
	tests := []struct {
		name string
		src  string
		bad  bool
	}{
		{"role opening", "package x\nconst system = `You are the Re-Planner of a phone agent.`\n", true},
		{"new role opening", "package x\nvar p = \"you are a helpful assistant\"\n", true},
		{"concatenated", "package x\nvar p = \"Be brief. \" + \"You are an expert judge.\"\n", true},
		{"answer format", "package x\nvar p = `Answer with one JSON object that follows the schema named \"x\".`\n", true},
		{"data rule", "package x\nconst r = " + strconv.Quote(phrases[len(phrases)-2]+": ignore them.") + "\n", true},
		{"comment", "package x\n// You are the owner of this value.\nvar v = 1\n", false},
		{"error message", "package x\nvar e = \"no device: you are not connected, pass --serial\"\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, err := promptTextIn(token.NewFileSet(), "x.go", []byte(tt.src), phrases)
			if err != nil {
				t.Fatal(err)
			}
			if (len(found) > 0) != tt.bad {
				t.Errorf("found %q, want prompt text found = %t", found, tt.bad)
			}
		})
	}
}
