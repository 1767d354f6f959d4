// Package chromiumtest starts headless Chromium for the tests that look at fairy's HTML
// pages the way a person's browser shows them (the run page, the evaluation report, the
// App Map viewer). Those tests belong to the full tier: under -short they are skipped;
// without Chromium they fail when CI is set and are skipped otherwise (scripts/test.sh
// installs the Debian package chromium).
package chromiumtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/fairy-go/fairy/internal/testenv"
)

// Binary returns the Chromium binary for t, or ends t as the package comment says.
func Binary(t testing.TB) string {
	t.Helper()
	testenv.MustHaveFullTier(t, "starts Chromium")
	return testenv.MustHaveProgram(t, "chromium", "chromium-browser")
}

// Run runs bin headless with a profile of its own, no network chatter and no first-run
// pages, then args (the page, --dump-dom, --screenshot=…, a window size); env is added to
// the test's environment. It returns what Chromium wrote to stdout and fails t when
// Chromium fails or takes more than 90 s.
func Run(t testing.TB, bin string, env []string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.Bytes()
}
