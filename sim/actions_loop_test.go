package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScreensOpeningEachOther: two screens whose on_enter open each other ended the
// whole process with a fatal stack overflow when the app started (no recover catches
// it). The phone stops at maxActionDepth and keeps serving.
func TestScreensOpeningEachOther(t *testing.T) {
	dir := t.TempDir()
	app := "package: com.example.loop\nlabel: Loop\nactivity: .Main\nstart: a\nscreens:\n" +
		"  - id: a\n    on_enter: [{go: b}]\n  - id: b\n    on_enter: [{go: a}]\n"
	if err := os.WriteFile(filepath.Join(dir, "loop.yaml"), []byte(app), 0o600); err != nil {
		t.Fatal(err)
	}
	extra, err := LoadAppDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, err := DefaultApps()
	if err != nil {
		t.Fatal(err)
	}
	all, err := MergeApps(base, extra)
	if err != nil {
		t.Fatal(err)
	}
	p := newPhone(t, func(c *Config) { c.Apps = all })
	if out, st := sh(t, p, "am start -n com.example.loop/.Main"); st != 0 {
		t.Fatalf("am start: %d %q", st, out)
	}
	if out, _ := sh(t, p, "dumpsys activity activities"); !strings.Contains(out, "com.example.loop") {
		t.Errorf("the app is not in front:\n%.400s", out)
	}
	if out, st := sh(t, p, "echo still here"); st != 0 || out != "still here\n" {
		t.Errorf("the phone after the loop: %d %q", st, out)
	}
}
