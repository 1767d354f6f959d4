package testenv

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// OnCI reports whether the environment variable CI is set: what a test needs must then be
// there, and its absence fails the test.
func OnCI() bool { return os.Getenv("CI") != "" }

// Missing ends tb for want of something it needs, said by format and args (what is
// missing, and how to get it): a failure under CI, a skip otherwise.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if OnCI() {
		tb.Fatalf(format, args...)
	}
	tb.Skipf(format, args...)
}

// MustHaveFullTier skips tb under -short: what it does (what: "starts the real adb", "runs
// four tasks on the virtual phone") belongs to the full tier.
func MustHaveFullTier(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("%s: full tier only (scripts/test.sh), skipped under -short", what)
	}
}

// debian names the Debian package that installs each outside program the full tier runs
// (scripts/test.sh installs them).
var debian = map[string]string{
	"adb":       "adb",
	"chromium":  "chromium",
	"dot":       "graphviz",
	"etcd":      "etcd-server",
	"git":       "git",
	"gm":        "graphicsmagick",
	"go":        "golang-go",
	"node":      "nodejs",
	"script":    "bsdutils",
	"tesseract": "tesseract-ocr",
}

// MustHaveProgram returns the path of the program name on PATH, or of the first of
// alternatives there (another name the program goes by); without it, it ends tb as Missing
// does, saying which Debian package installs it.
func MustHaveProgram(tb testing.TB, name string, alternatives ...string) string {
	tb.Helper()
	var first error
	for _, n := range append([]string{name}, alternatives...) {
		path, err := exec.LookPath(n)
		if err == nil {
			return path
		}
		first = cmp.Or(first, err)
	}
	install := "install it"
	if pkg, ok := debian[name]; ok {
		install = fmt.Sprintf("install Debian's %s package", pkg)
	}
	Missing(tb, "%s not found on PATH (%s; scripts/test.sh does): %v", name, install, first)
	return ""
}
