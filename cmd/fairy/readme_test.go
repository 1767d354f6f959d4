package main

import (
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/fairy-go/fairy/llm/scripted"
)

// repoFile reads a file of the repository, named by its slash path from the root.
func repoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	return repoFile(t, "README.md")
}

// docFiles are README.md and every docs/*.md, by their slash paths from the repository's
// root, README.md first.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 10 {
		t.Fatalf("found %d files docs/*.md, want the README's deep sections there", len(docs))
	}
	names := []string{"README.md"}
	for _, d := range docs {
		names = append(names, "docs/"+filepath.Base(d))
	}
	slices.Sort(names[1:])
	return names
}

// shellWords splits a shell command line at blanks, keeping quoted words whole.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	quote, in := rune(0), false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// commandErrors parses every fairy command line in the shell examples (```sh blocks) of
// text, the file name, as a user copying one runs it, and returns how many it found and
// an error for each that names no command, takes a flag the command lacks or the wrong
// number of arguments.
func commandErrors(name, text string) (int, []error) {
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1)
	n := 0
	var errs []error
	for _, b := range blocks {
		for _, line := range strings.Split(b[1], "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(line, "go run ./cmd/"))
			if !strings.HasPrefix(line, "fairy ") {
				continue
			}
			for _, cut := range []string{" #", " |", " >"} {
				line, _, _ = strings.Cut(line, cut)
			}
			line = strings.TrimSpace(line)
			n++
			args := shellWords(line)[1:]
			root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard, envMap(nil))
			cmd, rest, err := root.Find(args)
			if err != nil || !cmd.Runnable() {
				errs = append(errs, fmt.Errorf("%s: %s: no such command (%v)", name, line, err))
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", name, line, err))
				continue
			}
			if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", name, line, err))
			}
		}
	}
	return n, errs
}

// TestDocsCommandsParse: every fairy command line in the shell examples of the README and
// of docs/*.md names a command that exists, with flags it takes and the number of
// arguments it wants — a new user copying one meets no usage error.
func TestDocsCommandsParse(t *testing.T) {
	total := 0
	for _, name := range docFiles(t) {
		n, errs := commandErrors(name, repoFile(t, name))
		for _, err := range errs {
			t.Error(err)
		}
		if name == "README.md" && n < 10 {
			t.Errorf("found %d fairy command lines in the README's shell examples, "+
				"want the quick start's, the phone's and the main commands'", n)
		}
		total += n
	}
	if total < 40 {
		t.Errorf("found %d fairy command lines in the shell examples of the README and docs/*.md, "+
			"want the guard's, the eval's and the fleet's too", total)
	}
}

// TestDocsCommandCheckFails: the check above names the file and the line of a command
// that does not parse — an unknown command, an unknown flag, too many arguments — and
// passes over what is not a fairy command.
func TestDocsCommandCheckFails(t *testing.T) {
	doc := "```sh\nfairy frobnicate   # no such command\nfairy run --frob turn on wifi\nfairy map show a b\n" +
		"adb devices\nfairy devices\n```\n\n`fairy nonsense` in a sentence is no example\n"
	n, errs := commandErrors("docs/bad.md", doc)
	if n != 4 || len(errs) != 3 {
		t.Fatalf("found %d command lines and %d errors (%v), want 4 and 3", n, len(errs), errs)
	}
	for i, want := range []string{
		"docs/bad.md: fairy frobnicate: no such command",
		"docs/bad.md: fairy run --frob turn on wifi: unknown flag",
		"docs/bad.md: fairy map show a b: accepts 1 arg",
	} {
		if !strings.Contains(errs[i].Error(), want) {
			t.Errorf("error %d: %v, want it to say %q", i, errs[i], want)
		}
	}
}

