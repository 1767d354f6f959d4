package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/fairy-go/fairy"

// pkg is what `go list -json` says of one package.
type pkg struct {
	ImportPath   string
	Name         string
	Doc          string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// list runs `go list -json` on the whole module, from this package's directory.
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "list", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages: not the whole module", len(pkgs))
	}
	return pkgs
}

// rel is a fairy package's path inside the module ("executor/adb").
func rel(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// layers says which of fairy's packages each package may import (its non-test files). The
// order is the design's, bottom up: a package names only packages listed before it, except
// where a comment says why. A new package needs a line here: the test fails until it has one.
var layers = map[string][]string{
	// What a test needs of the machine: the test helpers below say it with internal/testenv.
	"internal/testenv": {},
	// The vocabularies every part speaks: leaves.
	"event":          {},
	"llm":            {},
	"internal/table": {},
	"internal/spell": {},
	"sim/wire":       {},
	"sim/cjkfont":    {},
	"sim/adbtest":    {"internal/testenv"},
	"sim/interop":    {},
	// Test helpers that start an outside program for the full tier.
	"internal/chromiumtest": {"internal/testenv"},
	"internal/tmpfstest":    {"internal/testenv"},
	"memory":                {"event"},
	// Pure parts and adapters, one per outside dependency.
	"perception": {},
	// guard/icons recognises an icon by its picture: pixels in, a word out; its generator
	// reads the font.
	"guard/icons":              {},
	"guard/icons/internal/gen": {},
	// grounding is the coordinate models' syntaxes and frames, over the screen they point at.
	"grounding":                    {"perception"},
	"llm/openai":                   {"llm"},
	"llm/scripted":                 {"grounding", "llm"},
	"llm/inject":                   {"grounding", "llm"},
	"executor/adb":                 {"perception"},
	"executor/ocr":                 {"perception"},
	"executor/ocr/ocrtest":         {"executor/ocr", "internal/testenv"},
	"guard/internal/guardgen":      {},
	"knowledge/internal/boltfile":  {"internal/table"},
	"knowledge":                    {"internal/table", "knowledge/internal/boltfile"},
	"knowledge/etcdstore":          {"knowledge"},
	"knowledge/etcdstore/etcdtest": {"internal/testenv"},
	// replay is what the executor and the learner exchange to replay learned steps
	// (routines, Navigate shortcuts, verified steps): a leaf over the vocabulary and the
	// screen it checks.
	"replay": {"event", "perception"},
	// guard is the policy the executor calls: it judges a screen and an action, and never
	// imports the executor (nor what acts on a phone).
	"guard": {"event", "guard/icons", "perception"},
	// prompts is the model contract: it renders the vocabularies and nothing else.
	"prompts": {"event", "llm", "memory", "replay"},
	// rundir is the run directory's format: the recorder that writes it, the reader that
	// loads it, the run's page. It knows the vocabulary, not the parts that publish it.
	"rundir": {"event", "llm", "sim/cjkfont"},
	// The virtual phone knows nothing of the agent.
	"sim": {"sim/wire", "sim/cjkfont"},
	// The agent's parts, as the design card draws them.
	"interaction": {"event", "internal/table", "llm", "memory", "prompts"},
	"executor":    {"event", "grounding", "guard", "interaction", "llm", "memory", "perception", "prompts", "replay"},
	"learner":     {"event", "knowledge", "llm", "memory", "perception", "prompts", "replay"},
	"global":      {"event", "executor", "internal/table", "llm", "prompts", "rundir"},
	"explore":     {"event", "guard", "knowledge", "learner", "perception"},
	// Assembly and faces.
	"agent":            {"event", "executor", "executor/adb", "global", "grounding", "guard", "interaction", "knowledge", "learner", "llm", "llm/openai", "llm/scripted", "memory", "perception", "prompts", "rundir", "sim", "sim/wire"},
	"internal/mapview": {"knowledge", "sim/cjkfont"},
	"mcp":              {"event", "executor/adb", "global", "guard", "interaction", "knowledge", "perception", "rundir"},
	// live is the run's live page: it shows the vocabulary and asks as a Dialoger.
	"live": {"event", "interaction"},
	// The suite format: the YAML, the checks and their evaluation on the phone's state. It
	// knows nothing of the runner.
	"eval/suite": {"eval/walkthrough", "internal/spell", "llm", "llm/scripted", "perception", "prompts", "sim"},
	// Evaluation drives the agent from outside: eval knows the agent only through the
	// Session it declares; eval/agentrun plugs the agent in. Its judging person reads a
	// consent's amount with the guard's reader.
	"eval": {"eval/suite", "event", "guard", "interaction", "internal/table", "llm", "llm/inject", "prompts", "rundir", "sim"},
	// A walkthrough compiles to scripted-model rules that find their way by the prompts'
	// markers.
	"eval/walkthrough": {"event", "llm/scripted", "prompts"},
	"eval/agentrun":    {"agent", "eval", "eval/suite", "event", "executor", "executor/adb", "global", "grounding", "guard", "interaction", "knowledge", "llm/inject", "llm/openai", "llm/scripted", "rundir", "sim"},
	// The AndroidWorld mirror builds suites: it knows the format, not the runner.
	"eval/androidworld": {"eval/suite", "eval/walkthrough", "sim"},
	// Its report reads the runner's report by the tags the mirror's tasks carry.
	"eval/androidworld/awreport": {"eval", "eval/androidworld"},
	"internal/deptest":           {},
	// Only the command wires everything; nothing imports it.
	"cmd/fairy": {"*"},
}

// TestLayers holds the import rules: each package imports only what its line in layers
// allows, and no package imports cmd/fairy.
func TestLayers(t *testing.T) {
	pkgs := list(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		name, _ := rel(p.ImportPath)
		seen[name] = true
	}
	for name := range layers {
		if !seen[name] {
			t.Errorf("layers (internal/deptest) has a line for %s, which is not a package any more", name)
		}
	}
	for _, p := range pkgs {
		name, _ := rel(p.ImportPath)
		allowed, ok := layers[name]
		if !ok {
			t.Errorf("%s has no line in layers (internal/deptest): say which packages it may import", name)
			continue
		}
		for _, imp := range p.Imports {
			r, ok := rel(imp)
			if !ok {
				continue
			}
			if r == "cmd/fairy" {
				t.Errorf("%s imports cmd/fairy: only the command wires things together", name)
			}
			if !slices.Contains(allowed, r) && !slices.Contains(allowed, "*") {
				t.Errorf("%s imports %s, which its layer does not allow (allowed: %v)", name, r, allowed)
			}
		}
	}
}

// homes names each outside dependency's one home: the packages that may import it (test
// files included). Prefixes match subpackages of the dependency. peers are packages whose
// tests alone may import it, to talk to it as its counterpart: the virtual phone's tests
// drive it with the real gadb client, the command's fleet tests look into the etcd
// the run wrote to, and the bbolt file-format reader's tests read files bbolt wrote.
var homes = []struct {
	dep   string
	homes []string
	peers []string
}{
	{"go.etcd.io/bbolt", []string{"knowledge"}, []string{"knowledge/internal/boltfile"}},
	{"go.etcd.io/etcd/", []string{"knowledge/etcdstore", "knowledge/etcdstore/etcdtest"}, []string{"cmd/fairy"}},
	{"github.com/electricbubble/gadb", []string{"executor/adb"}, []string{"sim", "sim/wire"}},
	{"github.com/sashabaranov/go-openai", []string{"llm/openai"}, nil},
	{"github.com/spf13/cobra", []string{"cmd/fairy"}, nil},
	{"github.com/spf13/viper", []string{"cmd/fairy"}, nil},
	{"github.com/modelcontextprotocol/go-sdk", []string{"mcp", "cmd/fairy"}, nil},
	{"github.com/dominikbraun/graph", []string{"knowledge"}, nil},
	{"github.com/bufbuild/protocompile", []string{"eval/androidworld"}, nil},
}

// TestDependencyHomes: bbolt stays in knowledge, etcd in knowledge/etcdstore, gadb in
// executor/adb, go-openai in llm/openai, cobra and viper in cmd/fairy.
func TestDependencyHomes(t *testing.T) {
	for _, p := range list(t) {
		name, _ := rel(p.ImportPath)
		tests := slices.Concat(p.TestImports, p.XTestImports)
		for _, h := range homes {
			for _, imp := range slices.Concat(p.Imports, tests) {
				if !(imp == h.dep || strings.HasPrefix(imp, h.dep+"/") || strings.HasSuffix(h.dep, "/") && strings.HasPrefix(imp, h.dep)) || slices.Contains(h.homes, name) {
					continue
				}
				if slices.Contains(h.peers, name) && !slices.Contains(p.Imports, imp) {
					continue
				}
				t.Errorf("%s imports %s: only %v may (and the tests of %v)", name, imp, h.homes, h.peers)
			}
		}
	}
}

// TestPackageDocs: every package says what it is in a doc comment (tailscale's
// pkgdoc_test).
func TestPackageDocs(t *testing.T) {
	for _, p := range list(t) {
		if strings.TrimSpace(p.Doc) == "" {
			t.Errorf("%s has no package doc comment: add a doc.go that says what it is for", p.ImportPath)
		}
	}
}
