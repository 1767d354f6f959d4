package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteApps: a suite's apps: directory, relative to the suite file, is loaded next to
// the built-in apps; a bad app file or a missing directory is an ErrSuite naming the file
// and line; a suite without apps: leaves the phones' built-in catalogue alone.
func TestSuiteApps(t *testing.T) {
	dir := t.TempDir()
	const suite = "name: x\napps: %s\ntasks:\n  - {id: t, instruction: go, phone: {sim: {}}, checks: [{foreground: com.example.a}]}\n"
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("good/a.yaml", "package: com.example.a\nlabel: A\nscreens: [{id: home, title: A}]\n")
	write("bad/a.yaml", "package: com.example.a\nscreens:\n  - id: home\n    elements: [{type: txt}]\n")
	s, err := Load(write("good.yaml", strings.Replace(suite, "%s", "good", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, a := range s.SimApps() {
		pkgs = append(pkgs, a.Package)
	}
	if !strings.Contains(strings.Join(pkgs, " "), "com.example.a") || !strings.Contains(strings.Join(pkgs, " "), "com.android.settings") {
		t.Errorf("apps: %v, want com.example.a next to the built-in apps", pkgs)
	}
	for _, tc := range []struct{ apps, want string }{
		{"bad", filepath.Join(dir, "bad", "a.yaml") + `:4: com.example.a/home: element "" has unknown type "txt"`},
		{"missing", "no such file or directory"},
	} {
		_, err := Load(write(tc.apps+".yaml", strings.Replace(suite, "%s", tc.apps, 1)))
		if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), "apps: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("apps: %s: %v, want an ErrSuite with %q", tc.apps, err, tc.want)
		}
	}
	plain, err := Load(write("plain.yaml", strings.Replace(suite, "apps: %s\n", "", 1)))
	if err != nil || plain.SimApps() != nil {
		t.Errorf("a suite without apps: %v apps, %v", len(plain.SimApps()), err)
	}
}
