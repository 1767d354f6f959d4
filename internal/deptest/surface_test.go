package deptest

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// maxUnused is how many exported package-level names no other package may use. Such a
// name is surface a reader has to learn for nothing; issue 22 asked for at most 60. The ones
// left are API a package offers on purpose (an option its own tests exercise, a sentinel
// error a caller may check) — see the list the test prints with -v.
const maxUnused = 60

// TestExportedSurface counts the exported package-level names (funcs, types, vars, consts)
// of fairy's non-main packages that no other package uses. A use from the package's own
// external test package (p_test) does not count; a use from any other package, its tests
// included, does.
func TestExportedSurface(t *testing.T) {
	unused, total := unusedExports(t)
	t.Logf("exported package-level names: %d; used by no other package: %d", total, len(unused))
	for _, n := range unused {
		t.Logf("  %s", n)
	}
	if len(unused) > maxUnused {
		t.Errorf("%d exported names are used by no other package (at most %d): unexport them, or use them\n%s", len(unused), maxUnused, strings.Join(unused, "\n"))
	}
}

func unusedExports(t *testing.T) (unused []string, total int) {
	t.Helper()
	cfg := &packages.Config{
		Context: t.Context(),
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax,
		Tests:   true,
	}
	pkgs, err := packages.Load(cfg, module+"/...")
	if err != nil {
		t.Fatalf("load the module: %v", err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("load the module: %d errors", n)
	}
	used := map[types.Object]bool{}
	declared := map[types.Object]string{}
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") { // the generated test main
			continue
		}
		self := strings.TrimSuffix(p.PkgPath, "_test")
		for _, obj := range p.TypesInfo.Uses {
			if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() == self {
				continue
			}
			switch o := obj.(type) {
			case *types.Func:
				obj = o.Origin()
			case *types.Var:
				obj = o.Origin()
			}
			used[obj] = true
		}
		// Declarations are taken from the package as its importers see it (not the
		// variant compiled with its tests) and never from a command.
		if p.ID != p.PkgPath || p.Name == "main" {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			if ast.IsExported(name) {
				declared[scope.Lookup(name)] = strings.TrimPrefix(p.PkgPath, module+"/") + "." + name
			}
		}
	}
	for obj, name := range declared {
		if !used[obj] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	return unused, len(declared)
}