// TestMCPAndModelServePortsDiffer: the address the help, the README and docs/mcp.md give
// for `fairy mcp --http` is not the one `fairy model serve` listens on by default, so the
// example session of docs/mcp.md (both at once) works as written.
func TestMCPAndModelServePortsDiffer(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard, envMap(nil))
	serve, _, err := root.Find([]string{"model", "serve"})
	if err != nil {
		t.Fatal(err)
	}
	_, modelPort, err := net.SplitHostPort(serve.Flags().Lookup("addr").DefValue)
	if err != nil {
		t.Fatal(err)
	}
	mcp, _, err := root.Find([]string{"mcp"})
	if err != nil {
		t.Fatal(err)
	}
	docs := mcp.Example + "\n" + readme(t) + "\n" + repoFile(t, "docs/mcp.md")
	addrs := regexp.MustCompile(`--http[ =](\S+?:\d+)`).FindAllStringSubmatch(docs, -1)
	if len(addrs) < 3 {
		t.Fatalf("no mcp --http address in the help's examples, the README and docs/mcp.md")
	}
	for _, a := range addrs {
		if _, port, _ := net.SplitHostPort(strings.Trim(a[1], "`")); port == modelPort {
			t.Errorf("mcp --http %s: the port fairy model serve listens on by default (%s)", a[1], modelPort)
		}
	}
}

// TestREADMESaysWhatANewUserNeeds: the README names everything scripts/test.sh installs
// (apt packages and the npm interop clients), the Go version go.mod wants, the scripted
// model's name, and that bash completion needs bash-completion.
func TestREADMESaysWhatANewUserNeeds(t *testing.T) {
	text := readme(t)
	script, err := os.ReadFile(filepath.Join("..", "..", "scripts", "test.sh"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range regexp.MustCompile(`need\+=\(([^)]+)\)|install -y -qq ([a-z ]+) >`).FindAllStringSubmatch(string(script), -1) {
		want = append(want, strings.Fields(m[1]+" "+m[2])...)
	}
	if m := regexp.MustCompile(`interop_pkgs=\(([^)]+)\)`).FindStringSubmatch(string(script)); m != nil {
		want = append(want, strings.Fields(m[1])...)
	}
	if len(want) < 8 {
		t.Fatalf("read %v from scripts/test.sh: the pattern no longer matches it", want)
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gover := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(mod))
	if gover == nil {
		t.Fatal("go.mod has no go line")
	}
	want = append(want, "Go "+gover[1]+"+", "`"+scripted.ModelName+"`", "bash-completion", "go install ./cmd/fairy")
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("README.md does not say %q", w)
		}
	}
}

// headingAnchor is the anchor GitHub gives a Markdown heading: lower case, letters, digits,
// spaces, hyphens and underscores kept, spaces made hyphens.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// proseLines are the lines of a Markdown text outside its fenced code blocks, by their
// line numbers.
func proseLines(text string) map[int]string {
	out := map[int]string{}
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out[i+1] = line
		}
	}
	return out
}

// linkErrors checks every relative link and picture of a Markdown file, the slash path
// name from the repository's root: the file it names exists (read by exists, a slash path
// from the root) and, for a heading anchor in a Markdown file, that file has the heading.
func linkErrors(name, text string, read func(string) (string, bool)) []error {
	var errs []error
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	prose := proseLines(text)
	lines := slices.Sorted(maps.Keys(prose))
	for _, i := range lines {
		for _, m := range link.FindAllStringSubmatch(prose[i], -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			resolved := name
			if file != "" {
				resolved = path.Clean(path.Join(path.Dir(name), file))
			}
			body, ok := read(resolved)
			if !ok || strings.HasPrefix(resolved, "../") {
				errs = append(errs, fmt.Errorf("%s:%d: link %s: no file %s in the repository", name, i, target, resolved))
				continue
			}
			if anchor == "" || !strings.HasSuffix(resolved, ".md") {
				continue
			}
			found := false
			for _, l := range proseLines(body) {
				h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " ")
				if ok && strings.HasPrefix(l, "#") && headingAnchor(h) == anchor {
					found = true
				}
			}
			if !found {
				errs = append(errs, fmt.Errorf("%s:%d: link %s: %s has no heading #%s", name, i, target, resolved, anchor))
			}
		}
	}
	return errs
}

// TestDocsLinksResolve: every relative link and picture of the README and docs/*.md names a
// file or folder of the repository, and a heading anchor a heading of that file — the README's links
// into docs/ and the docs' links to each other and to their pictures.
func TestDocsLinksResolve(t *testing.T) {
	read := func(name string) (string, bool) {
		file := filepath.Join("..", "..", filepath.FromSlash(name))
		if fi, err := os.Stat(file); err == nil && fi.IsDir() {
			return "", true // a folder of the repository, as GitHub shows it
		}
		b, err := os.ReadFile(file)
		return string(b), err == nil
	}
	links := 0
	for _, name := range docFiles(t) {
		text := repoFile(t, name)
		links += len(regexp.MustCompile(`\]\([^)\s:]+\)`).FindAllString(text, -1))
		for _, err := range linkErrors(name, text, read) {
			t.Error(err)
		}
	}
	if links < 20 {
		t.Errorf("found %d relative links in the README and docs/*.md, want the README's into docs/ and more", links)
	}
}

