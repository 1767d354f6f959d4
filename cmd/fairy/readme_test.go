package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/llm/scripted"
)

// readme is the repository's README.md.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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

// TestREADMECommandsParse: every fairy command line in the README's shell examples names
// a command that exists, with flags it takes and the number of arguments it wants — a new
// user copying one meets no usage error.
func TestREADMECommandsParse(t *testing.T) {
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(readme(t), -1)
	n := 0
	for _, b := range blocks {
		for _, line := range strings.Split(b[1], "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(line, "go run ./cmd/"))
			if !strings.HasPrefix(line, "fairy ") {
				continue
			}
			for _, cut := range []string{" #", " |", " >"} {
				line, _, _ = strings.Cut(line, cut)
			}
			n++
			args := shellWords(line)[1:]
			root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard, envMap(nil))
			cmd, rest, err := root.Find(args)
			if err != nil || !cmd.Runnable() {
				t.Errorf("README: %s: no such command (%v)", line, err)
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("README: %s: %v", line, err)
				continue
			}
			if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
				t.Errorf("README: %s: %v", line, err)
			}
		}
	}
	if n < 10 {
		t.Errorf("found %d fairy command lines in the README's shell examples, want the quick start's, the run's, the eval's and the fleet's", n)
	}
}

// TestMCPAndModelServePortsDiffer: the address the help and the README give for
// `fairy mcp --http` is not the one `fairy model serve` listens on by default, so the
// README's example session (both at once) works as written.
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
	addrs := regexp.MustCompile(`--http[ =](\S+?:\d+)`).FindAllStringSubmatch(mcp.Example+"\n"+readme(t), -1)
	if len(addrs) < 2 {
		t.Fatalf("no mcp --http address in the help's examples and the README")
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
