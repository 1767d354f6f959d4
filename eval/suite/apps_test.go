package suite

import (
	"errors"
	"fmt"
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
		{"missing", "no directory "},
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

// TestSuiteAppsConfined: apps: names a directory beside the suite file — an absolute path,
// a path up and out, or a symbolic link out of the suite's directory (the directory itself
// or an app file in it) is refused before anything is read, and so is a directory larger
// than a suite's apps are; a symbolic link that stays inside is followed.
func TestSuiteAppsConfined(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "suite")
	outside := filepath.Join(root, "elsewhere")
	const app = "package: com.example.a\nlabel: A\nscreens: [{id: home, title: A}]\n"
	const suite = "name: x\napps: %s\ntasks:\n  - {id: t, instruction: go, phone: {sim: {}}, checks: [{foreground: com.example.a}]}\n"
	write := func(p, body string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "a.yaml"), app)
	write(filepath.Join(dir, "mine", "a.yaml"), app)
	link(outside, filepath.Join(dir, "linked"))
	link(filepath.Join(dir, "mine"), filepath.Join(dir, "inner"))
	link(filepath.Join(outside, "a.yaml"), filepath.Join(dir, "filelink", "a.yaml"))
	for i := range maxAppFiles + 1 {
		write(filepath.Join(dir, "many", fmt.Sprintf("a%03d.yaml", i)), "")
	}
	for i := range maxAppEntries + 1 {
		write(filepath.Join(dir, "huge", fmt.Sprintf("f%04d.txt", i)), "")
	}
	for _, tc := range []struct{ apps, want string }{
		{outside, "is an absolute path: give a directory beside the suite file"},
		{"/usr", "is an absolute path"},
		{"../elsewhere", "leaves the suite file's directory"},
		{"mine/../../elsewhere", "leaves the suite file's directory"},
		{"linked", "leads out of the suite file's directory through a symbolic link"},
		{"filelink", "a.yaml leads out of the suite file's directory through a symbolic link"},
		{"many", fmt.Sprintf("holds more than %d app files", maxAppFiles)},
		{"huge", fmt.Sprintf("holds more than %d files and directories", maxAppEntries)},
	} {
		_, err := Load(write(filepath.Join(dir, "s.yaml"), strings.Replace(suite, "%s", tc.apps, 1)))
		if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), "apps: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("apps: %s: %v, want an ErrSuite with %q", tc.apps, err, tc.want)
		}
	}
	for _, apps := range []string{"mine", "inner", "./mine"} {
		s, err := Load(write(filepath.Join(dir, "s.yaml"), strings.Replace(suite, "%s", apps, 1)))
		if err != nil || len(s.SimApps()) == 0 {
			t.Errorf("apps: %s: %v", apps, err)
		}
	}
}
