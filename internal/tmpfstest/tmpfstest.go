// Package tmpfstest gives a test a real, small file system: a tmpfs that fails writes with
// ENOSPC when full, like any disk, for the tests that a full disk must not make lose what
// was written. Mounting needs root on Linux (CI runs as root) and runs mount, so those tests
// belong to the full tier: under -short they are skipped; without root or mount they fail
// when CI is set and are skipped otherwise.
package tmpfstest

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// Mount mounts a tmpfs of size ("256k", "64m") on a new directory, unmounted when t ends,
// and returns the directory.
func Mount(t testing.TB, size string) string {
	t.Helper()
	testenv.MustHaveFullTier(t, "runs mount")
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		Needs(t, "root on Linux to mount a tmpfs", errors.New("not root"))
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0755", "fairy-test", dir).CombinedOutput(); err != nil {
		Needs(t, "to mount a tmpfs", errors.New(strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() { // registered after TempDir's removal, so it runs before it
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// Needs skips a test that needs something of the machine (root, a Linux device), and
// fails it under CI, where the machine must have it.
func Needs(t testing.TB, what string, err error) {
	t.Helper()
	testenv.Missing(t, "this test needs %s: %v", what, err)
}
