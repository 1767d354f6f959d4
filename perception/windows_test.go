package perception

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// systemWindowPackage reports a package of of the windows a classic dump leaves out: the status
// and navigation bars and the keyboard.
func systemWindowPackage(p string) bool { return isSystemPackage(p) || isIMEPackage(p) }

// The same screens of the virtual phone dumped twice (testdata/sim-windows): the classic
// `uiautomator dump` (the active window only) and the uiautomator2 server's all-windows
// dump. Both are golden files (TestGolden); here both must give the same app: the same
// foreground package, and the classic dump's elements are exactly the all-windows dump's
// elements of the app, in the same order and with the same indexes. The all-windows dump
// adds the system windows' elements after them, keeps the status bar's texts as context, and
// reports the keyboard (which a classic dump cannot show: the keyboard is not the active
// window).
func TestSingleAndAllWindowDumps(t *testing.T) {
	classics, err := filepath.Glob("testdata/sim-windows/*.classic.xml")
	if err != nil || len(classics) < 4 {
		t.Fatalf("want at least 4 pairs in testdata/sim-windows, got %d (%v)", len(classics), err)
	}
	for _, cf := range classics {
		name := strings.TrimSuffix(filepath.Base(cf), ".classic.xml")
		t.Run(name, func(t *testing.T) {
			cdata, err := os.ReadFile(cf)
			if err != nil {
				t.Fatal(err)
			}
			udata, err := os.ReadFile(strings.TrimSuffix(cf, ".classic.xml") + ".u2.xml")
			if err != nil {
				t.Fatal(err)
			}
			classic, err := Parse(cdata)
			if err != nil {
				t.Fatalf("classic: %v", err)
			}
			all, err := Parse(udata)
			if err != nil {
				t.Fatalf("all windows: %v", err)
			}
			if classic.Package != all.Package || classic.Package == "" {
				t.Errorf("package: classic %q, all windows %q", classic.Package, all.Package)
			}
			if len(classic.Elements) == 0 || len(all.Elements) < len(classic.Elements) {
				t.Fatalf("elements: classic %d, all windows %d", len(classic.Elements), len(all.Elements))
			}
			for i, e := range classic.Elements {
				a := all.Elements[i]
				if e.Index != a.Index || e.Label != a.Label || e.ResourceID != a.ResourceID || e.Bounds != a.Bounds || e.Role != a.Role {
					t.Errorf("element %d: classic %+v, all windows %+v", i+1, e, a)
				}
				if systemWindowPackage(e.Package) {
					t.Errorf("classic element %d %q belongs to system window %s", e.Index, e.Label, e.Package)
				}
			}
			extra := all.Elements[len(classic.Elements):]
			if len(extra) == 0 {
				t.Error("the all-windows dump adds no system window element (navigation bar)")
			}
			for _, e := range extra {
				if !systemWindowPackage(e.Package) {
					t.Errorf("all-windows element %d %q of %s is not in the classic dump", e.Index, e.Label, e.Package)
				}
			}
			if !slices.Contains(all.Context, "09:41") {
				t.Errorf("all-windows context lost the status bar's clock: %q", all.Context)
			}
			if slices.Contains(classic.Context, "09:41") {
				t.Errorf("classic context holds the status bar's clock: %q", classic.Context)
			}
			wantKeyboard := strings.Contains(name, "keyboard")
			if all.Keyboard != wantKeyboard || classic.Keyboard {
				t.Errorf("keyboard: classic %t, all windows %t; want false, %t", classic.Keyboard, all.Keyboard, wantKeyboard)
			}
		})
	}
}
