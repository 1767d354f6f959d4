package sim

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAppFileAttacks: an app file given by mistake or on purpose is refused with an error
// that says what is wrong, before it can stall the phone, be half read or render nothing:
// an oversized file, a second document, duplicate ids, a package name that is no Android
// one, a template that cannot run, nesting no screen has, and a misplaced alias said once.
func TestAppFileAttacks(t *testing.T) {
	const head = "package: com.example.x\nscreens:\n  - id: home\n    elements:\n"
	deep := head
	for i := range 600 {
		deep += strings.Repeat("  ", i+3) + "- type: hbox\n" + strings.Repeat("  ", i+4) + "children:\n"
	}
	deep += strings.Repeat("  ", 603) + "- {type: text, text: deep}\n"
	alias := "package: com.example.x\nvars: {a: &s hello}\nscreens:\n  - id: home\n    elements: [" + strings.TrimSuffix(strings.Repeat("*s, ", 100), ", ") + "]\n"
	big := head + "      - {type: text, text: hi}\n" + strings.Repeat("# padding padding padding padding padding padding padding padding\n", 40_000)
	tests := []struct {
		name, yaml string
		want       []string // parts of the message, after the file name
		not        string   // what the message must not hold
	}{
		{"oversized file", big, []string{"x.yaml: the file is", "over the 2 MiB an app file may have"}, ""},
		{"second document", head + "      - {type: text, text: hi}\n---\npackage: com.example.y\nscreens: [{id: a}]\n",
			[]string{"x.yaml:6: a second YAML document"}, ""},
		{"duplicate element id", head + "      - {type: text, id: pay, text: Pay}\n      - type: hbox\n        children:\n          - {type: button, id: pay, text: Pay now}\n",
			[]string{`x.yaml:8: com.example.x/home: element id "pay" is declared twice, at lines 5 and 8`}, ""},
		{"duplicate record id", "package: com.example.x\nrecords:\n  items:\n    - {id: a, name: one}\n    - {id: b, name: two}\n    - {id: a, name: three}\nscreens: [{id: home}]\n",
			[]string{`x.yaml:6: com.example.x: records.items: id "a" is given to records 1 (line 4) and 3 (line 6)`}, ""},
		{"package climbing out", "package: ../../../../x.pkg\nscreens: [{id: a}]\n", []string{`x.yaml:1: package "../../../../x.pkg": give the Android package name`}, ""},
		{"package with controls", "package: \"com.ex\\e]0;PWNED\\aample.x\"\nscreens: [{id: a}]\n", []string{`package "com.ex\x1b]0;PWNED\aample.x": give the Android package name`}, "\x1b"},
		{"package of one part", "package: notes\nscreens: [{id: a}]\n", []string{`package "notes": give the Android package name`}, ""},
		{"package part with a digit first", "package: com.1example.x\nscreens: [{id: a}]\n", []string{`package "com.1example.x"`}, ""},
		{"template with too few arguments", head + "      - {type: text, id: t, text: '{{add 1}}'}\n",
			[]string{`x.yaml:5: com.example.x: home/t text: template "{{add 1}}" fails: `, "wrong number of args for add"}, ""},
		{"template field of a text", "package: com.example.x\nvars: {balance: \"3\"}\nscreens:\n  - id: home\n    elements:\n      - {type: text, id: t, text: '{{.v.balance.amount}}'}\n",
			[]string{`x.yaml:6: com.example.x: home/t text: template "{{.v.balance.amount}}" fails: `, "amount"}, ""},
		{"template argument of the wrong kind", head + "      - {type: text, id: t, text: '{{initial 3}}'}\n",
			[]string{`home/t text: template "{{initial 3}}" fails: `}, ""},
		// Each of these ran without end when the file loaded (and under the phone's lock).
		{"template ranging ten billion times", head + "      - {type: text, id: t, text: '{{range 100000}}{{range 100000}}{{end}}{{end}}'}\n",
			[]string{`x.yaml:5: com.example.x: home/t text: template "{{range 100000}}`, "{{range}} is not for app templates"}, ""},
		{"template calling itself twice", head + "      - {type: text, id: t, text: '{{define \"a\"}}{{template \"a\"}}{{template \"a\"}}{{end}}{{template \"a\"}}'}\n",
			[]string{`x.yaml:5: com.example.x: home/t text: template`, "{{define}} and {{block}} are not for app templates"}, ""},
		{"template range in an if", head + "      - {type: text, id: t, text: '{{if true}}{{else}}{{with 1}}{{range 9}}{{end}}{{end}}{{end}}'}\n",
			[]string{"{{range}} is not for app templates"}, ""},
		{"nesting past the limit", deep, []string{"com.example.x/home: elements nest deeper than 128 levels"}, ""},
		{"misplaced alias", alias, []string{"cannot unmarshal"}, ""},
		{"not an app", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n", []string{"x.yaml:1: not an app"}, "root:x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, err := LoadAppDir(dir)
			if !errors.Is(err, ErrAppSpec) {
				t.Fatalf("err = %v, want ErrAppSpec", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refusing it took %s", d)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "x.yaml", filepath.Join(dir, "x.yaml")); !strings.Contains(msg, w) {
					t.Errorf("err = %q\nwant it to contain %q", msg, w)
				}
			}
			if tc.not != "" && strings.Contains(msg, tc.not) {
				t.Errorf("err = %q holds %q", msg, tc.not)
			}
			if n := strings.Count(msg, "cannot unmarshal"); n > 1 {
				t.Errorf("one mistake said %d times: %s", n, msg)
			}
		})
	}
}

// TestAppDirLinks: a link in the apps directory that leads out of it (to a system file)
// is refused without a word of that file in the error; a link to an app inside the
// directory loads.
func TestAppDirLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("root:x:0:0:SECRET-FIRST-LINE:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "evil.yaml")); err != nil {
		t.Fatal(err)
	}
	_, err := LoadAppDir(dir)
	if err == nil || strings.Contains(err.Error(), "root:x") || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "evil.yaml is a link that is not followed") {
		t.Fatalf("a link out of the apps directory: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "evil.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "app.txt"), []byte("package: com.example.linked\nscreens: [{id: a}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("app.txt", filepath.Join(dir, "linked.yaml")); err != nil {
		t.Fatal(err)
	}
	apps, err := LoadAppDir(dir)
	if err != nil || len(apps) != 1 || apps[0].Package != "com.example.linked" {
		t.Fatalf("a link inside the apps directory: %v, %v", apps, err)
	}
}

// TestAppDirFIFO: a FIFO named like an app file is refused at once; it blocked the load
// for as long as nobody wrote to it.
func TestAppDirFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadAppDir(dir); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "pipe.yaml is not a regular file") {
			t.Errorf("a FIFO app file: %v, want it refused as not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the load so the test ends: open the FIFO's other end.
		if f, err := os.OpenFile(filepath.Join(dir, "pipe.yaml"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("the load blocked on a FIFO named pipe.yaml")
	}
}
