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
// included, does. A package uses a type it never names when it holds a value of it through
// something it does use: the result or parameter of a function or method it calls, the
// type of a field or variable it reads. Such a type is part of the API it uses, and is
// exported so that go doc shows it (an exported function that returns an unexported type
// hides its methods and fields from the reader).
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
	// What another package uses by name brings in the types it holds through it.
	var queue []types.Object
	for obj := range used {
		queue = append(queue, obj)
	}
	var mark func(t types.Type)
	mark = func(t types.Type) {
		switch t := t.(type) {
		case *types.Pointer:
			mark(t.Elem())
		case *types.Slice:
			mark(t.Elem())
		case *types.Array:
			mark(t.Elem())
		case *types.Chan:
			mark(t.Elem())
		case *types.Map:
			mark(t.Key())
			mark(t.Elem())
		case *types.Signature:
			for v := range t.Params().Variables() {
				mark(v.Type())
			}
			for v := range t.Results().Variables() {
				mark(v.Type())
			}
		case *types.Named:
			if o := t.Obj(); !used[o] {
				used[o] = true
				queue = append(queue, o)
			}
		}
	}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		if _, ok := obj.(*types.TypeName); ok {
			continue // naming a type uses the type, not what its fields and methods hold
		}
		mark(obj.Type())
	}
	for obj, name := range declared {
		if !used[obj] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	return unused, len(declared)
}