// TestDocsLinkCheckFails: the link check names a link to a missing file, one out of the
// repository and a missing heading, and passes links that resolve (from docs/, a picture
// beside it, the README above it, a heading of its own file).
func TestDocsLinkCheckFails(t *testing.T) {
	doc := "# A page\n![live](live-page.png) [home](../README.md#quick-start) [here](#a-page)\n" +
		"[web](https://example.com/x)\n```sh\n[not a link](nowhere.md)\n```\n" +
		"[gone](missing.md) [out](../../etc/passwd) [no heading](../README.md#installing)\n"
	files := map[string]string{"README.md": "# fairy\n## Quick start\n", "docs/live-page.png": "", "docs/a.md": doc}
	read := func(name string) (string, bool) { s, ok := files[name]; return s, ok }
	errs := linkErrors("docs/a.md", doc, read)
	want := []string{
		"docs/a.md:7: link missing.md: no file docs/missing.md",
		"docs/a.md:7: link ../../etc/passwd: no file ../etc/passwd",
		"docs/a.md:7: link ../README.md#installing: README.md has no heading #installing",
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %d", errs, len(want))
	}
	for i, w := range want {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d: %v, want it to say %q", i, errs[i], w)
		}
	}
}

// TestDocsSuiteExampleLoads: the suite of docs/suite-format.md, every key of the format,
// loads with the loader `fairy eval` uses (its apps: directory holding examples/apps), so
// the reference and the format agree.
func TestDocsSuiteExampleLoads(t *testing.T) {
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(repoFile(t, "docs/suite-format.md"), -1)
	if len(blocks) != 1 {
		t.Fatalf("docs/suite-format.md has %d YAML blocks, want its one example suite", len(blocks))
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "apps"), 0o755); err != nil {
		t.Fatal(err)
	}
	apps, err := filepath.Glob(filepath.Join("..", "..", "examples", "apps", "*.yaml"))
	if err != nil || len(apps) == 0 {
		t.Fatalf("no examples/apps/*.yaml (%v)", err)
	}
	for _, a := range apps {
		b, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "apps", filepath.Base(a)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(file, []byte(blocks[0][1]), 0o644); err != nil {
		t.Fatal(err)
	}
	suite, err := loadSuite(file, awFlags{instances: 1})
	if err != nil {
		t.Fatalf("docs/suite-format.md's suite does not load: %v", err)
	}
	if len(suite.Tasks) != 1 || len(suite.Tasks[0].Checks) < 12 {
		t.Errorf("docs/suite-format.md's suite loads as %d tasks, want one with every kind of check", len(suite.Tasks))
	}
	// A key the format lacks is refused by the same loader: the test can fail.
	if err := os.WriteFile(file, []byte(strings.Replace(blocks[0][1], "tasks:", "taks:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadSuite(file, awFlags{instances: 1}); err == nil || !strings.Contains(err.Error(), "taks") {
		t.Errorf("a suite with the key taks: %v, want an error naming it", err)
	}
}

// TestREADMEIsAFrontDoor: the README stays a front door — at most 300 lines, its deep
// sections in docs/ — and its quick start is exactly the two commands it has always been.
func TestREADMEIsAFrontDoor(t *testing.T) {
	text := readme(t)
	if n := strings.Count(text, "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300: move the deep sections to docs/", n)
	}
	_, quick, ok := strings.Cut(text, "\n## Quick start\n")
	if !ok {
		t.Fatal("README.md has no Quick start section")
	}
	m := regexp.MustCompile("(?s)^\\s*```sh\\n(.*?)```").FindStringSubmatch(quick)
	if m == nil {
		t.Fatal("README.md's Quick start does not open with a shell block")
	}
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		cmd, _, _ := strings.Cut(line, " #")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/fairy demo", "bash scripts/test.sh"}; !slices.Equal(cmds, want) {
		t.Errorf("README.md's quick start is %q, want exactly %q", cmds, want)
	}
}
