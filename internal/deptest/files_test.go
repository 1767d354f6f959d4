package deptest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFileLines is the most lines a Go file may have: a file a reader can hold in their
// head (issue 42). A longer one is split by job into files named for what they hold.
const maxFileLines = 700

// overLong are the files allowed past maxFileLines for now, each with why. An entry that
// is no longer over the limit fails the test, so the list only shrinks.
var overLong = map[string]string{}

// fileProblems lists the Go files under root that break the file rules: more than
// maxFileLines lines, or a name that says nothing of what the file holds (*_more.go).
// Directories the go tool ignores (testdata, hidden, _-prefixed) are skipped.
func fileProblems(root string, allowed map[string]string) ([]string, error) {
	var problems []string
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
		if strings.HasSuffix(base, "_more") {
			problems = append(problems, fmt.Sprintf("%s: name it after what it holds, not *_more.go", rel))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		switch _, ok := allowed[rel]; {
		case ok:
			seen[rel] = true
			if n <= maxFileLines {
				problems = append(problems, fmt.Sprintf("%s: %d lines, no longer over %d: remove it from overLong",
					rel, n, maxFileLines))
			}
		case n > maxFileLines:
			problems = append(problems, fmt.Sprintf("%s: %d lines, over %d: split it by job into files named for what they hold",
				rel, n, maxFileLines))
		}
		return nil
	})
	for rel := range allowed {
		if !seen[rel] {
			problems = append(problems, fmt.Sprintf("%s: in overLong but not found: remove it", rel))
		}
	}
	slices.Sort(problems)
	return problems, err
}

// TestFileRules: no Go file of the module is over maxFileLines lines (but the few
// overLong names, each with its reason) and none is named *_more.go.
func TestFileRules(t *testing.T) {
	problems, err := fileProblems(filepath.Join("..", ".."), overLong)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestFileRulesCatch: the rules catch what they are for, in a tree made for it.
func TestFileRulesCatch(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, lines int) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package p\n"+strings.Repeat("\n", lines-1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/ok.go", maxFileLines)
	write("a/long.go", maxFileLines+1)
	write("a/long_test.go", maxFileLines+1)
	write("b/answers_more.go", 10)
	write("b/data_more_test.go", 10)
	write("b/more.go", 10)
	write("b/testdata/huge.go", 2*maxFileLines)
	write("c/old.go", 10)
	write("c/big.go", maxFileLines+5)
	allowed := map[string]string{"c/old.go": "fixed since", "c/big.go": "waits", "c/gone.go": "deleted"}
	got, err := fileProblems(root, allowed)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/long.go: 701", "a/long_test.go: 701", "b/answers_more.go: name", "b/data_more_test.go: name",
		"c/gone.go: in overLong", "c/old.go: 10 lines, no longer"}
	if len(got) != len(want) {
		t.Fatalf("problems:\n%s\nwant %d, starting %q", strings.Join(got, "\n"), len(want), want)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("problem %d = %q, want it to start %q", i, got[i], w)
		}
	}
}
