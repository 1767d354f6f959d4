package testenv_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/fairy-go/fairy/internal/testenv"
)

// recorder is a testing.TB that notes how a helper ended it: Skipf and Fatalf record the
// message and end the goroutine, as testing's do.
type recorder struct {
	testing.TB // methods the helpers do not call: nil, they would panic
	skipped    bool
	failed     bool
	msg        string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run runs fn with a recorder on a goroutine of its own, as testing runs a test, and says
// whether fn returned (it was neither skipped nor failed).
func run(fn func(tb testing.TB)) (r *recorder, returned bool) {
	r = &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
		returned = true
	}()
	<-done
	return r, returned
}

// TestMissingProgram: a program not on PATH skips the test on a developer's machine and
// fails it under CI, saying which Debian package installs it; one on PATH is returned, or
// the alternative name it goes by.
func TestMissingProgram(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		ci           string
		skip, failed bool
	}{
		{"", true, false},
		{"true", false, true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			t.Setenv("PATH", empty)
			r, returned := run(func(tb testing.TB) { testenv.MustHaveProgram(tb, "adb") })
			if returned || r.skipped != tc.skip || r.failed != tc.failed {
				t.Fatalf("without adb: returned %v, skipped %v, failed %v; want skipped %v, failed %v", returned, r.skipped, r.failed, tc.skip, tc.failed)
			}
			if !strings.Contains(r.msg, "adb not found on PATH (install Debian's adb package") {
				t.Errorf("message %q does not say to install the adb package", r.msg)
			}
			r, _ = run(func(tb testing.TB) { testenv.MustHaveProgram(tb, "fairy-no-such-program") })
			if !strings.Contains(r.msg, "fairy-no-such-program not found on PATH (install it;") {
				t.Errorf("message %q does not name the program", r.msg)
			}
		})
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go test runs without go on PATH: %v", err)
	}
	for _, names := range [][]string{{"go"}, {"fairy-no-such-program", "go"}} {
		var got string
		if _, returned := run(func(tb testing.TB) { got = testenv.MustHaveProgram(tb, names[0], names[1:]...) }); !returned || got != goBin {
			t.Errorf("MustHaveProgram%q = %q (returned %v), want %s", names, got, returned, goBin)
		}
	}
}

// TestMissing: what a test needs, missing, skips it locally and fails it under CI, with the
// message given; OnCI follows the variable.
func TestMissing(t *testing.T) {
	for _, ci := range []string{"", "1"} {
		t.Setenv("CI", ci)
		r, returned := run(func(tb testing.TB) { testenv.Missing(tb, "needs %s", "/dev/full") })
		if returned || r.failed != (ci != "") || r.skipped != (ci == "") || r.msg != "needs /dev/full" || testenv.OnCI() != (ci != "") {
			t.Errorf("CI=%q: returned %v, skipped %v, failed %v, message %q, OnCI %v", ci, returned, r.skipped, r.failed, r.msg, testenv.OnCI())
		}
	}
}

// TestFullTier runs this test binary again, with and without -short: under -short a test
// that needs the full tier is skipped (CI set or not), without it the test goes on.
func TestFullTier(t *testing.T) {
	if os.Getenv("FAIRY_TEST_TESTENV_CHILD") != "" {
		testenv.MustHaveFullTier(t, "starts something slow")
		fmt.Println("went on past MustHaveFullTier")
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		short bool
		ci    string
		want  string
	}{
		{true, "", "starts something slow: full tier only (scripts/test.sh), skipped under -short"},
		{true, "1", "--- SKIP: TestFullTier"},
		{false, "", "went on past MustHaveFullTier"},
		{false, "1", "went on past MustHaveFullTier"},
	} {
		cmd := exec.CommandContext(t.Context(), self, "-test.run=^TestFullTier$", "-test.v", fmt.Sprintf("-test.short=%v", tc.short))
		cmd.Env = append(os.Environ(), "FAIRY_TEST_TESTENV_CHILD=1", "CI="+tc.ci)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.want) || tc.short == strings.Contains(string(out), "went on") {
			t.Errorf("-short=%v CI=%q: %v, output:\n%s\nwant %q", tc.short, tc.ci, err, out, tc.want)
		}
	}
}
